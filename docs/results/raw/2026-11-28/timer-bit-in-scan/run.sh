#!/bin/bash
# The bit cleared by the scan after drain (trial) against inside each drain (base, c777b99), 3 alternating rounds, JDK 17.
O="-f 1 -wi 2 -w 500ms -i 3 -r 500ms -p subject=WHEEL_LIST,WHEEL_LINKED_ARRAY,WHEEL_RING"
for r in 1 2 3; do
  for j in base trial; do
    [ $r = 2 ] && j=$([ $j = base ] && echo trial || echo base)
    java -jar $j.jar timer.SteadyStateBenchmark -p rearm=AHEAD_256,SPREAD -p timersPerTick=1,16 $O -rf json -rff $OUT/w2-$j-$r.json > $OUT/w2-$j-$r.txt 2>&1
    java -jar $j.jar timer.ScheduleExpireBenchmark -p timersPerTick=1,16 $O -rf json -rff $OUT/w1-$j-$r.json > $OUT/w1-$j-$r.txt 2>&1
  done
done
