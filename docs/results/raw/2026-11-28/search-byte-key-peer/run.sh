#!/usr/bin/env bash
# ByteKeyIndex beside every peer, fastutil's byte[] map included; JDK 17 then Temurin 25.
set -euo pipefail
J=${JAR:-jmh/target/benchmarks.jar}
D=$(dirname "$0")
O="-f 3 -wi 2 -w 500ms -i 3 -r 500ms -prof gc"
java -jar $J 'search.ByteKeySearchBenchmark' $O -rf json -rff $D/jdk17.json
/usr/lib/jvm/temurin-25-jdk-amd64/bin/java -jar $J 'search.ByteKeySearchBenchmark' $O -rf json -rff $D/jdk25.json
