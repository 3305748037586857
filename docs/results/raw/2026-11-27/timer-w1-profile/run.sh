#!/bin/bash
# W1 schedule-then-expire at 1 and 16 timers per tick: CPU profile of the list wheel and Agrona polled once a tick, JDK 17.
java -jar benchmarks.jar timer.ScheduleExpireBenchmark -p subject=WHEEL_LIST,AGRONA_POLL_ONCE -p timersPerTick=1,16 \
  -f 1 -wi 2 -w 1s -i 5 -r 1s \
  -prof "async:libPath=$PWD/libasyncProfiler.so;output=collapsed;event=cpu;interval=200000;dir=$OUT"
