# shellcheck shell=bash
# The processes the benchmarks measure, each the benchmark's own on a free loopback port with its
# log in $WORK: redis-server, the gateway, nginx as the fast origin or as a plain reverse proxy;
# and the passes the gateway gives its visitors.

redis() { redis-cli -h 127.0.0.1 -p "$REDIS_PORT" "$@"; }
redis_ready() { [ "$(redis ping 2>/dev/null)" = PONG ]; }

# Starts a throwaway redis-server on the load CPUs. Sets REDIS_PORT and REDIS_PID.
start_redis() {
  pick_port REDIS_PORT
  spawn redis "${LOAD_PIN[@]}" redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" \
    --appendonly no --dir "$WORK"
  REDIS_PID=$SPAWNED_PID
  await "$REDIS_PID" redis redis_ready
}

# "name calls usec" per command from INFO commandstats.
redis_commandstats() {
  redis info commandstats | tr -d '\r' | awk -F'[:,=]' '/^cmdstat_/ { sub(/^cmdstat_/, "", $1); print $1, $3, $5 }'
}

# "name calls usec" of the commands run between snapshots $1 and $2 (files of redis_commandstats),
# leaving out the INFO that took the first snapshot.
commandstats_diff() {
  awk 'NR == FNR { c[$1] = $2; u[$1] = $3; next }
       $1 != "info" && $2 - c[$1] > 0 { print $1, $2 - c[$1], $3 - u[$1] }' "$1" "$2"
}

# ---------------------------------------------------------------------------------------------
# The gateway

# A fixed test key: base64 of the 32 ASCII bytes "anteroom-bench-status-polls-key!".
TOKEN_KEY=YW50ZXJvb20tYmVuY2gtc3RhdHVzLXBvbGxzLWtleSE=

# Starts the gateway with config/anteroom.yml on CPU GW_CPU alone (so the JVM sizes itself for one
# CPU), with REDIS_PORT, ORIGIN and "$@" as extra properties. Sets GATEWAY_PORT, MANAGEMENT_PORT,
# GATEWAY_PID, GATEWAY_URL, GATEWAY_COMMAND and GC.
start_gateway() {
  pick_port GATEWAY_PORT
  pick_port MANAGEMENT_PORT
  log "starting the gateway on $GATEWAY_PORT (actuator $MANAGEMENT_PORT)"
  GATEWAY_COMMAND="java -Xmx512m -jar $JAR --anteroom.tokens.keys.main=<test-key> --anteroom.gateway.cookie-secure=false $*"
  spawn gateway env -u ANTEROOM_TOKEN_KEY ANTEROOM_CONFIG="$ROOT/config/anteroom.yml" \
    ANTEROOM_REDIS_URI="redis://127.0.0.1:$REDIS_PORT" ANTEROOM_ORIGIN="$ORIGIN" \
    "${GW_PIN[@]}" java -Xmx512m -XX:+PrintCommandLineFlags -jar "$JAR" \
    --server.port="$GATEWAY_PORT" --management.server.port="$MANAGEMENT_PORT" \
    --anteroom.tokens.keys.main="$TOKEN_KEY" --anteroom.gateway.cookie-secure=false "$@"
  GATEWAY_PID=$SPAWNED_PID
  await "$GATEWAY_PID" gateway http_ok "http://127.0.0.1:$MANAGEMENT_PORT/actuator/health/readiness"
  GATEWAY_URL="http://127.0.0.1:$GATEWAY_PORT"
  GC=$(grep -m 1 -o -- '-XX:+Use[A-Za-z]*GC' "$WORK/gateway.log" | sed 's/-XX:+Use//' || true)
}

