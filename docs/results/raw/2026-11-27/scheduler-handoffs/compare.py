import json,glob,statistics as st,collections
d=collections.defaultdict(list); r=collections.defaultdict(dict)
for f in glob.glob('*.json'):
    j=f.split('-')[0]; rr=f[:-5].split('-r')[-1]
    for b in json.load(open(f)):
        p=b['params']; raw=[x for fk in b['primaryMetric']['rawData'] for x in fk]
        k=(b['benchmark'].split('.')[-1],p['threads'],p['placement'])
        d[(j,)+k]+=raw; r[k][(j,rr)]=st.median(raw)
for k in sorted(r):
    base=st.median(d[('743f917',)+k]) if d[('743f917',)+k] else None
    if not base: 
        print(k,'forkjoin',round(st.median(d[('forkjoin',)+k])/1e6,2)); continue
    s=f"{k} h4 {base/1e6:.2f}"
    for j in ['h16','h64']:
        m=st.median(d[(j,)+k]); rr=[r[k][(j,x)]/r[k][('743f917',x)] for x in '123']
        s+=f" | {j} {m/1e6:.2f} {m/base:.2f} ({' '.join(f'{x:.2f}' for x in rr)})"
    if d[('forkjoin',)+k]: s+=f" | FJ {st.median(d[('forkjoin',)+k])/1e6:.2f}"
    print(s)
