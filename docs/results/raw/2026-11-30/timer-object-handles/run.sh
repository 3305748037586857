#!/usr/bin/env bash
# The README's timer rows with every peer, one run per JDK, the peers whose timers are objects
# held by reference (jar of 4628b9b; W1 and W2 on OpenJDK 17 ran on the jar of 2c688e1, whose
# W1 and W2 are the same code). Jar copied to /tmp/tb-new before the run; nothing else running
# (the benchmark lock held). JDKS picks the JDKs, PARTS the workloads (w1 w2 w3).
set -u
JAR=/tmp/tb-new/benchmarks.jar
OUT="$(cd "$(dirname "$0")" && pwd)"
O="-f 3 -wi 2 -w 500ms -i 3 -r 500ms -prof gc"
OURS=WHEEL_LIST,WHEEL_RING,WHEEL_LINKED_ARRAY
PARTS=${PARTS:-w1 w2 w3}
for jdk in ${JDKS:-17 25}; do
  if [ $jdk = 17 ]; then J=java; else J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java; fi
  for part in $PARTS; do
    case $part in
      w3)
        "$J" -jar $JAR 'timer.ScheduleCancelBenchmark' -p cancel=NEWEST,RANDOM_LIVE \
          -p subject=WHEEL_LIST,AGRONA,KAFKA,KAFKA_1024,TREE_MAP_BUCKETED $O -rf json -rff "$OUT/w3-jdk$jdk.json" > "$OUT/w3-jdk$jdk.log" 2>&1
        if [ $jdk = 17 ]; then
          "$J" -jar $JAR 'timer.ScheduleCancelBenchmark' -p cancel=NEWEST,RANDOM_LIVE -p horizon=1024 -p live=65536,1048576 \
            -p subject=WHEEL_LIST,AGRONA,KAFKA,KAFKA_1024,TREE_MAP_BUCKETED $O -rf json -rff "$OUT/w3-horizon1024-jdk$jdk.json" > "$OUT/w3-horizon1024-jdk$jdk.log" 2>&1
        fi ;;
      w1)
        "$J" -jar $JAR 'timer.ScheduleExpireBenchmark' -p timersPerTick=256,4096 \
          -p subject=$OURS,AGRONA,AGRONA_POLL_ONCE,KAFKA,KAFKA_1024,TREE_MAP,PRIORITY_QUEUE,TREE_MAP_BUCKETED $O -rf json -rff "$OUT/w1-jdk$jdk.json" > "$OUT/w1-jdk$jdk.log" 2>&1 ;;
      w2)
        "$J" -jar $JAR 'timer.SteadyStateBenchmark' -p timersPerTick=256,4096 \
          -p subject=$OURS,AGRONA,AGRONA_POLL_ONCE,KAFKA,KAFKA_1024,TREE_MAP_BUCKETED $O -rf json -rff "$OUT/w2-jdk$jdk.json" > "$OUT/w2-jdk$jdk.log" 2>&1 ;;
    esac
  done
done
echo done > "$OUT/finished-${JDKS:-all}"
