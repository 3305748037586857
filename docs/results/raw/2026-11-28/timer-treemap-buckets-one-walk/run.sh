#!/usr/bin/env bash
# RB_TREE beside TreeMap with a node per timer and TreeMap with a bucket per deadline. JDK 17, G1.
set -euo pipefail
J=${JAR:-jmh/target/benchmarks.jar}
D=$(dirname "$0")
S="-p subject=RB_TREE,TREE_MAP,TREE_MAP_BUCKETED"
O="-f 2 -wi 2 -w 500ms -i 3 -r 500ms -prof gc"
java -jar $J 'timer.ScheduleExpireBenchmark' $S -p timersPerTick=16,256 $O -rf json -rff $D/w1.json
java -jar $J 'timer.SteadyStateBenchmark' $S -p timersPerTick=16 -p rearm=SPREAD $O -rf json -rff $D/w2.json
java -jar $J 'timer.ScheduleCancelBenchmark' $S -p live=4096,65536 -p cancel=NEWEST,RANDOM_LIVE $O -rf json -rff $D/w3.json
