# shellcheck shell=bash
# wrk runs for the HTTP benchmarks: every script prebuilds its requests, checks every answer in
# its response() and prints one RESULT line; the warm-up takes turns between the sides until the
# gateway's JIT compilers go quiet.

WRK_THREADS=${WRK_THREADS:-2}

# The Lua shared by every wrk script: counts the "bad" answers of all threads and prints
# "RESULT requests=… duration_us=… p50_us=… p99_us=… bad=… status=… socket=…". The script's own
# init() sets bad = 0 and its response() counts wrong answers.
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

# Runs wrk on the load CPUs: $1 base URL, $2 script, $3 connections, $4 seconds, $5 output file.
# Fails without a RESULT line; prints "requests duration_us p50_us p99_us bad status socket".
run_wrk() {
  "${LOAD_PIN[@]}" wrk -t"$WRK_THREADS" --latency --timeout 5s -c"$3" -d"$4s" -s "$2" "$1" >"$5" 2>&1 \
    || die "wrk failed; see $5"
  local result
  result=$(grep '^RESULT ' "$5") || die "wrk printed no RESULT line; see $5"
  sed -E 's/RESULT requests=([0-9]+) duration_us=([0-9]+) p50_us=([0-9]+) p99_us=([0-9]+) bad=([0-9]+) status=([0-9]+) socket=([0-9]+)/\1 \2 \3 \4 \5 \6 \7/' <<<"$result"
}

# The wrk command line as the results files quote it, for $1 connections and $2 seconds.
wrk_line() {
  echo "wrk -t$WRK_THREADS --latency --timeout 5s -c$1 -d$2s -s <script> <url>"
}

# Warms the gateway up in slices of WARM_SLICE seconds, running `run_side SIDE SECONDS` (which sets
# LAST_RPS) for each of WARM_SIDES in turn, for at least WARMUP seconds and until the JIT compiler
# threads used under JIT_QUIET % of a core in the last turn, or MAX_WARMUP seconds have passed.
# Sets WARM_FIRST and WARM_LAST (requests/s of the sides in the first and last turn),
# WARM_SECONDS, WARM_JIT and WARM_NOTE.
warm_up() {
  local started=$SECONDS settled=0 jit0 wall0 side rates
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
    WARM_JIT=$(awk -v a="$jit0" -v b="$(jit_ticks)" -v w0="$wall0" -v w1="$(date +%s%N)" -v clk="$CLK_TCK" \
      'BEGIN { printf "%.1f", 100 * (b - a) / clk / ((w1 - w0) / 1e9) }')
    WARM_SECONDS=$((SECONDS - started))
    log "  warm-up: ${WARM_SIDES[*]}: $rates requests/s, JIT compilers $WARM_JIT % of a core"
    if [ "$WARM_SECONDS" -ge "$WARMUP" ] && awk -v j="$WARM_JIT" -v q="$JIT_QUIET" 'BEGIN { exit !(j < q) }'; then
      settled=1
      break
    fi
    [ "$WARM_SECONDS" -lt "$MAX_WARMUP" ] || break
  done
  if [ "$settled" -eq 1 ]; then
    WARM_NOTE="${WARM_SECONDS} s of warm-up in ${WARM_SLICE} s slices taking turns, until the gateway's JIT compiler threads used under $JIT_QUIET % of a core ($WARM_JIT % in the last turn)"
  else
    WARM_NOTE="${WARM_SECONDS} s of warm-up in ${WARM_SLICE} s slices taking turns, stopped by the ${MAX_WARMUP} s cap with the gateway's JIT compiler threads still at $WARM_JIT % of a core"
  fi
}
