#!/usr/bin/env bash
# How many requests per second one gateway core forwards for admitted visitors (a valid pass on an
# active queue), next to the same gateway's route without the WaitingRoom filter and next to nginx
# as a plain reverse proxy, and next to a second gateway with the framework's meters and filters at
# their defaults (the unfiltered route as the gateway shipped before they were tuned), all to one
# fast origin (nginx serving a 2 KB page); and how many Redis commands a pass holder's request, and
# a request on an item whose queue is off, costs.
# Starts its own redis-server, nginx (origin and proxy) and gateways on free loopback ports, stops
# them on exit, and writes bench/results/pass-holders.md. Run it from anywhere.
#
# Options: --rounds N (5)  --duration S (10, seconds per wrk run)  --warmup S (30, at least)
#          --max-warmup S (180)  --connections N (64)  --threads N (2)  --items N (1000, inactive
#          items the browse side spreads over, 500 to 2000 for the browse room's threshold)  --jfr
#          (one more run of the filtered and the unfiltered side, and of the framework's defaults,
#          with the JDK Flight Recorder, to see where the filter's CPU goes and what filtering the
#          origin's headers costs)  --no-pin  --out FILE
set -euo pipefail
BENCH=pass-holders ROUNDS=5 DURATION=10 WARMUP=30 CONNECTIONS=64 THREADS=2 ITEMS=1000
MAX_WARMUP=180 JFR=0 NO_PIN=0 OUT=bench/results/pass-holders.md
OPTIONS="rounds duration warmup max-warmup connections threads items out" FLAGS="jfr no-pin"
# shellcheck source=bench/lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
# shellcheck source=bench/lib/services.sh
. bench/lib/services.sh
# shellcheck source=bench/lib/runs.sh
. bench/lib/runs.sh
parse_options "$@"
[ "$ITEMS" -ge 500 ] && [ "$ITEMS" -le 2000 ] || usage_error "--items: 500 to 2000 (bench/config/fast-origin.yml, room browse)"
# How often a pass holder's session is confirmed in Redis: the default pass-recheck, a tenth of the
# bench rooms' hour-long sessions being longer.
RECHECK_SECONDS=60
HIT_SETTLE=2 # seconds after a run on inactive items: more than the gateway's hit-flush (1s)

require_tools wrk nginx
require_gateway_jar
[ "$JFR" -eq 0 ] || { have jcmd && have jfr; } || die "--jfr needs the JDK's jcmd and jfr on the PATH"
setup_pinning
LOAD_AT_START=$(load_average)
# The frame that filters the headers of a request to the origin and of its answer, in --jfr's runs.
HEADERS_FRAME=org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter.filter
start_fast_origin_services
start_proxy_nginx

# The same gateway with the profile framework-meters and the framework's filters at their defaults
# (bench/config/framework-defaults.yml): the unfiltered route as shipped before the tuning. Idle
# but for its background Redis reads while the other sides run.
pick_port DEFAULTS_PORT
pick_port DEFAULTS_MANAGEMENT_PORT
spawn defaults env -u ANTEROOM_TOKEN_KEY ANTEROOM_CONFIG="$ROOT/config/anteroom.yml" \
  ANTEROOM_REDIS_URI="redis://127.0.0.1:$REDIS_PORT" ANTEROOM_ORIGIN="$ORIGIN" \
  "${GW_PIN[@]}" java -Xmx512m -jar "$JAR" --server.port="$DEFAULTS_PORT" \
  --management.server.port="$DEFAULTS_MANAGEMENT_PORT" --anteroom.tokens.keys.main="$TOKEN_KEY" \
  --anteroom.gateway.cookie-secure=false --spring.profiles.active=framework-meters \
  --spring.config.additional-location="file:$ROOT/bench/config/fast-origin.yml,file:$ROOT/bench/config/framework-defaults.yml"
DEFAULTS_PID=$SPAWNED_PID
await "$DEFAULTS_PID" defaults http_ok "http://127.0.0.1:$DEFAULTS_MANAGEMENT_PORT/actuator/health/readiness"
[ "$PINNED" -eq 0 ] || pin_process "$DEFAULTS_PID" "$ALL_LIST"
# The JIT figures, and the warm-up's end, count both gateways' compilers.
MAIN_PID=$GATEWAY_PID
eval "one_jit_ticks() $(declare -f jit_ticks | sed 1d)"
jit_ticks() { echo $(($(GATEWAY_PID=$MAIN_PID one_jit_ticks) + $(GATEWAY_PID=$DEFAULTS_PID one_jit_ticks))); }

