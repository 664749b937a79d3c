# shellcheck shell=bash
# Sides taking turns under wrk. Each side of SIDES is a wrk script, $WORK/<side>.lua, run against
# SIDE_URL[side] (the gateway by default), or "quiet": no load for as long. A warm-up takes turns
# until the gateway's JIT compilers go quiet; then every round runs every side, the order reversed
# every other round so changes in the machine's load fall on all alike. Each recorded run appends
# what wrk, /proc and Redis say about it to $WORK/runs; derive() turns them into $WORK/derived.

declare -A SIDE_URL=() LABEL=()
WARM_SLICE=5
JIT_QUIET=5 # % of one core the JIT compiler threads may use in the last turn of the warm-up

# Columns of $WORK/derived, one line per recorded run that is not quiet.
C_RPS=3 C_P50=4 C_P99=5 C_SERVING=6 C_GW=7 C_REDIS=8 C_ORIGIN=9 C_PROXY=10 C_GW_CORE=11 C_LOAD=12
C_STEAL=13 C_PER_CPU_S=14 C_CALLS=15 C_EVALSHA=16 C_JIT=17 C_GC=18 C_BAD=19 C_NON2XX=20 C_SOCKET=21
C_REQUESTS=22

# The Lua every wrk script shares: counts the "bad" answers of all threads and prints "RESULT
# requests=… duration_us=… p50_us=… p99_us=… bad=… status=… socket=…". The script's own init()
# sets bad = 0 and its response() counts wrong answers.
wrk_common() {
  cat <<'EOF_LUA'
local threads, started = {}, 0
function setup(thread)
  started = started + 1
  thread:set("id", started)
  table.insert(threads, thread)
end
function done(summary, latency, requests)
  local bad = 0
  for _, t in ipairs(threads) do bad = bad + t:get("bad") end
  local e = summary.errors
  io.write(string.format("RESULT requests=%d duration_us=%d p50_us=%d p99_us=%d bad=%d status=%d socket=%d\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), bad,
    e.status, e.connect + e.read + e.write + e.timeout))
end
EOF_LUA
}

# The wrk command line as the results files quote it.
wrk_line() { echo "wrk -t$THREADS --latency --timeout 5s -c$CONNECTIONS -d${DURATION}s -s <script> <url>"; }

# Runs wrk on the load CPUs: $1 URL, $2 script, $3 seconds, $4 output file. Fails without a RESULT
# line; prints "requests duration_us p50_us p99_us bad status socket".
run_wrk() {
  "${LOAD_PIN[@]}" wrk -t"$THREADS" --latency --timeout 5s -c"$CONNECTIONS" -d"$3s" -s "$2" "$1" >"$4" 2>&1 \
    || die "wrk failed; see $4"
  grep '^RESULT ' "$4" | sed -E 's/[a-z0-9_]+=//g; s/^RESULT //' | grep . || die "wrk printed no RESULT line; see $4"
}

# CPU ticks of the gateway, redis-server, the origin nginx and the proxy nginx (0 without one).
# shellcheck disable=SC2086 # lists of pids
process_ticks() {
  echo "$(proc_ticks "$GATEWAY_PID") $(proc_ticks "$REDIS_PID") $(procs_ticks $ORIGIN_PIDS) $(procs_ticks ${PROXY_PIDS:-})"
}

# The difference of two "a b c …" readings, field by field.
minus() { awk -v x="$1" -v y="$2" 'BEGIN { n = split(x, p, " "); split(y, q, " "); for (i = 1; i <= n; i++) printf "%s%s", q[i] - p[i], (i < n ? " " : "\n") }'; }

