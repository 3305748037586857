#!/bin/bash
# The turn row's 0.93 after the woven check, again: the jar before the check (f9eef64) against the
# final code's jar (the check a ClassValue lookup only), 3 rounds alternating, JDK 17, one loop.
set -e
O="-p scheduler=tickwork-wheel-list -p threads=1 -p placement=placed -f 1 -wi 2 -w 1s -i 3 -r 1s"
B='scheduler.KilimSwitchBenchmark.(pingPong|turnPingPong)$'
for round in 1 2 3; do
  if [ $((round % 2)) = 1 ]; then order="prewoven final"; else order="final prewoven"; fi
  for v in $order; do
    java -jar /tmp/bench-$v.jar "$B" $O -rf json -rff $v-$round.json > $v-$round.txt
  done
done
