#!/usr/bin/env bash
# Measures what one hash tag per room costs on a Redis Cluster of three primaries: the same items'
# joins and admissions as one room with room-wide limits and as one room per item, and the share of
# each primary in each layout; writes bench/results/room-cluster.md. Run it from anywhere.
#
# Options: --rounds N (5)  --warmup N (1, rounds thrown away)  --visitors N (20000 per layout)
#          --items N (12, items of the room)  --batch N (100, visitors per admission call)
#          --out FILE
set -euo pipefail
BENCH=room-cluster ROUNDS=5 WARMUP=1 VISITORS=20000 ITEMS=12 BATCH=100 OUT=bench/results/room-cluster.md
OPTIONS="rounds warmup visitors items batch out"
# shellcheck source=bench/lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
parse_options "$@"
[ "$ITEMS" -ge 1 ] || usage_error "--items: at least 1"
[ "$BATCH" -ge 1 ] && [ "$BATCH" -le 5000 ] || usage_error "--batch: between 1 and 5000"
build
bench_tool io.anteroom.bench.RoomClusterBench || exit
KEEP_WORK=0
