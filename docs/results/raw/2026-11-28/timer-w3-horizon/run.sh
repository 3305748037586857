#!/usr/bin/env bash
# W3 at 64K and 1M live with deadlines spread over 256 ticks (the suite's) and over 1,024 (a whole
# wheel): Agrona scans a spoke for a free cell, so its cost grows with timers per tick. JDK 17, G1.
set -euo pipefail
J=${JAR:-jmh/target/benchmarks.jar}
D=$(dirname "$0")
java -jar $J 'timer.ScheduleCancelBenchmark' -p subject=WHEEL_LIST,WHEEL_RING,WHEEL_LINKED_ARRAY,AGRONA,KAFKA \
  -p cancel=NEWEST,RANDOM_LIVE -p live=65536,1048576 -p horizon=256,1024 \
  -f 1 -wi 2 -w 500ms -i 5 -r 500ms -rf json -rff $D/jdk17.json
