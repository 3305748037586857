#!/bin/bash
# The handle check bounded by the generation array's length, and the handle read before placing (trial) against b3c2471 (base), 3 alternating rounds, JDK 17.
O="-f 1 -wi 2 -w 500ms -i 3 -r 500ms -p subject=WHEEL_LIST,WHEEL_LINKED_ARRAY"
for r in 1 2 3; do
  for j in base trial; do
    [ $r = 2 ] && j=$([ $j = base ] && echo trial || echo base)
    java -jar $j.jar timer.ScheduleCancelBenchmark -p cancel=RANDOM_LIVE,NEWEST -p live=256,4096 $O -rf json -rff $OUT/w3-$j-$r.json > $OUT/w3-$j-$r.txt 2>&1
    java -jar $j.jar timer.SteadyStateBenchmark -p rearm=AHEAD_256 -p timersPerTick=1,16 $O -rf json -rff $OUT/w2-$j-$r.json > $OUT/w2-$j-$r.txt 2>&1
    java -jar $j.jar timer.ScheduleExpireBenchmark -p timersPerTick=1,16 $O -rf json -rff $OUT/w1-$j-$r.json > $OUT/w1-$j-$r.txt 2>&1
  done
done
