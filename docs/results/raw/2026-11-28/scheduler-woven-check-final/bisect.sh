#!/bin/bash
# The mailbox row's 4 %: the jar of 1c1b6c9 (the check as kept, before the benchmark's pairing
# changes and this day's loop changes) beside the two ends, 2 rounds, mailbox row only.
set -e
O="-p scheduler=tickwork-wheel-list -p threads=1 -p placement=placed -f 1 -wi 2 -w 1s -i 3 -r 1s"
B='scheduler.KilimSwitchBenchmark.pingPong$'
for round in 1 2; do
  if [ $round = 1 ]; then order="prewoven mid final"; else order="final mid prewoven"; fi
  for v in $order; do
    java -jar /tmp/bench-$v.jar "$B" $O -rf json -rff bisect-$v-$round.json > bisect-$v-$round.txt
  done
done
