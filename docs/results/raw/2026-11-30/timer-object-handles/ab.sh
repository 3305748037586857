#!/usr/bin/env bash
# The peers held by reference against the same peers behind the old long-handle table: the jar
# of 8bf0c5d (old) and of 2c688e1 (new), alternated, one fork each, OpenJDK 17; WHEEL_LIST is the
# control (its harness moved from a long[] field into TimerSlots). Nothing else running.
set -u
OUT="$(cd "$(dirname "$0")" && pwd)"
O="-f 1 -wi 2 -w 500ms -i 3 -r 500ms"
for round in 1 2; do
  for v in old new; do
    java -jar /tmp/tb-$v/benchmarks.jar 'timer.ScheduleCancelBenchmark' -p cancel=NEWEST,RANDOM_LIVE \
      -p live=4096,1048576 -p subject=WHEEL_LIST,KAFKA_1024,TREE_MAP_BUCKETED $O \
      -rf json -rff "$OUT/ab-w3-$v-$round.json" > "$OUT/ab-w3-$v-$round.log" 2>&1
    java -jar /tmp/tb-$v/benchmarks.jar 'timer.ScheduleExpireBenchmark' -p timersPerTick=4096 \
      -p subject=WHEEL_LIST,KAFKA_1024,TREE_MAP_BUCKETED $O \
      -rf json -rff "$OUT/ab-w1-$v-$round.json" > "$OUT/ab-w1-$v-$round.log" 2>&1
  done
done
echo done > "$OUT/ab-finished"
