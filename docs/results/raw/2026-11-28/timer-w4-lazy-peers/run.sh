#!/usr/bin/env bash
# W4 with every side's re-arm modes: ours reschedule or a lazy field, peers cancel + schedule or a
# lazy field. OpenJDK 17 then Temurin 25, G1.
set -euo pipefail
J=${JAR:-jmh/target/benchmarks.jar}
D=$(dirname "$0")
O="-p live=256,4096,65536 -f 2 -wi 2 -w 500ms -i 3 -r 500ms -prof gc"
for jdk in 17 25; do
  java=java; [ $jdk = 25 ] && java=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
  $java -jar $J 'timer.MixedLoopBenchmark' -p subject=WHEEL_LIST,WHEEL_RING,WHEEL_LINKED_ARRAY \
    -p rearm=RESCHEDULE,LAZY_FIELD $O -rf json -rff $D/ours-jdk$jdk.json
  $java -jar $J 'timer.MixedLoopBenchmark' -p subject=AGRONA,AGRONA_POLL_ONCE,KAFKA \
    -p rearm=CANCEL_SCHEDULE,LAZY_FIELD $O -rf json -rff $D/peers-jdk$jdk.json
done