# Each wrk thread is one visitor, taking its pass for $QUEUED_PATH the way a browser does. The browse
# items' passes, 16 items each (the most one pass opens, taken item by item, sending the pass so
# far), are shared by the threads; eight passes are taken at once, each in a directory of its own.
HELD_PASSES="" BROWSE_PASSES=""
for ((t = 1; t <= THREADS; t++)); do
  take_pass pass "$QUEUED_PATH"
  HELD_PASSES+=" $pass"
done
browse_pass() {
  local WORK=$WORK/browse-pass-$1 pass="" i
  mkdir -p "$WORK"
  for ((i = 16 * $1 + 1; i <= 16 * $1 + 16 && i <= ITEMS; i++)); do take_pass pass "/browse/$i" "$pass"; done
  echo "$pass" >"$WORK/pass"
}
log "taking passes for $ITEMS items of room browse"
for ((first = 0; first < (ITEMS + 15) / 16; first += 8)); do
  takers=()
  for ((k = first; k < first + 8 && k < (ITEMS + 15) / 16; k++)); do
    browse_pass "$k" &
    takers+=($!)
  done
  for k in "${takers[@]}"; do wait "$k" || die "a visitor of room browse got no pass; see $WORK/browse-pass-*"; done
done
for ((k = 0; k < (ITEMS + 15) / 16; k++)); do BROWSE_PASSES+=" $(cat "$WORK/browse-pass-$k/pass")"; done
read -r HELD_PASS _ <<<"$HELD_PASSES"
check_origin_answer "$GATEWAY_URL$UNQUEUED_PATH" "" || die "GET $UNQUEUED_PATH through the gateway did not answer the origin's page"
check_origin_answer "$PROXY_URL$UNQUEUED_PATH" "" || die "GET $UNQUEUED_PATH through nginx did not answer the origin's page"
check_origin_answer "http://127.0.0.1:$DEFAULTS_PORT$UNQUEUED_PATH" "" || die "GET $UNQUEUED_PATH through the gateway with the framework's defaults did not answer the origin's page"
log "$THREADS visitors with a pass for $QUEUED_PATH, and passes for $ITEMS items of room browse; every side answers the $PRODUCT_BYTES-byte page"

# The sides and their wrk scripts; each script checks that every answer is 200 with the whole page.
SIDES=(quiet held unfiltered defaults nginx browse) WARM_SIDES=(held unfiltered defaults browse)
SHOWN=(held unfiltered defaults nginx browse)
LABEL=([held]="pass holders" [unfiltered]="unfiltered route" [defaults]="unfiltered, framework defaults" [nginx]="nginx reverse proxy" [browse]="inactive items")
SIDE_URL[nginx]=$PROXY_URL SIDE_URL[defaults]="http://127.0.0.1:$DEFAULTS_PORT"
pass_holder_lua "$HELD_PASSES" >"$WORK/held.lua"
# The same pass cookie on the route without the WaitingRoom filter, or through nginx.
pass_holder_lua "$HELD_PASS" "$UNQUEUED_PATH" >"$WORK/unfiltered.lua"
cp "$WORK/unfiltered.lua" "$WORK/nginx.lua"
cp "$WORK/unfiltered.lua" "$WORK/defaults.lua"
{
  echo "-- Items of room browse, whose queues are off, in turn, each with the pass that opens it (16 items a pass)."
  wrk_common
  cat <<EOF_LUA
local passes = { $(printf '"%s", ' $BROWSE_PASSES) }
local reqs, n = {}, 0
function init(args)
  bad = 0
  for i = 1, $ITEMS do
    local pass = passes[math.floor((i - 1) / 16) + 1]
    reqs[i] = wrk.format("GET", "/browse/" .. i, { ["Accept"] = "text/html", ["Cookie"] = "$(pass_cookie browse)=" .. pass })
  end
  n = (id * 7) % #reqs
end
function request()
  n = n % #reqs + 1
  return reqs[n]
end
function response(status, headers, body)
  if status ~= 200 or #body ~= $PRODUCT_BYTES or not string.find(body, '<p class="price">19.90</p>', 1, true) then
    bad = bad + 1
  end
end
EOF_LUA
} >"$WORK/browse.lua"

