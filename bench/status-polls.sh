#!/usr/bin/env bash
# How many waiting-room status polls per second one gateway serves on one core, measured with wrk
# and taken turn about with admitted visitors' requests (a valid pass) through the same gateway to
# a fast origin (the reference). Starts its own redis-server, nginx (the origin, a 2 KB page) and
# gateway on free loopback ports, stops them on exit, and writes bench/results/status-polls.md.
# Run it from anywhere.
#
# Options: --rounds N (4)  --duration S (10, seconds per wrk run)  --warmup S (30, at least)
#          --max-warmup S (90)  --visitors N (1000)  --connections N (64)
#          --pass-connections N (as --connections)  --threads N (2)  --no-pin  --out FILE
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

ROUNDS=4
DURATION=10
# Warm-up runs in slices taking turns until the JIT compilers go quiet; the gateway needs a minute
# or more under load to compile its hot code.
WARMUP=30
MAX_WARMUP=90
WARM_SLICE=5
JIT_QUIET=5 # % of one core the JIT compiler threads may use in the last pair of slices
VISITORS=1000
CONNECTIONS=64
PASSES_CONNECTIONS=""
THREADS=2
PIN=auto
OUT=bench/results/status-polls.md
ROOM=shop
ITEM=1
COMMAND="bench/status-polls.sh${*:+ $*}"

usage() {
  sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) ROUNDS=$2; shift 2 ;;
    --duration) DURATION=$2; shift 2 ;;
    --warmup) WARMUP=$2; shift 2 ;;
    --max-warmup) MAX_WARMUP=$2; shift 2 ;;
    --visitors) VISITORS=$2; shift 2 ;;
    --connections) CONNECTIONS=$2; shift 2 ;;
    --pass-connections) PASSES_CONNECTIONS=$2; shift 2 ;;
    --threads) THREADS=$2; shift 2 ;;
    --no-pin) PIN=no; shift ;;
    --out) OUT=$2; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "status-polls: unknown option '$1'" >&2; usage >&2; exit 2 ;;
  esac
done
PASSES_CONNECTIONS=${PASSES_CONNECTIONS:-$CONNECTIONS}

BENCH=status-polls
# shellcheck source=bench/lib/common.sh
. bench/lib/common.sh
# shellcheck source=bench/lib/tools.sh
. bench/lib/tools.sh
# shellcheck source=bench/lib/services.sh
. bench/lib/services.sh
# shellcheck source=bench/lib/wrk.sh
. bench/lib/wrk.sh
# shellcheck source=bench/lib/fast-origin.sh
. bench/lib/fast-origin.sh
require_counts "$ROUNDS" "$DURATION" "$WARMUP" "$MAX_WARMUP" "$VISITORS" "$CONNECTIONS" "$PASSES_CONNECTIONS" "$THREADS"
WRK_THREADS=$THREADS

# ---------------------------------------------------------------------------------------------
# Tools, build, pinning, then Redis, the origin and the gateway

require_tools nginx
require_gateway_jar
setup_pinning "$PIN"
if [ "$PINNED" -eq 1 ]; then
  PINNING="yes. The gateway starts on CPU $GW_CPU alone (\`taskset -c $GW_CPU\`), so the JVM sizes itself for one CPU, and every recorded run has all its threads on CPU $GW_CPU (\`taskset -a -p -c $GW_CPU\`). Only while visitors join and during the warm-up may it also use CPU $LOAD_LIST, so that its JIT compilers finish in time. wrk, redis-server, the origin and curl run on CPU $LOAD_LIST (\`taskset -c $LOAD_LIST\`)."
else
  PINNING="no: every process may run on any of CPUs $ALL_LIST, so the gateway's share is not one core"
fi
LOAD_AT_START=$(cut -d' ' -f1-3 /proc/loadavg)

start_redis
start_origin_nginx
start_fast_gateway "$ROOM:$ITEM"
# The JVM has sized itself for one CPU; let it use all of them to compile its code while visitors
# join and during the warm-up. A JIT sharing one busy core takes minutes to finish.
[ "$PINNED" -eq 0 ] || pin_gateway "$ALL_LIST"
BASE=$GATEWAY_URL

# ---------------------------------------------------------------------------------------------
# Waiting visitors: each joins once, without cookies; no worker runs, so nobody moves.

