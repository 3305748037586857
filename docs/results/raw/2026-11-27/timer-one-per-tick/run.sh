#!/bin/bash
# the timer suite's one-per-tick cells after the scan change: W1, W2 both re-arms; JDK 17 and Temurin 25
cd /work/ab/t1
JAR=/work/base/benchmarks-17cf133.jar
O="-f 3 -wi 2 -w 500ms -i 3 -r 500ms -prof gc -p timersPerTick=1"
S=WHEEL_LIST,WHEEL_LINKED_ARRAY,AGRONA_POLL_ONCE
for J in java /usr/lib/jvm/temurin-25-jdk-amd64/bin/java; do
  T=$([ $J = java ] && echo jdk17 || echo jdk25)
  flock -x /work/.bench.lock $J -jar $JAR 'timer.(ScheduleExpireBenchmark|SteadyStateBenchmark)' -p subject=$S $O -rf json -rff $T.json > $T.log 2>&1
done
touch DONE
