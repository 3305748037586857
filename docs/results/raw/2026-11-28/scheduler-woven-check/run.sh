#!/usr/bin/env bash
# The woven check at task start: jars before (f9eef64) and after, alternating rounds.
set -euo pipefail
D=$(dirname "$0")
B='scheduler.KilimSwitchBenchmark.(pingPong|turnPingPong|yield)$'
O="-p scheduler=tickwork-wheel-list -p threads=1 -p placement=placed -f 1 -wi 2 -w 1s -i 3 -r 1s"
for round in 1 2; do
  for side in old new; do
    java -jar /tmp/sched-$side.jar "$B" $O -rf json -rff $D/$side-$round.json > $D/$side-$round.txt 2>&1
  done
done
