#!/bin/bash
# A/B: the timer queues before (base) and after (new) the out-of-memory rollbacks, alternating rounds.
# base = /work/base/oombase/benchmarks.jar (ce66c8d), new = /work/base/oomnew/benchmarks.jar
O="-f 1 -wi 2 -w 500ms -i 3 -r 500ms"
S="-p subject=WHEEL_LIST,WHEEL_LINKED_ARRAY"
for r in 1 2; do
  for j in base new; do
    J=/work/base/oom$j/benchmarks.jar
    java -jar $J timer.ScheduleExpireBenchmark $S -p timersPerTick=1,16 $O -rf json -rff w1-$j-$r.json > w1-$j-$r.log
    java -jar $J timer.ScheduleCancelBenchmark $S -p cancel=RANDOM_LIVE -p live=256 $O -rf json -rff w3-$j-$r.json > w3-$j-$r.log
    java -jar $J timer.SteadyStateBenchmark $S -p rearm=AHEAD_256 -p timersPerTick=16 $O -rf json -rff w2-$j-$r.json > w2-$j-$r.log
    java -jar $J timer.MixedLoopBenchmark $S -p live=4096 $O -rf json -rff w4-$j-$r.json > w4-$j-$r.log
  done
done
