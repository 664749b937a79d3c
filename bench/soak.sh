#!/usr/bin/env bash
# A long run: steady joins, polls and pass-holder traffic through one gateway and one worker on
# one redis-server with an append-only file, which is killed (SIGKILL) and started again every few
# minutes, alternately with its data and empty. Records the visitors' answers, the line after each
# restart, and the apps' heap (also right after a full GC, by jcmd) and threads and Redis's
# connections over the run, to
# bench/results/soak.md. A tiny static origin (python3 -m http.server) serves the product page.
#
# Options: --minutes N (30)  --restart-every N (5, minutes)  --line N (200 waiting)
#          --poll N (3, seconds between a waiting visitor's polls)  --rate N (10 admitted a second)
#          --out FILE
set -euo pipefail
BENCH=soak NO_PIN=1 MINUTES=30 RESTART_EVERY=5 LINE=200 POLL=3 RATE=10
OUT=bench/results/soak.md OPTIONS="minutes restart-every line poll rate out"
# shellcheck source=bench/lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
# shellcheck source=bench/lib/services.sh
. bench/lib/services.sh
parse_options "$@"
require_tools python3 jcmd
build
./mvnw -B -q -pl admission-worker -am -DskipTests package >"$WORK/build-worker.log" 2>&1 \
  || die "the worker build failed; see $WORK/build-worker.log"
WORKER_JAR=$(ls -t admission-worker/target/*-exec.jar | head -n 1)
setup_pinning

# The redis-server, with an append-only file in its own directory, restarted by the tool.
pick_port REDIS_PORT
mkdir -p "$WORK/redis"
REDIS_ARGS=(redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --appendonly yes --appendfsync everysec
  --dir "$WORK/redis")
spawn redis "${REDIS_ARGS[@]}"
REDIS_PID=$SPAWNED_PID
await "$REDIS_PID" redis redis_ready

# The origin: one static page.
pick_port ORIGIN_PORT
mkdir -p "$WORK/origin/products"
echo "Product page" >"$WORK/origin/products/1"
spawn origin python3 -m http.server "$ORIGIN_PORT" --bind 127.0.0.1 --directory "$WORK/origin"
await "$SPAWNED_PID" origin http_ok "http://127.0.0.1:$ORIGIN_PORT/products/1"
ORIGIN="http://127.0.0.1:$ORIGIN_PORT"

ROOM=(--anteroom.rooms.shop.admit-per-second="$RATE" --anteroom.rooms.shop.max-active=1000
  --anteroom.rooms.shop.session-duration=30s --anteroom.rooms.shop.activate-above=0)
start_gateway --anteroom.gateway.activate-on-start=shop:1 "${ROOM[@]}"

pick_port WORKER_PORT
spawn worker env ANTEROOM_CONFIG="$ROOT/config/anteroom.yml" \
  ANTEROOM_REDIS_URI="redis://127.0.0.1:$REDIS_PORT" \
  java -Xmx256m -jar "$WORKER_JAR" --server.port="$WORKER_PORT" "${ROOM[@]}"
WORKER_PID=$SPAWNED_PID
await "$WORKER_PID" worker http_ok "http://127.0.0.1:$WORKER_PORT/actuator/health"

log "soaking for $MINUTES minutes, Redis restarted every $RESTART_EVERY"
bench_tool -Xmx512m -Dbench.gateway="$GATEWAY_URL" \
  -Dbench.gateway.metrics="http://127.0.0.1:$MANAGEMENT_PORT/actuator/prometheus" \
  -Dbench.worker.metrics="http://127.0.0.1:$WORKER_PORT/actuator/prometheus" \
  -Dbench.gateway.pid="$GATEWAY_PID" -Dbench.worker.pid="$WORKER_PID" \
  -Dbench.redis.port="$REDIS_PORT" -Dbench.redis.pid="$REDIS_PID" -Dbench.redis.dir="$WORK/redis" \
  -Dbench.redis.log="$WORK/redis.log" -Dbench.redis.command="${REDIS_ARGS[*]}" \
  io.anteroom.bench.soak.SoakBench || exit
KEEP_WORK=0
