#!/bin/bash
# The TreeMap peer's expiry, two descents per timer (before: firstKey, then pollFirstEntry) against
# one (after: pollFirstEntry, the first not due put back once per call); W1, JDK 17, 2 rounds.
set -e
O="-p subject=TREE_MAP,RB_TREE -p timersPerTick=1,16,256,4096 -f 1 -wi 2 -w 500ms -i 3 -r 500ms"
for round in 1 2; do
  if [ $round = 1 ]; then order="before after"; else order="after before"; fi
  for v in $order; do
    jar=/tmp/bench-new2.jar; [ $v = after ] && jar=/tmp/bench-tm.jar
    java -jar $jar 'timer.ScheduleExpireBenchmark' $O -rf json -rff $v-$round.json > $v-$round.txt
  done
done
