#!/bin/bash
# WHEEL_LIST with next/prev interleaved in one array (links) against two arrays (17cf133)
cd /work/ab/links
O="-f 1 -wi 2 -w 500ms -i 3 -r 500ms -p subject=WHEEL_LIST"
for r in 1 2 3; do
  if [ $((r%2)) = 1 ]; then L="17cf133 links"; else L="links 17cf133"; fi
  for j in $L; do
    flock -x /work/.bench.lock java -jar /work/base/benchmarks-$j.jar 'timer.(SteadyStateBenchmark|ScheduleExpireBenchmark|MixedLoopBenchmark)' -p timersPerTick=1,16,256 $O -rf json -rff $j-r$r.json > $j-r$r.log 2>&1
  done
done
touch DONE
