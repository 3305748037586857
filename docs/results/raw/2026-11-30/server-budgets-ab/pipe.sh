#!/usr/bin/env bash
# Pipelined loop mode only, 3 more rounds alternating (the cell where the first run differed).
set -eu
DIR=${DIR:-/tmp/srvab}
port=9412
one() { # round jar
  java -Xmx256m -jar "$DIR/$2.jar" --port $port --threads 1 > "server-p$1-$2.log" 2>&1 &
  local pid=$!
  for i in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$port/d/time" && break; sleep 0.1; done
  java -jar "$DIR/load.jar" bench -c 64 -d 16 --warmup 2s -D 8s "http://127.0.0.1:$port/d/time" > "pipe-r$1-$2.txt" 2>&1
  kill $pid; wait $pid || true
}
for round in 3 4 5; do
  if [ $((round % 2)) = 1 ]; then one $round old; one $round new; else one $round new; one $round old; fi
done
