#!/usr/bin/env bash
# The run loop before (BASE, the jar of 6e26a3f's scheduler) and after the interrupt clear moved
# before each slice and the own-thread submit learned to check "leaving" (NEW); 2 rounds
# alternating the jars, JDK 17, one loop. OUT = output folder.
set -u
O="-f 1 -wi 2 -w 1s -i 3 -r 1s"
for r in 1 2; do
  for j in base new; do
    jar=$BASE; [ $j = new ] && jar=$NEW
    java -jar $jar 'scheduler.KilimSwitchBenchmark.(yield|pingPong)$' -p scheduler=tickwork-wheel-list \
      -p threads=1 -p placement=placed $O -rf json -rff $OUT/switch-$j-$r.json > $OUT/switch-$j-$r.txt 2>&1
  done
done
