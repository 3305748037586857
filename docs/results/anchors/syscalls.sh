#!/usr/bin/env bash
# System calls per request of tickwork, Netty 4.2 on epoll and nginx under the same keep-alive
# load: each server alone, `wrk -t2 -c$C` for 10 s, and `perf stat` counting every
# `syscalls:sys_enter_*` tracepoint of the server's threads (nginx's workers included) over 5 s
# in the middle of it; the table divides each call's count by the server's writes of a response
# (one per request for all three: tickwork `write`, Netty `writev`, nginx `writev`).
# Needs perf with tracepoints (Debian's linux-perf; run as root). Run from the repository root,
# after `./mvnw -B -q package -DskipTests`, with nothing else running:
#   timeout 300 bash docs/results/anchors/syscalls.sh
# perf's tracepoints slow every server (10-40 %), so the req/s printed here are not a comparison;
# the calls per request are. Targets only 127.0.0.1; stops every server it starts.
set -u
ROOT=$(pwd)
OUT=${OUT:-/tmp/syscalls-$(date -u +%Y%m%dT%H%M%S)}
C=${C:-100}
mkdir -p "$OUT"
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; done
  for p in "${PIDS[@]}"; do timeout 10 tail --pid="$p" -f /dev/null 2>/dev/null; done # ports free for a rerun
}
trap cleanup EXIT
trap 'exit 130' INT TERM

source "$ROOT/docs/results/anchors/servers.sh"
start_servers tickwork netty nginx
declare -A WRITE=( [tickwork]=write [netty]=writev [nginx]=writev )
for s in tickwork netty nginx; do timeout 30 wrk -t2 -c"$C" -d5s "${URL[$s]}" > /dev/null 2>&1; done # warm-up

for s in tickwork netty nginx; do
  pids=$(echo "${SPID[$s]}" $(pgrep -P "${SPID[$s]}") | tr ' ' ',')
  timeout 30 wrk -t2 -c"$C" -d10s "${URL[$s]}" > "$OUT/wrk-$s.txt" 2>&1 &
  W=$!
  sleep 2
  timeout 20 perf stat -x, -e 'syscalls:sys_enter_*' -p "$pids" -- sleep 5 2> "$OUT/perf-$s.csv"
  wait "$W"
done

echo "calls per response write, wrk -t2 -c$C, $(date -u +%F)" | tee "$OUT/table.txt"
for s in tickwork netty nginx; do
  # calls of at least 1 in 1,000 responses, most frequent first
  awk -F, -v s="$s" -v w="syscalls:sys_enter_${WRITE[$s]}" '
    $1 ~ /^[0-9]+$/ && $1 > 0 { n[$3] = $1 }
    END {
      if (!n[w]) { print s ": no " w " counted"; exit }
      for (k in n) if (n[k] >= n[w] / 1000) { kk = k; sub("syscalls:sys_enter_", "", kk); printf "%s %.3f\n", kk, n[k] / n[w] }
    }' "$OUT/perf-$s.csv" | sort -k2,2nr -k1,1 | awk -v s="$s" '{ line = line " " $1 " " $2 } END { print s ":" line }' \
    | tee -a "$OUT/table.txt"
done
echo "raw: $OUT"