TICKET_COOKIE="anteroom_ticket_$ROOM"
JOIN_WORKERS=8
# One curl process sends $1 requests one after another on one connection, without cookies, so each
# is a new visitor; the headers it prints carry each visitor's ticket.
join_batch() {
  local i args=()
  for ((i = 0; i < $1; i++)); do args+=(-o /dev/null "$BASE/products/$ITEM"); done
  "${LOAD_PIN[@]}" curl -s --max-time 120 -D - -H 'Accept: application/json' "${args[@]}" || true
}
log "creating $VISITORS waiting visitors"
: >"$WORK/tickets"
for attempt in 1 2 3 4 5; do
  missing=$((VISITORS - $(wc -l <"$WORK/tickets")))
  [ "$missing" -gt 0 ] || break
  [ "$attempt" -eq 1 ] || log "$missing joins failed (no ticket); joining that many more"
  pids=()
  for ((w = 0; w < JOIN_WORKERS; w++)); do
    join_batch $(((missing + JOIN_WORKERS - 1) / JOIN_WORKERS)) >"$WORK/joins-$attempt-$w" &
    pids+=($!)
  done
  wait "${pids[@]}"
  cat "$WORK"/joins-* | tr -d '\r' | sed -n "s/^set-cookie: $TICKET_COOKIE=\([^;]*\).*/\1/Ip" \
    | awk -v n="$VISITORS" 'length($0) > 0 && !seen[$0]++ && kept++ < n' >"$WORK/tickets.new"
  mv "$WORK/tickets.new" "$WORK/tickets"
done
TICKETS=$(wc -l <"$WORK/tickets")
[ "$TICKETS" -ge "$VISITORS" ] \
  || die "only $TICKETS of $VISITORS visitors got a ticket; was the queue $ROOM:$ITEM on? See $WORK/gateway.log"
JOIN_503=$(cat "$WORK"/joins-* | grep -c '^HTTP/1.1 503' || true)

poll_body() {
  curl -s --max-time 5 -H 'Accept: application/json' -H "Cookie: $TICKET_COOKIE=$1" "$BASE/_anteroom/status?room=$ROOM"
}
SAMPLE_POLL=$(poll_body "$(head -n 1 "$WORK/tickets")")
[[ $SAMPLE_POLL == *'"state":"waiting"'* ]] || die "a poll did not answer waiting: $SAMPLE_POLL"
LINE_LENGTH=$(sed -E 's/.*"waiting":([0-9]+).*/\1/' <<<"$SAMPLE_POLL")
POLL_BYTES=$(curl -s -o /dev/null -w '%{size_download}' -H 'Accept: application/json' \
  -H "Cookie: $TICKET_COOKIE=$(head -n 1 "$WORK/tickets")" "$BASE/_anteroom/status?room=$ROOM")
take_pass HELD_PASS "$QUEUED_PATH"
check_origin_answer "$BASE$QUEUED_PATH" "$(pass_cookie admit)=$HELD_PASS" \
  || die "an admitted visitor did not get the origin's page from $QUEUED_PATH"
log "$TICKETS tickets; the line holds $LINE_LENGTH; a poll answers $POLL_BYTES bytes, an admitted visitor's $QUEUED_PATH $PRODUCT_BYTES bytes"

# ---------------------------------------------------------------------------------------------
# wrk scripts: both prebuild their requests, check every response, and print one RESULT line
# (wrk_common in lib/wrk.sh).

{
  echo "-- Rotates through the tickets of waiting visitors; counts answers that are not 200 + waiting."
  echo "local tickets = {"
  awk '{ printf "  \"%s\",\n", $0 }' "$WORK/tickets"
  echo "}"
  wrk_common
  cat <<EOF
local reqs, n = {}, 0
function init(args)
  bad = 0
  for i, t in ipairs(tickets) do
    reqs[i] = wrk.format("GET", "/_anteroom/status?room=$ROOM",
      { ["Accept"] = "application/json", ["Cookie"] = "$TICKET_COOKIE=" .. t })
  end
  n = (id * 997) % #reqs
end
function request()
  n = n % #reqs + 1
  return reqs[n]
end
function response(status, headers, body)
  if status ~= 200 or not string.find(body, '"state":"waiting"', 1, true) then bad = bad + 1 end
end
EOF
} >"$WORK/polls.lua"
pass_holder_lua "$HELD_PASS" >"$WORK/passes.lua"


