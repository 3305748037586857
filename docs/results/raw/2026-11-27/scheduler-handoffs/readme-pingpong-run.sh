#!/bin/bash
# the README's ping-pong rows after the hand-off change: JDK 17 and Temurin 25, 3 forks
cd /work/ab/pp
J=/work/base/benchmarks-17cf133.jar; J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
O="-f 3 -wi 2 -w 1s -i 3 -r 1s"; S=tickwork-wheel-list,kilim-affine,kilim-forkjoin
flock -x /work/.bench.lock java -jar $J 'scheduler.KilimSwitchBenchmark.pingPong' -p scheduler=$S $O -rf json -rff jdk17.json > jdk17.log 2>&1
flock -x /work/.bench.lock $J25 -jar $J 'scheduler.KilimSwitchBenchmark.pingPong' -p scheduler=$S $O -rf json -rff jdk25.json > jdk25.log 2>&1
touch DONE
