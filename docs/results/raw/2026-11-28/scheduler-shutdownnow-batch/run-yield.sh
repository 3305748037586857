#!/usr/bin/env bash
# yield again, 3 more rounds (its third round above read 0.64)
# The run loop before (base, the jar of fbaefd8) and after it reads the scheduler's state before

# alternating the jars, JDK 17, one loop and two free loops.
set -u
O="-f 1 -wi 2 -w 1s -i 3 -r 1s"
for r in 4 5 6; do
  for j in base new; do
    java -jar /work/base/sched$j/benchmarks.jar 'scheduler.KilimSwitchBenchmark.(yield)$' -p scheduler=tickwork-wheel-list \
      -p threads=1 -p placement=placed $O -rf json -rff switch-$j-$r.json > switch-$j-$r.txt 2>&1
  done
done
