#!/usr/bin/env bash
# Ordered execution before (base, the jar of cd4ba2a) and after a worker is kept in reserve and
# refilled before a key becomes busy (new): one producer, keys 1, 64 and 100,000, both pools;
# 3 rounds alternating the jars, JDK 17.
set -u
O="-f 1 -wi 2 -w 500ms -i 3 -r 500ms"
for r in 1 2 3; do
  for j in base new; do
    java -jar /work/base/reserve$j/benchmarks.jar 'order.OrderedExecutionBenchmark.oneProducer' -p variant=keyed \
      -p keys=1,64,100000 -p pool=threadPool2,forkJoin2 -p background=none $O -rf json -rff r-$j-$r.json > r-$j-$r.txt 2>&1
  done
done
