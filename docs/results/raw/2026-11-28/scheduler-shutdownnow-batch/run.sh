#!/usr/bin/env bash
# The run loop before (base, the jar of fbaefd8) and after it reads the scheduler's state before
# each slice of a batch and each hand-off (new, so shutdownNow stops a running batch); 3 rounds
# alternating the jars, JDK 17, one loop and two free loops.
set -u
O="-f 1 -wi 2 -w 1s -i 3 -r 1s"
for r in 1 2 3; do
  for j in base new; do
    java -jar /work/base/sched$j/benchmarks.jar 'scheduler.KilimSwitchBenchmark.(yield|pingPong)$' -p scheduler=tickwork-wheel-list \
      -p threads=1 -p placement=placed $O -rf json -rff switch-$j-$r.json > switch-$j-$r.txt 2>&1
  done
done