# Runs wrk for side $1 (polls|passes) for $2 seconds; with $3 = round, records the run. Sets
# LAST_RPS.
run_side() {
  local side=$1 seconds=$2 round=${3:-} out="$WORK/wrk-$1-${3:-warmup}.txt"
  local gw0 gw1 rd0 rd1 or0 or1 c0 c1 l0 l1 t0 t1 j0 j1 g0 g1
  redis_commandstats >"$WORK/cmd-before"
  j0=$(jit_ticks)
  g0=0
  [ -z "$round" ] || g0=$(gc_seconds)
  read -r gw0 rd0 or0 <<<"$(proc_ticks "$GATEWAY_PID") $(proc_ticks "$REDIS_PID") $(procs_ticks $ORIGIN_PIDS)"
  # shellcheck disable=SC2086 # a list of cpu ids
  c0=$(cpu_ticks ${GW_CPU:-${LOAD_CPUS[*]}})
  l0=$(cpu_ticks "${LOAD_CPUS[@]}")
  t0=$(date +%s%N)
  local connections=$CONNECTIONS
  [ "$side" = polls ] || connections=$PASSES_CONNECTIONS
  local result
  result=$(run_wrk "$BASE" "$WORK/$side.lua" "$connections" "$seconds" "$out")
  t1=$(date +%s%N)
  # shellcheck disable=SC2086 # a list of cpu ids
  c1=$(cpu_ticks ${GW_CPU:-${LOAD_CPUS[*]}})
  l1=$(cpu_ticks "${LOAD_CPUS[@]}")
  read -r gw1 rd1 or1 <<<"$(proc_ticks "$GATEWAY_PID") $(proc_ticks "$REDIS_PID") $(procs_ticks $ORIGIN_PIDS)"
  j1=$(jit_ticks)
  g1=0
  [ -z "$round" ] || g1=$(gc_seconds)
  redis_commandstats >"$WORK/cmd-after"
  LAST_RPS=$(awk '{ printf "%.0f", $1 / ($2 / 1e6) }' <<<"$result")
  [ -n "$round" ] || return 0

  # Redis commands during the run, minus the INFO that took the first snapshot.
  commandstats_diff "$WORK/cmd-before" "$WORK/cmd-after" >"$WORK/cmd-$side-$round"
  local evalsha
  evalsha=$(awk '$1 == "evalsha" { print $2 }' "$WORK/cmd-$side-$round")
  # side round requests duration p50 p99 bad status socket | wall_s gw_s redis_s origin_s
  # | gwcore_busy gwcore_total gwcore_steal | load_busy load_total load_steal | evalsha jit_ticks gc_s
  echo "$side $round $result \
$(awk -v a="$t0" -v b="$t1" 'BEGIN { print (b - a) / 1e9 }') \
$((gw1 - gw0)) $((rd1 - rd0)) $((or1 - or0)) \
$(awk -v x="$c0" -v y="$c1" 'BEGIN { split(x, p, " "); split(y, q, " "); print q[1] - p[1], q[2] - p[2], q[3] - p[3] }') \
$(awk -v x="$l0" -v y="$l1" 'BEGIN { split(x, p, " "); split(y, q, " "); print q[1] - p[1], q[2] - p[2], q[3] - p[3] }') \
${evalsha:-0} $((j1 - j0)) $(awk -v a="$g0" -v b="$g1" 'BEGIN { print b - a }')" >>"$WORK/runs"
  awk -v clk="$CLK_TCK" '{ printf "  round %s %-7s %8.0f requests/s  p50 %.2f ms  p99 %.2f ms  gateway CPU %.0f%% of a core  errors %d/%d/%d\n",
    $2, $1, $3 / ($4 / 1e6), $5 / 1000, $6 / 1000, 100 * $11 / clk / $10, $7, $8, $9 }' <<<"$(tail -n 1 "$WORK/runs")"
}

# ---------------------------------------------------------------------------------------------
# Warm-up, then rounds taking turns

LOG_MARK=$(wc -l <"$WORK/gateway.log")
WARM_SIDES=(polls passes)
warm_up

[ "$PINNED" -eq 0 ] || pin_gateway "$GW_CPU"
: >"$WORK/runs"
for round in $(seq 1 "$ROUNDS"); do
  if [ $((round % 2)) -eq 1 ]; then order=(polls passes); else order=(passes polls); fi
  log "round $round of $ROUNDS (${order[0]} first)"
  for side in "${order[@]}"; do run_side "$side" "$DURATION" "$round"; done
done
LOAD_AT_END=$(cut -d' ' -f1-3 /proc/loadavg)
FINAL_POLL=$(poll_body "$(tail -n 1 "$WORK/tickets")")
[[ $FINAL_POLL == *'"state":"waiting"'* ]] || die "after the runs a poll answered: $FINAL_POLL"
check_origin_answer "$BASE$QUEUED_PATH" "$(pass_cookie admit)=$HELD_PASS" \
  || die "after the runs the admitted visitor no longer got the page"

