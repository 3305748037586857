#!/usr/bin/env bash
# Ours and Agrona in the jar of 8bf0c5d (old) and of the W3 loops per kind of handle (new2),
# alternated, one fork each, OpenJDK 17.
set -u
OUT="$(cd "$(dirname "$0")" && pwd)"
O="-f 1 -wi 2 -w 500ms -i 3 -r 500ms"
for round in 1 2; do
  for v in old new2; do
    java -jar /tmp/tb-$v/benchmarks.jar 'timer.ScheduleCancelBenchmark' -p cancel=NEWEST,RANDOM_LIVE \
      -p live=256,4096 -p subject=WHEEL_LIST,AGRONA $O \
      -rf json -rff "$OUT/ab-loops-$v-$round.json" > "$OUT/ab-loops-$v-$round.log" 2>&1
  done
done
echo done > "$OUT/ab-loops-finished"
