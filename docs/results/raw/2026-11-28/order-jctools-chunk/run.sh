#!/usr/bin/env bash
# The JCTools mailbox peer with 1,024-slot chunks (the value it had) and with 64 and 128, at 64
# and 100,000 keys, beside the CLQ drainer. JDK 17, G1. Alternating chunk sizes in one script.
set -euo pipefail
J=${JAR:-jmh/target/benchmarks.jar}
D=$(dirname "$0")
O="-p keys=64,100000 -p pool=threadPool2,forkJoin2 -p background=none -f 1 -wi 2 -w 500ms -i 3 -r 500ms"
for round in 1 2; do
  for chunk in 1024 128 64; do
    java -jar $J 'order.OrderedExecutionBenchmark.oneProducer$' -p variant=jctoolsMailbox $O \
      -jvmArgsAppend -Dtickwork.jctoolsChunk=$chunk -rf json -rff $D/chunk$chunk-$round.json
  done
  java -jar $J 'order.OrderedExecutionBenchmark.oneProducer$' -p variant=clqDrainer,keyed $O -rf json -rff $D/others-$round.json
done
