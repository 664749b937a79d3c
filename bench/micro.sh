#!/usr/bin/env bash
# Runs the JMH micro benchmarks of the gateway's hot path (token verification, the path guard, the
# waiting room filter for a pass holder) with the GC profiler and writes bench/results/micro.md.
# Arguments pass through to JMH, e.g. `bench/micro.sh -f 1 -wi 2 -i 3 Token` for a short run.
set -euo pipefail
BENCH=micro
# shellcheck source=bench/lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
build
# The forked benchmark JVMs inherit these properties and the class path.
bench_tool -Dbench.micro.config="$ROOT/config/anteroom.yml" io.anteroom.bench.micro.MicroBench "$@" || exit
KEEP_WORK=0
