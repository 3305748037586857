#!/bin/sh
# A/B of the wake-affinity ask (dropped): old = 307e880, new = 01c5371; rounds 1 2, then ROUNDS="3 4"
O="-f 1 -wi 2 -w 1s -i 3 -r 1s"
B='scheduler.KilimSwitchBenchmark.(pingPong|turnPingPong)$'
P="-p scheduler=tickwork-wheel-list -p threads=2 -p placement=free,shuffled"
for round in ${ROUNDS:-1 2}; do
  for j in old new; do
    [ $((round % 2)) = 0 ] && j=$([ $j = old ] && echo new || echo old)
    java -jar $j.jar "$B" $P $O -rf json -rff $j-$round.json > $j-$round.txt 2>&1
  done
done
