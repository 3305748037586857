#!/bin/bash
# A/B of the default spread: old.jar (one task per loop in turn) against new.jar (blocks of 16),
# tickwork only, 2 loops, tasks placed by the scheduler ("free"); 3 rounds, order alternating.
# usage: run.sh <dir with old.jar and new.jar> <outdir>
B=$1; O=$2
J17=/usr/lib/jvm/java-17-openjdk-amd64/bin/java
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
SEL='(KilimSwitchBenchmark.(yield|pingPong|turnPingPong)|KilimTimerBenchmark.sleepExpirations)'
OPT="-p scheduler=tickwork-wheel-list -p threads=2 -p placement=free -p sleepCall=TaskSleep -f 1 -wi 2 -w 1s -i 3 -r 1s"
for jdk in 17 25; do
  JAVA=$J17; [ $jdk = 25 ] && JAVA=$J25
  for r in 1 2 3; do
    order="old new"; [ $((r % 2)) = 0 ] && order="new old"
    for j in $order; do
      $JAVA -jar $B/$j.jar "$SEL" $OPT -rf json -rff $O/jdk$jdk-r$r-$j.json > $O/jdk$jdk-r$r-$j.log 2>&1
    done
  done
done
