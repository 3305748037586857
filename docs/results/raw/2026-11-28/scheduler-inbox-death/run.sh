#!/usr/bin/env bash
# The run loop before (base, the jar of 1b9e153) and after its inbox drain catches a failure to
# place what it took (new); the two-thread "free" rows, where wake-ups cross the inbox; 3 rounds
# alternating the jars, JDK 17.
set -u
O="-f 1 -wi 2 -w 1s -i 3 -r 1s"
for r in 1 2 3; do
  for j in base new; do
    java -jar /work/base/sched$j/benchmarks.jar 'scheduler.KilimSwitchBenchmark.(yield|pingPong)$' -p scheduler=tickwork-wheel-list \
      -p threads=2 -p placement=free $O -rf json -rff switch-$j-$r.json > switch-$j-$r.txt 2>&1
  done
done
