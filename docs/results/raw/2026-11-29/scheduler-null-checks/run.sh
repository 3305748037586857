#!/bin/bash
# A/B of the scheduler's switch path: jars of 7a0f071 (old) and of the start/null-check change (new)
O="-f 2 -wi 2 -w 1s -i 3 -r 1s -p scheduler=tickwork-wheel-list -p threads=1 -p placement=placed -jvmArgsAppend -Xms2g -jvmArgsAppend -Xmx2g"
for round in 1 2; do
  for side in old new; do
    java -jar /tmp/bench-$side.jar 'scheduler.KilimSwitchBenchmark.(yield|pingPong)$' $O -rf json -rff $side-$round.json > $side-$round.txt 2>&1
  done
done
