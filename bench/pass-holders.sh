#!/usr/bin/env bash
# How many requests per second one gateway core forwards for admitted visitors (a valid pass on an
# active queue), next to the same gateway's route without the WaitingRoom filter and next to nginx
# as a plain reverse proxy, all to one fast origin (nginx serving a 2 KB page); and how many Redis
# commands a pass holder's request, and a request on an item whose queue is off, costs.
# Starts its own redis-server, nginx (origin and proxy) and gateway on free loopback ports, stops
# them on exit, and writes bench/results/pass-holders.md. Run it from anywhere.
#
# Options: --rounds N (5)  --duration S (10, seconds per wrk run)  --warmup S (30, at least)
#          --max-warmup S (90)  --connections N (64)  --threads N (2)  --items N (16, inactive
#          items the browse side spreads over, at most the 16 one pass opens)  --jfr (one more run of the filtered and the
#          unfiltered side with the JDK Flight Recorder, to see where the filter's CPU goes)
#          --no-pin  --out FILE
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

ROUNDS=5
DURATION=10
WARMUP=30
MAX_WARMUP=90
WARM_SLICE=5
HIT_SETTLE=2 # seconds after a run on inactive items: more than the gateway's hit-flush (1s)
JIT_QUIET=5 # % of one core the JIT compiler threads may use in the last turn of the warm-up
CONNECTIONS=64
THREADS=2
ITEMS=16
PIN=auto
JFR=0
OUT=bench/results/pass-holders.md
COMMAND="bench/pass-holders.sh${*:+ $*}"

usage() {
  sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) ROUNDS=$2; shift 2 ;;
    --duration) DURATION=$2; shift 2 ;;
    --warmup) WARMUP=$2; shift 2 ;;
    --max-warmup) MAX_WARMUP=$2; shift 2 ;;
    --connections) CONNECTIONS=$2; shift 2 ;;
    --threads) THREADS=$2; shift 2 ;;
    --items) ITEMS=$2; shift 2 ;;
    --jfr) JFR=1; shift ;;
    --no-pin) PIN=no; shift ;;
    --out) OUT=$2; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "pass-holders: unknown option '$1'" >&2; usage >&2; exit 2 ;;
  esac
done

BENCH=pass-holders
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
# shellcheck source=bench/lib/jfr.sh
. bench/lib/jfr.sh
require_counts "$ROUNDS" "$DURATION" "$WARMUP" "$MAX_WARMUP" "$CONNECTIONS" "$THREADS" "$ITEMS"
[ "$ITEMS" -le 16 ] || die "--items: one pass opens at most 16 items"
# How often a pass holder's session is confirmed in Redis: the default pass-recheck (60s), a
# tenth of the bench rooms' hour-long sessions being longer.
RECHECK_SECONDS=60
WRK_THREADS=$THREADS

# ---------------------------------------------------------------------------------------------
# Tools, pinning, processes

require_tools nginx
require_gateway_jar
[ "$JFR" -eq 0 ] || have_jfr || die "--jfr needs the JDK's jcmd and jfr on the PATH"
setup_pinning "$PIN"
LOAD_AT_START=$(cut -d' ' -f1-3 /proc/loadavg)
start_redis
start_origin_nginx
start_proxy_nginx
start_fast_gateway
[ "$PINNED" -eq 0 ] || pin_gateway "$ALL_LIST"

# ---------------------------------------------------------------------------------------------
# Passes, taken the way a visitor's browser takes them

# Each wrk thread is one visitor: a pass for $QUEUED_PATH, and one pass that opens every browse item
# (taken item by item, sending the pass so far).
HELD_PASSES=""
: >"$WORK/browse-passes"
for ((t = 1; t <= THREADS; t++)); do
  take_pass pass "$QUEUED_PATH"
  HELD_PASSES+="${HELD_PASSES:+ }$pass"
  pass=""
  for ((i = 1; i <= ITEMS; i++)); do
    take_pass pass "/browse/$i" "$pass"
  done
  echo "$pass" >>"$WORK/browse-passes"
done
HELD_PASS=${HELD_PASSES%% *}
check_origin_answer "$GATEWAY_URL$UNQUEUED_PATH" "" || die "GET $UNQUEUED_PATH through the gateway did not answer the origin's page"
check_origin_answer "http://127.0.0.1:$PROXY_PORT$UNQUEUED_PATH" "" || die "GET $UNQUEUED_PATH through nginx did not answer the origin's page"
log "$THREADS visitors with a pass for $QUEUED_PATH and $THREADS with a pass for $ITEMS items of room browse; every side answers the $PRODUCT_BYTES-byte page"

