#!/usr/bin/env bash
# The byte-key search on random words and on URLs, JDK 17 then Temurin 25, one jar, under the
# benchmark lock. Run from the repository root after ./mvnw -B -pl jmh -am package -DskipTests.
set -eu
out=docs/results/raw/2026-11-30/search-byte-key-urls
jar=${JAR:-jmh/target/benchmarks.jar}
for jdk in /usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/temurin-25-jdk-amd64; do
  name=$(basename "$jdk")
  flock -x /work/.bench.lock "$jdk/bin/java" -jar "$jar" 'search.ByteKeySearchBenchmark' \
    -f 3 -wi 2 -w 500ms -i 3 -r 500ms -prof gc -rf json -rff "$out/$name.json" > "$out/$name.log" 2>&1
done
