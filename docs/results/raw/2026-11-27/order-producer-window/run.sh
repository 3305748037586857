#!/bin/bash
# A/B/C: twoProducers K=1,64 keyed, three jars, rotating order
cd /work/ab/hoist
O="-f 2 -wi 2 -w 500ms -i 3 -r 500ms"
for r in 1 2 3 4 5 6; do
  case $((r%3)) in 0) L="743f917 hoist noseq";; 1) L="hoist noseq 743f917";; 2) L="noseq 743f917 hoist";; esac
  for j in $L; do
    flock -x /work/.bench.lock java -cp /work/base/benchmarks-$j.jar org.openjdk.jmh.Main 'OrderedExecutionBenchmark.twoProducers' -p keys=1,64 -p variant=keyed -p background=none $O -rf json -rff $j-r$r.json > $j-r$r.log 2>&1
  done
done
echo done > DONE
