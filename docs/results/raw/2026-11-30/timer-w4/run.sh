#!/usr/bin/env bash
# The README's W4 row, every peer, 3 forks, one run per JDK: the jar of 6252898 (each side's
# timers kept as its users keep them; lazy re-arms with add), copied to /tmp/tb-w4; nothing else
# running. RESCHEDULE is the peers' cancel plus schedule.
set -u
JAR=/tmp/tb-w4/benchmarks.jar
OUT="$(cd "$(dirname "$0")" && pwd)"
O="-f 3 -wi 2 -w 500ms -i 3 -r 500ms -prof gc"
for jdk in 17 25; do
  if [ $jdk = 17 ]; then J=java; else J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java; fi
  "$J" -jar $JAR 'timer.MixedLoopBenchmark' -p rearm=RESCHEDULE,LAZY_FIELD -p live=256,4096,65536 \
    -p subject=WHEEL_LIST,WHEEL_RING,WHEEL_LINKED_ARRAY,AGRONA,AGRONA_POLL_ONCE,KAFKA_1024,TREE_MAP_BUCKETED \
    $O -rf json -rff "$OUT/w4-jdk$jdk.json" > "$OUT/w4-jdk$jdk.log" 2>&1
done
echo done > "$OUT/finished"
