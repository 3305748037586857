#!/usr/bin/env bash
# The README's many-core rows, reproducible on any Linux machine (and at a small scale on 2 cores):
#   S  tickwork's server beside Netty 4.2 epoll and nginx, each pinned to SERVER_CORES with one loop
#      or worker per core, the client pinned to CLIENT_CORES: wrk when installed, else the project's
#      own `bench` (within 4.4 % of wrk, docs/results/clients.md); req/s and server CPU µs/request.
#      BASELINE_SERVER (another build's tickwork-server.jar) adds its rows beside the others.
#   P  ping-pong, 100 connections, 4-byte Ping/Pong: tickwork with its defaults and across thread
#      counts, beside the C epoll anchor and Go (a goroutine per connection).
#   C  C1600K: TARGET idle connections, server workers and client processes derived from this
#      process's open-file limit, then req/s on the shared port with all of them held.
#   J  JMH rows that only show with free cores, pinned to JMH_CORES: ordered execution at K = 64
#      (keyed, then the peers beside the CPU job) and the scheduler's switch rows (yield and
#      ping-pong, 1 thread placed and 2 free, tickwork and Kilim's ForkJoin, G1 defaults);
#      BASELINE_JAR (another build's benchmarks.jar) runs the keyed rows first, for an A/B.
#
#   ./mvnw -B -q package -DskipTests            # the jars; gcc and go build the C and Go peers here
#   docs/results/many-core/run.sh                # defaults from nproc; results in $OUT/summary.txt
#   PARTS="S P" SERVER_CORES=0-5 CLIENT_CORES=6-15 CONNS="1000 5000" docs/results/many-core/run.sh
#   PARTS=J BASELINE_JAR=/path/to/old/benchmarks.jar docs/results/many-core/run.sh
#   PARTS=S SERVER_CORES=0,1 CLIENT_CORES=4-15 BASELINE_SERVER=old/tickwork-server.jar docs/results/many-core/run.sh
#
# Defaults: SERVER_CORES the first half of the cores, CLIENT_CORES the rest (2 cores: 0 and 1);
# CONNS "100 1000 5000"; D=6 s per run; ROUNDS=2 (servers alternate inside a round); PINGS=1m;
# TARGET 1,600,000 on 16 cores or more, else 20,000; FLOOR (MemAvailable the idle clients keep)
# 12g, or 2g under 32 GB; JMH_CORES all but cores 0 and 1 (all of them on 4 cores or fewer);
# JMH_OPTS "-f 3 -wi 2 -w 500ms -i 3 -r 500ms". Every run is bounded by `timeout`; the idle
# clients stop themselves at FLOOR. As root it raises fs.nr_open and the port range for part C and
# restores them at the end.
set -u
ulimit -n "$(ulimit -Hn)" 2>/dev/null # wrk opens every connection of a row in this process
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
N=$(nproc)
H=$((N / 2)); [ "$H" -ge 1 ] || H=1
SERVER_CORES=${SERVER_CORES:-0-$((H - 1))}
CLIENT_CORES=${CLIENT_CORES:-$([ "$N" -ge 2 ] && echo "$H-$((N - 1))" || echo 0)}
PARTS=${PARTS:-S P C}
CONNS=${CONNS:-100 1000 5000}
D=${D:-6}
ROUNDS=${ROUNDS:-2}
PINGS=${PINGS:-1m}
JMH_CORES=${JMH_CORES:-$([ "$N" -gt 4 ] && echo "2-$((N - 1))" || echo "0-$((N - 1))")}
JMH_OPTS=${JMH_OPTS:-"-f 3 -wi 2 -w 500ms -i 3 -r 500ms"}
MEM_GB=$(awk '/MemTotal/{print int($2/1048576)}' /proc/meminfo)
TARGET=${TARGET:-$([ "$N" -ge 16 ] && echo 1600000 || echo 20000)}
FLOOR=${FLOOR:-$([ "$MEM_GB" -ge 32 ] && echo 12g || echo 2g)}
OUT=${OUT:-/tmp/tickwork-many-core-$(date -u +%Y%m%dT%H%M%S)}
mkdir -p "$OUT"
SERVER=$ROOT/nio-server/target/tickwork-server.jar
LOAD=$ROOT/nio-client/target/tickwork-load.jar
PEERS=$ROOT/peers/target/tickwork-peers.jar
BENCH=$ROOT/jmh/target/benchmarks.jar
for f in "$SERVER" "$LOAD" "$PEERS"; do
  [ -f "$f" ] || { echo "$f is missing: run ./mvnw -B -q package -DskipTests first" >&2; exit 2; }