# CPU ticks the gateway's JIT compiler threads have used.
jit_ticks() {
  local task sum=0
  for task in /proc/"$GATEWAY_PID"/task/*; do
    case "$(cat "$task/comm" 2>/dev/null)" in
      C1\ Compiler* | C2\ Compiler*) sum=$((sum + $(proc_ticks "${task#/proc/}"))) ;;
    esac
  done
  echo "$sum"
}

# Seconds the gateway's JVM has spent in garbage collection so far (jstat's GCT), or 0 without jstat.
gc_seconds() {
  have jstat || { echo 0; return; }
  "${LOAD_PIN[@]}" jstat -gc "$GATEWAY_PID" 2>/dev/null | awk 'NR == 2 { print $NF; found = 1 } END { if (!found) print 0 }'
}

# Warnings and errors in the gateway's log after line $1.
gateway_warnings_after() { tail -n +"$(($1 + 1))" "$WORK/gateway.log" | grep -c -E ' (WARN|ERROR) ' || true; }

# The gateway's count of pass holders' sessions confirmed in Redis, all rooms and outcomes.
pass_checks() {
  curl -s --max-time 5 "http://127.0.0.1:$MANAGEMENT_PORT/actuator/prometheus" \
    | awk '/^anteroom_gateway_pass_checks_total\{/ { s += $NF } END { printf "%d\n", s }'
}

# ---------------------------------------------------------------------------------------------
# nginx, run as this user's own process with a generated configuration (never the system's)

# Starts nginx instance $1 on port $2 with the pinning prefix $3 (may be empty) and the http-level
# configuration on stdin, whose server block the caller closes; waits until it answers. Sets
# NGINX_PIDS (master and worker).
start_nginx() {
  local dir=$WORK/nginx-$1 pin
  read -r -a pin <<<"$3"
  mkdir -p "$dir"
  {
    # A master started by root hands its workers to another user unless told to keep its own.
    [ "$(id -u)" -ne 0 ] || echo "user $(id -un) $(id -gn);"
    cat <<EOF_CONF
worker_processes 1;
daemon off;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $dir/body;
  proxy_temp_path $dir/proxy;
  fastcgi_temp_path $dir/fastcgi;
  uwsgi_temp_path $dir/uwsgi;
  scgi_temp_path $dir/scgi;
  keepalive_requests 1000000;
  keepalive_timeout 75s;
$(cat)
}
EOF_CONF
  } >"$dir/nginx.conf"
  "$(nginx_binary)" -t -q -e "$dir/error.log" -c "$dir/nginx.conf" -p "$dir" >"$WORK/nginx-$1-test.log" 2>&1 \
    || die "nginx rejected $dir/nginx.conf; see $WORK/nginx-$1-test.log"
  log "starting nginx as the $1 on $2"
  spawn "nginx-$1" "${pin[@]}" "$(nginx_binary)" -e "$dir/error.log" -c "$dir/nginx.conf" -p "$dir"
  await "$SPAWNED_PID" "nginx-$1" http_ok "http://127.0.0.1:$2/products/1"
  NGINX_PIDS="$SPAWNED_PID $(pgrep -P "$SPAWNED_PID" | paste -sd' ')"
}

# Starts the fast origin on the load CPUs: nginx serving about 2 KB of HTML, like a product page,
# for every path. Sets ORIGIN, ORIGIN_PIDS, PAGE and PRODUCT_BYTES.
start_origin_nginx() {
  local port i
  pick_port port
  PAGE=$WORK/product.html
  {
    echo '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Product</title></head><body>'
    echo '<h1>Product</h1><p class="price">19.90</p><ul>'
    for i in $(seq 1 30); do printf '<li>Feature %02d of this product, described briefly.</li>\n' "$i"; done
    echo '</ul></body></html>'
  } >"$PAGE"
  PRODUCT_BYTES=$(wc -c <"$PAGE")
  start_nginx origin "$port" "${LOAD_PIN[*]}" <<EOF_CONF
  server {
    listen 127.0.0.1:$port;
    root $WORK;
    default_type text/html;
    location / { try_files /product.html =404; }
  }
EOF_CONF
  ORIGIN_PIDS=$NGINX_PIDS
  ORIGIN="http://127.0.0.1:$port"
}

# Starts nginx as a plain reverse proxy to the origin, with keep-alive connections upstream, on CPU
# GW_CPU alone. Sets PROXY_URL and PROXY_PIDS.
start_proxy_nginx() {
  local port
  pick_port port
  start_nginx proxy "$port" "${GW_PIN[*]}" <<EOF_CONF
  upstream origin {
    server ${ORIGIN#http://};
    keepalive 64;
  }
  server {
    listen 127.0.0.1:$port;
    location / {
      proxy_pass http://origin;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host \$host;
    }
  }
EOF_CONF
  PROXY_PIDS=$NGINX_PIDS
  PROXY_URL="http://127.0.0.1:$port"
}

# ---------------------------------------------------------------------------------------------
# The gateway in front of the fast origin, with bench/config/fast-origin.yml on top of
# config/anteroom.yml, and the passes it gives out

QUEUED_PATH=/queued/1     # route with WaitingRoom=admit; its queue admit:1 is on
UNQUEUED_PATH=/unqueued/1 # the same page through a route without the filter

pass_cookie() { echo "anteroom_pass_$1"; }

# Starts redis-server, the origin and the gateway for the fast origin, with queue admit:1 and the
# queues in "$@" (room:item) turned on at start; the gateway may use every CPU until the runs.
start_fast_origin_services() {
  local queues=admit:1 queue
  for queue in "$@"; do queues+=",$queue"; done
  start_redis
  start_origin_nginx
  start_gateway --spring.config.additional-location="file:$ROOT/bench/config/fast-origin.yml" \
    --anteroom.gateway.activate-on-start="$queues"
  # The JVM has sized itself for one CPU; let it compile its code on all of them until the runs. A
  # JIT sharing one busy core takes minutes to finish.
  [ "$PINNED" -eq 0 ] || pin_process "$GATEWAY_PID" "$ALL_LIST"
}

# True when GET $1, with cookie header $2 (may be empty), answers 200 with the origin's whole page.
check_origin_answer() {
  local status
  status=$(curl -s --max-time 5 -o "$WORK/answer" -w '%{http_code}' -H 'Accept: text/html' ${2:+-H "Cookie: $2"} "$1") || return 1
  [ "$status" = 200 ] && cmp -s "$WORK/answer" "$PAGE"
}

# Sets the variable named $1 to the pass the gateway gives a visitor who loads path $2 (its room's
# queue admits at once or is off), checking that the visitor got the origin's page; with $3, the
# visitor sends that pass, as a browser would, and gets one that opens $2 too.
take_pass() {
  local headers room=${2#/}
  room=${room%%/*}
  [ "$room" != queued ] || room=admit
  headers=$(curl -s --max-time 10 -D - -o "$WORK/first-page" -H 'Accept: text/html' \
    ${3:+-H "Cookie: $(pass_cookie "$room")=$3"} "$GATEWAY_URL$2" | tr -d '\r') \
    || die "a visitor to $2 got no answer within 10 s"
  [[ $headers == "HTTP/1.1 200"* ]] || die "a visitor to $2 got $(head -n 1 <<<"$headers"), not the page"
  cmp -s "$WORK/first-page" "$PAGE" || die "a visitor to $2 did not get the origin's page"
  printf -v "$1" '%s' "$(sed -n "s/^set-cookie: $(pass_cookie "$room")=\([^;]*\).*/\1/Ip" <<<"$headers" | head -n 1)"
  [ -n "${!1}" ] || die "a visitor to $2 got no $(pass_cookie "$room") cookie"
}

