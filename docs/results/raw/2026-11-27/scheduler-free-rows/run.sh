#!/bin/bash
# The README's "2 free" rows with the block spread (final.jar), every scheduler, beside the
# previous default (old.jar, one task per loop in turn), tickwork only; JDK 17 then Temurin 25.
B=$1; O=$2
J17=/usr/lib/jvm/java-17-openjdk-amd64/bin/java
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
SEL='(KilimSwitchBenchmark.(yield|pingPong|turnPingPong)|KilimTimerBenchmark.sleepExpirations)'
OPT="-p threads=2 -p placement=free -p sleepCall=TaskSleep -f 3 -wi 2 -w 1s -i 3 -r 1s"
for jdk in 17 25; do
  JAVA=$J17; [ $jdk = 25 ] && JAVA=$J25
  $JAVA -jar $B/old.jar "$SEL" -p scheduler=tickwork-wheel-list $OPT -rf json -rff $O/jdk$jdk-old.json > $O/jdk$jdk-old.log 2>&1
  $JAVA -jar $B/final.jar "$SEL" -p scheduler=tickwork-wheel-list,kilim-affine,kilim-forkjoin $OPT -rf json -rff $O/jdk$jdk-final.json > $O/jdk$jdk-final.log 2>&1
done
