#!/bin/bash
# Where the shuffled rows' loss comes from: partners apart on one loop (placed against shuffled,
# 1 thread) beside partners apart on two loops (free against shuffled, 2 threads). JDK 17,
# tickwork only, nothing else running.
set -e
J=/tmp/bench-now.jar
B='scheduler.KilimSwitchBenchmark.(pingPong|turnPingPong)$'
O="-p scheduler=tickwork-wheel-list -f 2 -wi 2 -w 1s -i 3 -r 1s"
java -jar $J "$B" $O -p threads=1 -p placement=placed,shuffled -rf json -rff one.json > one.txt
java -jar $J "$B" $O -p threads=2 -p placement=free,shuffled -rf json -rff two.json > two.txt
# the same one-loop pair for Kilim's ForkJoinScheduler (one worker thread)
java -jar $J "$B" -p scheduler=kilim-forkjoin -f 2 -wi 2 -w 1s -i 3 -r 1s -p threads=1 -p placement=placed,shuffled -rf json -rff forkjoin-one.json > forkjoin-one.txt
