#!/bin/bash
# The list at 16 per tick again, 3 more rounds alternating (order swapped each round): the jar of
# the commit before the work bound (old) and the jar of the final code (new2: the budget a long).
set -e
O="-f 1 -wi 2 -w 500ms -i 3 -r 500ms"
for round in 3 4 5; do
  if [ $((round % 2)) = 1 ]; then order="old new2"; else order="new2 old"; fi
  for v in $order; do
    java -jar /tmp/bench-$v.jar 'timer.SteadyStateBenchmark' -p subject=WHEEL_LIST \
      -p timersPerTick=1,16 -p rearm=AHEAD_256 $O -rf json -rff rerun-$v-$round.json > rerun-$v-$round.txt
  done
done
