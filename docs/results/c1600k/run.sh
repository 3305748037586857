#!/usr/bin/env bash
# C1600K on one machine: the dictionary server as worker processes sharing one port
# (--processes, SO_REUSEPORT), `LoadTool idle --processes` holding TARGET idle connections from
# child clients, memory sampled on each side while the ramp runs, then `LoadTool bench` against
# the server while every connection is held. Writes OUT/samples.csv, OUT/summary.txt, the chart
# docs/results/c1600k-memory.png and docs/results/c1600k.md.
#
# Run from the repository root as root (it sets sysctls), after `./mvnw -B -q package -DskipTests`:
#   timeout 2400 bash docs/results/c1600k/run.sh                 # TARGET=1600000
#   TARGET=60000 FLOOR=3g timeout 900 bash docs/results/c1600k/run.sh
# Bounded: every wait has a deadline, the idle run has a duration, bench runs for BENCH_D; every
# process it starts is stopped on exit (trap), and every sysctl it changed is restored. The idle
# clients' memory guard stops the ramp when MemAvailable falls below FLOOR, so a run that would
# exhaust memory stops itself and reports where. Targets 127.0.0.1 only.
set -u
ROOT=$(pwd)
TARGET=${TARGET:-1600000}
PER_PROCESS=${PER_PROCESS:-19000}          # connections a worker or a client holds at most (20,000 files each)
SHARE=${SHARE:-18000}                      # connections planned per process: SO_REUSEPORT's hash spreads
                                           # them unevenly (a worker's count varies by about its square root),
                                           # so a worker stays under PER_PROCESS with room for bench's
WORKERS=${WORKERS:-$(( (TARGET + SHARE - 1) / SHARE ))}
CLIENTS=${CLIENTS:-$WORKERS}
FLOOR=${FLOOR:-3g}                         # MemAvailable floor of the idle clients' guard
PORT=${PORT:-9600}
RAMP_MAX=${RAMP_MAX:-900}                  # seconds the ramp may take before the script gives up waiting
HOLD=${HOLD:-120s}                         # how long the clients hold after the ramp (bench runs inside it)
BENCH_C=${BENCH_C:-100}
BENCH_D=${BENCH_D:-20s}
BENCH_C2=${BENCH_C2:-1000}                  # a second shared-port bench with more connections (0: none)
# added to the workers' defaults (which are C1 only above 8 workers a core): one compiler thread,
# no perf-data file, a smaller code cache and thread stacks, each worker being one selector thread
WORKER_JVM_OPTS=${WORKER_JVM_OPTS:--XX:CICompilerCount=1 -XX:-UsePerfData -XX:ReservedCodeCacheSize=16m -Xss256k}
OUT=${OUT:-/tmp/c1600k-$(date -u +%Y%m%dT%H%M%S)}
WRITE_DOC=${WRITE_DOC:-1}
JAR=$ROOT/nio-server/target/tickwork-server.jar
LOAD_JAR=$ROOT/nio-client/target/tickwork-load.jar
REPORT_JAR=$ROOT/bench-report/target/tickwork-bench-report.jar
mkdir -p "$OUT"
PIDS=()
declare -A SAVED=()

log() { echo "$(date -u +%H:%M:%S) $*" | tee -a "$OUT/run.log"; }

