#!/usr/bin/env bash
# WHEEL_LIST's W3 cells at 64K and 1M live: the jar of b3c2471 (the README's W3 run of 11-27)
# against the jar of 5d43cdc, alternated, two rounds, one fork each, OpenJDK 17.
set -u
OUT="$(cd "$(dirname "$0")" && pwd)"
O="-f 1 -wi 2 -w 500ms -i 3 -r 500ms"
P="-p subject=WHEEL_LIST,KAFKA -p cancel=NEWEST,RANDOM_LIVE -p live=65536,1048576"
for round in 1 2; do
  for jar in old new; do
    java -jar /tmp/tb/benchmarks-$jar.jar 'timer.ScheduleCancelBenchmark' $P $O -rf json -rff "$OUT/$jar-$round.json" > "$OUT/$jar-$round.log" 2>&1
  done
done
