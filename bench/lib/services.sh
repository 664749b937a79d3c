# shellcheck shell=bash
# Starting and watching the processes the HTTP benchmarks measure: redis-server, the gateway and
# nginx. Each runs on a free loopback port with its log in $WORK and stops when the benchmark exits.

# ---------------------------------------------------------------------------------------------
# Redis

redis() {
  redis-cli -h 127.0.0.1 -p "$REDIS_PORT" "$@"
}

redis_ready() {
  [ "$(redis ping 2>/dev/null)" = PONG ]
}

# Starts a throwaway redis-server on a free port, on the load CPUs. Sets REDIS_PORT and REDIS_PID.
start_redis() {
  pick_port REDIS_PORT
  spawn redis "${LOAD_PIN[@]}" redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" \
    --appendonly no --dir "$WORK"
  REDIS_PID=$SPAWNED_PID
  await "$REDIS_PID" redis redis_ready
}

# "name calls usec" per command from INFO commandstats.
redis_commandstats() {
  redis info commandstats | tr -d '\r' \
    | awk -F'[:,=]' '/^cmdstat_/ { sub(/^cmdstat_/, "", $1); print $1, $3, $5 }'
}

# "name calls usec" of the commands run between snapshots $1 and $2 (files of
# redis_commandstats), leaving out the INFO that took the first snapshot.
commandstats_diff() {
  awk 'NR == FNR { c[$1] = $2; u[$1] = $3; next }
       $1 != "info" && $2 - c[$1] > 0 { print $1, $2 - c[$1], $3 - u[$1] }' "$1" "$2"
}

# Total calls in a commandstats_diff file.
commandstats_calls() {
  awk '{ s += $2 } END { print s + 0 }' "$1"
}

# ---------------------------------------------------------------------------------------------
# The gateway

# A fixed test key: base64 of the 32 ASCII bytes "anteroom-bench-status-polls-key!".
TOKEN_KEY=YW50ZXJvb20tYmVuY2gtc3RhdHVzLXBvbGxzLWtleSE=

# Starts the gateway with config/anteroom.yml on CPU GW_CPU alone (so the JVM sizes itself for one
# CPU), talking to REDIS_PORT, with ORIGIN as its origin and "$@" as extra properties. Sets
# GATEWAY_PORT, MANAGEMENT_PORT, GATEWAY_PID, GATEWAY_URL and GC.
start_gateway() {
  pick_port GATEWAY_PORT
  pick_port MANAGEMENT_PORT
  log "starting the gateway on $GATEWAY_PORT (actuator $MANAGEMENT_PORT)"
  spawn gateway env -u ANTEROOM_TOKEN_KEY \
    ANTEROOM_CONFIG="$ROOT/config/anteroom.yml" \
    ANTEROOM_REDIS_URI="redis://127.0.0.1:$REDIS_PORT" \
    ANTEROOM_ORIGIN="$ORIGIN" \
    "${GW_PIN[@]}" java -Xmx512m -XX:+PrintCommandLineFlags -jar "$JAR" \
    --server.port="$GATEWAY_PORT" \
    --management.server.port="$MANAGEMENT_PORT" \
    --anteroom.tokens.keys.main="$TOKEN_KEY" \
    --anteroom.gateway.cookie-secure=false \
    "$@"
  GATEWAY_PID=$SPAWNED_PID
  await "$GATEWAY_PID" gateway http_ok "http://127.0.0.1:$MANAGEMENT_PORT/actuator/health/readiness"
  GATEWAY_URL="http://127.0.0.1:$GATEWAY_PORT"
  GC=$(grep -m 1 -o -- '-XX:+Use[A-Za-z]*GC' "$WORK/gateway.log" | sed 's/-XX:+Use//' || true)
}

# Moves every gateway thread to the cpus in $1.
pin_gateway() {
  pin_process "$GATEWAY_PID" "$1"
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
  if have jstat; then
    "${LOAD_PIN[@]}" jstat -gc "$GATEWAY_PID" 2>/dev/null | awk 'NR == 2 { print $NF; found = 1 } END { if (!found) print 0 }'
  else
    echo 0
  fi
}

# Warnings and errors in the gateway's log after line $1.
gateway_warnings_after() {
  tail -n +"$(($1 + 1))" "$WORK/gateway.log" | grep -c -E ' (WARN|ERROR) ' || true
}

# ---------------------------------------------------------------------------------------------
# nginx, run as this user's own process with a generated configuration (never the system's)