set_sysctl() { # name value: remembers the old value once, then sets the new one
  local name=$1 value=$2 path=/proc/sys/${1//.//}
  [ -w "$path" ] || { log "sysctl $name: not writable here, left at $(cat "$path" 2>/dev/null)"; return; }
  [ -n "${SAVED[$name]+x}" ] || SAVED[$name]=$(tr '\t' ' ' < "$path")
  echo "$value" > "$path" && log "sysctl $name = $value (was ${SAVED[$name]})"
}

cleanup() {
  [ -n "${SAMPLER:-}" ] && kill "$SAMPLER" 2>/dev/null
  for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; done
  for i in $(seq 1 60); do
    alive=0; for p in "${PIDS[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && break; sleep 1
  done
  for p in "${PIDS[@]}"; do pkill -KILL -P "$p" 2>/dev/null; kill -KILL "$p" 2>/dev/null; done
  for name in "${!SAVED[@]}"; do echo "${SAVED[$name]}" > "/proc/sys/${name//.//}" && log "sysctl $name restored to ${SAVED[$name]}"; done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

kb() { awk -v k="$1:" '$1==k {print $2}' /proc/meminfo; }
rss_kb() { local t=0 p r; for p in "$@"; do r=$(awk '/^VmRSS:/{print $2}' "/proc/$p/status" 2>/dev/null); t=$((t + ${r:-0})); done; echo $t; }
held() { tail -c 2000 "$OUT/idle.progress" 2>/dev/null | grep -o 'connected [0-9][0-9]*' | tail -1 | grep -o '[0-9]*$' || echo 0; }
tcp_mem_pages() { awk '/^TCP:/{for(i=1;i<NF;i++) if($i=="mem") print $(i+1)}' /proc/net/sockstat; }

log "target $TARGET connections: $WORKERS server workers, $CLIENTS client processes, floor $FLOOR, out $OUT"
log "machine: $(nproc) cores, MemTotal $(( $(kb MemTotal) / 1024 )) MB, MemAvailable $(( $(kb MemAvailable) / 1024 )) MB, $(uname -sr), $(java -version 2>&1 | head -1)"

# --- sysctls: descriptors, ports, backlog, connection tracking ---------------------------------
need_files=$(( TARGET * 2 + 200000 ))
[ "$(cat /proc/sys/fs/file-max)" -lt "$need_files" ] && set_sysctl fs.file-max "$need_files"
set_sysctl net.ipv4.ip_local_port_range "10000 65000"
set_sysctl net.core.somaxconn 65535
set_sysctl net.ipv4.tcp_max_syn_backlog 65535
if [ -e /proc/sys/net/netfilter/nf_conntrack_max ] && [ "$(cat /proc/sys/net/netfilter/nf_conntrack_max)" -lt $(( TARGET * 2 + 65536 )) ]; then
  set_sysctl net.netfilter.nf_conntrack_max $(( TARGET * 2 + 65536 ))
fi

# --- baseline -----------------------------------------------------------------------------------
BASE_AVAIL=$(kb MemAvailable); BASE_SLAB=$(kb Slab); BASE_TCPMEM=$(tcp_mem_pages)

# --- server: WORKERS processes on one port -----------------------------------------------------
java -jar "$JAR" --port "$PORT" --processes "$WORKERS" --threads 1 --max-connections "$PER_PROCESS" \
  --idle-timeout 60m --worker-jvm-opts "$WORKER_JVM_OPTS" > "$OUT/server.log" 2> "$OUT/server.err" &
SERVER=$!; PIDS+=($SERVER)
for i in $(seq 1 300); do grep -q "processes:" "$OUT/server.log" && break; kill -0 $SERVER 2>/dev/null || break; sleep 1; done
START_LINE=$(grep -m1 "processes:" "$OUT/server.log")
[ -n "$START_LINE" ] || { log "server did not start: $(tail -3 "$OUT/server.err")"; exit 1; }
WPIDS=$(grep -o 'pid=[0-9]*' <<< "$START_LINE" | cut -d= -f2 | paste -sd, -)
STATS0=$(grep -o 'stats=[^ ,]*' <<< "$START_LINE" | head -1 | cut -d= -f2)
log "server up: $(wc -w <<< "${WPIDS//,/ }") workers, server rss $(( $(rss_kb ${WPIDS//,/ }) / 1024 )) MB, launcher $SERVER"
SERVER_RSS0=$(rss_kb ${WPIDS//,/ })

# --- clients: ramp, hold ----------------------------------------------------------------------------
java -jar "$LOAD_JAR" idle --processes "$CLIENTS" -c "$TARGET" \
  --target "127.0.0.1:$PORT" --server-pid "$WPIDS" --min-available "$FLOOR" --hold "$HOLD" \
  -D $(( RAMP_MAX + 600 ))s --json > "$OUT/idle.json" 2> "$OUT/idle.progress" &
IDLE=$!; PIDS+=($IDLE)
# sampler: one CSV line every 5 s; connections as the clients' last progress line counts them
echo "seconds,connections,mem_available_mb,server_rss_mb,client_rss_mb,kernel_slab_mb,kernel_tcp_buffers_mb" > "$OUT/samples.csv"
T0=$(date +%s)
(
  while true; do
    cp=$(pgrep -P "$IDLE" 2>/dev/null | paste -sd' ' -)
    echo "$(( $(date +%s) - T0 )),$(held),$(( $(kb MemAvailable) / 1024 )),$(( $(rss_kb ${WPIDS//,/ }) / 1024 )),$(( $(rss_kb $cp) / 1024 )),$(( ($(kb Slab) - BASE_SLAB) / 1024 )),$(( ($(tcp_mem_pages) - BASE_TCPMEM) * 4 / 1024 ))" >> "$OUT/samples.csv"
    sleep 5
  done
) &
SAMPLER=$!
for i in $(seq 1 "$RAMP_MAX"); do
  grep -q "^ramp done" "$OUT/idle.progress" && break
  kill -0 $IDLE 2>/dev/null || break
  sleep 1
done
RAMP_LINE=$(grep -m1 "^ramp done" "$OUT/idle.progress")
log "${RAMP_LINE:-ramp did not finish within $RAMP_MAX s}"
tail -1 "$OUT/idle.progress" | tee -a "$OUT/run.log"

# --- memory with everything held ---------------------------------------------------------------------
sleep 5 # a few progress lines after the ramp, and the last connects settled
HELD=$(held)
CLIENT_PIDS=$(pgrep -P "$IDLE" | paste -sd' ' -)
SERVER_RSS=$(rss_kb ${WPIDS//,/ }); CLIENT_RSS=$(rss_kb $CLIENT_PIDS)
SLAB=$(( $(kb Slab) - BASE_SLAB )); TCPMEM=$(( ($(tcp_mem_pages) - BASE_TCPMEM) * 4 ))
AVAIL=$(kb MemAvailable)
W0=${WPIDS%%,*}
W0_CONNS=$(curl -s --max-time 5 "$STATS0" | grep -o '"openConnections": *[0-9]*' | grep -o '[0-9]*$')
jcmd "$W0" GC.run > /dev/null 2>&1
W0_HEAP=$(jcmd "$W0" GC.heap_info 2>/dev/null | awk '/generation/ {for(i=1;i<=NF;i++) if($i=="used") {v=$(i+1); sub(/K.*/,"",v); t+=v}} END {print t}')
{
  echo "held connections: $HELD (the clients' count)"
  echo "MemAvailable: $(( BASE_AVAIL / 1024 )) MB before, $(( AVAIL / 1024 )) MB held: $(( (BASE_AVAIL - AVAIL) / 1024 )) MB used"
  echo "server RSS: $(( SERVER_RSS0 / 1024 )) MB idle, $(( SERVER_RSS / 1024 )) MB held, $(( (SERVER_RSS - SERVER_RSS0) * 1024 / (HELD > 0 ? HELD : 1) )) B per connection beyond idle"
  echo "client RSS: $(( CLIENT_RSS / 1024 )) MB, $(( CLIENT_RSS * 1024 / (HELD > 0 ? HELD : 1) )) B per connection (JVM base included)"
  echo "kernel slab: +$(( SLAB / 1024 )) MB, $(( SLAB * 1024 / (HELD > 0 ? HELD : 1) )) B per connection (both sockets); TCP buffers +$(( TCPMEM / 1024 )) MB"
  echo "worker w0: ${W0_CONNS:-?} open connections, live heap after a full GC ${W0_HEAP:-?} KB"
} | tee -a "$OUT/summary.txt" "$OUT/run.log"

# --- throughput with everything held -------------------------------------------------------------------
# on the shared port (the kernel spreads bench's connections over all the workers) at BENCH_C and
# at BENCH_C2 connections, then on worker w0's private port (one process, at most 64 connections)
bench_held() { # label connections url
  local f="$OUT/bench-$1.json"
  ( sleep 8; top -b -n 1 -o %CPU | head -20 > "$OUT/top-bench-$1.txt" ) &
  timeout 120 java -jar "$LOAD_JAR" bench -c "$2" --warmup 3s -D "$BENCH_D" \
    --json "$3" > "$f" 2> "$OUT/bench-$1.err"
  local rps p99 errs
  rps=$(grep -o '"per_s": *[0-9.]*' "$f" | head -1 | grep -o '[0-9.]*$')
  p99=$(grep -o '"p99": *[0-9.]*' "$f" | head -1 | grep -o '[0-9.]*$')
  errs=$(grep -o '"total": *[0-9]*' "$f" | head -1 | grep -o '[0-9]*$')
  echo "bench -c $2 -D $BENCH_D $3 ($1) with $HELD held: ${rps:-?} req/s, p99 ${p99:-?} us, errors ${errs:-?}" \
    | tee -a "$OUT/summary.txt" "$OUT/run.log"
}
bench_held shared "$BENCH_C" "http://127.0.0.1:$PORT/d/door"
[ "$BENCH_C2" -gt 0 ] && bench_held shared-c$BENCH_C2 "$BENCH_C2" "http://127.0.0.1:$PORT/d/door"
[ -n "${STATS0:-}" ] && bench_held w0-private 64 "${STATS0%/stats}/d/door"

# --- end: the clients' report, the chart ---------------------------------------------------------------
log "waiting for the idle run to end (hold $HOLD)"
for i in $(seq 1 $(( RAMP_MAX + 700 ))); do kill -0 $IDLE 2>/dev/null || break; sleep 1; done
{ printf 'idle report:'; for f in processes target connected peak stopped_by; do
    printf ' %s' "$(grep -o "\"$f\":[^,{]*" "$OUT/idle.json" | head -1)"; done
  printf ' failed %s\n' "$(grep -o '"failed":{"total":[0-9]*' "$OUT/idle.json" | head -1 | grep -o '[0-9]*$')"
} >> "$OUT/summary.txt"
kill "$SAMPLER" 2>/dev/null
java -cp "$REPORT_JAR" io.tickwork.report.LineChart --csv "$OUT/samples.csv" --x connections \
  --y mem_available_mb,server_rss_mb,client_rss_mb,kernel_slab_mb --title "memory while idle connections are held" \
  --x-title "connections held" --y-title MB --out "$OUT/c1600k-memory.png" && log "chart $OUT/c1600k-memory.png"
if [ "$WRITE_DOC" = 1 ]; then
  cp "$OUT/c1600k-memory.png" "$ROOT/docs/results/c1600k-memory.png"
  {
    echo "# C1600K on one machine: measured"
    echo
    echo "$(date -u '+%F %H:%M') UTC, \`TARGET=$TARGET bash docs/results/c1600k/run.sh\` at \`$(git -C "$ROOT" rev-parse --short HEAD)\`:"
    echo "$WORKERS server workers (\`--processes $WORKERS --threads 1 --max-connections $PER_PROCESS\`, worker JVM options \`$WORKER_JVM_OPTS\` added) and"
    echo "$CLIENTS client processes (\`LoadTool idle --processes $CLIENTS\`, floor $FLOOR) on the same machine."
    echo
    echo '```'
    grep -E "machine:|sysctl" "$OUT/run.log" | cut -c10-
    cat "$OUT/summary.txt"
    echo "$RAMP_LINE"
    echo '```'
    echo
    echo "![memory against connections held](c1600k-memory.png)"
    echo
    echo "Samples every 5 s: \`c1600k/samples-$(date -u +%F).csv\`."
  } > "$ROOT/docs/results/c1600k.md"
  cp "$OUT/samples.csv" "$ROOT/docs/results/c1600k/samples-$(date -u +%F).csv"
  log "wrote docs/results/c1600k.md"
fi
log "done"
