#!/bin/bash
# The README's W3 and W4 rows and W2's re-armed-256-ahead cells at 1 and 16 per tick, JDK 17 then Temurin 25, 3 forks.
set -e
J=${JAR:-benchmarks.jar}
O="-f 3 -wi 2 -w 500ms -i 3 -r 500ms -prof gc"
for jdk in /usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/temurin-25-jdk-amd64; do
  n=$(basename $jdk)
  $jdk/bin/java -jar $J timer.ScheduleCancelBenchmark -p cancel=NEWEST,RANDOM_LIVE \
    -p subject=WHEEL_LIST,WHEEL_RING,WHEEL_LINKED_ARRAY,RB_TREE,AGRONA,KAFKA $O -rf json -rff $OUT/w3-$n.json > $OUT/w3-$n.txt 2>&1
  $jdk/bin/java -jar $J timer.MixedLoopBenchmark \
    -p subject=WHEEL_LIST,WHEEL_RING,WHEEL_LINKED_ARRAY,RB_TREE,AGRONA,KAFKA $O -rf json -rff $OUT/w4-$n.json > $OUT/w4-$n.txt 2>&1
  $jdk/bin/java -jar $J timer.SteadyStateBenchmark -p rearm=AHEAD_256 -p timersPerTick=1,16 \
    -p subject=WHEEL_LIST,WHEEL_RING,WHEEL_LINKED_ARRAY,AGRONA,AGRONA_POLL_ONCE $O -rf json -rff $OUT/w2-$n.json > $OUT/w2-$n.txt 2>&1
done
