#!/usr/bin/env bash
# An open-loop flash crowd: new visitors arrive at a fixed rate whatever the gateway answers, and
# each then polls as the waiting page would. Steps of rising rates on a gateway pinned to one core:
# cold, each step on a gateway just started, then warm, on one gateway after a warm-up step,
# narrowed down to the highest rate one core holds with the joins' p99 under 500 ms and no errors. Builds the gateway and the load tool, starts a
# redis-server, a tiny origin and the gateway on free loopback ports, and writes
# bench/results/flash-crowd.md. Run it from anywhere.
#
# Options: --rates LIST (250,500,1000,2000,4000,8000 new visitors a second)  --step N (20 s each)
#          --hold N (20 s more of the step's visitors polling after its arrivals end)
#          --warmup N (60 s of the warm gateway's first step, at the lowest rate, before the ladder)
#          --narrow N (2 more warm steps between the last held and the first not)
#          --connections N (2000 keep-alive connections at most)  --pause N (5 s between steps)
#          --rate N (500: the room's admit-per-second, at which a worker admits; it sets how often
#          visitors poll)
#          --out FILE
set -euo pipefail
BENCH=flash RATES=250,500,1000,2000,4000,8000 STEP=20 HOLD=20 WARMUP=60 NARROW=2 CONNECTIONS=2000
PAUSE=5 RATE=500 OUT=bench/results/flash-crowd.md
OPTIONS="rates step hold warmup narrow connections pause rate out"
# shellcheck source=bench/lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
# shellcheck source=bench/lib/services.sh
. bench/lib/services.sh
parse_options "$@"
[[ "$RATES" =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || usage_error "--rates: whole numbers, comma-separated"
# Each step has a line of its own: the cold and warm ladders, the warm-up and the narrowing.
[ $((2 * $(tr ',' '\n' <<<"$RATES" | wc -l) + 1 + NARROW)) -le 32 ] || usage_error "at most 32 steps"
require_tools python3
build
./mvnw -B -q -pl admission-worker -am -DskipTests package >"$WORK/build-worker.log" 2>&1 \
  || die "the worker build failed; see $WORK/build-worker.log"
WORKER_JAR=$(ls -t admission-worker/target/*-exec.jar | head -n 1)
setup_pinning
start_redis

# The origin: one static page for the few let in at once while a line is empty.
pick_port ORIGIN_PORT
mkdir -p "$WORK/origin/products"
for i in $(seq 1 32); do echo "Product page" >"$WORK/origin/products/$((90000 + i))"; done
spawn origin "${LOAD_PIN[@]}" python3 -m http.server "$ORIGIN_PORT" --bind 127.0.0.1 --directory "$WORK/origin"
await "$SPAWNED_PID" origin http_ok "http://127.0.0.1:$ORIGIN_PORT/products/90001"
ORIGIN="http://127.0.0.1:$ORIGIN_PORT"

# The demo's room takes whole-number items: lines 90001 to 90032, one per step.
ITEMS=$(seq -s, -f 'shop:%g' 90001 90032)
# The rate alone holds the line back: no cap on sessions (the demo's max-active would make the
# wait, and so the polls, follow sessions ending instead).
ROOM=(--anteroom.rooms.shop.admit-per-second="$RATE" --anteroom.rooms.shop.max-active=100000000)
gateway() { start_gateway --anteroom.gateway.activate-on-start="$ITEMS" "${ROOM[@]}"; }
stop_gateway() {
  kill -TERM "$GATEWAY_PID"
  for _ in $(seq 1 100); do alive "$GATEWAY_PID" && sleep 0.2 || break; done
  kill -KILL "$GATEWAY_PID" 2>/dev/null || true
  wait "$GATEWAY_PID" 2>/dev/null || true
}
gateway

# The worker admits at the rate, beside Redis and the tool.
pick_port WORKER_PORT
spawn worker env ANTEROOM_CONFIG="$ROOT/config/anteroom.yml" \
  ANTEROOM_REDIS_URI="redis://127.0.0.1:$REDIS_PORT" \
  "${LOAD_PIN[@]}" java -Xmx256m -jar "$WORKER_JAR" --server.port="$WORKER_PORT" "${ROOM[@]}"
await "$SPAWNED_PID" worker http_ok "http://127.0.0.1:$WORKER_PORT/actuator/health"
TOOL_PIN=("${LOAD_PIN[@]}")
STEPS="$WORK/steps.tsv"
: >"$STEPS"
flash() {
  bench_tool -Xmx2g -Dbench.gateway="$GATEWAY_URL" -Dbench.gateway.pid="$GATEWAY_PID" \
    -Dbench.redis.pid="$REDIS_PID" -Dbench.steps="$STEPS" \
    -Dbench.gateway.note="\`$JAR\` ($(jar_note)); \`$GATEWAY_COMMAND\`; pinned to CPU ${GW_CPU:-none (fewer than 2 CPUs)}, Redis, the worker and the tool on ${LOAD_LIST}" \
    "$@" io.anteroom.bench.crowd.FlashBench
}

# Cold: each step on a gateway just started, until one does not hold.
LINE=1
for at in ${RATES//,/ }; do
  [ "$LINE" -eq 1 ] || gateway
  log "cold: $at new visitors a second on a gateway just started"
  status=0
  flash -Dbench.phase=cold -Dbench.at="$at" -Dbench.line="$LINE" || status=$?
  [ "$status" -eq 0 ] || [ "$status" -eq 3 ] || die "the tool failed (exit status $status)"
  stop_gateway
  LINE=$((LINE + 1))
  [ "$status" -eq 0 ] || break
done

# Warm: one more gateway, a warm-up step, the ladder and the narrowing.
gateway
log "warm: rates $RATES, $STEP s each, narrowed $NARROW times"
flash -Dbench.phase=warm -Dbench.line="$LINE" || die "the tool failed"
flash -Dbench.phase=report -Dbench.line="$LINE" || die "the report failed"
KEEP_WORK=0