# Runs side $1 for $2 seconds; with $3 = round, appends the run to $WORK/runs and prints it. Sets
# LAST_RPS. A benchmark may wrap it by defining run_side.
measure() {
  local side=$1 seconds=$2 round=${3:-} result t0 t1 slow0="" slow1="" fast0 fast1
  # Slow readings (jstat and curl start processes) outside the fast ones, and those outside the
  # Redis snapshots, which frame the run closely.
  [ -z "$round" ] || slow0="$(gc_seconds) $(pass_checks) "
  fast0="$(jit_ticks) $(process_ticks) $(cpu_ticks $(gateway_cpus)) $(cpu_ticks "${LOAD_CPUS[@]}")"
  redis_commandstats >"$WORK/cmd-before"
  t0=$(date +%s%N)
  if [ "$side" = quiet ]; then
    sleep "$seconds"
    result="0 $((seconds * 1000000)) 0 0 0 0 0"
  else
    result=$(run_wrk "${SIDE_URL[$side]:-$GATEWAY_URL}" "$WORK/$side.lua" "$seconds" "$WORK/wrk-$side-${round:-warmup}.txt")
  fi
  t1=$(date +%s%N)
  redis_commandstats >"$WORK/cmd-after"
  fast1="$(jit_ticks) $(process_ticks) $(cpu_ticks $(gateway_cpus)) $(cpu_ticks "${LOAD_CPUS[@]}")"
  [ -z "$round" ] || slow1="$(gc_seconds) $(pass_checks) "
  LAST_RPS=$(awk '{ printf "%.0f", $1 / ($2 / 1e6) }' <<<"$result")
  [ -n "$round" ] || return 0
  commandstats_diff "$WORK/cmd-before" "$WORK/cmd-after" >"$WORK/cmd-$side-$round"
  # side round | requests duration_us p50_us p99_us bad status socket | wall_s | gc_s pass_checks
  # jit_ticks | gateway redis origin proxy ticks | gateway-cpu busy total steal | load-cpus busy
  # total steal | redis calls, evalsha calls
  echo "$side $round $result $(awk -v a="$t0" -v b="$t1" 'BEGIN { print (b - a) / 1e9 }') $(minus "$slow0$fast0" "$slow1$fast1") \
$(awk '{ s += $2 } $1 == "evalsha" { e = $2 } END { print s + 0, e + 0 }' "$WORK/cmd-$side-$round")" >>"$WORK/runs"
  [ "$side" = quiet ] || awk -v clk="$CLK_TCK" -v label="${LABEL[$side]:-$side}" '{ printf "  round %s %-32s %8.0f requests/s  p50 %.2f ms  p99 %.2f ms  CPU %.0f%% of a core  Redis %d commands  wrong %d/%d/%d\n",
    $2, label, $3 / ($4 / 1e6), $5 / 1000, $6 / 1000, 100 * (($1 == "nginx") ? $17 : $14) / clk / $10, $24, $7, $8, $9 }' <<<"$(tail -n 1 "$WORK/runs")"
}
run_side() { measure "$@"; }

# Warms the gateway up in slices of WARM_SLICE seconds of each of WARM_SIDES in turn, for at least
# WARMUP seconds and until the JIT compiler threads used under JIT_QUIET % of a core in the last
# turn, or MAX_WARMUP seconds have passed. Sets WARM_FIRST and WARM_LAST (requests/s of the sides in
# the first and last turn), WARM_SECONDS and WARM_NOTE.
warm_up() {
  local started=$SECONDS settled=0 jit0 wall0 side rates jit
  log "warming up in ${WARM_SLICE}s slices until the JIT compilers use under $JIT_QUIET % of a core (${WARMUP}s to ${MAX_WARMUP}s)"
  WARM_FIRST=""
  while :; do
    jit0=$(jit_ticks)
    wall0=$(date +%s%N)
    rates=""
    for side in "${WARM_SIDES[@]}"; do
      run_side "$side" "$WARM_SLICE"
      rates+="${rates:+ }$LAST_RPS"
    done
    WARM_FIRST=${WARM_FIRST:-$rates}
    WARM_LAST=$rates
    jit=$(awk -v a="$jit0" -v b="$(jit_ticks)" -v w0="$wall0" -v w1="$(date +%s%N)" -v clk="$CLK_TCK" \
      'BEGIN { printf "%.1f", 100 * (b - a) / clk / ((w1 - w0) / 1e9) }')
    WARM_SECONDS=$((SECONDS - started))
    log "  warm-up: ${WARM_SIDES[*]}: $rates requests/s, JIT compilers $jit % of a core"
    if [ "$WARM_SECONDS" -ge "$WARMUP" ] && awk -v j="$jit" -v q="$JIT_QUIET" 'BEGIN { exit !(j < q) }'; then
      settled=1
      break
    fi
    [ "$WARM_SECONDS" -lt "$MAX_WARMUP" ] || break
  done
  WARM_NOTE="$WARM_SECONDS s of warm-up in $WARM_SLICE s slices taking turns, "
  if [ "$settled" -eq 1 ]; then
    WARM_NOTE+="until the gateway's JIT compiler threads used under $JIT_QUIET % of a core ($jit % in the last turn)"
  else
    WARM_NOTE+="stopped by the $MAX_WARMUP s cap with the gateway's JIT compiler threads still at $jit % of a core"
  fi
}

