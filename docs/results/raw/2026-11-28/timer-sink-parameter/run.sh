#!/usr/bin/env bash
# expire's consumer kept in a field (BASE, the jar of f45259e) against passed down as a parameter
# (NEW); 3 rounds alternating the jars, JDK 17. OUT = output folder.
set -u
S=WHEEL_LIST,WHEEL_LINKED_ARRAY,WHEEL_LIST_LONG
O="-f 1 -wi 2 -w 500ms -i 3 -r 500ms"
for r in 1 2 3; do
  for j in base new; do
    jar=$BASE; [ $j = new ] && jar=$NEW
    java -jar $jar 'timer.(ScheduleExpire|SteadyState)Benchmark' -p subject=$S -p timersPerTick=1,16 $O \
      -rf json -rff $OUT/w12-$j-$r.json > $OUT/w12-$j-$r.txt 2>&1
  done
done
