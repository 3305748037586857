#!/usr/bin/env python3
"""Prints the README's scheduler rows from this run's JSON: M ops/s, median of every measured
iteration (3 forks x 3), with JMH's score +- error, and each row's ratio of medians against the
best peer and the verdict (won/lost only when the error intervals are apart)."""
import glob, json, os, statistics, sys

here = os.path.dirname(os.path.abspath(__file__))
cells = {}
for f in sorted(glob.glob(os.path.join(here, '*.json'))):
    jdk = f.rsplit('-', 1)[1][:-5]
    if os.path.getsize(f) == 0:
        continue
    for r in json.load(open(f)):
        bench = r['benchmark'].rsplit('.', 2)
        cls, method = bench[-2], bench[-1]
        p = r.get('params', {})
        if cls.startswith('VirtualThread'):
            who = 'virtual threads'
            threads = '1' if 'OneCarrier' in cls else '2'
            placement = 'placed' if threads == '1' else 'free'
            method = {'queuePingPong': 'pingPong', 'parkPingPong': 'turnPingPong',
                      'sleepExpirations': 'sleepExpirations', 'yield': 'yield'}[method]
        else:
            who = p['scheduler']
            threads = p['threads']
            placement = p['placement']
        raw = [x for fork in r['primaryMetric']['rawData'] for x in fork]
        m = r['primaryMetric']
        cells[(jdk, method, threads, placement, who)] = (statistics.median(raw) / 1e6,
                                                          m['score'] / 1e6, m['scoreError'] / 1e6)

rows = [('yield', '1', 'placed'), ('yield', '2', 'placed'), ('yield', '2', 'free'),
        ('pingPong', '1', 'placed'), ('turnPingPong', '1', 'placed'),
        ('pingPong', '2', 'placed'), ('pingPong', '2', 'free'), ('pingPong', '2', 'shuffled'),
        ('turnPingPong', '2', 'placed'), ('turnPingPong', '2', 'free'), ('turnPingPong', '2', 'shuffled'),
        ('sleepExpirations', '1', 'placed'), ('sleepExpirations', '2', 'placed'), ('sleepExpirations', '2', 'free')]
peers = ['kilim-affine', 'kilim-forkjoin', 'virtual threads']
for jdk in ('17', '25'):
    print(f'JDK {jdk}')
    for method, threads, placement in rows:
        ours = cells.get((jdk, method, threads, placement, 'tickwork-wheel-list'))
        if ours is None:
            continue
        line = f'  {method:16} {threads} {placement:8} tickwork {ours[0]:6.2f} ({ours[1]:.2f} +- {ours[2]:.2f})'
        best = None
        for peer in peers:
            c = cells.get((jdk, method, threads, placement, peer))
            if c is None and peer == 'virtual threads' and placement == 'placed' and threads == '2':
                c = cells.get((jdk, method, threads, 'free', peer))
            if c is None:
                continue
            line += f' | {peer} {c[0]:6.2f} ({c[1]:.2f} +- {c[2]:.2f})'
            if best is None or c[0] > best[1][0]:
                best = (peer, c)
        if best:
            ratio = ours[0] / best[1][0]
            apart = ours[1] - ours[2] > best[1][1] + best[1][2] or ours[1] + ours[2] < best[1][1] - best[1][2]
            verdict = ('won' if ratio > 1 else 'lost') if apart else 'level'
            line += f' || {ratio:.2f} {verdict} vs {best[0]}'
        print(line)
