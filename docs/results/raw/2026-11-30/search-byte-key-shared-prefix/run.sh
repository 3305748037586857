#!/usr/bin/env bash
# ByteKeyIndex before and after skipping the prefix all keys share: the jar before (old.jar) and
# after (new.jar) alternated, fastutil's byte[] map as the control, under the benchmark lock.
# OLD and NEW name the two jars; run from the repository root.
set -eu
out=docs/results/raw/2026-11-30/search-byte-key-shared-prefix
sel="-p impl=BYTE_KEY_INDEX,BYTE_KEY_INDEX_DIRECT,FASTUTIL_BYTES_MAP -f 1 -wi 2 -w 500ms -i 3 -r 500ms"
run() { # jdk name round jar
  flock -x /work/.bench.lock "$1/bin/java" -jar "$4" 'search.ByteKeySearchBenchmark' $sel \
    -rf json -rff "$out/$2-$3-$5.json" > "$out/$2-$3-$5.log" 2>&1
}
j17=/usr/lib/jvm/java-17-openjdk-amd64
j25=/usr/lib/jvm/temurin-25-jdk-amd64
run $j17 jdk17 1 "$OLD" old; run $j17 jdk17 1 "$NEW" new
run $j17 jdk17 2 "$NEW" new; run $j17 jdk17 2 "$OLD" old
run $j25 jdk25 1 "$OLD" old; run $j25 jdk25 1 "$NEW" new
