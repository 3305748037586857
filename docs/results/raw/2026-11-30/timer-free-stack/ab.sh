#!/usr/bin/env bash
# The wheels' free ids in a stack of their own (int[], as long as the pool) against the free list
# threaded through the due ticks: the jar of 4628b9b (head) and the same with the stack (stack),
# alternated, one fork each, OpenJDK 17, nothing else running.
set -u
OUT="$(cd "$(dirname "$0")" && pwd)"
O="-f 1 -wi 2 -w 500ms -i 3 -r 500ms"
for round in 1 2; do
  for v in head stack; do
    J=/tmp/tb-$v/benchmarks.jar
    java -jar $J 'timer.ScheduleExpireBenchmark' -p timersPerTick=256,4096 \
      -p subject=WHEEL_LIST,WHEEL_RING,WHEEL_LINKED_ARRAY $O -rf json -rff "$OUT/w1-$v-$round.json" > "$OUT/w1-$v-$round.log" 2>&1
    java -jar $J 'timer.SteadyStateBenchmark' -p timersPerTick=256,4096 \
      -p subject=WHEEL_LIST,WHEEL_LINKED_ARRAY $O -rf json -rff "$OUT/w2-$v-$round.json" > "$OUT/w2-$v-$round.log" 2>&1
    java -jar $J 'timer.ScheduleCancelBenchmark' -p cancel=NEWEST,RANDOM_LIVE -p live=256,4096,1048576 \
      -p subject=WHEEL_LIST $O -rf json -rff "$OUT/w3-$v-$round.json" > "$OUT/w3-$v-$round.log" 2>&1
  done
done
echo done > "$OUT/finished"
