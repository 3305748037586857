#!/usr/bin/env bash
# Two threads, every scheduler placing its own tasks: pairs of neighbours
# (free) or pairs at random positions (shuffled). JDK 17, G1.
set -euo pipefail
J=${JAR:-jmh/target/benchmarks.jar}
D=$(dirname "$0")
java -jar $J 'scheduler.KilimSwitchBenchmark.(pingPong|turnPingPong)$' \
  -p scheduler=tickwork-wheel-list,kilim-affine,kilim-forkjoin -p threads=2 -p placement=free,shuffled \
  -f 2 -wi 2 -w 1s -i 3 -r 1s -rf json -rff $D/jdk17.json
