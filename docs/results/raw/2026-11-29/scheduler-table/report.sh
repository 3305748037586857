#!/bin/bash
# docs/bench/scheduler.md and scheduler-jdk25.md from this run's JSON: the report tool's tables
# and charts. On Temurin 25 the virtual-thread benchmarks are filed beside the schedulers (--map):
# one carrier in the one-thread rows, two in every two-thread row (they have no placement), the
# mailbox ping-pong against an ArrayBlockingQueue(1) hand-off, the turn against park/unpark.
# Run from the repository root after ./mvnw -B -q package -pl bench-report -am -DskipTests.
set -e
R=bench-report/target/tickwork-bench-report.jar
D=docs/results/raw/2026-11-29/scheduler-table
COMMON=(--out docs/bench --title "tickwork scheduler benchmarks" --headline tickwork-wheel-list)
java -jar $R "${COMMON[@]}" --name scheduler $(for f in $D/*-17.json; do echo --in $f; done) \
  --note "2026-11-29, JDK 17.0.15, 2 cores (AMD EPYC), G1, 3 forks. Command: $D/run.sh"
MAPS=()
for c in "One 1" "Two 2"; do
  set -- $c
  MAPS+=(--map "VirtualThread${1}Carriers?Benchmark\\.yield -> KilimSwitchBenchmark.yield scheduler=virtual-threads threads=$2"
         --map "VirtualThread${1}Carriers?Benchmark\\.queuePingPong -> KilimSwitchBenchmark.pingPong scheduler=virtual-threads threads=$2"
         --map "VirtualThread${1}Carriers?Benchmark\\.parkPingPong -> KilimSwitchBenchmark.turnPingPong scheduler=virtual-threads threads=$2"
         --map "VirtualThread${1}Carriers?Benchmark\\.sleepExpirations -> KilimTimerBenchmark.sleepExpirations scheduler=virtual-threads threads=$2")
done
java -jar $R "${COMMON[@]}" --name scheduler-jdk25 $(for f in $D/*-25.json; do echo --in $f; done) "${MAPS[@]}" \
  --note "2026-11-29, JDK 25.0.3, 2 cores (AMD EPYC), G1, 3 forks. Command: $D/run.sh; virtual threads (VirtualThreadOneCarrierBenchmark, VirtualThreadTwoCarriersBenchmark) filed beside the schedulers by $D/report.sh"