# ---------------------------------------------------------------------------------------------
# wrk scripts: each checks that every answer is 200 with the origin's whole page.

pass_holder_lua "$HELD_PASSES" >"$WORK/held.lua"
# The same pass cookie on the route without the WaitingRoom filter, or through nginx.
pass_holder_lua "$HELD_PASS" "$UNQUEUED_PATH" >"$WORK/unfiltered.lua"
cp "$WORK/unfiltered.lua" "$WORK/nginx.lua"
{
  echo "-- Items of room browse, whose queues are off, in turn; each thread is one visitor whose"
  echo "-- pass opens them all."
  echo "local paths = { $(for ((i = 1; i <= ITEMS; i++)); do printf '"/browse/%d", ' "$i"; done) }"
  echo "local passes = { $(awk '{ printf "\"%s\", ", $1 }' "$WORK/browse-passes") }"
  wrk_common
  page_check_lua
  follow_pass_lua "$(pass_cookie browse)"
  cat <<EOF_LUA
local reqs, n = {}, 0
function rebuild()
  for i, path in ipairs(paths) do
    reqs[i] = wrk.format("GET", path, { ["Accept"] = "text/html", ["Cookie"] = "$(pass_cookie browse)=" .. cookie })
  end
end
function init(args)
  bad = 0
  cookie = passes[(id - 1) % #passes + 1]
  rebuild()
  n = (id * 7) % #reqs
end
function request()
  n = n % #reqs + 1
  return reqs[n]
end
EOF_LUA
} >"$WORK/browse.lua"

# ---------------------------------------------------------------------------------------------
# Runs

# The sides, in their order in a round (reversed every other round), and what each is called.
SIDES=(quiet held unfiltered nginx browse)
declare -A LABEL=(
  [held]="pass holders, filtered route"
  [unfiltered]="same gateway, unfiltered route"
  [nginx]="nginx reverse proxy"
  [browse]="inactive items (hit counting)"
  [quiet]="no load (background)"
)

# Runs side $1 for $2 seconds (quiet: no load, just the same window); with $3 = round, records the
# run in $WORK/runs. Sets LAST_RPS.
run_side() {
  local side=$1 seconds=$2 round=${3:-} out="$WORK/wrk-$1-${3:-warmup}.txt"
  local url=$GATEWAY_URL result t0 t1 s0 s1 c0 c1 l0 l1 j0 j1 g0=0 g1=0 k0
  [ "$side" != nginx ] || url="http://127.0.0.1:$PROXY_PORT"
  # Slow readings first (jstat starts a JVM), so the Redis snapshots frame the run closely.
  [ -z "$round" ] || g0=$(gc_seconds)
  j0=$(jit_ticks)
  s0=$(process_ticks)
  # shellcheck disable=SC2046 # a list of cpu ids
  c0=$(cpu_ticks $(gateway_cpus))
  l0=$(cpu_ticks "${LOAD_CPUS[@]}")
  [ -z "$round" ] || k0=$(pass_checks "$(room_of "$side")")
  redis_commandstats >"$WORK/cmd-before"
  t0=$(date +%s%N)
  if [ "$side" = quiet ]; then
    sleep "$seconds"
    result="0 $((seconds * 1000000)) 0 0 0 0 0"
  else
    result=$(run_wrk "$url" "$WORK/$side.lua" "$CONNECTIONS" "$seconds" "$out")
  fi
  t1=$(date +%s%N)
  redis_commandstats >"$WORK/cmd-after"
  [ -z "$round" ] || echo "$side $round $(($(pass_checks "$(room_of "$side")") - k0))" >>"$WORK/confirmations"
  c1=$(cpu_ticks $(gateway_cpus))
  l1=$(cpu_ticks "${LOAD_CPUS[@]}")
  s1=$(process_ticks)
  j1=$(jit_ticks)
  [ -z "$round" ] || g1=$(gc_seconds)
  # The hit counts of the last second go out after the run: let them land before the next side.
  [ "$side" != browse ] || sleep "$HIT_SETTLE"
  LAST_RPS=$(awk '{ printf "%.0f", $1 / ($2 / 1e6) }' <<<"$result")
  [ -n "$round" ] || return 0
  commandstats_diff "$WORK/cmd-before" "$WORK/cmd-after" >"$WORK/cmd-$side-$round"
  # side round | requests duration_us p50_us p99_us bad status socket | wall_s | gateway redis
  # origin proxy ticks | gateway-cpu busy total steal | load-cpus busy total steal | redis calls
  # | jit ticks | gc s
  echo "$side $round $result $(awk -v a="$t0" -v b="$t1" 'BEGIN { print (b - a) / 1e9 }') \
$(awk -v x="$s0" -v y="$s1" 'BEGIN { n = split(x, p, " "); split(y, q, " "); for (i = 1; i <= n; i++) printf "%d ", q[i] - p[i] }')\
$(awk -v x="$c0" -v y="$c1" 'BEGIN { split(x, p, " "); split(y, q, " "); print q[1] - p[1], q[2] - p[2], q[3] - p[3] }') \
$(awk -v x="$l0" -v y="$l1" 'BEGIN { split(x, p, " "); split(y, q, " "); print q[1] - p[1], q[2] - p[2], q[3] - p[3] }') \
$(commandstats_calls "$WORK/cmd-$side-$round") $((j1 - j0)) $(awk -v a="$g0" -v b="$g1" 'BEGIN { print b - a }')" >>"$WORK/runs"
  [ "$side" = quiet ] && return 0
  awk -v clk="$CLK_TCK" -v label="${LABEL[$side]}" '{ printf "  round %s %-32s %8.0f requests/s  p50 %.2f ms  p99 %.2f ms  CPU %.0f%% of a core  Redis %d commands  wrong %d/%d/%d\n",
    $2, label, $3 / ($4 / 1e6), $5 / 1000, $6 / 1000, 100 * (($1 == "nginx") ? $14 : $11) / clk / $10, $21, $7, $8, $9 }' <<<"$(tail -n 1 "$WORK/runs")"
}

