#!/usr/bin/env bash
# Measures the Redis server time of the queue model against raw commands on a fresh redis-server
# and writes bench/results/queue-redis.md. Options pass through, e.g. --rounds 5 --visitors 20000.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

classpath_file="$root/bench/target/runtime-classpath.txt"
./mvnw -B -q -pl bench -am install -DskipTests
./mvnw -B -q -pl bench dependency:build-classpath \
  -Dmdep.includeScope=runtime -Dmdep.outputFile="$classpath_file"

exec java -cp "bench/target/classes:$(cat "$classpath_file")" \
  -Dbench.command="bench/queue-redis.sh${*:+ $*}" \
  io.anteroom.bench.QueueRedisBench --out bench/results/queue-redis.md "$@"
