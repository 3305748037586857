#!/usr/bin/env bash
# A/B of WHEEL_RING before and after slots give their rings back when found empty.
# 2 rounds alternating jars, one fork each; JSON beside this script.
set -euo pipefail
cd "$(dirname "$0")"
for round in 1 2; do
  for jar in before after; do
    java -jar /tmp/bench-$jar-ring.jar 'timer.(SteadyStateBenchmark|ScheduleExpireBenchmark)' \
      -p subject=WHEEL_RING -p timersPerTick=1,16,256 -f 1 -wi 2 -w 500ms -i 3 -r 500ms \
      -rf json -rff ring-$jar-$round.json > ring-$jar-$round.txt 2>&1
  done
done
