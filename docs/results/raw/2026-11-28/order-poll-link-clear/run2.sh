#!/usr/bin/env bash
# As run.sh, rounds 3 to 6, the new jar first in odd rounds.
set -u
O="-f 1 -wi 2 -w 500ms -i 3 -r 500ms"
for r in 3 4 5 6; do
  order="base new"; [ $((r % 2)) = 1 ] && order="new base"
  for j in $order; do
    jar=$BASE; [ $j = new ] && jar=$NEW
    java -jar $jar 'order.OrderedExecutionBenchmark.oneProducer' -p variant=keyed -p keys=1,64,100000 \
      -p pool=threadPool2,forkJoin2 -p background=none $O -rf json -rff $OUT/order-$j-$r.json > $OUT/order-$j-$r.txt 2>&1
  done
done
