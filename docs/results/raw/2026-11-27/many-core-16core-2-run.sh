#!/usr/bin/env bash
# Quiet many-core checks, JDK 17 (jlinked), everything bounded by BUDGET seconds:
#  O  ordered execution K=64, keyed, background none: dd16016, now, and three variants of the
#     order package laid over now's jar (class dirs in var/), two rounds in opposite orders
#  S  server CPU per keep-alive request, dd16016 against now, alternating rounds
#  K  scheduler rows not yet measured on many cores: Affine (yield, ping-pong), TaskSleep
set -u
D=$(cd "$(dirname "$0")" && pwd)
T0=$(date +%s); BUDGET=${BUDGET:-540}
R=${OUT:-/tmp/mc-out}; W=$(mktemp -d); mkdir -p "$R" "$W/json"
L=$R/summary.txt
left() { echo $((BUDGET - ($(date +%s) - T0))); }
log() { echo "$(date -u +%T) [$(left)] $*" | tee -a "$L"; }
pack() { tar czf "$R/results.tgz" -C "$W" . 2>/dev/null; }
trap 'pkill -P $$ 2>/dev/null; pack' EXIT
if [ -x "${JAVA17:-}" ]; then J=$JAVA17; else tar xJf "$D/jdk17.tar.xz" -C /tmp || { log "no jdk"; exit 2; }; J=/tmp/jdk17/bin/java; fi
mkdir -p /tmp/twd && tar xJf "$D/twd.tar.xz" -C /tmp/twd || log "no twd"
N=$(nproc)
{ uname -a; echo "nproc $N"; lscpu 2>/dev/null | grep -E "Model name|Thread|Core|Socket|L2|L3|NUMA"; free -g | head -2
  $J -version 2>&1; uptime; echo "nofile $(ulimit -n)"; command -v taskset; } > "$R/machine.txt" 2>&1
HAVE_TS=0; command -v taskset > /dev/null && [ "$N" -ge 8 ] && HAVE_TS=1
ts() { local c=$1; shift; if [ $HAVE_TS = 1 ]; then taskset -c "$c" "$@"; else "$@"; fi; }
SC=${SC:-0,1}; CLI=${CLI:-4-$((N - 1))}; JC=${JC:-2-$((N - 1))}
[ "$N" -ge 8 ] || { SC=0; CLI=0; JC=0; }
O=${O:-"-f 2 -wi 2 -w 500ms -i 3 -r 500ms"}
SD=${SD:-5s}
log "start: $N cpus, taskset $HAVE_TS, budget $BUDGET s, jmh '$O'"

# jmh NAME EST_SECONDS CLASSPATH ARGS...: one JMH run, skipped when less than EST is left
jmh() {
  local name=$1 est=$2 cp=$3; shift 3
  [ "$(left)" -ge "$est" ] || { log "$name skipped ($(left) s left, needs $est)"; return; }
  local t; t=$(date +%s)
  ts "$JC" timeout $(($(left) - 5)) $J -cp "$cp" org.openjdk.jmh.Main "$@" $O -rf json -rff "$W/json/$name.json" > "$W/$name.log" 2>&1
  log "$name rc=$? $(grep -c '^Result' "$W/$name.log") results in $(($(date +%s) - t)) s"
  grep -E "^(OrderedExecution|KilimSwitch|KilimTimer)" "$W/$name.log" | grep -v ':' | sed "s/^/$name /" >> "$L"
}

# the classpath of each order subject: dd16016's jar, now's, or now's with a variant's classes first
ocp() { case $1 in dd) echo "$D/bench-dd.jar" ;; now) echo "$D/bench-new.jar" ;; *) echo "$D/var/$1:$D/bench-new.jar" ;; esac; }
part_o() {
  local r v
  for r in 1 2; do
    local order="dd now no-fair-check fair-check-per-64 idle-mark-only-with-free-slot"
    [ $r = 1 ] || order="idle-mark-only-with-free-slot fair-check-per-64 no-fair-check now dd"
    for v in $order; do
      jmh "order-$v-r$r" 30 "$(ocp $v)" OrderedExecutionBenchmark -p keys=64 -p variant=keyed -p background=none
    done
  done
  grep -h "order.Worker" "$W"/order-*-r1.log 2>/dev/null | head -3 >> "$L" # class-source check, if asked
}

