#!/bin/sh
# Run twice on 2026-11-29 (05:34-05:43 as order-jdk17-first.json, possibly beside another process; 05:43-05:52, quiet)
# The README's ordered-execution table again, on the current code, JDK 17, nothing else running.
java -jar order-bench.jar 'order.OrderedExecutionBenchmark' -p background=none -f 3 -wi 2 -w 500ms -i 3 -r 500ms -prof gc \
  -rf json -rff order-jdk17.json > order-jdk17.txt 2>&1
