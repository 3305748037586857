import json,glob,statistics as st,sys
d=sys.argv[1] if len(sys.argv)>1 else '.'
rows={}
for f in sorted(glob.glob(d+'/w*.json')):
    w,jar,rnd=f.split('/')[-1][:-5].split('-')
    for b in json.load(open(f)):
        p=b['params']; key=(w,p.get('cancel',p.get('rearm')),p['live'],p['subject'])
        rows.setdefault(key,{}).setdefault(jar,[]).append(st.median(b['primaryMetric']['rawData'][0]))
        rows[key].setdefault(jar+'_all',[]).extend(b['primaryMetric']['rawData'][0])
for k,v in sorted(rows.items()):
    o=st.median(v['old_all'])/1e6; n=st.median(v['new_all'])/1e6
    print('%s %-11s %5s %-18s before %6.1f after %6.1f ratio %.2f rounds %s' % (k+(o,n,n/o,', '.join('%.2f'%(a/b) for a,b in zip(v['new'],v['old'])))))
