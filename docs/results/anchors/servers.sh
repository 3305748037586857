# Sourced by run.sh and syscalls.sh: the anchor servers on 127.0.0.1, all sending tickwork's
# /d/door body. Needs ROOT, OUT and a PIDS array (the caller's trap stops what is added to it).
# start_servers NAME...: tickwork (always, first: the others serve the body it answered), netty
# (4.2 on epoll), netty-nio, nginx; fills URL, PORT and SPID for them, and returns only once
# each answers the same bytes (exits 1 after 10 s without).
declare -A URL=( [tickwork]=http://127.0.0.1:9401/d/door [netty]=http://127.0.0.1:9402/
                 [netty-nio]=http://127.0.0.1:9404/ [nginx]=http://127.0.0.1:9403/1k )
declare -A PORT=( [tickwork]=9401 [netty]=9402 [netty-nio]=9404 [nginx]=9403 )
declare -A SPID=()

start_servers() {
  local www=$OUT/nginx/www peers=$ROOT/peers/target/tickwork-peers.jar s i
  mkdir -p "$www"
  java -jar "$ROOT/nio-server/target/tickwork-server.jar" --port 9401 --idle-timeout 10m > "$OUT/tickwork.log" 2>&1 &
  SPID[tickwork]=$!; PIDS+=($!)
  for i in $(seq 1 50); do curl -s -o "$www/door.json" --max-time 2 "${URL[tickwork]}" && break; sleep 0.2; done
  [ -s "$www/door.json" ] || { echo "tickwork did not answer on 9401: $OUT/tickwork.log" >&2; exit 1; }
  cp "$www/door.json" "$www/1k" # nginx's location serves /1k: the same bytes
  chmod -R a+rX "$OUT"
  for s in "$@"; do
    case $s in
      netty|netty-nio)
        java -jar "$peers" "${PORT[$s]}" \
          --transport "$([ "$s" = netty ] && echo epoll || echo nio)" --body "$www/door.json" \
          > "$OUT/$s.log" 2>&1 & ;;
      nginx)
        /usr/sbin/nginx -p "$OUT/nginx/" -c "$ROOT/docs/results/anchors/nginx.conf" -e "$OUT/nginx/error.log" \
          > "$OUT/nginx.out" 2>&1 & ;;
      *) continue ;;
    esac
    SPID[$s]=$!; PIDS+=($!)
  done
  for s in "$@"; do
    for i in $(seq 1 50); do cmp -s <(curl -s --max-time 2 "${URL[$s]}") "$www/door.json" && break; sleep 0.2; done
    cmp -s <(curl -s --max-time 2 "${URL[$s]}") "$www/door.json" || { echo "$s did not answer the same bytes" >&2; exit 1; }
  done
}
