#!/usr/bin/env bash
# WHEEL_RING before (110d8f4) and after (27043b9) drain reads the ring again after the spill;
# 2 rounds alternating the jars, JDK 17. BASE, NEW = the two benchmarks jars; OUT = output folder.
set -u
for r in 1 2; do
  for j in base new; do
    jar=$BASE; [ $j = new ] && jar=$NEW
    java -jar $jar 'timer.(ScheduleExpire|SteadyState)Benchmark' -p subject=WHEEL_RING -p timersPerTick=16,256 \
      -f 1 -wi 2 -w 500ms -i 3 -r 500ms -rf json -rff $OUT/ring-$j-$r.json > $OUT/ring-$j-$r.txt 2>&1
  done
done