# ---------------------------------------------------------------------------------------------
# Figures

# Per run, in run order: side round rps p50_ms p99_ms gateway_cpu% gateway_core_busy% other_busy%
# steal% redis_cpu% origin_cpu% requests_per_gateway_cpu_s evalsha_per_request bad non2xx socket requests
# jit_cpu% gc%
awk -v clk="$CLK_TCK" '{
  wall = $10; gw = $11 / clk; total = $15 + $18
  printf "%s %s %.1f %.3f %.3f %.1f %.1f %.1f %.2f %.1f %.1f %.1f %.4f %d %d %d %d %.1f %.1f\n",
    $1, $2, $3 / ($4 / 1e6), $5 / 1000, $6 / 1000, 100 * gw / wall,
    ($15 ? 100 * $14 / $15 : 0), ($18 ? 100 * $17 / $18 : 0), (total ? 100 * ($16 + $19) / total : 0),
    100 * $12 / clk / wall, 100 * $13 / clk / wall, (gw ? $3 / gw : 0), $20 / $3, $7, $8, $9, $3,
    100 * $21 / clk / wall, 100 * $22 / wall
}' "$WORK/runs" >"$WORK/derived"
awk '$1 == "polls"' "$WORK/derived" >"$WORK/polls"
awk '$1 == "passes"' "$WORK/derived" >"$WORK/passes"


# Columns of $WORK/polls and $WORK/passes, for col/med/range below.
C_RPS=3 C_P50=4 C_P99=5 C_GW=6 C_GW_CORE=7 C_OTHER=8 C_REDIS=10 C_ORIGIN=11 C_PER_CPU_S=12 C_JIT=18 C_GC=19
col() { awk -v c="$2" '{ print $c }' "$WORK/$1"; }
med() { col "$1" "$2" | median; }
range() { col "$1" "$2" | minmax | awk -v f="$3" '{ printf f "–" f, $1, $2 }'; }

