#!/usr/bin/env bash
# Side-by-side run of tickwork /d/door (its JSON body), the Netty 4.2 anchor on its native epoll
# transport and on NIO, and nginx, all four sending the same bytes (tickwork's /d/door body,
# saved once after tickwork starts), interleaved, every configuration ROUNDS times: wrk at 100,
# 1,000, 5,000 and 4,000 connections, the project's bench pipelining 16 deep on 64 connections,
# and wrk at 4,000 beside 15,000 idle connections.
# Run from the repository root, after `./mvnw -B -q package -DskipTests`, under the lock:
#   timeout 1800 bash docs/results/anchors/run.sh      (about 20 min with ROUNDS=2)
# Targets only 127.0.0.1; every wrk and idle run is bounded with `timeout`; every server it
# starts is stopped on exit (trap), by pid.
set -u
ROOT=$(pwd)
OUT=${OUT:-/tmp/anchors-$(date -u +%Y%m%dT%H%M%S)}
mkdir -p "$OUT"
LOAD_JAR=$ROOT/nio-client/target/tickwork-load.jar
D=${D:-15s}                # wrk duration per run
ROUNDS=${ROUNDS:-2}
IDLE=${IDLE:-15000}
PIDS=()

cleanup() {
  for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; done
  sleep 2
  for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log() { echo "$(date -u +%H:%M:%S) $*" | tee -a "$OUT/run.log"; }

# --- servers -------------------------------------------------------------------------------
source "$ROOT/docs/results/anchors/servers.sh"
SERVERS="tickwork netty netty-nio nginx"
start_servers $SERVERS
for s in $SERVERS; do
  n=$(curl -s -o /dev/null -w '%{size_download} %{http_code}' --max-time 5 "${URL[$s]}")
  log "check $s ${URL[$s]}: bytes/status $n"
done

echo "round config server conns idle req_s p50 p99 server_cpu_us_per_req errors" > "$OUT/results.txt"

# CPU time (user + system, clock ticks) of a server and its child processes (nginx's workers)
cpu_ticks() { # pid
  local s=0 p t
  for p in "$1" $(pgrep -P "$1"); do
    t=$(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null) && s=$((s + t))
  done
  echo "$s"
}
TICK=$(getconf CLK_TCK)
# microseconds of server CPU per request answered
cpu_per_req() { # ticks requests
  awk -v t="$1" -v n="$2" -v hz="$TICK" 'BEGIN { if (n > 0) printf "%.1f", t * 1e6 / hz / n; else print "-" }'
}

# one wrk run; appends a summary line
bench() { # round config server conns idle
  local r=$1 cfg=$2 s=$3 c=$4 idle=$5 f="$OUT/wrk-r$1-$2-$3.txt"
  local t0; t0=$(cpu_ticks "${SPID[$s]}")
  timeout 60 wrk -t2 -c"$c" -d"$D" --latency "${URL[$s]}" > "$f" 2>&1
  local rps p50 p99 err cpu
  cpu=$(cpu_per_req $(( $(cpu_ticks "${SPID[$s]}") - t0 )) "$(awk '/requests in/{print $1}' "$f")")
  rps=$(awk '/Requests\/sec/{print $2}' "$f")
  p50=$(awk '/^ +50%/{print $2}' "$f"); p99=$(awk '/^ +99%/{print $2}' "$f")
  err=$(grep -E 'Socket errors|Non-2xx' "$f" | tr -s ' ' | tr '\n' ';')
  echo "$r $cfg $s $c $idle $rps $p50 $p99 $cpu ${err:-none}" | tee -a "$OUT/results.txt"
}

# one pipelined run with the project's client (wrk cannot pipeline without a script): 64
# connections, 16 requests in flight on each; the same summary line, latency in us
pipelined() { # round server
  local r=$1 s=$2 f="$OUT/bench-r$1-pipe16-$2.json"
  local t0; t0=$(cpu_ticks "${SPID[$s]}")
  timeout 60 java -jar "$LOAD_JAR" bench -c 64 -d 16 --warmup 2s -D "$D" \
    --json "${URL[$s]}" > "$f" 2> "$OUT/bench-r$1-pipe16-$2.err"
  local ticks=$(( $(cpu_ticks "${SPID[$s]}") - t0 )) rps p50 p99 err n cpu
  rps=$(grep -o '"per_s": *[0-9.]*' "$f" | head -1 | sed 's/.*: *//')
  p50=$(grep -o '"p50": *[0-9.]*' "$f" | head -1 | sed 's/.*: *//')
  p99=$(grep -o '"p99": *[0-9.]*' "$f" | head -1 | sed 's/.*: *//')
  err=$(grep -o '"total": *[0-9]*' "$f" | head -1 | sed 's/.*: */errors /')
  # the ticks cover the client's 2 s warm-up, the count does not: an upper bound on the CPU
  n=$(grep -o '"completed": *[0-9]*' "$f" | head -1 | sed 's/.*: *//')
  cpu=$(cpu_per_req "$ticks" "$n")
  echo "$r pipe16 $s 64 0 $rps ${p50}us ${p99}us $cpu ${err:-none}" | tee -a "$OUT/results.txt"
}

heap() { # label pid
  jcmd "$2" GC.run > /dev/null 2>&1; sleep 1
  { echo "== $1"; jcmd "$2" GC.heap_info; } >> "$OUT/heap.txt" 2>&1
}

# --- warm-up: 5 s each at 100 connections, not recorded --------------------------------------
for s in $SERVERS; do
  timeout 30 wrk -t2 -c100 -d5s "${URL[$s]}" > "$OUT/warmup-$s.txt" 2>&1
done
log "warm-up done"

for r in $(seq 1 "$ROUNDS"); do
  for s in $SERVERS; do bench "$r" c100 "$s" 100 0; done
  for s in $SERVERS; do bench "$r" c1000 "$s" 1000 0; sleep 2; done
  for s in $SERVERS; do bench "$r" c5000 "$s" 5000 0; sleep 2; done
  for s in $SERVERS; do bench "$r" c4000 "$s" 4000 0; sleep 2; done
  for s in $SERVERS; do pipelined "$r" "$s"; sleep 2; done
  for s in $SERVERS; do
    if [ "$r" = 1 ] && [ "$s" != nginx ]; then heap "$s r$r before idle" "${SPID[$s]}"; fi
    timeout 90 java -jar "$LOAD_JAR" idle \
      --target "127.0.0.1:${PORT[$s]}" -c "$IDLE" --step 5000 --sources 0 -D 75s --quiet \
      > "$OUT/idle-r$r-$s.txt" 2>&1 &
    IDLE_PID=$!; PIDS+=($IDLE_PID)
    # --sources 0: the kernel picks source ports as for wrk's own connects. With a bind() to
    # 127.0.0.2 first (the tool's default), the bound ports and their TIME_WAIT successors
    # occupy port buckets that connect() from wrk cannot share: wrk then fails with
    # EADDRNOTAVAIL and the next idle ramp stops at 101 connections (raw/wrk-aborted-run-*.txt).
    # wait for the server to hold them (ESTABLISHED sockets on its port), at most 30 s
    for i in $(seq 1 30); do
      n=$(ss -Htn state established "( sport = :${PORT[$s]} )" | wc -l)
      [ "$n" -ge "$IDLE" ] && break; sleep 1
    done
    log "round $r $s: $n established before the idle run"
    if [ "$r" = 1 ] && [ "$s" != nginx ]; then heap "$s r$r with $n idle" "${SPID[$s]}"; fi
    bench "$r" c4000+idle "$s" 4000 "$n"
    kill -TERM "$IDLE_PID" 2>/dev/null; wait "$IDLE_PID" 2>/dev/null
    sleep 3
  done
done
log "done"
ps -o pid,rss,args -p "${SPID[tickwork]},${SPID[netty]},${SPID[netty-nio]}" >> "$OUT/run.log"
