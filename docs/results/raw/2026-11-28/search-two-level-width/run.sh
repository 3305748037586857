#!/usr/bin/env bash
# The two-level directory's slot width when no width thins a bucket to 8 keys: the narrowest
# allowed (BASE, the jar of b61bc09) against the widest with the smallest fullest slot (NEW);
# 2 rounds alternating the jars, JDK 17. OUT = output folder.
set -u
O="-f 1 -wi 2 -w 500ms -i 3 -r 500ms"
for r in 1 2; do
  for j in base new; do
    jar=$BASE; [ $j = new ] && jar=$NEW
    java -jar $jar 'search.IntSearchBenchmark.lookup$' -p n=200000,2000000 -p dist=LOG_UNIFORM,CLUSTERED \
      -p impl=TWO_LEVEL_RADIX_DIRECTORY $O -rf json -rff $OUT/single-$j-$r.json > $OUT/single-$j-$r.txt 2>&1
  done
done
