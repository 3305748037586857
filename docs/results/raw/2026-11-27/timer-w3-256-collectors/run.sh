#!/bin/bash
# W3 at 256 live on JDK 17: G1 defaults, G1 with refinement deferred (as JDK 20+ does), ParallelGC; Temurin 25 G1 for reference.
B="timer.ScheduleCancelBenchmark -p subject=WHEEL_LIST,AGRONA -p cancel=NEWEST,RANDOM_LIVE -p live=256 -f 2 -wi 2 -w 500ms -i 3 -r 500ms"
java -jar benchmarks.jar $B -rf json -rff $OUT/g1.json > $OUT/g1.txt 2>&1
java -jar benchmarks.jar $B -jvmArgsAppend "-XX:-G1UseAdaptiveConcRefinement -XX:G1ConcRefinementGreenZone=256" -rf json -rff $OUT/g1-deferred.json > $OUT/g1-deferred.txt 2>&1
java -jar benchmarks.jar $B -jvmArgsAppend "-XX:+UseParallelGC" -rf json -rff $OUT/parallel.json > $OUT/parallel.txt 2>&1
/usr/lib/jvm/temurin-25-jdk-amd64/bin/java -jar benchmarks.jar $B -rf json -rff $OUT/jdk25-g1.json > $OUT/jdk25-g1.txt 2>&1