done
S=$OUT/summary.txt
PIDS=()
log() { echo "$(date -u +%T) $*" | tee -a "$S"; }
count() { # cores in a taskset list such as 0-3,8 (no :stride)
  case $1 in *:*) echo "core list '$1': give ranges and single cores, without :stride" >&2; exit 2 ;; esac
  local n=0 r; for r in ${1//,/ }; do [[ $r == *-* ]] && n=$((n + ${r#*-} - ${r%-*} + 1)) || n=$((n + 1)); done; echo $n; }
stop_all() { local p; for p in "${PIDS[@]}"; do pkill -TERM -P "$p" 2>/dev/null; kill -TERM "$p" 2>/dev/null; done
  sleep 1; for p in "${PIDS[@]}"; do pkill -KILL -P "$p" 2>/dev/null; kill -KILL "$p" 2>/dev/null; done; PIDS=(); }
declare -A SAVED=()
setsys() { local p=/proc/sys/${1//.//}; [ -w "$p" ] || return 0; [ -n "${SAVED[$1]+x}" ] || SAVED[$1]=$(tr '\t' ' ' < "$p"); echo "$2" > "$p" 2>/dev/null; }
finish() { stop_all; local k; for k in "${!SAVED[@]}"; do echo "${SAVED[$k]}" > "/proc/sys/${k//.//}" 2>/dev/null; done; }
trap finish EXIT; trap "exit 143" TERM INT
wait_port() { local i; for i in $(seq 1 150); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.2; done; return 1; }
ticks() { local s=0 p t; for p in "$1" $(pgrep -P "$1"); do t=$(awk '{print $14+$15}' "/proc/$p/stat" 2>/dev/null) && s=$((s + t)); done; echo $s; }
NGINX=$(command -v nginx || ls /usr/sbin/nginx 2>/dev/null)
SC=$(count "$SERVER_CORES"); CC=$(count "$CLIENT_CORES")

log "machine: $N cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $MEM_GB GB, $(uname -sr), open files $(ulimit -Sn)/$(ulimit -Hn)"
log "java: $(java -version 2>&1 | head -1); client: $(command -v wrk > /dev/null && wrk --version 2>&1 | head -1 || echo "tickwork bench (no wrk)"); nginx: ${NGINX:-none}"
log "server cores $SERVER_CORES ($SC), client cores $CLIENT_CORES ($CC); parts $PARTS"

# load LABEL PID URL CONNS: one bounded client run on CLIENT_CORES; logs req/s and the server's CPU µs/request.
# wrk gives each of its threads CONNS / threads connections (integer division): pick CLIENT_CORES
# and CONNS so that it divides, or read the row as that many connections.
load() {
  local f=$OUT/load-$1-c$4.txt t0 n rps
  t0=$(ticks "$2")
  if command -v wrk > /dev/null; then
    timeout $((D + 30)) taskset -c "$CLIENT_CORES" wrk -t"$CC" -c"$4" -d"${D}s" "$3" > "$f" 2>&1
    n=$(awk '/requests in/{print $1}' "$f"); rps=$(awk '/Requests\/sec/{print int($2)}' "$f")
  else
    timeout $((D + 30)) taskset -c "$CLIENT_CORES" java -jar "$LOAD" bench -c "$4" -t "$CC" -D "${D}s" --json --quiet "$3" > "$f" 2>&1
    n=$(grep -o '"completed":[0-9]*' "$f" | head -1 | cut -d: -f2); rps=$(grep -o '"per_s":[0-9.]*' "$f" | head -1 | cut -d: -f2 | cut -d. -f1)
  fi
  log "$1 c$4 ${rps:-0} req/s, server cpu $(awk -v t=$(( $(ticks "$2") - t0 )) -v n="${n:-0}" -v hz="$(getconf CLK_TCK)" \
    'BEGIN{if (n > 0) printf "%.1f", t * 1e6 / hz / n; else print "-"}') us/req"
}

# warm URL: the same client for 3 s, unmeasured (the JIT of the server under test)
warm() {
  if command -v wrk > /dev/null; then timeout 30 taskset -c "$CLIENT_CORES" wrk -t"$CC" -c200 -d3s "$1" > /dev/null 2>&1
  else timeout 30 taskset -c "$CLIENT_CORES" java -jar "$LOAD" bench -c 200 -t "$CC" -D 3s --quiet "$1" > /dev/null 2>&1; fi
}

part_s() {
  local w=$OUT/www r c; mkdir -p "$w" "$OUT/ng/tmp"
  taskset -c "$SERVER_CORES" java -jar "$SERVER" --port 9401 --threads "$SC" --idle-timeout 10m > "$OUT/tickwork.log" 2>&1 &
  local tw=$!; PIDS+=($tw); disown
  wait_port 9401 && curl -s -o "$w/door.json" http://127.0.0.1:9401/d/door || { log "tickwork did not start"; stop_all; return; }
  taskset -c "$SERVER_CORES" java -jar "$PEERS" 9402 --threads "$SC" --body "$w/door.json" > "$OUT/netty.log" 2>&1 &
  local nt=$!; PIDS+=($nt); disown; wait_port 9402
  local ng=""
  if [ -n "$NGINX" ]; then
    sed -e "s#@W@#$OUT/ng#g" -e "s#@P@#9403#g" -e "s#@N@#$SC#g" -e "s#@WWW@#$w#g" "$(dirname "$0")/nginx.conf.in" > "$OUT/ng/nginx.conf"
    [ "$(id -u)" -eq 0 ] || sed -i '/^user /d' "$OUT/ng/nginx.conf"
    taskset -c "$SERVER_CORES" "$NGINX" -p "$OUT/ng" -c "$OUT/ng/nginx.conf" -e "$OUT/ng/error.log" > "$OUT/ng/out" 2>&1 &
    ng=$!; PIDS+=($ng); disown; wait_port 9403 || ng=""
  fi
  [ -n "$ng" ] || log "nginx: not installed or not started; its rows are skipped"
  warm http://127.0.0.1:9401/d/door; warm http://127.0.0.1:9402/; [ -z "$ng" ] || warm http://127.0.0.1:9403/door.json
  local bl=""
  if [ -n "${BASELINE_SERVER:-}" ]; then
    taskset -c "$SERVER_CORES" java -jar "$BASELINE_SERVER" --port 9404 --threads "$SC" --idle-timeout 10m > "$OUT/baseline.log" 2>&1 &
    bl=$!; PIDS+=($bl); disown
    if wait_port 9404; then warm http://127.0.0.1:9404/d/door; else log "baseline server did not start: $(tail -2 "$OUT/baseline.log")"; bl=""; fi
  fi
  log "netty: $(head -1 "$OUT/netty.log")"
  for r in $(seq 1 "$ROUNDS"); do for c in $CONNS; do
    load "S-r$r-tickwork" "$tw" http://127.0.0.1:9401/d/door "$c"
    [ -z "$bl" ] || load "S-r$r-baseline" "$bl" http://127.0.0.1:9404/d/door "$c"
    load "S-r$r-netty" "$nt" http://127.0.0.1:9402/ "$c"
    [ -z "$ng" ] || load "S-r$r-nginx" "$ng" http://127.0.0.1:9403/door.json "$c"
  done; done
  stop_all
}

part_p() {
  local c_pp=$OUT/epoll_pingpong go_pp=$OUT/pingpong-go r t
  command -v gcc > /dev/null && gcc -O2 -o "$c_pp" "$ROOT/peers/pingpong-c/epoll_pingpong.c" || c_pp=""
  command -v go > /dev/null && (cd "$ROOT/peers/pingpong-go" && go build -o "$go_pp" .) || go_pp=""
  local pings; pings=$(echo "$PINGS" | sed 's/m$/000000/; s/k$/000/')
  for r in 1 2 3; do
    [ -z "$c_pp" ] || log "P-r$r C epoll: $(timeout 120 "$c_pp" -c 100 -n "$pings" -w 100000 2>&1 | tail -1)"
    [ -z "$go_pp" ] || log "P-r$r Go: $(timeout 120 "$go_pp" run -c 100 -n "$pings" -w 100000 2>&1 | tail -1)"
    log "P-r$r tickwork defaults: $(timeout 180 java -jar "$LOAD" pingpong run -m nio -n "$PINGS" 2>&1 | grep 'us/ping')"
    for t in 1 2 4 8 16 32; do
      [ "$t" -le "$H" ] || break
      log "P-r$r tickwork --server-threads $t -t $t: $(timeout 180 java -jar "$LOAD" pingpong run -m nio -n "$PINGS" --server-threads "$t" -t "$t" 2>&1 | grep 'us/ping')"
    done
  done
}

part_c() {
  setsys fs.nr_open 4000000
  local n; for n in 3900000 2100000 1048576 524288 65536 "$(ulimit -Hn)"; do ulimit -n "$n" 2>/dev/null && break; done
  setsys net.ipv4.ip_local_port_range "10000 65000"; setsys net.core.somaxconn 65535; setsys net.ipv4.tcp_max_syn_backlog 65535
  local lim cap workers clients; lim=$(ulimit -n); cap=$((lim - 2000))
  [ "$cap" -gt 1000 ] || { log "C: skipped, open-file limit $lim leaves no room for connections"; return; }
  # as many workers as the connections need at the limit (10 % headroom), and no fewer than one per
  # two server cores; as many client processes as hold TARGET at the limit less 2,000, plus 8
  workers=$(( (TARGET * 11 / 10 + cap - 1) / cap )); [ "$workers" -ge $(( (SC + 1) / 2 )) ] || workers=$(( (SC + 1) / 2 ))
  clients=$(( (TARGET + lim - 3000) / (lim - 2000) + 8 ))
  log "C: target $TARGET, open-file limit $lim: $workers server workers (2 loops each) of at most $cap connections, $clients client processes"
  java -jar "$SERVER" --port 9600 --processes "$workers" --threads 2 --max-connections "$cap" --idle-timeout 60m \
    > "$OUT/c-server.log" 2>&1 &
  local sv=$!; PIDS+=($sv); disown
  # the launcher prints its start line once every worker listens
  for n in $(seq 1 600); do grep -q "processes:" "$OUT/c-server.log" && break; kill -0 "$sv" 2>/dev/null || break; sleep 0.5; done
  grep -q "processes:" "$OUT/c-server.log" || { log "C: server did not start: $(tail -2 "$OUT/c-server.log")"; stop_all; return; }
  local spids; spids=$(grep -m1 "processes:" "$OUT/c-server.log" | grep -o 'pid=[0-9]*' | cut -d= -f2 | paste -sd, -)
  local t0; t0=$(date +%s)
  java -jar "$LOAD" idle --processes "$clients" -c "$TARGET" --step 40000 --max-pending 8000 --target 127.0.0.1:9600 \
    --server-pid "${spids:-$sv}" --min-available "$FLOOR" --hold 600s -D 900s --json > "$OUT/idle.json" 2> "$OUT/idle.progress" &
  local idle=$!; PIDS+=($idle); disown
  for n in $(seq 1 600); do grep -q "^ramp done" "$OUT/idle.progress" && break; kill -0 "$idle" 2>/dev/null || break; sleep 1; done
  log "C: $(grep -m1 '^ramp done' "$OUT/idle.progress" || echo "ramp not done: $(tail -1 "$OUT/idle.progress")") ($(( $(date +%s) - t0 )) s)"
  log "C: $(tail -1 "$OUT/idle.progress" | tr -s ' ')"
  for c in 1000 100; do load "C-held" "$sv" http://127.0.0.1:9600/d/door "$c"; done
  log "C: still held: $(tail -1 "$OUT/idle.progress" | tr -s ' ')"
  stop_all
}

# jmh NAME JAR ARGS...: one JMH run pinned to JMH_CORES; JSON and log in $OUT
jmh() {
  local name=$1 jar=$2; shift 2
  timeout 3600 taskset -c "$JMH_CORES" java -jar "$jar" "$@" $JMH_OPTS -rf json -rff "$OUT/$name.json" > "$OUT/$name.log" 2>&1
  log "J $name rc=$? $(grep -c '^Result' "$OUT/$name.log") results: $OUT/$name.json"
  grep -E '^(OrderedExecution|KilimSwitch)Benchmark' "$OUT/$name.log" | grep -v ':' >> "$S"
}

part_j() {
  [ -f "$BENCH" ] || { log "J: $BENCH is missing: run ./mvnw -B -q package -DskipTests first"; return; }
  local sched='KilimSwitchBenchmark.(yield|pingPong)' kilim='-p scheduler=tickwork-wheel-linked-array,kilim-forkjoin'
  [ -z "${BASELINE_JAR:-}" ] || jmh order-k64-baseline "$BASELINE_JAR" OrderedExecutionBenchmark -p keys=64 -p variant=keyed
  jmh order-k64 "$BENCH" OrderedExecutionBenchmark -p keys=64 -p variant=keyed
  jmh order-k64-peers "$BENCH" OrderedExecutionBenchmark -p keys=64 -p variant=guavaSequential,clqDrainer,jctoolsMailbox,striped \
    -p background=cpuJob
  jmh scheduler-1-placed "$BENCH" "$sched" $kilim -p threads=1 -p placement=placed -jvmArgsAppend "-Xms2g -Xmx2g"
  jmh scheduler-2-free "$BENCH" "$sched" $kilim -p threads=2 -p placement=free -jvmArgsAppend "-Xms2g -Xmx2g"
}

for part in $PARTS; do case $part in
  S) part_s ;; P) part_p ;; C) part_c ;; J) part_j ;;
  *) log "unknown part $part (S, P, C or J)" ;;
esac; done
log "done: $S"
