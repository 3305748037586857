#!/bin/bash
# W3 cancel a random live timer and schedule its replacement, 256 live: CPU profile of the list wheel and Agrona, JDK 17.
java -jar benchmarks.jar timer.ScheduleCancelBenchmark -p subject=WHEEL_LIST,AGRONA -p cancel=RANDOM_LIVE -p live=256 \
  -f 1 -wi 2 -w 1s -i 5 -r 1s \
  -prof "async:libPath=$PWD/libasyncProfiler.so;output=collapsed;event=cpu;interval=200000;dir=$OUT"