# The warm-up, then ROUNDS rounds of SIDES with the gateway on its own CPU, then derive(). Sets
# LOG_MARK (the gateway's log before the warm-up), CHECKS_ALL (sessions confirmed during the
# rounds), ROUNDS_WALL and LOAD_AT_END.
run_rounds() {
  local round i order checks start
  LOG_MARK=$(wc -l <"$WORK/gateway.log")
  warm_up
  [ "$PINNED" -eq 0 ] || pin_process "$GATEWAY_PID" "$GW_CPU"
  : >"$WORK/runs"
  checks=$(pass_checks)
  start=$(date +%s%N)
  for round in $(seq 1 "$ROUNDS"); do
    order=("${SIDES[@]}")
    if [ $((round % 2)) -eq 0 ]; then
      for ((i = 0; i < ${#SIDES[@]}; i++)); do order[i]=${SIDES[${#SIDES[@]} - 1 - i]}; done
    fi
    log "round $round of $ROUNDS (${order[*]})"
    for side in "${order[@]}"; do run_side "$side" "$DURATION" "$round"; done
  done
  CHECKS_ALL=$(($(pass_checks) - checks))
  ROUNDS_WALL=$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
  LOAD_AT_END=$(load_average)
  derive
}

# $WORK/derived from $WORK/runs, in the columns C_*: side round rps p50_ms p99_ms serving_cpu% (the
# gateway's, nginx's on the nginx side) gateway_cpu% redis_cpu% origin_cpu% proxy_cpu%
# gw_core_busy% load_busy% steal% requests_per_serving_cpu_s redis_calls evalsha_per_request jit%
# gc% bad non2xx socket requests wall_s
derive() {
  awk -v clk="$CLK_TCK" '$1 != "quiet" {
    wall = $10; serving = ($1 == "nginx") ? $17 : $14; total = $19 + $22
    printf "%s %s %.1f %.3f %.3f %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.2f %.1f %d %.4f %.1f %.1f %d %d %d %d %.3f\n",
      $1, $2, $3 / ($4 / 1e6), $5 / 1000, $6 / 1000, 100 * serving / clk / wall, 100 * $14 / clk / wall,
      100 * $15 / clk / wall, 100 * $16 / clk / wall, 100 * $17 / clk / wall,
      ($19 ? 100 * $18 / $19 : 0), ($22 ? 100 * $21 / $22 : 0), (total ? 100 * ($20 + $23) / total : 0),
      (serving ? $3 / (serving / clk) : 0), $24, ($3 ? $25 / $3 : 0), 100 * $13 / clk / wall, 100 * $11 / wall,
      $7, $8, $9, $3, wall
  }' "$WORK/runs" >"$WORK/derived"
}

# ---------------------------------------------------------------------------------------------
# Figures: column $2 of side $1's runs (all runs for "all")

col() { awk -v s="$1" -v c="$2" '$1 == s || s == "all" { print $c }' "$WORK/derived"; }
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

# ---------------------------------------------------------------------------------------------
# The results file

# The rows of the setup table every HTTP benchmark shares; PIN_NOTE adds to the pinning row.
setup_rows() {
  local pinning="no: every process may run on any of CPUs $ALL_LIST, so the figures are not per core"
  [ "$PINNED" -eq 0 ] || pinning="yes. The gateway starts on CPU $GW_CPU alone (\`taskset -c $GW_CPU\`), so the JVM sizes itself for one CPU; it may use CPU $LOAD_LIST too only until the runs, so that its JIT compilers finish in time, and has all its threads on CPU $GW_CPU (\`taskset -a -p -c $GW_CPU\`) in every recorded run. ${PIN_NOTE:-}wrk, redis-server and the origin run on CPU $LOAD_LIST."
  cat <<EOF_MD
| | |
|---|---|
| date (UTC) | $(date -u +%Y-%m-%dT%H:%M:%SZ) |
| command | \`$COMMAND\` |
| machine | $(machine_line) |
| host load | load average $LOAD_AT_START at start, $LOAD_AT_END at the end; $(fmt '%.1f' "$(med all $C_STEAL)") % of CPU time stolen by the host (median of the runs, /proc/stat) |
| pinning | $pinning |
| gateway | \`$JAR\` ($(jar_note)); \`java -Xmx512m -jar\`, the JVM chose ${GC:-its default GC}; Java $(java_version); \`config/anteroom.yml\` with \`bench/config/fast-origin.yml\` on top |
| origin | nginx $(nginx_version), \`worker_processes 1\`, \`access_log off\`, serving one static $PRODUCT_BYTES-byte page for every path, started by the benchmark with a generated configuration on a free loopback port |
| redis-server | $(redis_version), started by the benchmark on a free loopback port (\`--save "" --appendonly no\`) |
| load | wrk $(wrk_version): \`$(wrk_line)\`; $ROUNDS rounds after $WARM_NOTE |
EOF_MD
}

# The results table: "median (min–max)" of each figure per side in SHOWN.
row() {
  local side line="| $1 |"
  for side in "${SHOWN[@]}"; do line+=" $(fmt "$3" "$(med "$side" "$2")") ($(range "$side" "$2" "$3")) |"; done
  echo "$line"
}
results_table() {
  local side gw_core="all CPUs busy"
  [ "$PINNED" -eq 0 ] || gw_core="CPU $GW_CPU busy (the gateway's)"
  echo "| figure |$(for side in "${SHOWN[@]}"; do printf ' %s |' "${LABEL[$side]:-$side}"; done)"
  echo "|---|$(for side in "${SHOWN[@]}"; do printf -- '---:|'; done)"
  row "requests/s" $C_RPS '%.0f'
  row "latency p50, ms" $C_P50 '%.2f'
  row "latency p99, ms" $C_P99 '%.2f'
  row "CPU of the server under test (the gateway; nginx on the nginx side), % of one core" $C_SERVING '%.0f'
  row "requests per second of that CPU" $C_PER_CPU_S '%.0f'
  row "Redis CPU, % of one core" $C_REDIS '%.0f'
  row "origin CPU, % of one core" $C_ORIGIN '%.0f'
  row "$gw_core, %" $C_GW_CORE '%.0f'
  row "load CPUs busy (wrk, Redis, the origin), %" $C_LOAD '%.0f'
  row "gateway's JIT compilers, % of one core" $C_JIT '%.1f'
  row "gateway's garbage collection, % of the time" $C_GC '%.1f'
  echo "| requests counted |$(for side in "${SHOWN[@]}"; do printf ' %s |' "$(total "$side" $C_REQUESTS)"; done)"
  echo "| wrong answers (non-2xx included) and socket errors |$(for side in "${SHOWN[@]}"; do printf ' %s |' "$(($(total "$side" $C_BAD) + $(total "$side" $C_SOCKET)))"; done)"
}

# The notes every HTTP benchmark's reading ends with: a line for every side whose server under test
# did not fill its core (something else set its pace), then latency and the gateway's warnings.
pace_notes() {
  local side label
  for side in "${SHOWN[@]}"; do
    awk -v c="$(med "$side" $C_SERVING)" 'BEGIN { exit !(c < 90) }' || continue
    label=${LABEL[$side]:-$side}
    echo "- ${label^}: the server under test used only $(pct "$(med "$side" $C_SERVING)") of its core while the load CPUs (wrk, Redis, the origin) were $(pct "$(med "$side" $C_LOAD)") busy, so they, or the host, set the pace; this side's requests/s is a lower bound, and its $(int "$(med "$side" $C_PER_CPU_S)") requests per second of CPU the better estimate of what one core does."
  done
  echo "- Latency is measured at saturation, so it is mostly queueing ($CONNECTIONS connections); it says nothing about latency at the load a gateway is sized for."
  echo "- The gateway logged $(gateway_warnings_after "$LOG_MARK") warnings or errors during the warm-up and the runs."
}

# The table of every recorded run, in the order they ran.
per_run_table() {
  echo "| round | side | requests/s | p50 ms | p99 ms | server CPU % | gateway CPU % | JIT % | GC % | Redis CPU % | origin CPU % | gateway's CPU busy % | load CPUs busy % | stolen % | Redis commands | EVALSHA per request | wrong | non-2xx | socket errors |"
  echo "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  awk '{ printf "| %s | %s | %.0f | %.2f | %.2f | %.0f | %.0f | %.1f | %.1f | %.0f | %.0f | %.0f | %.0f | %.1f | %d | %.3f | %d | %d | %d |\n",
    $2, $1, $3, $4, $5, $6, $7, $17, $18, $8, $9, $11, $12, $13, $15, $16, $19, $20, $21 }' "$WORK/derived"
}

# Writes the results file from the Markdown on stdin, and keeps the logs only after warnings.
write_results() {
  mkdir -p "$(dirname "$OUT")"
  cat >"$OUT.tmp"
  mv "$OUT.tmp" "$OUT"
  [ "$(gateway_warnings_after "$LOG_MARK")" -gt 0 ] || KEEP_WORK=0
  log "wrote $OUT"
}
