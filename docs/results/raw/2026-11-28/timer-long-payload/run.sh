#!/usr/bin/env bash
# Every timer workload, the long-payload wheels beside WHEEL_LIST (object payloads) and Agrona's
# ids-only wheel (also polled once per tick), JDK 17 then Temurin 25, 3 forks.
# JAR = the benchmarks jar of 110d8f4; OUT = where the JSON and logs go.
set -u
J=${JAR:-benchmarks.jar}
O="-f 3 -wi 2 -w 500ms -i 3 -r 500ms -prof gc"
S=WHEEL_LIST,WHEEL_LIST_LONG,WHEEL_LINKED_ARRAY_LONG,AGRONA
for jdk in /usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/temurin-25-jdk-amd64; do
  n=$(basename $jdk)
  for w in "w1 timer.ScheduleExpireBenchmark -p subject=$S,AGRONA_POLL_ONCE" \
           "w2 timer.SteadyStateBenchmark -p subject=$S,AGRONA_POLL_ONCE" \
           "w3 timer.ScheduleCancelBenchmark -p subject=$S -p cancel=NEWEST,RANDOM_LIVE" \
           "w4 timer.MixedLoopBenchmark -p subject=$S,AGRONA_POLL_ONCE"; do
    set -- $w; t=$1; shift
    echo "$n $t start $(date -u +%T)" >> $OUT/times.txt
    $jdk/bin/java -jar $J "$@" $O -rf json -rff $OUT/$t-$n.json > $OUT/$t-$n.txt 2>&1
  done
done
echo "end $(date -u +%T)" >> $OUT/times.txt
