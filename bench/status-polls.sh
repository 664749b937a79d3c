#!/usr/bin/env bash
# How many waiting-room status polls per second one gateway serves on one core, measured with wrk
# and taken turn about with admitted visitors' requests (a valid pass) through the same gateway to
# a fast origin (the reference). Starts its own redis-server, nginx (the origin, a 2 KB page) and
# gateway on free loopback ports, stops them on exit, and writes bench/results/status-polls.md.
# Run it from anywhere.
#
# Options: --rounds N (4)  --duration S (10, seconds per wrk run)  --warmup S (30, at least)
#          --max-warmup S (90)  --visitors N (1000)  --connections N (64)  --threads N (2)
#          --no-pin  --out FILE
set -euo pipefail
BENCH=status-polls ROUNDS=4 DURATION=10 WARMUP=30 MAX_WARMUP=90 VISITORS=1000 CONNECTIONS=64 THREADS=2
NO_PIN=0 OUT=bench/results/status-polls.md
OPTIONS="rounds duration warmup max-warmup visitors connections threads out" FLAGS="no-pin"
# shellcheck source=bench/lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
# shellcheck source=bench/lib/services.sh
. bench/lib/services.sh
# shellcheck source=bench/lib/runs.sh
. bench/lib/runs.sh
parse_options "$@"
ROOM=shop ITEM=1
TICKET_COOKIE="anteroom_ticket_$ROOM"

require_tools wrk nginx
require_gateway_jar
setup_pinning
LOAD_AT_START=$(load_average)
start_fast_origin_services "$ROOM:$ITEM"

