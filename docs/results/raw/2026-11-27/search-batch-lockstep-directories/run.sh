#!/bin/bash
# A/B: directory batches in lockstep (lockdir) against the loop (743f917); fastutil's loop once per round
cd /work/ab/batch
O="-f 1 -wi 2 -w 500ms -i 3 -r 500ms"
P="-p n=200000,2000000 -p dist=UNIFORM,LOG_UNIFORM,CLUSTERED"
for r in 1 2 3; do
  if [ $((r%2)) = 1 ]; then L="743f917 lockdir"; else L="lockdir 743f917"; fi
  for j in $L; do
    flock -x /work/.bench.lock java -jar /work/base/benchmarks-$j.jar 'IntSearchBatchBenchmark' $P -p impl=AUTO -p batch=1,16,256,4096 $O -rf json -rff $j-r$r.json > $j-r$r.log 2>&1
  done
  flock -x /work/.bench.lock java -jar /work/base/benchmarks-743f917.jar 'IntSearchBatchBenchmark' $P -p impl=FASTUTIL_OPEN_HASH_MAP -p batch=4096 $O -rf json -rff fastutil-r$r.json > fastutil-r$r.log 2>&1
done
touch DONE
