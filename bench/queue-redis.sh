#!/usr/bin/env bash
# Measures the Redis server time of the queue model against raw commands on a fresh redis-server
# and writes bench/results/queue-redis.md. Options pass through, e.g. --rounds 5 --visitors 20000
# (--help lists them).
set -euo pipefail
BENCH=queue-redis
# shellcheck source=bench/lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
build
bench_tool io.anteroom.bench.QueueRedisBench "$@" || exit
KEEP_WORK=0
