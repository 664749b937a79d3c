#!/usr/bin/env bash
# Goals 9 and 10: the gateway's heap with a million visitors waiting, and a burst of 100,000 new
# visitors joining. Builds the gateway and the load tool, starts a redis-server, nginx as the
# origin and the gateway on free loopback ports, runs the tool against them, stops them on exit,
# and writes bench/results/crowd.md. Run it from anywhere.
#
# Options: --visitors N (1000000 waiting at the end)  --burst N (100000)  --warmup N (100000 joins
#          on another line, at least)  --max-warmup N (400000, at most, while joins still speed
#          up)  --out FILE
set -euo pipefail
BENCH=crowd NO_PIN=1 VISITORS=1000000 BURST=100000 WARMUP=100000 MAX_WARMUP=400000
OUT=bench/results/crowd.md OPTIONS="visitors burst warmup max-warmup out"
# shellcheck source=bench/lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
# shellcheck source=bench/lib/services.sh
. bench/lib/services.sh
parse_options "$@"
[ "$VISITORS" -ge "$BURST" ] || usage_error "--visitors: at least the burst"
[ "$MAX_WARMUP" -ge "$WARMUP" ] || MAX_WARMUP=$WARMUP
require_tools nginx
build
setup_pinning
start_redis
start_origin_nginx
start_gateway --anteroom.gateway.activate-on-start=shop:9001,shop:9002
bench_tool -Xmx2g -Dbench.gateway="$GATEWAY_URL" -Dbench.gateway.pid="$GATEWAY_PID" \
  -Dbench.gateway.log="$WORK/gateway.log" -Dbench.gateway.note="\`$JAR\` ($(jar_note)); \`$GATEWAY_COMMAND\`" \
  -Dbench.redis="redis://127.0.0.1:$REDIS_PORT" -Dbench.redis.pid="$REDIS_PID" \
  io.anteroom.bench.crowd.CrowdBench || exit
KEEP_WORK=0