# The room whose pass holders side $1 sends.
room_of() {
  case "$1" in browse) echo browse ;; *) echo admit ;; esac
}

# CPU ticks of the gateway, redis-server, the origin nginx and the proxy nginx.
process_ticks() {
  # shellcheck disable=SC2086 # lists of pids
  echo "$(proc_ticks "$GATEWAY_PID") $(proc_ticks "$REDIS_PID") $(procs_ticks $ORIGIN_PIDS) $(procs_ticks $PROXY_PIDS)"
}

LOG_MARK=$(wc -l <"$WORK/gateway.log")
WARM_SIDES=(held unfiltered browse)
warm_up
[ "$PINNED" -eq 0 ] || pin_gateway "$GW_CPU"
: >"$WORK/runs"
: >"$WORK/confirmations"
CHECKS_START=$(( $(pass_checks admit) + $(pass_checks browse) ))
ROUNDS_START=$(date +%s%N)
for round in $(seq 1 "$ROUNDS"); do
  order=("${SIDES[@]}")
  if [ $((round % 2)) -eq 0 ]; then
    for ((i = 0; i < ${#SIDES[@]}; i++)); do order[i]=${SIDES[${#SIDES[@]} - 1 - i]}; done
  fi
  log "round $round of $ROUNDS (${order[*]})"
  for side in "${order[@]}"; do run_side "$side" "$DURATION" "$round"; done
done
CHECKS_ALL=$(( $(pass_checks admit) + $(pass_checks browse) - CHECKS_START ))
ROUNDS_WALL=$(awk -v a="$ROUNDS_START" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
LOAD_AT_END=$(cut -d' ' -f1-3 /proc/loadavg)
if [ "$JFR" -eq 1 ]; then
  log "one more run of the filtered and the unfiltered side with the JDK Flight Recorder"
  for side in held unfiltered; do
    jfr_record "$side" run_side "$side" "$DURATION"
    jfr_inclusive "$side" io.anteroom. 25 >"$WORK/jfr-$side.txt"
  done
fi
check_origin_answer "$GATEWAY_URL$QUEUED_PATH" "$(pass_cookie admit)=$HELD_PASS" \
  || die "after the runs the pass holder no longer got the page"

# ---------------------------------------------------------------------------------------------
# Figures

# Per run, in run order: side round rps p50_ms p99_ms serving_cpu% (gateway, or nginx for the
# nginx side) gateway_cpu% redis_cpu% origin_cpu% proxy_cpu% gw_core_busy% load_busy% steal%
# requests_per_serving_cpu_s redis_calls jit% gc% bad non2xx socket requests wall_s
awk -v clk="$CLK_TCK" '$1 != "quiet" {
  wall = $10; serving = ($1 == "nginx") ? $14 : $11; total = $16 + $19
  printf "%s %s %.1f %.3f %.3f %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.2f %.1f %d %.1f %.1f %d %d %d %d %.3f\n",
    $1, $2, $3 / ($4 / 1e6), $5 / 1000, $6 / 1000, 100 * serving / clk / wall, 100 * $11 / clk / wall,
    100 * $12 / clk / wall, 100 * $13 / clk / wall, 100 * $14 / clk / wall,
    ($16 ? 100 * $15 / $16 : 0), ($19 ? 100 * $18 / $19 : 0), (total ? 100 * ($17 + $20) / total : 0),
    (serving ? $3 / (serving / clk) : 0), $21, 100 * $22 / clk / wall, 100 * $23 / wall, $7, $8, $9, $3, wall
}' "$WORK/runs" >"$WORK/derived"
C_RPS=3 C_P50=4 C_P99=5 C_SERVING=6 C_GW=7 C_REDIS=8 C_ORIGIN=9 C_PROXY=10 C_GW_CORE=11 C_LOAD=12
C_PER_CPU_S=14 C_JIT=16 C_GC=17 C_REQUESTS=21
col() { awk -v s="$1" -v c="$2" '$1 == s { print $c }' "$WORK/derived"; }
med() { col "$1" "$2" | median; }
range() { col "$1" "$2" | minmax | awk -v f="$3" '{ printf f "–" f, $1, $2 }'; }
total() { col "$1" "$2" | awk '{ s += $1 } END { print s + 0 }'; }
# Per-round ratios of side $1 to side $2 in column $3: "median min max".
ratio() {
  awk -v a="$1" -v b="$2" -v c="$3" '$1 == a { x[$2] = $c } $1 == b { y[$2] = $c }
    END { for (r in x) if (y[r]) printf "%.4f\n", x[r] / y[r] }' "$WORK/derived" >"$WORK/ratio"
  echo "$(median <"$WORK/ratio") $(minmax <"$WORK/ratio")"
}
verdict() { awk -v v="$1" -v g="$2" -v op="$3" 'BEGIN { ok = (op == ">=") ? v >= g : v <= g; print ok ? "met" : "**not met**" }'; }

# Redis commands of side $1 net of the background: per command, the calls during the side's runs
# minus the rate of the same round's quiet window times the run's length. Prints "command gross
# net net_per_request" for every command seen in either; requests from the side's runs.
redis_net() {
  local side=$1 round wall qwall
  for round in $(seq 1 "$ROUNDS"); do
    wall=$(awk -v s="$side" -v r="$round" '$1 == s && $2 == r { print $10 }' "$WORK/runs")
    qwall=$(awk -v r="$round" '$1 == "quiet" && $2 == r { print $10 }' "$WORK/runs")
    awk -v w="$wall" -v q="$qwall" 'NR == FNR { bg[$1] = $2 / q; next } { c[$1] += $2 }
      END { for (k in c) print k, c[k], c[k] - bg[k] * w; for (k in bg) if (!(k in c)) print k, 0, -bg[k] * w }' \
      "$WORK/cmd-quiet-$round" "$WORK/cmd-$side-$round"
  done | awk -v n="$(total "$side" $C_REQUESTS)" '{ g[$1] += $2; d[$1] += $3 }
    END { for (k in g) printf "%s %d %.1f %.6f\n", k, g[k], d[k], (n ? d[k] / n : 0) }' | sort -k2,2gr -k1,1
}
QUIET_RATE=$(awk '$1 == "quiet" { c += $21; w += $10 } END { printf "%.1f", w ? c / w : 0 }' "$WORK/runs")
cat "$WORK"/cmd-quiet-* | awk '{ c[$1] += $2 } END { for (k in c) print k }' | sort >"$WORK/background-commands"
for side in held unfiltered browse; do
  redis_net "$side" >"$WORK/redis-$side"
done
# A confirmation is one run of touch.lua: EVALSHA, ZSCORE and ZADD. Pass holders' figures are
# counted net of them too; the confirmations have their own line below.
confirmed() { awk -v s="$1" '$1 == s { c += $3 } END { print c + 0 }' "$WORK/confirmations"; }
HELD_CONFIRMED=$(confirmed held)
awk -v c="$HELD_CONFIRMED" -v n="$(total held $C_REQUESTS)" '
  $1 == "evalsha" || $1 == "zscore" || $1 == "zadd" { $2 -= c; $3 -= c; $4 = n ? $3 / n : 0 }
  { printf "%s %d %.1f %.6f\n", $1, $2, $3, $4 }' "$WORK/redis-held" >"$WORK/redis-held.net"
mv "$WORK/redis-held.net" "$WORK/redis-held"
# Confirmations per visitor and second of the recorded rounds' wall time (each side's visitors
# are the wrk threads), against the bound of one per recheck interval.
VISITORS=$((2 * THREADS))
CHECK_RATE=$(awk -v c="$CHECKS_ALL" -v v="$VISITORS" -v w="$ROUNDS_WALL" 'BEGIN { printf "%.5f", (v && w) ? c / v / w : 0 }')
CHECK_BOUND=$(awk -v r="$RECHECK_SECONDS" 'BEGIN { printf "%.5f", 1 / r }')
# Net commands per request, all commands, and those the quiet windows never saw.
net_per_request() { awk '{ s += $4 } END { printf "%.6f", s }' "$WORK/redis-$1"; }
foreign_calls() { awk 'NR == FNR { bg[$1] = 1; next } !($1 in bg) { s += $2 } END { print s + 0 }' "$WORK/background-commands" "$WORK/redis-$1"; }
evalsha_per_request() { awk '$1 == "evalsha" { printf "%.6f", $2 / n; f = 1 } END { if (!f) print 0 }' n="$(total "$1" $C_REQUESTS)" "$WORK/redis-$1"; }

read -r R1 R1_LO R1_HI <<<"$(ratio held unfiltered $C_RPS)"
read -r R2 R2_LO R2_HI <<<"$(ratio held nginx $C_RPS)"
read -r R1_CPU R1_CPU_LO R1_CPU_HI <<<"$(ratio held unfiltered $C_PER_CPU_S)"
read -r R0 R0_LO R0_HI <<<"$(ratio unfiltered nginx $C_RPS)"
HELD_NET=$(net_per_request held)
HELD_FOREIGN=$(foreign_calls held)
BROWSE_NET=$(net_per_request browse)
BROWSE_EVALSHA=$(evalsha_per_request browse)
BROWSE_RPS=$(med browse $C_RPS)
# Goal 3 is met when pass holders add no command of their own: none the quiet windows lack, and the
# background's own commands no more than 2 per run and command above the quiet rate (either end of
# a run may catch or miss a tick of their timers).
HELD_JITTER=$(awk -v r="$ROUNDS" -v n="$(total held $C_REQUESTS)" -v k="$(wc -l <"$WORK/background-commands")" \
  'BEGIN { printf "%.6f", n ? 2 * r * k / n : 0 }')
if [ "$HELD_FOREIGN" -eq 0 ] && awk -v x="$HELD_NET" -v j="$HELD_JITTER" 'BEGIN { exit !(x <= j) }'; then
  GOAL3=met
else
  GOAL3="**not met**"
fi
ERRORS=$(awk '{ s += $18 + $20 } END { print s + 0 }' "$WORK/derived")
RUN_WARNINGS=$(gateway_warnings_after "$LOG_MARK")
if [ "$PINNED" -eq 1 ]; then
  GW_CORE_LABEL="CPU $GW_CPU busy (the proxy's)"
else
  GW_CORE_LABEL="all CPUs busy"
fi
if [ "$PINNED" -eq 1 ]; then
  PINNING="yes. The gateway starts on CPU $GW_CPU alone (\`taskset -c $GW_CPU\`), so the JVM sizes itself for one CPU; it may use CPU $LOAD_LIST too only while it warms up, and has all its threads on CPU $GW_CPU (\`taskset -a -p -c $GW_CPU\`) in every recorded run. The nginx reverse proxy runs on CPU $GW_CPU too, in its own turn. wrk, redis-server and the origin nginx run on CPU $LOAD_LIST."
else
  PINNING="no: every process may run on any of CPUs $ALL_LIST, so the figures are not per core"
fi

# ---------------------------------------------------------------------------------------------
# Results file

row() { # label column format
  local side line="| $1 |"
  for side in held unfiltered nginx browse; do
    line+=" $(fmt "$3" "$(med "$side" "$2")") ($(range "$side" "$2" "$3")) |"
  done
  echo "$line"
}
redis_table() {
  echo "| command | calls | net of background | net per request |"
  echo "|---|---:|---:|---:|"
  awk '{ printf "| %s | %d | %.1f | %.5f |\n", toupper($1), $2, $3, $4 }' "$WORK/redis-$1"
}

# With --jfr, where the gateway's CPU went in the two extra recorded runs.
jfr_section() {
  [ "$JFR" -eq 1 ] || return 0
  local held_samples unfiltered_samples
  held_samples=$(head -n 1 "$WORK/jfr-held.txt")
  unfiltered_samples=$(head -n 1 "$WORK/jfr-unfiltered.txt")
  cat <<EOF_MD
## Where the gateway's CPU goes (JDK Flight Recorder)

One more run of each side after the rounds, with \`jcmd <pid> JFR.start settings=profile\` (not part of the figures above): the share of the gateway's execution samples whose stack holds each of Anteroom's methods ($held_samples samples with pass holders, $unfiltered_samples on the unfiltered route). A method's share includes the methods it calls. The samples are few, so read shares of a few % as rough.

| method | pass holders, % of samples |
|---|---:|
$(tail -n +2 "$WORK/jfr-held.txt" | awk '{ printf "| `%s` | %.1f |\n", $2, $1 }')

On the unfiltered route Anteroom's methods were in $(tail -n +2 "$WORK/jfr-unfiltered.txt" | awk 'NR == 1 { printf "at most %.1f %% of the samples (`%s`)", $1, $2; f = 1 } END { if (!f) printf "none of the samples" }').

EOF_MD
}

# A line for every side whose proxy did not fill its core: something else set its pace.
pace_notes() {
  local side
  for side in held unfiltered nginx browse; do
    awk -v c="$(med "$side" $C_SERVING)" 'BEGIN { exit !(c < 90) }' || continue
    echo "- ${LABEL[$side]^}: the proxy under test used only $(pct "$(med "$side" $C_SERVING)") of its core while the load CPUs (wrk, Redis, the origin) were $(pct "$(med "$side" $C_LOAD)") busy, so they, or the host, set the pace; this side's requests/s is a lower bound, and its $(int "$(med "$side" $C_PER_CPU_S)") requests per second of CPU the better estimate of what one core does."
  done
}

mkdir -p "$(dirname "$OUT")"
{
  cat <<EOF_MD
# Admitted visitors per second on one gateway core

| | |
|---|---|
| date (UTC) | $(date -u +%Y-%m-%dT%H:%M:%SZ) |
| command | \`$COMMAND\` |
| machine | $(machine_line) |
| host load | load average $LOAD_AT_START at start, $LOAD_AT_END at the end; $(med held 13) % of CPU time stolen by the host (median of the pass-holder runs, /proc/stat) |
| pinning | $PINNING |
| gateway | \`$JAR\` ($(jar_note)); \`java -Xmx512m -jar\`, the JVM chose ${GC:-its default GC}; Java $(java_version); \`config/anteroom.yml\` with \`bench/config/fast-origin.yml\` on top |
| origin | nginx $(nginx_version), \`worker_processes 1\`, \`access_log off\`, serving one static $PRODUCT_BYTES-byte page for every path, started by the benchmark with a generated configuration on a free loopback port |
| reference proxy | the same nginx as a second process: \`proxy_pass\` to the origin through an \`upstream\` with \`keepalive 64\`, HTTP/1.1, \`worker_processes 1\`, \`access_log off\` |
| redis-server | $(redis_version), started by the benchmark (\`--save "" --appendonly no\`) |
| load | wrk $(wrk_version): \`$(wrk_line "$CONNECTIONS" "$DURATION")\`; $ROUNDS rounds after $WARM_NOTE |

## How it is measured

One gateway runs with two routes to the origin on top of the usual configuration: \`$QUEUED_PATH\` with \`WaitingRoom=admit\`, whose queue \`admit:1\` is on (\`activate-on-start\`), and \`$UNQUEUED_PATH\` without the filter. Room \`admit\` admits 100,000 people a second and keeps them for an hour, so the first request of a new visitor is let in at once. Room \`browse\` counts requests for activation by traffic, with a threshold no run reaches, so its queues stay off. Each wrk thread is one visitor of each room: the benchmark takes, the way a browser does, one pass for \`$QUEUED_PATH\` per thread, and one pass per thread that opens all $ITEMS items \`/browse/1…$ITEMS\` (one request per item, sending the pass so far). The wrk scripts keep the pass a \`Set-Cookie\` renews.

Each round runs these sides in turn, the order reversed every other round, so changes in the machine's load fall on all alike:

- **pass holders** (goal 1 and 2's numerator): \`GET $QUEUED_PATH\` with the pass cookie. The filter checks the pass locally and forwards.
- **unfiltered** (goal 1's reference): \`GET $UNQUEUED_PATH\` through the same gateway, with the same cookie, so the requests differ only in their path and the difference is the filter's own work (it checks the pass and takes Anteroom's cookies off the request before forwarding; this route forwards the cookie as it is).
- **nginx** (goal 2's reference): the same request through the nginx reverse proxy.
- **inactive items** (goal 4): \`GET /browse/<n>\`, rotating over the $ITEMS items with the thread's pass. Their queues are off, so the gateway only counts the requests for activation by traffic and sends the counts about once a second, one script call per item.
- **quiet**: no load, for as long as a run. The gateway reads Redis on its own all the time (active queues and live settings every 250 ms, and more); the Redis figures below subtract, per command and round, the quiet window's rate times the length of the run.

Every answer must be \`200\` with the origin's whole page ($PRODUCT_BYTES bytes), checked by wrk's Lua script on every response. Requests/s and latency come from wrk. CPU per process comes from \`/proc/<pid>/stat\` (user + system, all threads; nginx: master and worker), per CPU from \`/proc/stat\`. Redis commands come from \`INFO commandstats\` before and after each run; commands that a script runs are counted inside its EVALSHA and also under their own names, and every one counts below.

## Results (median of $ROUNDS rounds, min–max in brackets)

| figure | pass holders | unfiltered | nginx | inactive items |
|---|---:|---:|---:|---:|
$(row "requests/s" $C_RPS '%.0f')
$(row "latency p50, ms" $C_P50 '%.2f')
$(row "latency p99, ms" $C_P99 '%.2f')
$(row "CPU of the proxy under test (gateway or nginx), % of one core" $C_SERVING '%.0f')
$(row "requests per second of that CPU" $C_PER_CPU_S '%.0f')
$(row "gateway CPU, %" $C_GW '%.0f')
$(row "Redis CPU, %" $C_REDIS '%.0f')
$(row "origin nginx CPU, %" $C_ORIGIN '%.0f')
$(row "$GW_CORE_LABEL, %" $C_GW_CORE '%.0f')
$(row "load CPUs busy, %" $C_LOAD '%.0f')
$(row "gateway's JIT compilers, %" $C_JIT '%.1f')
$(row "gateway's garbage collection, % of the time" $C_GC '%.1f')
| requests counted | $(total held $C_REQUESTS) | $(total unfiltered $C_REQUESTS) | $(total nginx $C_REQUESTS) | $(total browse $C_REQUESTS) |

Wrong answers and socket errors over all runs: $ERRORS.

## Goals

| # | figure | median | min–max | goal | |
|---|---|---:|---:|---:|---|
| 1 | pass holders' requests/s ÷ unfiltered route's, same round | $(fmt '%.3f' "$R1") | $(fmt '%.3f' "$R1_LO")–$(fmt '%.3f' "$R1_HI") | ≥ 0.95 | $(verdict "$R1" 0.95 ">=") |
| 2 | pass holders' requests/s ÷ nginx's, same round | $(fmt '%.3f' "$R2") | $(fmt '%.3f' "$R2_LO")–$(fmt '%.3f' "$R2_HI") | ≥ 0.7 | $(verdict "$R2" 0.7 ">=") |
| 3 | Redis commands per pass-holder request, net of background and of session confirmations | $(fmt '%.5f' "$HELD_NET") | $HELD_FOREIGN commands the quiet windows never saw | 0 | $GOAL3 |
| 3 | session confirmations per visitor-second, over the rounds' $ROUNDS_WALL s | $CHECK_RATE | $CHECKS_ALL calls for $VISITORS visitors ($HELD_CONFIRMED during pass holders' runs) | ≤ $CHECK_BOUND (one per ${RECHECK_SECONDS} s) | $(verdict "$CHECK_RATE" "$CHECK_BOUND" "<=") |
| 4 | Redis commands per request on inactive items, net of background, those run inside scripts included | $(fmt '%.5f' "$BROWSE_NET") | | ≤ 0.01 | $(verdict "$BROWSE_NET" 0.01 "<=") |
| 4 | the same, counting the scripts' EVALSHA round trips only | $(fmt '%.5f' "$BROWSE_EVALSHA") | | ≤ 0.01 | $(verdict "$BROWSE_EVALSHA" 0.01 "<=") |
| – | pass holders ÷ unfiltered, requests per second of gateway CPU | $(fmt '%.3f' "$R1_CPU") | $(fmt '%.3f' "$R1_CPU_LO")–$(fmt '%.3f' "$R1_CPU_HI") | | |
| – | unfiltered route's requests/s ÷ nginx's: the gateway without any Anteroom work | $(fmt '%.3f' "$R0") | $(fmt '%.3f' "$R0_LO")–$(fmt '%.3f' "$R0_HI") | | |

A pass holder's session is confirmed in Redis (one run of \`touch.lua\`) when its pass's item was last confirmed \`pass-recheck\` ago, here the default ${RECHECK_SECONDS} s; the wrk scripts keep the renewed pass, as a browser does, so each visitor is confirmed at most once a minute whatever its request rate. Goal 3's first line counts every command during the pass holders' runs, less the confirmations' three commands each, against the quiet windows: met when no command the background lacks appears and the background's own commands, net, come to no more than two calls per command and run above the quiet windows' rate (each end of a run may catch or miss one tick of their timers: $(fmt '%.5f' "$HELD_JITTER") per request here; a cost per request would be as many calls as requests). Under load the gateway's timers may skip a tick, so the net figure can fall below zero. Goal 4's first line counts commands run inside scripts as well as the EVALSHA that runs them, the second only the EVALSHA (the table below shows which commands ran; INFO commandstats cannot tell a command a script ran from one a client sent); the hit counts go out once a second per item, so the figure grows with the number of distinct items a gateway sees each second ($ITEMS here) and shrinks with its request rate ($(int "$BROWSE_RPS")/s here).

## Redis commands

In the quiet windows the gateway sent $QUIET_RATE commands a second by itself.

### Pass holders (less the session confirmations' commands)

$(redis_table held)

### Unfiltered route

$(redis_table unfiltered)

### Inactive items

$(redis_table browse)

$(jfr_section)
## Reading

- The ratios compare sides measured seconds apart in the same rounds on the same machine; on a shared machine read them with their min–max, and the absolute requests/s not at all.
$(pace_notes)
- Latency is measured at saturation, so it is mostly queueing ($CONNECTIONS connections).
- The gateway logged $RUN_WARNINGS warnings or errors during the warm-up and the runs.

## Per run

| round | side | requests/s | p50 ms | p99 ms | proxy CPU % | gateway CPU % | Redis CPU % | origin CPU % | $GW_CORE_LABEL % | stolen % | Redis commands | wrong | socket errors |
|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
$(awk '{ printf "| %s | %s | %.0f | %.2f | %.2f | %.0f | %.0f | %.0f | %.0f | %.0f | %.1f | %d | %d | %d |\n",
  $2, $1, $3, $4, $5, $6, $7, $8, $9, $11, $13, $15, $18, $20 }' "$WORK/derived")
EOF_MD
} >"$OUT.tmp"
mv "$OUT.tmp" "$OUT"
[ "$RUN_WARNINGS" -gt 0 ] || KEEP_WORK=0
log "pass holders $(int "$(med held $C_RPS)")/s, unfiltered $(int "$(med unfiltered $C_RPS)")/s, nginx $(int "$(med nginx $C_RPS)")/s"
log "goal 1: $(fmt '%.3f' "$R1") ($(verdict "$R1" 0.95 ">=")), goal 2: $(fmt '%.3f' "$R2") ($(verdict "$R2" 0.7 ">=")), goal 3: $(fmt '%.5f' "$HELD_NET") ($GOAL3), goal 4: $(fmt '%.5f' "$BROWSE_NET") with script commands ($(verdict "$BROWSE_NET" 0.01 "<=")), $(fmt '%.5f' "$BROWSE_EVALSHA") EVALSHA ($(verdict "$BROWSE_EVALSHA" 0.01 "<="))"
log "wrote $OUT"
