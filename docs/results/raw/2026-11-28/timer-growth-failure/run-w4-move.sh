#!/bin/bash
# W4 again, the list wheel only, after reschedule kept its lazy path unchanged (move() out of line)
O="-f 1 -wi 2 -w 500ms -i 3 -r 500ms"
for r in 6 7 8; do
  for j in base new; do
    java -jar /work/base/oom$j/benchmarks.jar timer.MixedLoopBenchmark -p subject=WHEEL_LIST -p live=4096 $O -rf json -rff w4-$j-$r.json > w4-$j-$r.log
  done
done
