#!/bin/bash
# W4 (server loop): each wheel's reschedule against its own cancel plus schedule, JDK 17 then Temurin 25.
set -e
J=${JAR:-benchmarks.jar}
OUT=${OUT:-.}
for jdk in /usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/temurin-25-jdk-amd64; do
  n=$(basename $jdk)
  $jdk/bin/java -jar $J timer.MixedLoopBenchmark \
    -p subject=WHEEL_LIST,WHEEL_RING,WHEEL_LINKED_ARRAY -p rearm=RESCHEDULE,CANCEL_SCHEDULE \
    -f 3 -wi 2 -w 500ms -i 3 -r 500ms -prof gc -rf json -rff $OUT/$n.json > $OUT/$n.txt 2>&1
done
