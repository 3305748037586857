#!/usr/bin/env bash
# The run loop before (base, the jar of f200c40) and after a fired timer's task is
# checked against shutdownNow and a pending sleep is cleared only once queued (new); the sleep rows,
# one loop; 3 rounds alternating the jars, JDK 17.
set -u
O="-f 1 -wi 2 -w 1s -i 3 -r 1s"
for r in 1 2 3; do
  for j in base new; do
    java -jar /work/base/sched$j/benchmarks.jar 'scheduler.KilimTimerBenchmark.sleepExpirations' -p scheduler=tickwork-wheel-list \
      -p threads=1 -p placement=placed -p sleepCall=Task.sleep,TaskSleep $O -rf json -rff sleep-$j-$r.json > sleep-$j-$r.txt 2>&1
  done
done