# The hit counts of the last second go out after a run on inactive items: let them land first. The
# side with the framework's defaults reads that gateway's process (and its own CPU in the runs).
run_side() {
  if [ "$1" = defaults ]; then
    [ -z "${3:-}" ] || [ "$PINNED" -eq 0 ] || pin_process "$DEFAULTS_PID" "$GW_CPU"
    GATEWAY_PID=$DEFAULTS_PID MANAGEMENT_PORT=$DEFAULTS_MANAGEMENT_PORT measure "$@"
  else
    measure "$@"
  fi
  [ "$1" != browse ] || sleep "$HIT_SETTLE"
}
run_rounds
if [ "$JFR" -eq 1 ]; then
  log "one more run of the filtered and the unfiltered side, and of the framework's defaults, with the JDK Flight Recorder"
  for side in held unfiltered defaults; do
    pid=$GATEWAY_PID
    [ "$side" != defaults ] || pid=$DEFAULTS_PID
    jcmd "$pid" JFR.start name="$side" settings=profile filename="$WORK/$side.jfr" >"$WORK/jfr-$side.log" 2>&1 \
      || die "jcmd could not start a recording; see $WORK/jfr-$side.log"
    run_side "$side" "$DURATION"
    jcmd "$pid" JFR.stop name="$side" >>"$WORK/jfr-$side.log" 2>&1 || die "jcmd could not stop the recording"
    # The execution samples and the share (%) whose stack holds the filtering of the origin's
    # headers (HttpHeadersFilter.filter, whichever header filters it runs), then "share_% method" per
    # Anteroom method on their stacks, largest first.
    "${LOAD_PIN[@]}" jfr print --events jdk.ExecutionSample --stack-depth 64 "$WORK/$side.jfr" | awk -v headers="$HEADERS_FRAME" '
      /^jdk.ExecutionSample/ { n++; split("", seen); next }
      /line:/ {
        f = $1; sub(/\(.*/, "", f)
        if (f == headers && !(f in seen)) { seen[f] = 1; h++ }
        if (index(f, "io.anteroom.") == 1 && !(f in seen)) { seen[f] = 1; c[f]++ }
      }
      END { printf "%d %.1f\n", n, 100 * h / (n ? n : 1); for (f in c) printf "%.1f %s\n", 100 * c[f] / (n ? n : 1), f }' \
      | { read -r samples; echo "$samples"; sort -k1,1gr | head -n 25; } >"$WORK/jfr-$side.txt"
  done
fi
check_origin_answer "$GATEWAY_URL$QUEUED_PATH" "$(pass_cookie admit)=$HELD_PASS" \
  || die "after the runs the pass holder no longer got the page"

# ---------------------------------------------------------------------------------------------
# Figures

# Redis commands of side $1 net of the background: per command, the calls during the side's runs
# minus the rate of the same round's quiet window times the run's length. Prints "command gross
# net net_per_request" for every command seen in either.
redis_net() {
  local side=$1 round
  for round in $(seq 1 "$ROUNDS"); do
    awk -v w="$(awk -v s="$side" -v r="$round" '$1 == s && $2 == r { print $10 }' "$WORK/runs")" \
      -v q="$(awk -v r="$round" '$1 == "quiet" && $2 == r { print $10 }' "$WORK/runs")" \
      'NR == FNR { bg[$1] = $2 / q; next } { c[$1] += $2 }
      END { for (k in c) print k, c[k], c[k] - bg[k] * w; for (k in bg) if (!(k in c)) print k, 0, -bg[k] * w }' \
      "$WORK/cmd-quiet-$round" "$WORK/cmd-$side-$round"
  done | awk -v n="$(total "$side" $C_REQUESTS)" '{ g[$1] += $2; d[$1] += $3 }
    END { for (k in g) printf "%s %d %.1f %.6f\n", k, g[k], d[k], (n ? d[k] / n : 0) }' | sort -k2,2gr -k1,1
}
QUIET_RATE=$(awk '$1 == "quiet" { c += $24; w += $10 } END { printf "%.1f", w ? c / w : 0 }' "$WORK/runs")
cat "$WORK"/cmd-quiet-* | awk '{ print $1 }' | sort -u >"$WORK/background-commands"
for side in held unfiltered browse; do redis_net "$side" >"$WORK/redis-$side"; done
# A confirmation is one run of touch.lua: EVALSHA, ZSCORE and two ZADDs (the session in running and
# in the room's sessions). Pass holders' figures are counted net of them too; the confirmations
# have their own line below.
HELD_CONFIRMED=$(awk '$1 == "held" { c += $12 } END { print c + 0 }' "$WORK/runs")
awk -v c="$HELD_CONFIRMED" -v n="$(total held $C_REQUESTS)" '
  $1 == "evalsha" || $1 == "zscore" { $2 -= c; $3 -= c; $4 = n ? $3 / n : 0 }
  $1 == "zadd" { $2 -= 2 * c; $3 -= 2 * c; $4 = n ? $3 / n : 0 }
  { printf "%s %d %.1f %.6f\n", $1, $2, $3, $4 }' "$WORK/redis-held" >"$WORK/redis-held.net"
mv "$WORK/redis-held.net" "$WORK/redis-held"
# Confirmations per visitor and second of the recorded rounds' wall time (each side's visitors are
# the wrk threads), against the bound of one per recheck interval.
VISITORS=$((2 * THREADS))
CHECK_RATE=$(awk -v c="$CHECKS_ALL" -v v="$VISITORS" -v w="$ROUNDS_WALL" 'BEGIN { printf "%.5f", (v && w) ? c / v / w : 0 }')
CHECK_BOUND=$(awk -v r="$RECHECK_SECONDS" 'BEGIN { printf "%.5f", 1 / r }')
# Net commands per request, all commands, and those the quiet windows never saw.
net_per_request() { awk '{ s += $4 } END { printf "%.6f", s }' "$WORK/redis-$1"; }
HELD_NET=$(net_per_request held)
HELD_FOREIGN=$(awk 'NR == FNR { bg[$1] = 1; next } !($1 in bg) { s += $2 } END { print s + 0 }' "$WORK/background-commands" "$WORK/redis-held")
BROWSE_NET=$(net_per_request browse)
# Round trips the inactive items' requests cause: the EVALSHAs net of the gateway's own background
# scripts (live settings, active queues, room totals, origin reports), which run with or without
# traffic.
BROWSE_EVALSHA=$(awk '$1 == "evalsha" { v = $4 } END { printf "%.6f", v + 0 }' "$WORK/redis-browse")
read -r R1 R1_LO R1_HI <<<"$(ratio held unfiltered $C_RPS)"
read -r R2 R2_LO R2_HI <<<"$(ratio held nginx $C_RPS)"
read -r R1_CPU R1_CPU_LO R1_CPU_HI <<<"$(ratio held unfiltered $C_PER_CPU_S)"
read -r R0 R0_LO R0_HI <<<"$(ratio unfiltered nginx $C_RPS)"
read -r RT RT_LO RT_HI <<<"$(ratio unfiltered defaults $C_RPS)"
# Goal 3 is met when pass holders add no command of their own: none the quiet windows lack, and the
# background's own commands no more than 2 per run and command above the quiet rate (either end of
# a run may catch or miss a tick of their timers).
HELD_JITTER=$(awk -v r="$ROUNDS" -v n="$(total held $C_REQUESTS)" -v k="$(wc -l <"$WORK/background-commands")" \
  'BEGIN { printf "%.6f", n ? 2 * r * k / n : 0 }')
GOAL3="**not met**"
[ "$HELD_FOREIGN" -ne 0 ] || [ "$(verdict "$HELD_NET" "$HELD_JITTER" "<=")" != met ] || GOAL3=met

# ---------------------------------------------------------------------------------------------
# Results file

redis_table() {
  echo "| command | calls | net of background | net per request |"
  echo "|---|---:|---:|---:|"
  awk '{ printf "| %s | %d | %.1f | %.5f |\n", toupper($1), $2, $3, $4 }' "$WORK/redis-$1"
}
# With --jfr: the samples of side $1's recording, and the share of them filtering headers.
samples() { awk 'NR == 1 { print $1 }' "$WORK/jfr-$1.txt"; }
header_share() { awk 'NR == 1 { print $2 }' "$WORK/jfr-$1.txt"; }
# With --jfr, where the gateway's CPU went in the extra runs.
jfr_section() {
  [ "$JFR" -eq 1 ] || return 0
  echo
  echo "## Where the gateway's CPU goes (JDK Flight Recorder)"
  echo
  echo "One more run of each side after the rounds, with \`jcmd <pid> JFR.start settings=profile\` (not part of the figures above): the share of the gateway's execution samples whose stack holds each of Anteroom's methods ($(samples held) samples with pass holders, $(samples unfiltered) on the unfiltered route). A method's share includes the methods it calls. The samples are few, so read shares of a few % as rough."
  echo
  echo "| method | pass holders, % of samples |"
  echo "|---|---:|"
  tail -n +2 "$WORK/jfr-held.txt" | awk '{ printf "| `%s` | %.1f |\n", $2, $1 }'
  echo
  echo "On the unfiltered route Anteroom's methods were in $(tail -n +2 "$WORK/jfr-unfiltered.txt" | awk 'NR == 1 { printf "at most %.1f %% of the samples (`%s`)", $1, $2; f = 1 } END { if (!f) printf "none of the samples" }')."
  echo
  echo "Filtering the headers of the request to the origin and of its answer (\`$HEADERS_FRAME\` on the stack, whichever header filters it runs): $(header_share unfiltered) % of the unfiltered route's samples as shipped (Anteroom's \`OriginHeaders\`, one copy), $(header_share defaults) % of the same route's on the gateway with the framework's defaults ($(samples defaults) samples; the framework's own header filters, four copies of the request's headers), $(header_share held) % with pass holders."
}

PIN_NOTE="The gateway with the framework's defaults and the nginx reverse proxy run on CPU $GW_CPU too, each in its own turn. "
write_results <<EOF_MD
# Admitted visitors per second on one gateway core

$(setup_rows)
| reference proxy | the same nginx as a second process: \`proxy_pass\` to the origin through an \`upstream\` with \`keepalive 64\`, HTTP/1.1, \`worker_processes 1\`, \`access_log off\` |

## How it is measured

One gateway runs, as it ships, with two routes to the origin on top of the usual configuration: \`$QUEUED_PATH\` with \`WaitingRoom=admit\`, whose queue \`admit:1\` is on (\`activate-on-start\`), and \`$UNQUEUED_PATH\` without the filter. Room \`admit\` admits 100,000 people a second and keeps them for an hour, so the first request of a new visitor is let in at once. Room \`browse\` counts requests for activation by traffic: above 10 requests a second over 5 s a queue would turn on, which no item reaches, and a gateway sends an item's count once it has 5. Each wrk thread is one visitor: the benchmark takes, the way a browser does, one pass for \`$QUEUED_PATH\` per thread, and passes for the $ITEMS items \`/browse/1…$ITEMS\`, 16 items each (one request per item, sending the pass so far), which the threads share; browse passes are confirmed once an hour, so no run renews them. The wrk scripts keep the pass a \`Set-Cookie\` renews. A second gateway runs the same configuration with the profile \`framework-meters\` and \`bench/config/framework-defaults.yml\`: the framework's per-request meters and observations on, and its filters at their defaults, as the gateway shipped before they were tuned.

Each round runs these sides in turn, the order reversed every other round, so changes in the machine's load fall on all alike:

- **pass holders** (goal 1's numerator): \`GET $QUEUED_PATH\` with the pass cookie. The filter checks the pass locally and forwards.
- **unfiltered** (goal 1's reference, the tuning goal's numerator): \`GET $UNQUEUED_PATH\` through the same gateway, with the same cookie, so the requests differ only in their path and the difference is the filter's own work (it checks the pass and takes Anteroom's cookies off the request before forwarding; this route forwards the cookie as it is).
- **unfiltered, framework defaults** (the tuning goal's reference): the same request through the second gateway, pinned to the same CPU in its turn.
- **nginx** (for reference): the same request through the nginx reverse proxy.
- **inactive items** (goal 4): \`GET /browse/<n>\`, rotating over the $ITEMS items with the thread's pass. Their queues are off, so the gateway only counts the requests for activation by traffic and sends the counts about once a second, all items due in one script call.
- **quiet**: no load, for as long as a run. The gateway reads Redis on its own all the time (active queues and live settings every 250 ms, and more); the Redis figures below subtract, per command and round, the quiet window's rate times the length of the run.

Every answer must be \`200\` with the origin's whole page ($PRODUCT_BYTES bytes), checked by wrk's Lua script on every response. The JIT figures count both gateways' compilers, so the warm-up ends once both are quiet. Requests/s and latency come from wrk. CPU per process comes from \`/proc/<pid>/stat\` (user + system, all threads; nginx: master and worker), per CPU from \`/proc/stat\`. Redis commands come from \`INFO commandstats\` before and after each run; commands that a script runs are counted inside its EVALSHA and also under their own names, and every one counts below.

## Results (median of $ROUNDS rounds, min–max in brackets)

$(results_table)

## Goals

| # | figure | median | min–max | goal | |
|---|---|---:|---:|---:|---|
| 1 | pass holders' requests/s ÷ unfiltered route's, same round | $(fmt '%.3f' "$R1") | $(fmt '%.3f' "$R1_LO")–$(fmt '%.3f' "$R1_HI") | ≥ 0.95 | $(verdict "$R1" 0.95 ">=") |
| – | tuning: unfiltered route's requests/s ÷ the same route's with the framework's defaults, same round | $(fmt '%.3f' "$RT") | $(fmt '%.3f' "$RT_LO")–$(fmt '%.3f' "$RT_HI") | ≥ 1.2 | $(verdict "$RT" 1.2 ">=") |
| 2 | pass holders' requests/s ÷ nginx's, same round (for reference; no longer a goal) | $(fmt '%.3f' "$R2") | $(fmt '%.3f' "$R2_LO")–$(fmt '%.3f' "$R2_HI") | | |
| 3 | Redis commands per pass-holder request, net of background and of session confirmations | $(fmt '%.5f' "$HELD_NET") | $HELD_FOREIGN commands the quiet windows never saw | 0 | $GOAL3 |
| 3 | session confirmations per visitor-second, over the rounds' $ROUNDS_WALL s | $CHECK_RATE | $CHECKS_ALL calls for $VISITORS visitors ($HELD_CONFIRMED during pass holders' runs) | ≤ $CHECK_BOUND (one per ${RECHECK_SECONDS} s) | $(verdict "$CHECK_RATE" "$CHECK_BOUND" "<=") |
| 4 | Redis round trips (EVALSHA) per request on inactive items, net of background, $ITEMS distinct items | $(fmt '%.5f' "$BROWSE_EVALSHA") | | ≤ 0.001 | $(verdict "$BROWSE_EVALSHA" 0.001 "<=") |
| – | Redis commands per request on inactive items, net of background, those run inside scripts included | $(fmt '%.5f' "$BROWSE_NET") | | | |
| – | pass holders ÷ unfiltered, requests per second of gateway CPU | $(fmt '%.3f' "$R1_CPU") | $(fmt '%.3f' "$R1_CPU_LO")–$(fmt '%.3f' "$R1_CPU_HI") | | |
| – | unfiltered route's requests/s ÷ nginx's: the gateway without any Anteroom work | $(fmt '%.3f' "$R0") | $(fmt '%.3f' "$R0_LO")–$(fmt '%.3f' "$R0_HI") | | |

A pass holder's session is confirmed in Redis (one run of \`touch.lua\`) when its pass's item was last confirmed \`pass-recheck\` ago, here the default ${RECHECK_SECONDS} s; the wrk scripts keep the renewed pass, as a browser does, so each visitor is confirmed at most once a minute whatever its request rate. Goal 3's first line counts every command during the pass holders' runs, less the confirmations' four commands each, against the quiet windows: met when no command the background lacks appears and the background's own commands, net, come to no more than two calls per command and run above the quiet windows' rate (each end of a run may catch or miss one tick of their timers: $(fmt '%.5f' "$HELD_JITTER") per request here; a cost per request would be as many calls as requests). Under load the gateway's timers may skip a tick, so the net figure can fall below zero. Goal 4 counts the EVALSHA round trips net of the background's own scripts, which the quiet windows run too; the line below it also counts the commands run inside the scripts (the table below shows which commands ran; INFO commandstats cannot tell a command a script ran from one a client sent). The hit counts of all items due go out in one call a second, so the round trips do not grow with the number of distinct items a gateway sees each second ($ITEMS here) and shrink with its request rate ($(int "$(med browse $C_RPS)")/s here); the commands inside the call, two or so per item sent, do grow with them.

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

## Per run

$(per_run_table)
EOF_MD
log "pass holders $(int "$(med held $C_RPS)")/s, unfiltered $(int "$(med unfiltered $C_RPS)")/s, framework defaults $(int "$(med defaults $C_RPS)")/s, nginx $(int "$(med nginx $C_RPS)")/s"
log "goal 1: $(fmt '%.3f' "$R1") ($(verdict "$R1" 0.95 ">=")), tuning: $(fmt '%.3f' "$RT") ($(verdict "$RT" 1.2 ">=")), ÷ nginx: $(fmt '%.3f' "$R2"), goal 3: $(fmt '%.5f' "$HELD_NET") ($GOAL3), goal 4: $(fmt '%.5f' "$BROWSE_EVALSHA") EVALSHA ($(verdict "$BROWSE_EVALSHA" 0.001 "<=")), $(fmt '%.5f' "$BROWSE_NET") with script commands"