wait_port() { local i; for i in $(seq 1 100); do (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null && return 0; sleep 0.2; done; return 1; }
cpu() { awk '{print $14+$15}' "/proc/$1/stat"; }
srv() { if [ $HAVE_TS = 1 ]; then exec taskset -c "$SC" $J "$@"; else exec $J "$@"; fi; } # run with &: $! is the JVM
lt() { ts "$CLI" timeout 40 $J -jar "$D/load.jar" "$@"; }
part_s() {
  local r v pid c0 c1 n f hz; hz=$(getconf CLK_TCK)
  for r in ${ROUNDS:-1 2 3 4}; do
    local vars="dd now"; [ $((r % 2)) = 1 ] || vars="now dd"
    for v in $vars; do
      [ "$(left)" -ge 20 ] || { log "S skipped ($(left) s left)"; return; }
      srv -Xmx256m -cp "/tmp/twd:$D/server-$v.jar" io.tickwork.server.Main --port 19500 --threads 2 > "$W/server-$v-$r.log" 2>&1 &
      pid=$!
      wait_port 19500 || { log "S $v did not start: $(tail -2 "$W/server-$v-$r.log")"; kill $pid; wait $pid; continue; }
      lt bench -c 100 -t 8 -D 3s --quiet --json http://127.0.0.1:19500/d/door > "$W/warm-$v-$r.out" 2>&1 || log "S warm rc=$?: $(tail -c 600 "$W/warm-$v-$r.out")"
      f=$W/json/s-$v-r$r-ka.json
      c0=$(cpu $pid); lt bench -c 100 -t 8 -D "$SD" --quiet --json http://127.0.0.1:19500/d/door > "$f" 2> "$f.err"; c1=$(cpu $pid)
      n=$(grep -o '"completed":[0-9]*' "$f" | head -1 | cut -d: -f2)
      log "S-r$r $v ka responses ${n:-0} ticks $((c1 - c0)) us/req $(awk -v t=$((c1 - c0)) -v n="${n:-0}" -v hz="$hz" 'BEGIN{if (n > 0) printf "%.3f", t * 1e6 / hz / n; else print "-"}')"
      kill $pid; wait $pid 2> /dev/null
    done
  done
}

part_k() {
  jmh sched-affine-t1 25 "$D/bench-new.jar" 'KilimSwitchBenchmark.(yield|pingPong)' -p scheduler=kilim-affine \
    -p threads=1 -p placement=placed -jvmArgsAppend "-Xms2g -Xmx2g"
  jmh sched-affine-t2free 25 "$D/bench-new.jar" 'KilimSwitchBenchmark.(yield|pingPong)' -p scheduler=kilim-affine \
    -p threads=2 -p placement=free -jvmArgsAppend "-Xms2g -Xmx2g"
  jmh sleep-t1 35 "$D/bench-new.jar" 'KilimTimerBenchmark.sleepExpirations' -p sleepCall=TaskSleep \
    -p scheduler=tickwork-wheel-list,kilim-affine,kilim-forkjoin -p threads=1 -p placement=placed -jvmArgsAppend "-Xms2g -Xmx2g"
  jmh sleep-t2free 35 "$D/bench-new.jar" 'KilimTimerBenchmark.sleepExpirations' -p sleepCall=TaskSleep \
    -p scheduler=tickwork-wheel-list,kilim-affine,kilim-forkjoin -p threads=2 -p placement=free -jvmArgsAppend "-Xms2g -Xmx2g"
}
for part in ${PARTS:-O S K}; do case $part in
  O) part_o ;; S) part_s ;; K) part_k ;;
esac; done
log "done"