POLLS_RPS=$(med polls $C_RPS)
PASSES_RPS=$(med passes $C_RPS)
RATIOS=$(awk '$1 == "polls" { p[$2] = $3 } $1 == "passes" { q[$2] = $3 }
  END { for (r in p) if (q[r]) printf "%.4f\n", p[r] / q[r] }' "$WORK/derived")
RATIO=$(median <<<"$RATIOS")
RATIO_RANGE=$(minmax <<<"$RATIOS" | awk '{ printf "%.2f–%.2f", $1, $2 }')
CPU_RATIOS=$(awk '$1 == "polls" { p[$2] = $12 } $1 == "passes" { q[$2] = $12 }
  END { for (r in p) if (q[r]) printf "%.4f\n", p[r] / q[r] }' "$WORK/derived")
CPU_RATIO=$(median <<<"$CPU_RATIOS")
CPU_RATIO_RANGE=$(minmax <<<"$CPU_RATIOS" | awk '{ printf "%.2f–%.2f", $1, $2 }')
POLL_REQUESTS=$(awk '{ s += $17 } END { print s }' "$WORK/polls")
PASSES_REQUESTS=$(awk '{ s += $17 } END { print s }' "$WORK/passes")
# Wrong answers include non-2xx ones; socket errors come on top.
POLL_ERRORS=$(awk '{ s += $14 + $16 } END { print s + 0 }' "$WORK/polls")
PASSES_ERRORS=$(awk '{ s += $14 + $16 } END { print s + 0 }' "$WORK/passes")

# Redis commands summed over the recorded runs of each side: "command calls/request usec/request".
redis_per_request() {
  cat "$WORK"/cmd-"$1"-* 2>/dev/null | awk -v n="$2" '
    { c[$1] += $2; u[$1] += $3 }
    END { for (k in c) printf "%s %.4f %.3f\n", k, c[k] / n, u[k] / n }' | sort -k2,2gr -k1,1
}
redis_per_request polls "$POLL_REQUESTS" >"$WORK/redis-polls"
redis_per_request passes "$PASSES_REQUESTS" >"$WORK/redis-passes"
EVALSHA_PER_POLL=$(awk '$1 == "evalsha" { print $2 }' "$WORK/redis-polls")
EVALSHA_USEC=$(awk '$1 == "evalsha" { print $3 }' "$WORK/redis-polls")
EVALSHA_PER_POLL=${EVALSHA_PER_POLL:-0}
EVALSHA_USEC=${EVALSHA_USEC:-0}
# One round trip per poll: one EVALSHA, give or take the polls in flight when wrk stopped (which
# Redis served and wrk did not count), and no other command beyond the background's.
EVALSHA_SLACK=$(awk -v c="$CONNECTIONS" -v n="$POLL_REQUESTS" -v r="$ROUNDS" 'BEGIN { printf "%.6f", n ? c * r / n : 0 }')
if awk -v x="$RATIO" -v e="$EVALSHA_PER_POLL" -v s="$EVALSHA_SLACK" 'BEGIN { exit !(x >= 0.8 && e >= 1 - s && e <= 1 + s) }'; then
  GOAL5="met ($(fmt '%.2f' "$RATIO")×, $(fmt '%.3f' "$EVALSHA_PER_POLL") EVALSHA per poll)"
else
  GOAL5="not met ($(fmt '%.2f' "$RATIO")×, $(fmt '%.3f' "$EVALSHA_PER_POLL") EVALSHA per poll)"
fi
PASSES_REDIS=$(awk '{ s += $2 } END { printf "%.4f", s }' "$WORK/redis-passes")
if [ -s "$WORK/redis-passes" ]; then
  PASSES_REDIS_LIST=$(awk '{ printf "%s%s %.4f", (NR > 1 ? ", " : ""), toupper($1), $2 }' "$WORK/redis-passes")
else
  PASSES_REDIS_LIST=none
fi

GW_CPU_POLLS=$(med polls $C_GW)
GW_CPU_PASSES=$(med passes $C_GW)
PER_CPU_S_POLLS=$(med polls $C_PER_CPU_S)
PER_CPU_S_PASSES=$(med passes $C_PER_CPU_S)
OTHER_BUSY_PASSES=$(med passes $C_OTHER)
JIT_MAX=$(cat "$WORK/polls" "$WORK/passes" | awk -v c=$C_JIT 'BEGIN { m = 0 } $c > m { m = $c } END { printf "%.1f", m }')
REDIS_CPU_POLLS=$(med polls $C_REDIS)
OTHER_BUSY_POLLS=$(med polls $C_OTHER)
GW_CORE_BUSY_POLLS=$(med polls $C_GW_CORE)
STEAL=$(awk '{ s += $9 } END { printf "%.1f", s / NR }' "$WORK/derived")
STEAL_MAX=$(awk 'BEGIN { m = 0 } $9 > m { m = $9 } END { printf "%.1f", m }' "$WORK/derived")
SATURATED=$(awk -v g="$GW_CPU_POLLS" 'BEGIN { print (g >= 90) ? 1 : 0 }')
PASSES_SATURATED=$(awk -v g="$GW_CPU_PASSES" 'BEGIN { print (g >= 90) ? 1 : 0 }')

MACHINE=$(machine_line)
JAVA_VERSION=$(java_version)
REDIS_VERSION=$(redis_version)
WRK_VERSION=$(wrk_version)
JAR_NOTE=$(jar_note)
# Warnings and errors the gateway logged while visitors joined, and during the warm-up and runs.
JOIN_TIMEOUTS=$(head -n "$LOG_MARK" "$WORK/gateway.log" | grep -c 'RedisCommandTimeoutException' || true)
RUN_WARNINGS=$(gateway_warnings_after "$LOG_MARK")
if [ "$PASSES_CONNECTIONS" = "$CONNECTIONS" ]; then
  WRK_LINE="\`$(wrk_line "$CONNECTIONS" "$DURATION")\`"
else
  WRK_LINE="\`$(wrk_line '<connections>' "$DURATION")\` with $CONNECTIONS connections for polls and $PASSES_CONNECTIONS for admitted visitors' requests"
fi
if [ "$PINNED" -eq 1 ]; then
  GW_CORE_LABEL="gateway's CPU busy"
  OTHER_LABEL="other CPUs busy"
else
  GW_CORE_LABEL="all CPUs busy"
  OTHER_LABEL="all CPUs busy"
fi

# ---------------------------------------------------------------------------------------------
# Results file

row() { # label column format
  printf '| %s | %s (%s) | %s (%s) |\n' "$1" "$(fmt "$3" "$(med polls "$2")")" "$(range polls "$2" "$3")" \
    "$(fmt "$3" "$(med passes "$2")")" "$(range passes "$2" "$3")"
}

reading() {
  if [ "$PINNED" -eq 1 ]; then
    echo "- **One gateway core served $(int "$POLLS_RPS") status polls per second** (median; $(range polls $C_RPS '%.0f') over the rounds). That is $(fmt '%.2f' "$RATIO")× the $(int "$PASSES_RPS") admitted visitors' requests per second the same core served. Per second of CPU the gateway actually used, it served $(int "$PER_CPU_S_POLLS") polls."
  else
    echo "- **The gateway served $(int "$POLLS_RPS") status polls per second** (median; $(range polls $C_RPS '%.0f')), $(fmt '%.2f' "$RATIO")× the admitted visitors' requests. It was not pinned to a core, so this is not a per-core figure. Per second of CPU the gateway used, it served $(int "$PER_CPU_S_POLLS") polls."
  fi
  if [ "$SATURATED" -eq 1 ]; then
    echo "- During the poll runs the gateway used $(pct "$GW_CPU_POLLS") of a core, so its own CPU was the limit. Redis was not. It used $(pct "$REDIS_CPU_POLLS") of a core, and at $(fmt '%.1f' "$EVALSHA_USEC") µs of server time per poll, one Redis core could carry roughly $(awk -v u="$EVALSHA_USEC" 'BEGIN { printf "%.0f", (u > 0) ? int(1e6 / u / 100 + 0.5) * 100 : 0 }') polls per second. That is an upper bound, because it counts server time only and leaves out network handling."
  else
    echo "- During the poll runs the gateway used only $(pct "$GW_CPU_POLLS") of a core, so something else set the pace. The other CPUs, which run wrk, Redis and the origin, were $(pct "$OTHER_BUSY_POLLS") busy, and Redis used $(pct "$REDIS_CPU_POLLS") of a core. Read requests/s as a lower bound for one gateway core. Polls per second of gateway CPU ($(int "$PER_CPU_S_POLLS")) is the better estimate."
  fi
  if [ "$PASSES_SATURATED" -eq 0 ]; then
    echo "- The reference did not fill the gateway's core. During the admitted visitors' runs the gateway used $(pct "$GW_CPU_PASSES") of it, and the other CPUs, which run wrk, Redis and the origin, were $(pct "$OTHER_BUSY_PASSES") busy, so they set the pace. Compare per second of gateway CPU instead: $(int "$PER_CPU_S_POLLS") polls against $(int "$PER_CPU_S_PASSES") admitted visitors' requests, $(fmt '%.2f' "$CPU_RATIO")×."
  else
    echo "- Per second of gateway CPU, the gateway served $(int "$PER_CPU_S_POLLS") polls against $(int "$PER_CPU_S_PASSES") admitted visitors' requests, $(fmt '%.2f' "$CPU_RATIO")×."
  fi
  echo "- A poll costs the gateway an HS256 check of the ticket, one Redis round trip and a small JSON answer. An admitted visitor's request costs an HS256 check of the pass (no Redis), a round trip to the origin and relaying its page. Both go through the same Netty server."
  if awk -v b="$GW_CORE_BUSY_POLLS" -v g="$GW_CPU_POLLS" 'BEGIN { exit !(b - g >= 5) }'; then
    echo "- During the poll runs the gateway used $(pct "$GW_CPU_POLLS") of its core, while the $GW_CORE_LABEL figure was $(pct "$GW_CORE_BUSY_POLLS"). The difference is other processes, and kernel work charged to no process, such as loopback networking."
  fi
  read -r first_polls first_passes <<<"$WARM_FIRST"
  read -r last_polls last_passes <<<"$WARM_LAST"
  echo "- The JIT takes a while. In the $WARM_SECONDS s of warm-up, polls went from $first_polls/s in the first slice to $last_polls/s in the last, and admitted visitors' requests from $first_passes/s to $last_passes/s. A gateway that has just started, such as one the autoscaler has just added, serves far fewer polls until it has warmed up. In the recorded runs, the JIT compilers used at most $JIT_MAX % of a core."
  if [ "$PINNED" -eq 1 ]; then
    echo "- The gateway warmed up on all CPUs because its JIT compiler threads get only a share of one busy core, so on one core compiling the hot code takes minutes of load. A gateway limited to one CPU in production warms up that slowly."
  fi
  if awk -v s="$STEAL_MAX" 'BEGIN { exit !(s >= 5) }'; then
    echo "- The host took CPU time away from this virtual machine: up to $STEAL_MAX % of it in one run (the stolen column below). Time stolen from the gateway's CPU lowers that run's requests/s but not its requests per second of gateway CPU."
  fi
  echo "- Latency is measured at saturation, so it is mostly queueing. It says nothing about latency at the load a gateway is sized for."
  echo "- The machine is a shared $(nproc)-CPU virtual machine: load average $LOAD_AT_START at start, $STEAL % of CPU time stolen. Compare ratios rather than absolute figures across machines, and size production from a run on its own hardware."
  if [ "$JOIN_503" -gt 0 ] || [ "$JOIN_TIMEOUTS" -gt 0 ]; then
    echo "- While the visitors joined, just after start-up, the gateway answered 503 to $JOIN_503 of the joins, and its log shows $JOIN_TIMEOUTS Redis command timeout(s) (\`anteroom.redis.command-timeout\`, 500 ms). A cold JVM that is still compiling its code can take longer than that to handle a reply. The benchmark joined that many more visitors, and measured only after the warm-up."
  fi
  if [ "$RUN_WARNINGS" -gt 0 ]; then
    echo "- During the warm-up and the runs, the gateway logged $RUN_WARNINGS warnings or errors (kept with the other logs in $WORK)."
  else
    echo "- The gateway logged no warning or error during the warm-up and the runs."
  fi
}

mkdir -p "$(dirname "$OUT")"
{
  cat <<EOF
# Status polls per second on one gateway core, next to admitted visitors

| | |
|---|---|
| date (UTC) | $(date -u +%Y-%m-%dT%H:%M:%SZ) |
| command | \`$COMMAND\` |
| machine | $MACHINE |
| host load | load average $LOAD_AT_START at start, $LOAD_AT_END at the end; $STEAL % of CPU time stolen by the host during the runs (/proc/stat) |
| pinning | $PINNING |
| gateway | \`$JAR\` ($JAR_NOTE); \`java -Xmx512m -jar\`, the JVM chose ${GC:-its default GC}; Java $JAVA_VERSION |
| redis-server | $REDIS_VERSION, started by the benchmark on a free loopback port (\`--save "" --appendonly no\`) |
| origin | nginx $(nginx_version), \`worker_processes 1\`, \`access_log off\`, serving one static $PRODUCT_BYTES-byte page for every path, started by the benchmark with a generated configuration on a free loopback port |
| load | wrk $WRK_VERSION: $WRK_LINE; $ROUNDS rounds after $WARM_NOTE |
| line | $TICKETS waiting visitors' tickets, in queue \`$ROOM:$ITEM\`, whose line holds $LINE_LENGTH$( [ "$LINE_LENGTH" -le "$TICKETS" ] || echo " (repeated joins put the rest there)"); no admission worker runs, so nobody moves |

## How it is measured

The benchmark starts its own redis-server, nginx serving a $PRODUCT_BYTES-byte page as the origin, and one gateway with \`config/anteroom.yml\` and \`bench/config/fast-origin.yml\` on top (its routes lead to nginx), a fixed test signing key, and the queues \`$ROOM:$ITEM\` and \`admit:1\` turned on at start. $VISITORS visitors each load \`/products/$ITEM\` once, with \`Accept: application/json\` and no cookies, so each request is a new visitor who joins the line, and the \`Set-Cookie\` of each answer holds that visitor's ticket. The first one may be let in at once by the room's token bucket. Joins that fail are repeated, because a cold gateway may answer 503. The admitted visitor takes a pass the same way: one request to \`$QUEUED_PATH\` without cookies, whose queue \`admit:1\` lets everyone in at once and keeps them in for an hour, so the pass is not renewed during the runs.

The two sides take turns within each round, and which side goes first alternates between rounds, so changes in the machine's load fall on both alike:

- **polls**: \`GET /_anteroom/status?room=$ROOM\` with \`Accept: application/json\`. Each request carries the next visitor's \`$TICKET_COOKIE\` cookie in turn. Every answer must be \`200\` with \`"state":"waiting"\` ($POLL_BYTES bytes), and wrk's Lua script counts any other. This is what every waiting browser does. The gateway verifies the ticket's signature, makes one Redis call (\`status.lua\`: the place in line, the length of the line, the visitor's last-seen time) and answers JSON.
- **passes** (the reference): an admitted visitor's \`GET $QUEUED_PATH\` with a valid pass, through a route with the WaitingRoom filter on an active queue. The gateway checks the pass without Redis, forwards to nginx and relays the page. Every answer must be \`200\` with the origin's whole $PRODUCT_BYTES-byte page.

Requests/s and latency percentiles come from wrk. It runs a closed loop: each connection sends its next request as soon as the answer arrives, so latency at saturation is mostly queueing, about connections ÷ requests/s. The CPU use of each process comes from \`/proc/<pid>/stat\` (user + system, all threads), over each run. The per-CPU busy and stolen figures come from \`/proc/stat\`, which counts in timer ticks; they show whether other work shared a CPU, and are less exact than the per-process figures. Redis commands come from \`INFO commandstats\` before and after each run. Commands that a script runs are counted inside its EVALSHA and also under their own names.

## Results (median of $ROUNDS rounds)

| figure | polls | admitted visitors |
|---|---:|---:|
$(row "requests/s" $C_RPS '%.0f')
$(row "latency p50, ms" $C_P50 '%.2f')
$(row "latency p99, ms" $C_P99 '%.2f')
$(row "gateway CPU, % of one core" $C_GW '%.0f')
$(row "requests per second of gateway CPU" $C_PER_CPU_S '%.0f')
$(row "$GW_CORE_LABEL, %" $C_GW_CORE '%.0f')
$(row "$OTHER_LABEL, %" $C_OTHER '%.0f')
$(row "Redis CPU, % of one core" $C_REDIS '%.0f')
$(row "origin CPU, % of one core" $C_ORIGIN '%.0f')
$(row "gateway's JIT compilers, % of one core" $C_JIT '%.1f')
$(row "gateway's garbage collection, % of the time" $C_GC '%.1f')
| requests counted | $POLL_REQUESTS | $PASSES_REQUESTS |
| wrong answers and socket errors | $POLL_ERRORS | $PASSES_ERRORS |

| ratio | median | min–max |
|---|---:|---:|
| polls/s ÷ admitted visitors' requests/s, same round (goal 5: ≥ 0.8) | $(fmt '%.2f' "$RATIO")× | $RATIO_RANGE× |
| polls ÷ admitted visitors' requests per second of gateway CPU, same round | $(fmt '%.2f' "$CPU_RATIO")× | $CPU_RATIO_RANGE× |

Goal 5, polls/s ÷ admitted visitors' requests/s ≥ 0.8 with one Redis round trip per poll: **$GOAL5**.

## Redis commands per poll

$(fmt '%.3f' "$EVALSHA_PER_POLL") EVALSHA per poll, so one Redis round trip, with $(fmt '%.1f' "$EVALSHA_USEC") µs of Redis server time.$(awk -v e="$EVALSHA_PER_POLL" -v c="$CONNECTIONS" -v n="$POLL_REQUESTS" -v r="$ROUNDS" 'BEGIN { if (e > 1) printf " The part above one is the polls still in flight when wrk stopped, which Redis served but wrk did not count: %d connections for about %.0f polls per run is %.4f.", c, n / r, c / (n / r) }') Summed over the recorded poll runs, per poll:

| command | calls per poll | µs per poll |
|---|---:|---:|
$(awk '{ printf "| %s | %.4f | %.3f |\n", toupper($1), $2, $3 }' "$WORK/redis-polls")

ZCARD, ZRANK and ZADD run inside \`status.lua\`, so their time is part of EVALSHA's. During the admitted visitors' runs Redis served $PASSES_REDIS commands per request ($PASSES_REDIS_LIST): the gateway's own background reads (\`bench/pass-holders.sh\` measures them apart), which the poll figures contain too.

## Reading

$(reading)

## Per run

In the order they ran. Wrong answers include non-2xx ones.

| round | side | requests/s | p50 ms | p99 ms | requests | non-2xx | wrong answers | socket errors | gateway CPU % | JIT % | GC % | $GW_CORE_LABEL % | $OTHER_LABEL % | stolen % | Redis CPU % | origin CPU % | EVALSHA per request |
|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
$(awk '{ printf "| %s | %s | %.0f | %.2f | %.2f | %d | %d | %d | %d | %.0f | %.1f | %.1f | %.0f | %.0f | %.1f | %.0f | %.0f | %.3f |\n",
  $2, $1, $3, $4, $5, $17, $15, $14, $16, $6, $18, $19, $7, $8, $9, $10, $11, $13 }' "$WORK/derived")
EOF
} >"$OUT.tmp"
mv "$OUT.tmp" "$OUT"
[ "$RUN_WARNINGS" -gt 0 ] || KEEP_WORK=0
log "polls: $(int "$POLLS_RPS")/s, admitted visitors: $(int "$PASSES_RPS")/s; goal 5: $GOAL5"
log "wrote $OUT"
