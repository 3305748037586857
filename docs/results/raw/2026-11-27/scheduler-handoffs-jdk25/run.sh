#!/bin/bash
# MAX_HANDOFFS 4 (743f917) against 16 (17cf133) on Temurin 25: ping-pong
cd /work/ab/h25
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
O="-f 1 -wi 2 -w 1s -i 3 -r 1s"
for r in 1 2 3; do
  if [ $((r%2)) = 1 ]; then L="743f917 17cf133"; else L="17cf133 743f917"; fi
  for j in $L; do
    for cfg in "-p threads=1 -p placement=placed" "-p threads=2 -p placement=placed" "-p threads=2 -p placement=free"; do
      t=$(echo $cfg | tr -d ' -' | tr '=' '_')
      flock -x /work/.bench.lock $J25 -jar /work/base/benchmarks-$j.jar 'KilimSwitchBenchmark.pingPong' -p scheduler=tickwork-wheel-list $cfg $O -rf json -rff $j-$t-r$r.json > $j-$t-r$r.log 2>&1
    done
  done
done
touch DONE