# The page the fast origin serves: about 2 KB of HTML, like a product page.
write_product_page() {
  local dir=$1 i
  mkdir -p "$dir"
  {
    echo '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Product</title></head><body>'
    echo '<h1>Product</h1><p class="price">19.90</p><ul>'
    for i in $(seq 1 30); do printf '<li>Feature %02d of this product, described briefly.</li>\n' "$i"; done
    echo '</ul></body></html>'
  } >"$dir/product.html"
}

# Writes the common head of an nginx configuration for instance $1 (its files in $WORK/nginx-$1).
nginx_head() {
  # A master started by root hands its workers to another user unless told to keep its own.
  [ "$(id -u)" -ne 0 ] || echo "user $(id -un) $(id -gn);"
  cat <<EOF_CONF
worker_processes 1;
daemon off;
master_process on;
pid $WORK/nginx-$1/nginx.pid;
error_log $WORK/nginx-$1/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $WORK/nginx-$1/body;
  proxy_temp_path $WORK/nginx-$1/proxy;
  fastcgi_temp_path $WORK/nginx-$1/fastcgi;
  uwsgi_temp_path $WORK/nginx-$1/uwsgi;
  scgi_temp_path $WORK/nginx-$1/scgi;
  keepalive_requests 1000000;
  keepalive_timeout 75s;
EOF_CONF
}

# Starts nginx instance $1 with configuration file $2 under "$3..." (a pinning prefix, may be
# empty), and waits for URL $4. Sets NGINX_PID to its master process.
start_nginx() {
  local name=$1 conf=$2 url=$4
  local -a pin
  read -r -a pin <<<"$3"
  "$(nginx_binary)" -t -q -e "$WORK/nginx-$name/error.log" -c "$conf" -p "$WORK/nginx-$name" >"$WORK/nginx-$name-test.log" 2>&1 \
    || die "nginx rejected $conf; see $WORK/nginx-$name-test.log"
  spawn "nginx-$name" "${pin[@]}" "$(nginx_binary)" -e "$WORK/nginx-$name/error.log" -c "$conf" -p "$WORK/nginx-$name"
  NGINX_PID=$SPAWNED_PID
  await "$NGINX_PID" "nginx-$name" http_ok "$url"
}

# The pids of nginx master $1 and its workers.
nginx_pids() {
  echo "$1" $(pgrep -P "$1" 2>/dev/null)
}

# Starts the fast origin: nginx serving the product page at /products/<anything> and /, on the
# load CPUs. Sets ORIGIN_PORT, ORIGIN_PID, ORIGIN_PIDS, ORIGIN and PRODUCT_BYTES.
start_origin_nginx() {
  pick_port ORIGIN_PORT
  mkdir -p "$WORK/nginx-origin"
  write_product_page "$WORK/nginx-origin/html"
  PRODUCT_BYTES=$(wc -c <"$WORK/nginx-origin/html/product.html")
  {
    nginx_head origin
    cat <<EOF_CONF
  server {
    listen 127.0.0.1:$ORIGIN_PORT;
    root $WORK/nginx-origin/html;
    default_type text/html;
    location / { try_files /product.html =404; }
  }
}
EOF_CONF
  } >"$WORK/nginx-origin/nginx.conf"
  log "starting nginx as the origin on $ORIGIN_PORT (a $PRODUCT_BYTES-byte page)"
  start_nginx origin "$WORK/nginx-origin/nginx.conf" "${LOAD_PIN[*]}" "http://127.0.0.1:$ORIGIN_PORT/products/1"
  ORIGIN_PID=$NGINX_PID
  ORIGIN_PIDS=$(nginx_pids "$ORIGIN_PID")
  ORIGIN="http://127.0.0.1:$ORIGIN_PORT"
}

# Starts nginx as a plain reverse proxy to ORIGIN_PORT, with keep-alive connections upstream, on
# CPU GW_CPU alone. Sets PROXY_PORT, PROXY_PID, PROXY_PIDS.
start_proxy_nginx() {
  pick_port PROXY_PORT
  mkdir -p "$WORK/nginx-proxy"
  {
    nginx_head proxy
    cat <<EOF_CONF
  upstream origin {
    server 127.0.0.1:$ORIGIN_PORT;
    keepalive 64;
  }
  server {
    listen 127.0.0.1:$PROXY_PORT;
    location / {
      proxy_pass http://origin;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host \$host;
    }
  }
}
EOF_CONF
  } >"$WORK/nginx-proxy/nginx.conf"
  log "starting nginx as a reverse proxy on $PROXY_PORT"
  start_nginx proxy "$WORK/nginx-proxy/nginx.conf" "${GW_PIN[*]}" "http://127.0.0.1:$PROXY_PORT/products/1"
  PROXY_PID=$NGINX_PID
  PROXY_PIDS=$(nginx_pids "$PROXY_PID")
}
