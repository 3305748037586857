#!/bin/bash
# MAX_HANDOFFS 4 (743f917) against 16 and 64: ping-pong and yield, JDK 17, G1 defaults
cd /work/ab/handoff
O="-f 1 -wi 2 -w 1s -i 3 -r 1s"
for r in 1 2 3; do
  case $r in 1) L="743f917 h16 h64";; 2) L="h64 743f917 h16";; 3) L="h16 h64 743f917";; esac
  for j in $L; do
    for cfg in "-p threads=1 -p placement=placed" "-p threads=2 -p placement=placed" "-p threads=2 -p placement=free"; do
      t=$(echo $cfg | tr -d ' -' | tr '=' '_')
      flock -x /work/.bench.lock java -jar /work/base/benchmarks-$j.jar 'KilimSwitchBenchmark.(pingPong|yield)' -p scheduler=tickwork-wheel-linked-array $cfg $O -rf json -rff $j-$t-r$r.json > $j-$t-r$r.log 2>&1
    done
  done
  flock -x /work/.bench.lock java -jar /work/base/benchmarks-743f917.jar 'KilimSwitchBenchmark.(pingPong|yield)' -p scheduler=kilim-forkjoin -p threads=1,2 -p placement=free $O -rf json -rff forkjoin-r$r.json > forkjoin-r$r.log 2>&1
done
touch DONE
