# shellcheck shell=bash
# Process bookkeeping, logging, free ports and small statistics shared by the HTTP benchmarks.
# The sourcing script sets BENCH (its name, for messages) and ROOT before sourcing; this file sets
# WORK (a temporary directory for logs), PIDS (processes to stop on exit) and the traps.

STARTED_AT=$SECONDS
READY_TIMEOUT=${READY_TIMEOUT:-180}
# The demo's ports, the usual Redis port and plain http: never used here, even when free.
RESERVED_PORTS=" 80 443 6379 6380 8080 8081 8082 8090 "
WORK=$(mktemp -d "${TMPDIR:-/tmp}/$BENCH.XXXXXX")
KEEP_WORK=1
PIDS=()

die() {
  echo "$BENCH: $*" >&2
  exit 1
}

have() {
  command -v "$1" >/dev/null 2>&1
}

log() {
  printf '[%3ds] %s\n' "$((SECONDS - STARTED_AT))" "$*"
}

# Fails with exit code 2 unless every argument is a positive whole number.
require_counts() {
  local value
  for value in "$@"; do
    [[ $value =~ ^[1-9][0-9]*$ ]] || { echo "$BENCH: '$value' is not a positive whole number" >&2; exit 2; }
  done
}

# True while process $1 runs (a child that has exited stays a zombie until waited for).
alive() {
  [ -r "/proc/$1/stat" ] && [ "$(awk '{ sub(/.*\) /, ""); print $1 }' "/proc/$1/stat" 2>/dev/null)" != Z ]
}

# Starts "$2..." in the background with its output in $WORK/$1.log, and remembers it for cleanup.
# Sets SPAWNED_PID.
spawn() {
  local name=$1
  shift
  "$@" >"$WORK/$name.log" 2>&1 &
  SPAWNED_PID=$!
  PIDS+=("$SPAWNED_PID")
}

# Stops process $1 (TERM, then KILL after 20 s) and forgets it.
stop_process() {
  local pid=$1 i
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do
    alive "$pid" || break
    sleep 0.2
  done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  for i in "${!PIDS[@]}"; do
    [ "${PIDS[i]}" != "$pid" ] || unset 'PIDS[i]'
  done
  PIDS=("${PIDS[@]}")
}

# Stops what the benchmark started, newest first: the gateway before the Redis it uses.
cleanup() {
  local i
  trap '' INT TERM
  for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do
    stop_process "${PIDS[i]}"
  done
  if [ "$KEEP_WORK" -eq 0 ]; then
    rm -rf "$WORK"
  else
    echo "$BENCH: logs kept in $WORK" >&2
  fi
}
trap cleanup EXIT
# Under set -e a failing command ends the benchmark; say which, rather than stop without a word.
set -E
trap 'echo "$BENCH: \"$BASH_COMMAND\" failed (line $LINENO of ${BASH_SOURCE[0]##*/})" >&2' ERR
trap 'exit 130' INT
trap 'exit 143' TERM

# True when a TCP socket in any state, listening or connected, holds local port $1.
port_in_use() {
  if have ss && [ -n "$(ss -Htan "sport = :$1" 2>/dev/null)" ]; then
    return 0
  fi
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

TAKEN_PORTS=" "
# Below the kernel's range of ports for outgoing connections, where one may appear any moment.
EPHEMERAL_LOW=$(awk '{ print $1 }' /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
PORT_LOW=20000
PORT_SPAN=$((EPHEMERAL_LOW > PORT_LOW + 1000 ? EPHEMERAL_LOW - PORT_LOW : 40000))
# Sets the variable named $1 to a free port that is neither reserved nor already picked.
pick_port() {
  local port
  while :; do
    port=$((PORT_LOW + (RANDOM * 32768 + RANDOM) % PORT_SPAN))
    case "$RESERVED_PORTS$TAKEN_PORTS" in *" $port "*) continue ;; esac
    port_in_use "$port" && continue
    TAKEN_PORTS+="$port "
    printf -v "$1" '%s' "$port"
    return
  done
}

# Waits until "$3..." succeeds, failing when process $1 dies or READY_TIMEOUT passes; $2 names the
# process and its log, $WORK/$2.log.
await() {
  local pid=$1 name=$2 deadline=$((SECONDS + READY_TIMEOUT))
  shift 2
  until "$@"; do
    alive "$pid" || die "the $name stopped while starting; see $WORK/$name.log"
    [ "$SECONDS" -lt "$deadline" ] || die "the $name was not ready within ${READY_TIMEOUT}s; see $WORK/$name.log"
    sleep 0.5
  done
  log "$name ready"
}

http_ok() {
  curl -fsS -o /dev/null --max-time 2 "$1" 2>/dev/null
}

# ---------------------------------------------------------------------------------------------
# Numbers

# Median and "min max" of the numbers on stdin, one a line.
median() {
  sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

minmax() {
  sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { print lo " " hi }'
}

fmt() { awk -v f="$1" -v v="$2" 'BEGIN { printf f, v }'; }
int() { fmt '%.0f' "$1"; }
pct() { fmt '%.0f %%' "$1"; }

# ---------------------------------------------------------------------------------------------
# CPU accounting

CLK_TCK=$(getconf CLK_TCK)

# Per-CPU "busy total steal" of the cpus in $@ (ids), summed, in clock ticks.
cpu_ticks() {
  awk -v want=" $* " '
    $1 ~ /^cpu[0-9]+$/ && index(want, " " substr($1, 4) " ") {
      busy += $2 + $3 + $4 + $7 + $8; steal += $9
      for (i = 2; i <= 9; i++) total += $i
    }
    END { print busy + 0, total + 0, steal + 0 }' /proc/stat
}

# CPU ticks (user + system, all threads) that process $1 has used; 0 once it is gone.
proc_ticks() {
  awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$1/stat" 2>/dev/null || echo 0
}

# CPU ticks of processes $@ summed (a server's master and worker processes).
procs_ticks() {
  local pid sum=0
  for pid in "$@"; do sum=$((sum + $(proc_ticks "$pid"))); done
  echo "$sum"
}

# Expands a cpu list such as "0-3,6" into "0 1 2 3 6".
expand_cpus() {
  local part parts
  IFS=, read -r -a parts <<<"$1"
  for part in "${parts[@]}"; do
    if [[ $part == *-* ]]; then
      seq "${part%-*}" "${part#*-}"
    else
      echo "$part"
    fi
  done | paste -sd' '
}
