#!/bin/bash
# Virtual-thread rows with the same 2 GB heap as the Kilim rows (the classes' own @Fork options,
# no -jvmArgsAppend on the command line, which would replace them). Temurin 25, jar of 1dbde1a.
set -e
J=${J:-jmh/target/benchmarks.jar}; J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OUT=${OUT:-docs/results/raw/2026-11-28/scheduler-vt-heap}
O="-f 3 -wi 2 -w 1s -i 3 -r 1s"
$J25 -jar $J 'scheduler.VirtualThreadOneCarrierBenchmark\.' $O -rf json -rff $OUT/vt-1carrier.json
$J25 -jar $J 'scheduler.VirtualThreadTwoCarriersBenchmark\.' $O -rf json -rff $OUT/vt-2carriers.json
