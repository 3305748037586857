#!/bin/bash
# The README's scheduler table in one run: JDK 17 then Temurin 25, the default timer kind beside
# Kilim's two schedulers and virtual threads, 3 forks, nothing else running. Each placement has its
# own command, since a combination a scheduler cannot run (ForkJoin placed, free on one thread) is
# refused by the benchmark.
set -e
J=${J:-jmh/target/benchmarks.jar}; J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OUT=${OUT:-docs/results/raw/2026-11-29/scheduler-table}
O="-f 3 -wi 2 -w 1s -i 3 -r 1s -foe true"
SW='scheduler.KilimSwitchBenchmark\.'; ST='scheduler.KilimTimerBenchmark\.'
for jdk in 17 25; do
  if [ $jdk = 17 ]; then JAVA=java; else JAVA=$J25; fi
  $JAVA -version 2>&1 | head -1
  $JAVA -jar $J "$SW" -p threads=1 -p placement=placed -p scheduler=tickwork-wheel-list,kilim-affine,kilim-forkjoin $O -rf json -rff $OUT/switch-1-$jdk.json
  $JAVA -jar $J "$ST" -p sleepCall=TaskSleep -p threads=1 -p placement=placed -p scheduler=tickwork-wheel-list,kilim-affine,kilim-forkjoin $O -rf json -rff $OUT/sleep-1-$jdk.json
  $JAVA -jar $J "$SW" -p threads=2 -p placement=placed -p scheduler=tickwork-wheel-list,kilim-affine $O -rf json -rff $OUT/switch-2placed-$jdk.json
  $JAVA -jar $J "$ST" -p sleepCall=TaskSleep -p threads=2 -p placement=placed -p scheduler=tickwork-wheel-list,kilim-affine $O -rf json -rff $OUT/sleep-2placed-$jdk.json
  $JAVA -jar $J "$SW" -p threads=2 -p placement=free,shuffled -p scheduler=tickwork-wheel-list,kilim-forkjoin -e 'yield' $O -rf json -rff $OUT/switch-2free-$jdk.json
  $JAVA -jar $J "${SW}yield" -p threads=2 -p placement=free -p scheduler=tickwork-wheel-list,kilim-forkjoin $O -rf json -rff $OUT/yield-2free-$jdk.json
  $JAVA -jar $J "$ST" -p sleepCall=TaskSleep -p threads=2 -p placement=free -p scheduler=tickwork-wheel-list,kilim-forkjoin $O -rf json -rff $OUT/sleep-2free-$jdk.json
done
$J25 -jar $J 'scheduler.VirtualThreadOneCarrierBenchmark\.' $O -rf json -rff $OUT/vt-1carrier-25.json
$J25 -jar $J 'scheduler.VirtualThreadTwoCarriersBenchmark\.' $O -rf json -rff $OUT/vt-2carriers-25.json
