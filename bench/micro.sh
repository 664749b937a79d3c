#!/usr/bin/env bash
# Runs the JMH micro benchmarks of the gateway's hot path (token verification, the path guard, the
# waiting room filter for a pass holder) with the GC profiler and writes bench/results/micro.md.
# Arguments pass through to JMH, e.g. `bench/micro.sh -f 1 -wi 2 -i 3 Token` for a short run.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

classpath_file="$root/bench/target/runtime-classpath.txt"
./mvnw -B -q -pl bench -am install -DskipTests
./mvnw -B -q -pl bench dependency:build-classpath \
  -Dmdep.includeScope=runtime -Dmdep.outputFile="$classpath_file"

# The local repository is shared: another checkout may have installed its own build of Anteroom's
# modules since. Take them from this checkout's target/classes instead.
classpath="$(sed -E "s#[^:]*/io/anteroom/([a-z-]+)/[^/:]+/[^/:]+[.]jar#$root/\1/target/classes#g" \
  "$classpath_file")"

# The forked benchmark JVMs inherit these properties and the class path.
exec java -cp "bench/target/classes:$classpath" \
  -Dbench.micro.config="$root/config/anteroom.yml" \
  -Dslf4j.provider=org.slf4j.simple.SimpleServiceProvider \
  -Dbench.command="bench/micro.sh${*:+ $*}" \
  io.anteroom.bench.micro.MicroBench --out bench/results/micro.md "$@"
