#!/usr/bin/env bash
# Measures the Redis memory one waiting visitor costs: starts a throwaway redis-server on a free
# port (never 6379, never a Redis you run), puts N visitors in one line through the real enqueue
# script, and compares the growth of used_memory with N plain sorted-set members of the same ids.
#
#   deploy/sizing/redis-memory.sh [visitors]     (default 100000; needs redis-server and redis-cli)
set -euo pipefail

N=${1:-100000}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SCRIPTS="$ROOT/queue-core/src/main/resources/io/anteroom/queue/scripts"
WORK=$(mktemp -d)
PORT=""

cleanup() {
  if [ -n "$PORT" ]; then redis-cli -p "$PORT" shutdown nosave >/dev/null 2>&1 || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

free_port() {
  local port
  for port in $(seq 26400 26499); do
    if [ -z "$(ss -Hltn "sport = :$port" 2>/dev/null)" ]; then
      echo "$port"
      return
    fi
  done
  echo "no free port in 26400-26499" >&2
  exit 1
}

used_memory() {
  redis-cli -p "$PORT" info memory | tr -d '\r' | sed -n 's/^used_memory:\([0-9]*\)$/\1/p'
}

# One RESP command per line of arguments, so ids and keys need no quoting.
resp() {
  awk '{ printf "*%d\r\n", NF; for (i = 1; i <= NF; i++) printf "$%d\r\n%s\r\n", length($i), $i }'
}

PORT=$(free_port)
redis-server --port "$PORT" --bind 127.0.0.1 --save "" --appendonly no --dir "$WORK" \
  --daemonize yes --logfile "$WORK/redis.log" >/dev/null
until redis-cli -p "$PORT" ping >/dev/null 2>&1; do sleep 0.1; done

# The enqueue script as the apps send it: the --@include line replaced by bucket.lua.
awk -v inc="$SCRIPTS/bucket.lua" '
  /^--@include bucket\.lua$/ { while ((getline line < inc) > 0) print line; next }
  { print }' "$SCRIPTS/enqueue.lua" >"$WORK/enqueue.lua"
SHA=$(redis-cli -p "$PORT" -x script load <"$WORK/enqueue.lua")

# 22-character base64url ids, the form of the gateway's visitor ids (128 random bits).
head -c $((N * 17)) /dev/urandom | base64 -w0 | tr '+/' '-_' | fold -w22 \
  | awk -v n="$N" 'NR <= n && length($0) == 22' >"$WORK/ids"
[ "$(sort -u "$WORK/ids" | wc -l)" -eq "$N" ] || { echo "duplicate ids; run again" >&2; exit 1; }

Q='wr:{shop:1}'
NOW=1767225600000
# max-active 0: nobody is admitted at once, so all N stay in line (waiting + seen).
awk -v sha="$SHA" -v q="$Q" -v now="$NOW" '{
  print "EVALSHA", sha, 5, q ":waiting", q ":running", q ":finished", q ":seen", q ":state", $1, now + NR, 10, 10, 0
}' "$WORK/ids" | resp >"$WORK/enqueue.resp"
awk '{ print "ZADD", "raw", NR, $1 }' "$WORK/ids" | resp >"$WORK/zadd.resp"

before=$(used_memory)
redis-cli -p "$PORT" --pipe <"$WORK/enqueue.resp" >/dev/null
queued=$(used_memory)
redis-cli -p "$PORT" --pipe <"$WORK/zadd.resp" >/dev/null
raw=$(used_memory)

waiting=$(redis-cli -p "$PORT" zcard "$Q:waiting")
seen=$(redis-cli -p "$PORT" zcard "$Q:seen")
[ "$waiting" -eq "$N" ] && [ "$seen" -eq "$N" ] \
  || { echo "expected $N waiting and seen, got $waiting and $seen" >&2; exit 1; }

echo "$(redis-server --version | sed 's/ sha=.*//'), $N visitors with 22-character ids"
echo "used_memory before:                 $before bytes"
echo "after enqueue (waiting + seen):     $queued bytes"
echo "after $N plain ZADD members:   $raw bytes"
awk -v n="$N" -v a="$before" -v b="$queued" -v c="$raw" 'BEGIN {
  printf "per waiting visitor:                %.1f bytes\n", (b - a) / n
  printf "per plain sorted-set member:        %.1f bytes\n", (c - b) / n
}'
