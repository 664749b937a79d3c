#!/usr/bin/env bash
# Measures the Redis server time of the queue model against raw commands on a fresh redis-server
# and writes bench/results/queue-redis.md. Run it from anywhere.
#
# Options: --rounds N (5)  --warmup N (1, rounds thrown away)  --visitors N (20000 per phase)
#          --batch N (100, visitors per admission call, at most 5000)  --out FILE
set -euo pipefail
BENCH=queue-redis ROUNDS=5 WARMUP=1 VISITORS=20000 BATCH=100 OUT=bench/results/queue-redis.md
OPTIONS="rounds warmup visitors batch out"
# shellcheck source=bench/lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
parse_options "$@"
[ "$BATCH" -le 5000 ] || usage_error "--batch: the policy allows at most 5000"
build
bench_tool io.anteroom.bench.QueueRedisBench || exit
KEEP_WORK=0
