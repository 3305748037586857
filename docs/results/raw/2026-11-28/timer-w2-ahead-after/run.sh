#!/bin/bash
# W2 re-armed 256 ahead, 1 and 16 per tick: our wheels beside Agrona (polled once a tick and as
# its docs poll), JDK 17 then Temurin 25, 3 forks; the jar of the work-bounded expire.
set -e
J=/tmp/bench-new.jar
A="timer.SteadyStateBenchmark -p subject=WHEEL_LIST,WHEEL_RING,WHEEL_LINKED_ARRAY,AGRONA,AGRONA_POLL_ONCE -p timersPerTick=1,16 -p rearm=AHEAD_256 -f 3 -wi 2 -w 500ms -i 3 -r 500ms -prof gc"
java -jar $J $A -rf json -rff jdk17.json > jdk17.txt
/usr/lib/jvm/temurin-25-jdk-amd64/bin/java -jar $J $A -jvm /usr/lib/jvm/temurin-25-jdk-amd64/bin/java -rf json -rff jdk25.json > jdk25.txt
