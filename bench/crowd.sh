#!/usr/bin/env bash
# Goals 9 and 10: the gateway's heap with a million visitors waiting, and a burst of 100,000 new
# visitors joining. Builds the gateway and the load tool, which starts its own redis-server, stub
# origin and gateway, stops them on exit, and writes bench/results/crowd.md. Run it from anywhere.
# Options pass through, e.g. --visitors 5000 --burst 2000 --warmup 2000 (--help lists them).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

# One reactor build, so the tool runs against this checkout's queue-core and test-support and the
# gateway jar is built from the same sources.
./mvnw -B -q -pl gateway,bench -am -DskipTests package dependency:build-classpath \
  -Dmdep.includeScope=runtime -Dmdep.outputFile=target/crowd-classpath.txt

exec java -Xmx2g -cp "bench/target/classes:$(cat bench/target/crowd-classpath.txt)" \
  -Dbench.root="$root" -Dbench.command="bench/crowd.sh${*:+ $*}" \
  io.anteroom.bench.crowd.CrowdBench "$@"
