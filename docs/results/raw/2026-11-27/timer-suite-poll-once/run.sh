#!/usr/bin/env bash
# Timer suite, every subject incl. AGRONA_POLL_ONCE where expiry happens; $1 = java, $2 = tag
set -u
J=$1; T=$2; JAR=/work/base/benchmarks-f6bf654.jar; D=/tmp/tsuite
O="-f 3 -wi 2 -w 500ms -i 3 -r 500ms -prof gc"
S=WHEEL_LIST,WHEEL_RING,WHEEL_LINKED_ARRAY,RB_TREE,AGRONA,KAFKA
date -u +%T > $D/$T.times
$J -jar $JAR 'timer.ScheduleExpireBenchmark' -p subject=$S,AGRONA_POLL_ONCE,TREE_MAP,PRIORITY_QUEUE $O -rf json -rff $D/$T-w1.json > $D/$T-w1.log 2>&1
date -u +%T >> $D/$T.times
$J -jar $JAR 'timer.SteadyStateBenchmark' -p subject=$S,AGRONA_POLL_ONCE $O -rf json -rff $D/$T-w2.json > $D/$T-w2.log 2>&1
date -u +%T >> $D/$T.times
$J -jar $JAR 'timer.MixedLoopBenchmark' -p subject=$S,AGRONA_POLL_ONCE $O -rf json -rff $D/$T-w4.json > $D/$T-w4.log 2>&1
date -u +%T >> $D/$T.times
$J -jar $JAR 'timer.ScheduleCancelBenchmark' -p subject=$S -p cancel=NEWEST,RANDOM_LIVE $O -rf json -rff $D/$T-w3.json > $D/$T-w3.log 2>&1
date -u +%T >> $D/$T.times
