#!/bin/bash
# W4 list wheel at 4,096 live, 3 forks per jar and round (the cell spreads between forks)
O="-f 3 -wi 2 -w 500ms -i 3 -r 500ms"
for r in 9 10; do
  for j in base new; do
    java -jar /work/base/oom$j/benchmarks.jar timer.MixedLoopBenchmark -p subject=WHEEL_LIST -p live=4096 $O -rf json -rff w4f-$j-$r.json > w4f-$j-$r.log
  done
done
