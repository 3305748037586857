#!/bin/bash
# block size of the default spread: 16, 64, 256 tasks per block; JDK 17, 2 loops, "free"; 2 rounds, rotating
B=$1; O=$2
J17=/usr/lib/jvm/java-17-openjdk-amd64/bin/java
SEL='(KilimSwitchBenchmark.(yield|pingPong)|KilimTimerBenchmark.sleepExpirations)'
OPT="-p scheduler=tickwork-wheel-list -p threads=2 -p placement=free -p sleepCall=TaskSleep -f 1 -wi 2 -w 1s -i 3 -r 1s"
for r in 1 2; do
  order="b16 b64 b256"; [ $r = 2 ] && order="b256 b64 b16"
  for j in $order; do
    $J17 -jar $B/$j.jar "$SEL" $OPT -rf json -rff $O/r$r-$j.json > $O/r$r-$j.log 2>&1
  done
done
