#!/usr/bin/env bash
# W4 (MixedLoopBenchmark) in the jar of 8bf0c5d (old: long[] handles, the object peers behind a
# handle table) and of 6252898 (new: a long[] or Object[] per kind of handle, the lazy re-arm
# scheduling with add), alternated, one fork each, OpenJDK 17, nothing else running.
set -u
OUT="$(cd "$(dirname "$0")" && pwd)"
O="-f 1 -wi 2 -w 500ms -i 3 -r 500ms"
for round in 1 2; do
  for v in old new; do
    if [ $v = old ]; then J=/tmp/tb-8bf/benchmarks.jar; else J=/tmp/tb-w4/benchmarks.jar; fi
    java -jar $J 'timer.MixedLoopBenchmark' -p rearm=RESCHEDULE,LAZY_FIELD -p live=256,4096,65536 \
      -p subject=WHEEL_LIST,AGRONA_POLL_ONCE,KAFKA $O -rf json -rff "$OUT/w4-$v-$round.json" > "$OUT/w4-$v-$round.log" 2>&1
  done
done
echo done > "$OUT/finished"
