#!/usr/bin/env bash
# Ordered execution on a ForkJoinPool(2) before (base, the jar of 7ab8813) and after
# the worker's ticket is a ForkJoinTask and the hand-off skips its own dispatcher's fresh helpers
# (new); with and without a CPU-bound job sharing the pool; 3 rounds alternating the jars, JDK 17.
set -u
O="-f 1 -wi 2 -w 500ms -i 3 -r 500ms"
for r in 1 2 3; do
  for j in base new; do
    java -jar /work/base/order$j/benchmarks.jar 'order.OrderedExecutionBenchmark.oneProducer' -p variant=keyed \
      -p keys=1,64,100000 -p pool=forkJoin2 -p background=none,cpuJob $O -rf json -rff fj-$j-$r.json > fj-$j-$r.txt 2>&1
  done
done
