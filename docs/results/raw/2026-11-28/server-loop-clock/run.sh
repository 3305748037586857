#!/usr/bin/env bash
# Server CPU per request before (base, the server jar of 00af7f2) and after the selector loop reads
# its clock after its tasks and expires overdue timers before it waits (new): keep-alive and
# pipelined, server pinned to core 0, client to core 1, a fresh server per round, 3 rounds.
set -u
cpu() { awk '{print $14+$15}' /proc/$1/stat; }
LT="taskset -c 1 java -jar /work/main/nio-client/target/tickwork-load.jar"
for round in 1 2 3; do for v in base new; do
  taskset -c 0 java -Xmx256m -jar /work/base/srv$v/tickwork-server.jar --port 19500 > server-$v-$round.log 2>&1 & pid=$!
  until curl -s -o /dev/null http://127.0.0.1:19500/d/door; do sleep 0.2; done
  $LT bench -c 100 -D 3s --quiet --json http://127.0.0.1:19500/d/door > /dev/null
  for mode in ka pipe; do
    if [ $mode = ka ]; then M="-c 100"; else M="-c 64 -d 16"; fi
    c0=$(cpu $pid); $LT bench $M -D 6s --quiet --json http://127.0.0.1:19500/d/door > $mode-$v-$round.json; c1=$(cpu $pid)
    echo "$mode $v $round $((c1 - c0))" >> ticks.txt
  done
  kill $pid; wait $pid
done; done
