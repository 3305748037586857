#!/bin/bash
# ping-pong rows, both shapes, every scheduler of the README; then virtual threads (Temurin 25)
# usage: run.sh <benchmarks.jar> <outdir>
J=$1; O=$2
J17=/usr/lib/jvm/java-17-openjdk-amd64/bin/java
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OPT="-f 3 -wi 2 -w 1s -i 3 -r 1s"
S=tickwork-wheel-list,kilim-affine,kilim-forkjoin
for jdk in 17 25; do
  JAVA=$J17; [ $jdk = 25 ] && JAVA=$J25
  $JAVA -jar $J 'KilimSwitchBenchmark.(pingPong|turnPingPong)' -p scheduler=$S -p threads=1 -p placement=placed $OPT -rf json -rff $O/kilim-1t-jdk$jdk.json > $O/kilim-1t-jdk$jdk.log 2>&1
  $JAVA -jar $J 'KilimSwitchBenchmark.(pingPong|turnPingPong)' -p scheduler=$S -p threads=2 $OPT -rf json -rff $O/kilim-2t-jdk$jdk.json > $O/kilim-2t-jdk$jdk.log 2>&1
done
$J25 -jar $J 'VirtualThreadBenchmark.(parkPingPong|queuePingPong)' -jvmArgsAppend -Djdk.virtualThreadScheduler.parallelism=1 $OPT -rf json -rff $O/vt-1carrier.json > $O/vt-1carrier.log 2>&1
$J25 -jar $J 'VirtualThreadBenchmark.(parkPingPong|queuePingPong)' $OPT -rf json -rff $O/vt-2carriers.json > $O/vt-2carriers.log 2>&1
