#!/bin/bash
# A/B: the jar of 508059a (old) against HEAD (new), alternating, one benchmark at a time
set -u
OUT=/tmp/ab-$(date +%H%M)
mkdir -p $OUT
for round in 1 2; do
  for jar in old new; do
    java -jar /tmp/bench-$jar.jar 'ScheduleCancelBenchmark.scheduleAndCancel' -p subject=WHEEL_LIST,RB_TREE -p cancel=NEWEST -p live=256 \
      -f 1 -wi 2 -w 500ms -i 3 -r 500ms -rf json -rff $OUT/timer-$jar-$round.json > $OUT/timer-$jar-$round.log 2>&1
    java -jar /tmp/bench-$jar.jar 'KilimSwitchBenchmark\.(yield|pingPong)$' -p scheduler=tickwork-wheel-list -p threads=1,2 -p placement=free \
      -f 1 -wi 2 -w 500ms -i 3 -r 500ms -rf json -rff $OUT/sched-$jar-$round.json > $OUT/sched-$jar-$round.log 2>&1
  done
done
echo done > $OUT/DONE
