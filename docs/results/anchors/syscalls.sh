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
WORK=$OUT/nginx
mkdir -p "$WORK/www"
TW_JAR=$ROOT/nio-server/target/tickwork-server.jar
JMH_JAR=$ROOT/jmh/target/benchmarks.jar
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; done
  for p in "${PIDS[@]}"; do timeout 10 tail --pid="$p" -f /dev/null 2>/dev/null; done # ports free for a rerun
}
trap cleanup EXIT
trap 'exit 130' INT TERM

java -jar "$TW_JAR" --port 9401 --idle-timeout 10m > "$OUT/tickwork.log" 2>&1 &
TW=$!; PIDS+=($TW)
for i in $(seq 1 50); do curl -s -o "$WORK/www/door.json" --max-time 2 http://127.0.0.1:9401/d/door && break; sleep 0.2; done
[ -s "$WORK/www/door.json" ] || { echo "tickwork did not answer on 9401: $OUT/tickwork.log" >&2; exit 1; }
cp "$WORK/www/door.json" "$WORK/www/1k"
chmod -R a+rX "$OUT"
java -cp "$JMH_JAR" io.tickwork.jmh.anchor.NettyHttpAnchor 9402 --transport epoll --body "$WORK/www/door.json" \
  > "$OUT/netty-epoll.log" 2>&1 &
NE=$!; PIDS+=($NE)
/usr/sbin/nginx -p "$WORK/" -c "$ROOT/docs/results/anchors/nginx.conf" -e "$WORK/error.log" > "$OUT/nginx.out" 2>&1 &
NG=$!; PIDS+=($NG)
declare -A URL=( [tickwork]=http://127.0.0.1:9401/d/door [netty]=http://127.0.0.1:9402/ [nginx]=http://127.0.0.1:9403/1k )
for s in netty nginx; do # each must answer with the same bytes before it is measured, within 10 s
  for i in $(seq 1 50); do cmp -s <(curl -s --max-time 2 "${URL[$s]}") "$WORK/www/door.json" && break; sleep 0.2; done
  cmp -s <(curl -s --max-time 2 "${URL[$s]}") "$WORK/www/door.json" || { echo "$s did not answer the same bytes" >&2; exit 1; }
done

declare -A SP=( [tickwork]=$TW [netty]=$NE [nginx]=$NG )
declare -A WRITE=( [tickwork]=write [netty]=writev [nginx]=writev )
for s in tickwork netty nginx; do timeout 30 wrk -t2 -c"$C" -d5s "${URL[$s]}" > /dev/null 2>&1; done # warm-up

for s in tickwork netty nginx; do
  pids=$(echo "${SP[$s]}" $(pgrep -P "${SP[$s]}") | tr ' ' ',')
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
