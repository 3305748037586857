#!/usr/bin/env bash
# The directories' answer from its lower bound: a branch (BASE, the jar of 6e26a3f) against a
# branch-free select (NEW); 2 rounds alternating the jars, JDK 17. OUT = output folder.
set -u
O="-f 1 -wi 2 -w 500ms -i 3 -r 500ms"
for r in 1 2; do
  for j in base new; do
    jar=$BASE; [ $j = new ] && jar=$NEW
    java -jar $jar 'search.IntSearchBatchBenchmark' -p n=2000,200000 -p dist=UNIFORM,LOG_UNIFORM,CLUSTERED \
      -p impl=AUTO -p batch=1,256 $O -rf json -rff $OUT/batch-$j-$r.json > $OUT/batch-$j-$r.txt 2>&1
    java -jar $jar 'search.IntSearchBenchmark.(lookup|chained)$' -p n=2000,200000 -p dist=UNIFORM,LOG_UNIFORM,CLUSTERED \
      -p impl=AUTO $O -rf json -rff $OUT/single-$j-$r.json > $OUT/single-$j-$r.txt 2>&1
  done
done