# Waiting visitors: each joins once, without cookies; no worker runs, so nobody moves. One curl
# process sends $1 requests one after another on one connection, without cookies, so each is a new
# visitor; the headers it prints carry each visitor's ticket.
JOIN_WORKERS=8
join_batch() {
  local i args=()
  for ((i = 0; i < $1; i++)); do args+=(-o /dev/null "$GATEWAY_URL/products/$ITEM"); done
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

# Polls with ticket $1 into $WORK/poll.json, and prints the answer's size in bytes.
poll() {
  curl -s --max-time 5 -o "$WORK/poll.json" -w '%{size_download}' -H 'Accept: application/json' \
    -H "Cookie: $TICKET_COOKIE=$1" "$GATEWAY_URL/_anteroom/status?room=$ROOM"
}
POLL_BYTES=$(poll "$(head -n 1 "$WORK/tickets")")
grep -q '"state":"waiting"' "$WORK/poll.json" || die "a poll did not answer waiting: $(cat "$WORK/poll.json")"
LINE_LENGTH=$(sed -E 's/.*"waiting":([0-9]+).*/\1/' "$WORK/poll.json")
take_pass HELD_PASS "$QUEUED_PATH"
log "$TICKETS tickets; the line holds $LINE_LENGTH; a poll answers $POLL_BYTES bytes, an admitted visitor's $QUEUED_PATH $PRODUCT_BYTES bytes"

SIDES=(polls passes) WARM_SIDES=(polls passes) SHOWN=(polls passes)
LABEL=([polls]=polls [passes]="admitted visitors")
{
  echo "-- Rotates through the tickets of waiting visitors; counts answers that are not 200 + waiting."
  echo "local tickets = {"
  awk '{ printf "  \"%s\",\n", $0 }' "$WORK/tickets"
  echo "}"
  wrk_common
  cat <<EOF_LUA
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
EOF_LUA
} >"$WORK/polls.lua"
pass_holder_lua "$HELD_PASS" >"$WORK/passes.lua"

run_rounds
poll "$(tail -n 1 "$WORK/tickets")" >/dev/null
grep -q '"state":"waiting"' "$WORK/poll.json" || die "after the runs a poll answered: $(cat "$WORK/poll.json")"
check_origin_answer "$GATEWAY_URL$QUEUED_PATH" "$(pass_cookie admit)=$HELD_PASS" \
  || die "after the runs the admitted visitor no longer got the page"

# ---------------------------------------------------------------------------------------------
# Figures

read -r RATIO RATIO_LO RATIO_HI <<<"$(ratio polls passes $C_RPS)"
read -r CPU_RATIO CPU_RATIO_LO CPU_RATIO_HI <<<"$(ratio polls passes $C_PER_CPU_S)"
POLL_REQUESTS=$(total polls $C_REQUESTS)
# Redis commands summed over the recorded runs of each side: "command calls/request usec/request".
redis_per_request() {
  cat "$WORK"/cmd-"$1"-* | awk -v n="$(total "$1" $C_REQUESTS)" '{ c[$1] += $2; u[$1] += $3 }
    END { for (k in c) printf "%s %.4f %.3f\n", k, c[k] / n, u[k] / n }' | sort -k2,2gr -k1,1
}
redis_per_request polls >"$WORK/redis-polls"
redis_per_request passes >"$WORK/redis-passes"
read -r EVALSHA_PER_POLL EVALSHA_USEC <<<"$(awk '$1 == "evalsha" { c = $2; u = $3 } END { print c + 0, u + 0 }' "$WORK/redis-polls")"
# One round trip per poll: one EVALSHA, give or take the polls in flight when wrk stopped (which
# Redis served and wrk did not count).
EVALSHA_SLACK=$(awk -v c="$CONNECTIONS" -v n="$POLL_REQUESTS" -v r="$ROUNDS" 'BEGIN { printf "%.6f", n ? c * r / n : 0 }')
GOAL5="met"
awk -v x="$RATIO" -v e="$EVALSHA_PER_POLL" -v s="$EVALSHA_SLACK" 'BEGIN { exit !(x >= 0.8 && e >= 1 - s && e <= 1 + s) }' || GOAL5="not met"
GOAL5+=" ($(fmt '%.2f' "$RATIO")×, $(fmt '%.3f' "$EVALSHA_PER_POLL") EVALSHA per poll)"
# Warnings and errors the gateway logged while visitors joined.
JOIN_TIMEOUTS=$(head -n "$LOG_MARK" "$WORK/gateway.log" | grep -c 'RedisCommandTimeoutException' || true)

# ---------------------------------------------------------------------------------------------
# Results file

reading() {
  local first_polls first_passes last_polls last_passes
  if [ "$PINNED" -eq 1 ]; then
    echo "- **One gateway core served $(int "$(med polls $C_RPS)") status polls per second** (median; $(range polls $C_RPS '%.0f') over the rounds). That is $(fmt '%.2f' "$RATIO")× the $(int "$(med passes $C_RPS)") admitted visitors' requests per second the same core served."
  else
    echo "- **The gateway served $(int "$(med polls $C_RPS)") status polls per second** (median; $(range polls $C_RPS '%.0f')), $(fmt '%.2f' "$RATIO")× the admitted visitors' requests. It was not pinned to a core, so this is not a per-core figure."
  fi
  echo "- Per second of gateway CPU, the gateway served $(int "$(med polls $C_PER_CPU_S)") polls against $(int "$(med passes $C_PER_CPU_S)") admitted visitors' requests, $(fmt '%.2f' "$CPU_RATIO")×."
  if awk -v g="$(med polls $C_SERVING)" 'BEGIN { exit !(g >= 90) }'; then
    echo "- During the poll runs the gateway used $(pct "$(med polls $C_SERVING)") of a core, so its own CPU was the limit. Redis was not. It used $(pct "$(med polls $C_REDIS)") of a core, and at $(fmt '%.1f' "$EVALSHA_USEC") µs of server time per poll, one Redis core could carry roughly $(awk -v u="$EVALSHA_USEC" 'BEGIN { printf "%.0f", (u > 0) ? int(1e6 / u / 100 + 0.5) * 100 : 0 }') polls per second. That is an upper bound, because it counts server time only and leaves out network handling."
  fi
  echo "- A poll costs the gateway an HS256 check of the ticket, one Redis round trip and a small JSON answer. An admitted visitor's request costs an HS256 check of the pass (no Redis), a round trip to the origin and relaying its page. Both go through the same Netty server."
  if awk -v b="$(med polls $C_GW_CORE)" -v g="$(med polls $C_SERVING)" 'BEGIN { exit !(b - g >= 5) }'; then
    echo "- During the poll runs the gateway used $(pct "$(med polls $C_SERVING)") of its core, while its core was $(pct "$(med polls $C_GW_CORE)") busy. The difference is other processes, and kernel work charged to no process, such as loopback networking."
  fi
  read -r first_polls first_passes <<<"$WARM_FIRST"
  read -r last_polls last_passes <<<"$WARM_LAST"
  echo "- The JIT takes a while. In the $WARM_SECONDS s of warm-up, polls went from $first_polls/s in the first slice to $last_polls/s in the last, and admitted visitors' requests from $first_passes/s to $last_passes/s. A gateway that has just started, such as one the autoscaler has just added, serves far fewer polls until it has warmed up. In the recorded runs, the JIT compilers used at most $(col all $C_JIT | minmax | cut -d' ' -f2) % of a core."
  [ "$PINNED" -eq 0 ] || echo "- The gateway warmed up on all CPUs because its JIT compiler threads get only a share of one busy core, so on one core compiling the hot code takes minutes of load. A gateway limited to one CPU in production warms up that slowly."
  if awk -v s="$(col all $C_STEAL | minmax | cut -d' ' -f2)" 'BEGIN { exit !(s >= 5) }'; then
    echo "- The host took CPU time away from this virtual machine: up to $(col all $C_STEAL | minmax | cut -d' ' -f2) % of it in one run (the stolen column below). Time stolen from the gateway's CPU lowers that run's requests/s but not its requests per second of gateway CPU."
  fi
  echo "- Compare ratios rather than absolute figures across machines, and size production from a run on its own hardware."
  if [ "$JOIN_503" -gt 0 ] || [ "$JOIN_TIMEOUTS" -gt 0 ]; then
    echo "- While the visitors joined, just after start-up, the gateway answered 503 to $JOIN_503 of the joins, and its log shows $JOIN_TIMEOUTS Redis command timeout(s) (\`anteroom.redis.command-timeout\`, 500 ms). A cold JVM that is still compiling its code can take longer than that to handle a reply. The benchmark joined that many more visitors, and measured only after the warm-up."
  fi
  pace_notes
}

write_results <<EOF_MD
# Status polls per second on one gateway core, next to admitted visitors

$(setup_rows)
| line | $TICKETS waiting visitors' tickets, in queue \`$ROOM:$ITEM\`, whose line holds $LINE_LENGTH$([ "$LINE_LENGTH" -le "$TICKETS" ] || echo " (repeated joins put the rest there)"); no admission worker runs, so nobody moves |

## How it is measured

The benchmark starts its own redis-server, nginx serving a $PRODUCT_BYTES-byte page as the origin, and one gateway with \`config/anteroom.yml\` and \`bench/config/fast-origin.yml\` on top (its routes lead to nginx), a fixed test signing key, and the queues \`$ROOM:$ITEM\` and \`admit:1\` turned on at start. $VISITORS visitors each load \`/products/$ITEM\` once, with \`Accept: application/json\` and no cookies, so each request is a new visitor who joins the line, and the \`Set-Cookie\` of each answer holds that visitor's ticket. The first one may be let in at once by the room's token bucket. Joins that fail are repeated, because a cold gateway may answer 503. The admitted visitor takes a pass the same way: one request to \`$QUEUED_PATH\` without cookies, whose queue \`admit:1\` lets everyone in at once and keeps them in for an hour, so the pass is not renewed during the runs.

The two sides take turns within each round, and which side goes first alternates between rounds, so changes in the machine's load fall on both alike:

- **polls**: \`GET /_anteroom/status?room=$ROOM\` with \`Accept: application/json\`. Each request carries the next visitor's \`$TICKET_COOKIE\` cookie in turn. Every answer must be \`200\` with \`"state":"waiting"\` ($POLL_BYTES bytes), and wrk's Lua script counts any other. This is what every waiting browser does. The gateway verifies the ticket's signature, makes one Redis call (\`status.lua\`: the place in line, the length of the line, the visitor's last-seen time) and answers JSON.
- **admitted visitors** (the reference): \`GET $QUEUED_PATH\` with a valid pass, through a route with the WaitingRoom filter on an active queue. The gateway checks the pass without Redis, forwards to nginx and relays the page. Every answer must be \`200\` with the origin's whole $PRODUCT_BYTES-byte page.

Requests/s and latency percentiles come from wrk. It runs a closed loop: each connection sends its next request as soon as the answer arrives, so latency at saturation is mostly queueing, about connections ÷ requests/s. The CPU use of each process comes from \`/proc/<pid>/stat\` (user + system, all threads), over each run. The per-CPU busy and stolen figures come from \`/proc/stat\`, which counts in timer ticks; they show whether other work shared a CPU, and are less exact than the per-process figures. Redis commands come from \`INFO commandstats\` before and after each run. Commands that a script runs are counted inside its EVALSHA and also under their own names.

## Results (median of $ROUNDS rounds, min–max in brackets)

$(results_table)

| ratio | median | min–max |
|---|---:|---:|
| polls/s ÷ admitted visitors' requests/s, same round (goal 5: ≥ 0.8) | $(fmt '%.2f' "$RATIO")× | $(fmt '%.2f' "$RATIO_LO")–$(fmt '%.2f' "$RATIO_HI")× |
| polls ÷ admitted visitors' requests per second of gateway CPU, same round | $(fmt '%.2f' "$CPU_RATIO")× | $(fmt '%.2f' "$CPU_RATIO_LO")–$(fmt '%.2f' "$CPU_RATIO_HI")× |

Goal 5, polls/s ÷ admitted visitors' requests/s ≥ 0.8 with one Redis round trip per poll: **$GOAL5**.

## Redis commands per poll

$(fmt '%.3f' "$EVALSHA_PER_POLL") EVALSHA per poll, so one Redis round trip, with $(fmt '%.1f' "$EVALSHA_USEC") µs of Redis server time.$(awk -v e="$EVALSHA_PER_POLL" -v c="$CONNECTIONS" -v n="$POLL_REQUESTS" -v r="$ROUNDS" 'BEGIN { if (e > 1) printf " The part above one is the polls still in flight when wrk stopped, which Redis served but wrk did not count: %d connections for about %.0f polls per run is %.4f.", c, n / r, c / (n / r) }') Summed over the recorded poll runs, per poll:

| command | calls per poll | µs per poll |
|---|---:|---:|
$(awk '{ printf "| %s | %.4f | %.3f |\n", toupper($1), $2, $3 }' "$WORK/redis-polls")

ZCARD, ZRANK and ZADD run inside \`status.lua\`, so their time is part of EVALSHA's. During the admitted visitors' runs Redis served $(awk '{ s += $2 } END { printf "%.4f", s }' "$WORK/redis-passes") commands per request ($(awk '{ printf "%s%s %.4f", (NR > 1 ? ", " : ""), toupper($1), $2 } END { if (!NR) printf "none" }' "$WORK/redis-passes")): the gateway's own background reads (\`bench/pass-holders.sh\` measures them apart), which the poll figures contain too.

## Reading

$(reading)

## Per run

$(per_run_table)
EOF_MD
log "polls: $(int "$(med polls $C_RPS)")/s, admitted visitors: $(int "$(med passes $C_RPS)")/s; goal 5: $GOAL5"
