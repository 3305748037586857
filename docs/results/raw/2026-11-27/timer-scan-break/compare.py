import json,glob,statistics as st,collections,sys
A,B=sys.argv[1],sys.argv[2]
d=collections.defaultdict(list);rounds=collections.defaultdict(dict)
for f in glob.glob('*-r*.json'):
    j,r=f[:-5].rsplit('-r',1)
    for b in json.load(open(f)):
        p=b['params']; key=tuple(sorted((k,v) for k,v in p.items()))
        raw=[x for fk in b['primaryMetric']['rawData'] for x in fk]
        d[(j,key)]+=raw; rounds[key].setdefault(r,{})[j]=st.median(raw)
for key in sorted(rounds):
    a=st.median(d[(A,key)]); b=st.median(d[(B,key)])
    rr=[rounds[key][r][B]/rounds[key][r][A] for r in rounds[key] if A in rounds[key][r] and B in rounds[key][r]]
    print(' '.join(v for k,v in key), f"{a:12.4g} {b:12.4g} {b/a:.3f} rounds {' '.join(f'{x:.2f}' for x in sorted(rr))}")
