# shellcheck shell=bash
# The gateway in front of the fast nginx origin, with bench/config/fast-origin.yml on top of
# config/anteroom.yml, and the visitors' passes it gives out.

QUEUED_PATH=/queued/1     # route with WaitingRoom=admit; its queue admit:1 is on
UNQUEUED_PATH=/unqueued/1 # the same page through a route without the filter
# A piece of the origin's page that every answer must carry, with the page's full length.
PAGE_MARK='<p class="price">19.90</p>'

pass_cookie() {
  echo "anteroom_pass_$1"
}

# Starts the gateway for the fast origin with queue admit:1 and the queues in "$@" (room:item)
# turned on at start.
start_fast_gateway() {
  local queues=admit:1 queue
  for queue in "$@"; do queues+=",$queue"; done
  start_gateway \
    --spring.config.additional-location="file:$ROOT/bench/config/fast-origin.yml" \
    --anteroom.gateway.activate-on-start="$queues"
}

# True when GET $1, with cookie header $2 (may be empty), answers 200 with the origin's whole page.
check_origin_answer() {
  local status
  status=$(curl -s --max-time 5 -o "$WORK/answer" -w '%{http_code}' -H 'Accept: text/html' ${2:+-H "Cookie: $2"} "$1") || return 1
  [ "$status" = 200 ] && cmp -s "$WORK/answer" "$WORK/nginx-origin/html/product.html"
}

# Sets the variable named $1 to the pass the gateway gives a visitor who loads path $2 (its room's
# queue admits at once or is off), checking that the visitor got the origin's page; with $3, the
# visitor sends that pass, as a browser would, and gets one that opens $2 too.
take_pass() {
  local headers room=${2#/}
  room=${room%%/*}
  case "$room" in queued) room=admit ;; esac
  headers=$(curl -s --max-time 10 -D - -o "$WORK/first-page" -H 'Accept: text/html' \
    ${3:+-H "Cookie: $(pass_cookie "$room")=$3"} "$GATEWAY_URL$2" | tr -d '\r') \
    || die "a visitor to $2 got no answer within 10 s"
  [[ $headers == "HTTP/1.1 200"* ]] || die "a visitor to $2 got $(head -n 1 <<<"$headers"), not the page"
  cmp -s "$WORK/first-page" "$WORK/nginx-origin/html/product.html" || die "a visitor to $2 did not get the origin's page"
  printf -v "$1" '%s' "$(sed -n "s/^set-cookie: $(pass_cookie "$room")=\([^;]*\).*/\1/Ip" <<<"$headers" | head -n 1)"
  [ -n "${!1}" ] || die "a visitor to $2 got no $(pass_cookie "$room") cookie"
}

# Lua that keeps the pass cookie named $1 as a browser does: "cookie" holds the current pass, and
# after an answer that sets a new one, the script's rebuild() makes its requests again with it.
follow_pass_lua() {
  cat <<EOF_LUA
local cookie
local checked = response
function response(status, headers, body)
  checked(status, headers, body)
  local set = headers["Set-Cookie"] or headers["set-cookie"]
  local pass = set and string.match(set, "^$1=([^;]+)")
  if pass and pass ~= cookie then
    cookie = pass
    rebuild()
  end
end
EOF_LUA
}

# Lua that counts as bad every answer that is not 200 with the origin's whole page.
page_check_lua() {
  cat <<EOF_LUA
function response(status, headers, body)
  if status ~= 200 or #body ~= $PRODUCT_BYTES or not string.find(body, '$PAGE_MARK', 1, true) then
    bad = bad + 1
  end
end
EOF_LUA
}

# A wrk script: pass holders loading path $2 (QUEUED_PATH by default) again and again; each wrk
# thread is one visitor, with the pass of $1 (space-separated, taken in turn), renewed as a
# browser renews it.
pass_holder_lua() {
  local path=${2:-$QUEUED_PATH}
  echo "-- Admitted visitors: $path with a valid pass for the active queue admit:1, one per thread."
  echo "local passes = { $(printf '"%s", ' $1) }"
  wrk_common
  page_check_lua
  follow_pass_lua "$(pass_cookie admit)"
  cat <<EOF_LUA
local req
function rebuild()
  req = wrk.format("GET", "$path", { ["Accept"] = "text/html", ["Cookie"] = "$(pass_cookie admit)=" .. cookie })
end
function init(args)
  bad = 0
  cookie = passes[(id - 1) % #passes + 1]
  rebuild()
end
function request()
  return req
end
EOF_LUA
}

# The gateway's count of pass holders' sessions confirmed in Redis for room $1, all outcomes.
pass_checks() {
  curl -s --max-time 5 "http://127.0.0.1:$MANAGEMENT_PORT/actuator/prometheus" \
    | awk -v room="room=\"$1\"" '/^anteroom_gateway_pass_checks_total\{/ && index($0, room) { s += $NF } END { printf "%d\n", s }'
}
