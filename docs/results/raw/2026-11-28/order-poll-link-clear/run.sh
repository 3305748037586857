#!/usr/bin/env bash
# KeyedSerialExecutor before (BASE, the jar of 27043b9's primitives) and after a popped lane's link
# is cleared, inline runs keep the caller's interrupt flag, and a task's refused hand-over drains no
# nested run (NEW); 2 rounds alternating the jars, JDK 17. OUT = output folder.
set -u
O="-f 1 -wi 2 -w 500ms -i 3 -r 500ms"
for r in 1 2; do
  for j in base new; do
    jar=$BASE; [ $j = new ] && jar=$NEW
    java -jar $jar 'order.OrderedExecutionBenchmark.oneProducer' -p variant=keyed -p keys=1,64,100000 \
      -p pool=threadPool2,forkJoin2 -p background=none $O -rf json -rff $OUT/order-$j-$r.json > $OUT/order-$j-$r.txt 2>&1
  done
done
