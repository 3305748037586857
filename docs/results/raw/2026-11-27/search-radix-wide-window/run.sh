#!/bin/bash
# A/B: RADIX_DIRECTORY with n/8 buckets and a 32-key window (wide) against n/2 buckets and an 8-key window (743f917)
cd /work/ab/wide
O="-f 1 -wi 2 -w 500ms -i 3 -r 500ms"
P="-p n=200000,2000000 -p dist=UNIFORM"
for r in 1 2 3 4; do
  if [ $((r%2)) = 1 ]; then L="743f917 wide"; else L="wide 743f917"; fi
  for j in $L; do
    flock -x /work/.bench.lock java -jar /work/base/benchmarks-$j.jar 'IntSearchBenchmark.(lookup|chained)$' $P -p impl=RADIX_DIRECTORY $O -rf json -rff $j-r$r.json > $j-r$r.log 2>&1
  done
  flock -x /work/.bench.lock java -jar /work/base/benchmarks-743f917.jar 'IntSearchBenchmark.(lookup|chained)$' $P -p impl=FASTUTIL_OPEN_HASH_MAP $O -rf json -rff fastutil-r$r.json > fastutil-r$r.log 2>&1
done
touch DONE
