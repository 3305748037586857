#!/usr/bin/env bash
# Throughput of the server before (old.jar) and after (new.jar) the owed-response and held-input
# budgets, alternated: one loop, keep-alive and pipelined, on the loops and with --workers 2.
# DIR holds old.jar, new.jar and load.jar; results go to the current directory.
set -eu
DIR=${DIR:-/tmp/srvab}
port=9411
one() { # round jar mode
  local extra=""; [ "$3" = workers ] && extra="--workers 2"
  java -Xmx256m -jar "$DIR/$2.jar" --port $port --threads 1 $extra > "server-$1-$2-$3.log" 2>&1 &
  local pid=$!
  for i in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$port/d/time" && break; sleep 0.1; done
  java -jar "$DIR/load.jar" bench -c 64 --warmup 2s -D 8s "http://127.0.0.1:$port/d/time" > "ka-$1-$2-$3.txt" 2>&1
  java -jar "$DIR/load.jar" bench -c 64 -d 16 --warmup 2s -D 8s "http://127.0.0.1:$port/d/time" > "pipe-$1-$2-$3.txt" 2>&1
  kill $pid; wait $pid || true
}
for round in 1 2; do
  for mode in loops workers; do
    if [ $round = 1 ]; then one $round old $mode; one $round new $mode; else one $round new $mode; one $round old $mode; fi
  done
done
