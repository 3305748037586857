#!/bin/bash
# A/B: WHEEL_LIST / LINKED_ARRAY W2 AHEAD_256 and SPREAD at 1 and 16 per tick, alternating jars
cd /work/ab/scan
O="-f 1 -wi 2 -w 500ms -i 3 -r 500ms"
for r in 1 2 3 4; do
  if [ $((r%2)) = 1 ]; then L="743f917 scanbreak"; else L="scanbreak 743f917"; fi
  for j in $L; do
    flock -x /work/.bench.lock java -jar /work/base/benchmarks-$j.jar 'timer.SteadyStateBenchmark' -p subject=WHEEL_LIST,WHEEL_LINKED_ARRAY -p timersPerTick=1,16 $O -rf json -rff $j-r$r.json > $j-r$r.log 2>&1
  done
done
touch DONE
