#!/usr/bin/env bash
# Ordered execution on a ForkJoinPool(2) before (base, the jar of 7ab8813) and after
# the worker's ticket is a ForkJoinTask and the hand-off skips its own dispatcher's fresh helpers
# (new); the cell that moved most (64 keys, a CPU-bound job sharing the pool), 3 more rounds.
set -u
O="-f 1 -wi 2 -w 500ms -i 3 -r 500ms"
for r in 4 5 6; do
  for j in base new; do
    java -jar /work/base/order$j/benchmarks.jar 'order.OrderedExecutionBenchmark.oneProducer' -p variant=keyed \
      -p keys=64 -p pool=forkJoin2 -p background=cpuJob $O -rf json -rff fj-$j-$r.json > fj-$j-$r.txt 2>&1
  done
done
