#!/bin/bash
# A/B: the jar before (bench-old.jar, 21bdb76) and after (bench-new.jar) a copying slot gives its
# storage back when its last pending timer leaves; two alternating rounds, one fork each.
set -e
out=$(dirname "$0")
for round in 1 2; do
  for jar in old new; do
    java -jar /tmp/bench-$jar.jar 'timer.ScheduleCancelBenchmark' -p subject=WHEEL_RING,WHEEL_LINKED_ARRAY \
      -p cancel=NEWEST,RANDOM_LIVE,RESCHEDULE -p live=256,4096 -f 1 -wi 2 -w 500ms -i 3 -r 500ms \
      -rf json -rff $out/w3-$jar-$round.json > $out/w3-$jar-$round.txt
    java -jar /tmp/bench-$jar.jar 'timer.MixedLoopBenchmark' -p subject=WHEEL_RING,WHEEL_LINKED_ARRAY \
      -p rearm=RESCHEDULE -p live=256,4096 -f 1 -wi 2 -w 500ms -i 3 -r 500ms \
      -rf json -rff $out/w4-$jar-$round.json > $out/w4-$jar-$round.txt
  done
done
# then, 3 forks per jar and round (w3f3-*.json):
# for r in 1 2; do for jar in old new; do java -jar /tmp/bench-$jar.jar 'timer.ScheduleCancelBenchmark' \
#   -p subject=WHEEL_RING,WHEEL_LINKED_ARRAY,WHEEL_LIST -p cancel=NEWEST,RANDOM_LIVE -p live=256 -f 3 -wi 2 -w 500ms \
#   -i 3 -r 500ms -rf json -rff w3f3-$jar-$r.json; done; done
# summaries: python3 summarize.py [first-try]