# Lua for a wrk script whose threads are visitors of room $1 holding the passes in $2 (space
# separated, one a thread in turn): "cookie" holds the thread's pass, and after an answer that sets
# a new one, as a browser keeps it, the script's rebuild() makes its requests again with it. Every
# answer that is not 200 with the origin's whole page counts as bad.
pass_lua() {
  local cookie
  cookie=$(pass_cookie "$1")
  wrk_common
  cat <<EOF_LUA
local passes = { $(printf '"%s", ' $2) }
local cookie
function init(args)
  bad = 0
  cookie = passes[(id - 1) % #passes + 1]
  start()
end
function response(status, headers, body)
  if status ~= 200 or #body ~= $PRODUCT_BYTES or not string.find(body, '<p class="price">19.90</p>', 1, true) then
    bad = bad + 1
  end
  local set = headers["Set-Cookie"] or headers["set-cookie"]
  local pass = set and string.match(set, "^$cookie=([^;]+)")
  if pass and pass ~= cookie then
    cookie = pass
    rebuild()
  end
end
function header()
  return { ["Accept"] = "text/html", ["Cookie"] = "$cookie=" .. cookie }
end
EOF_LUA
}

# A wrk script: pass holders loading path $2 (QUEUED_PATH by default) again and again, each wrk
# thread one visitor with one of the passes in $1.
pass_holder_lua() {
  echo "-- Admitted visitors: ${2:-$QUEUED_PATH} with a valid pass for the active queue admit:1, one per thread."
  pass_lua admit "$1"
  cat <<EOF_LUA
local req
function start() rebuild() end
function rebuild() req = wrk.format("GET", "${2:-$QUEUED_PATH}", header()) end
function request() return req end
EOF_LUA
}
