#!/bin/bash
# A/B: the wheels' expire before (old) and after (new) the work bound, 2 rounds alternating.
# old = jar of the commit before, new = jar of the change; JDK 17, nothing else running.
set -e
O="-f 1 -wi 2 -w 500ms -i 3 -r 500ms"
for round in 1 2; do
  for v in old new; do
    [ $round = 2 ] && v=$([ $v = old ] && echo new || echo old)
    java -jar /tmp/bench-$v.jar 'timer.SteadyStateBenchmark' -p subject=WHEEL_LIST,WHEEL_RING \
      -p timersPerTick=1,16 -p rearm=AHEAD_256 $O -rf json -rff steady-$v-$round.json > steady-$v-$round.txt
    java -jar /tmp/bench-$v.jar 'timer.ScheduleExpireBenchmark' -p subject=WHEEL_LIST,WHEEL_LINKED_ARRAY \
      -p timersPerTick=16 $O -rf json -rff w1-$v-$round.json > w1-$v-$round.txt
  done
done
