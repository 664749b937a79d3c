# shellcheck shell=bash
# What every benchmark script shares: options, messages, the processes it starts and their cleanup
# on exit or Ctrl-C, free ports, statistics, CPU accounting and pinning, the tools and builds it
# needs. The script sets BENCH (its name) and sources this file; it runs from the repository root.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
COMMAND="bench/${0##*/}${*:+ $*}"
STARTED_AT=$SECONDS
READY_TIMEOUT=${READY_TIMEOUT:-180}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/$BENCH.XXXXXX")
KEEP_WORK=1
PIDS=()
TOOL_PIN=() # a taskset command for the bench tool's JVM, when the script pins it

die() { echo "$BENCH: $*" >&2; exit 1; }
have() { command -v "$1" >/dev/null 2>&1; }
log() { printf '[%3ds] %s\n' "$((SECONDS - STARTED_AT))" "$*"; }
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
usage_error() { echo "$BENCH: $*" >&2; usage >&2; exit 2; }

# Sets, for every "--name value" whose name is in OPTIONS, the variable NAME (upper case, - as _),
# and for every flag in FLAGS its variable to 1. A value whose default is a number must be one.
parse_options() {
  local name var
  while [ $# -gt 0 ]; do
    name=${1#--} var=${1#--} var=${var^^} var=${var//-/_}
    if [[ " ${FLAGS:-} " == *" $name "* ]]; then
      printf -v "$var" 1
      shift
    elif [[ " $OPTIONS " == *" $name "* && $# -ge 2 ]]; then
      [[ ! ${!var} =~ ^[0-9]+$ || $2 =~ ^[0-9]+$ ]] || usage_error "$1 needs a whole number, not '$2'"
      printf -v "$var" '%s' "$2"
      shift 2
    elif [ "$1" = -h ] || [ "$1" = --help ]; then
      usage
      exit 0
    else
      usage_error "unknown option or missing value: '$1'"
    fi
  done
}

# ---------------------------------------------------------------------------------------------
# Processes

# True while process $1 runs (a child that has exited stays a zombie until waited for).
alive() {
  [ -r "/proc/$1/stat" ] && [ "$(awk '{ sub(/.*\) /, ""); print $1 }' "/proc/$1/stat" 2>/dev/null)" != Z ]
}

# Starts "$2..." in the background with its output in $WORK/$1.log, to be stopped on exit. Sets
# SPAWNED_PID.
spawn() {
  local name=$1
  shift
  "$@" >"$WORK/$name.log" 2>&1 &
  SPAWNED_PID=$!
  PIDS+=("$SPAWNED_PID")
}

# Stops what the benchmark started, newest first (the gateway before the Redis it uses): TERM, then
# KILL after 20 s.
cleanup() {
  local i pid
  trap '' INT TERM
  for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do
    pid=${PIDS[i]}
    kill -TERM "$pid" 2>/dev/null || continue
    for _ in $(seq 1 100); do alive "$pid" && sleep 0.2 || break; done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  if [ "$KEEP_WORK" -eq 0 ]; then rm -rf "$WORK"; else echo "$BENCH: logs kept in $WORK" >&2; fi
}
trap cleanup EXIT
# Under set -e a failing command ends the benchmark; say which, rather than stop without a word.
set -E
trap 'echo "$BENCH: \"$BASH_COMMAND\" failed (line $LINENO of ${BASH_SOURCE[0]##*/})" >&2' ERR
trap 'exit 130' INT
trap 'exit 143' TERM

# Sets the variable named $1 to a loopback port no socket holds, never the same one twice, below
# the kernel's range for outgoing connections and away from the demo's ports.
TAKEN_PORTS=" "
pick_port() {
  local _port
  while :; do
    _port=$((20000 + RANDOM % 12000))
    [[ $TAKEN_PORTS != *" $_port "* && -z "$(ss -Htan "sport = :$_port")" ]] || continue
    TAKEN_PORTS+="$_port "
    printf -v "$1" '%s' "$_port"
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

http_ok() { curl -fsS -o /dev/null --max-time 2 "$1" 2>/dev/null; }

# ---------------------------------------------------------------------------------------------
# Numbers

# Median and "min max" of the numbers on stdin, one a line.
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
minmax() { sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { print lo " " hi }'; }
fmt() { awk -v f="$1" -v v="$2" 'BEGIN { printf f, v }'; }
int() { fmt '%.0f' "$1"; }
pct() { fmt '%.0f %%' "$1"; }

# ---------------------------------------------------------------------------------------------
# CPU accounting and pinning: the gateway (or whatever is measured against it) alone on the first
# allowed CPU; the load generator, Redis and the origin on the others.

CLK_TCK=$(getconf CLK_TCK)

# Per-CPU "busy total steal" of the cpus in $@ (ids), summed, in clock ticks.
cpu_ticks() {
  awk -v want=" $* " '$1 ~ /^cpu[0-9]+$/ && index(want, " " substr($1, 4) " ") {
      busy += $2 + $3 + $4 + $7 + $8; steal += $9
      for (i = 2; i <= 9; i++) total += $i
    }
    END { print busy + 0, total + 0, steal + 0 }' /proc/stat
}

# CPU ticks (user + system, all threads) that process $1 has used; 0 once it is gone.
proc_ticks() { awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$1/stat" 2>/dev/null || echo 0; }

# CPU ticks of processes $@ summed (a server's master and worker processes); 0 for none.
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
    if [[ $part == *-* ]]; then seq "${part%-*}" "${part#*-}"; else echo "$part"; fi
  done | paste -sd' '
}

# Pins nothing with NO_PIN=1 or without taskset and two CPUs. Sets PINNED, GW_CPU, GW_PIN,
# LOAD_CPUS, LOAD_LIST, LOAD_PIN and ALL_LIST.
setup_pinning() {
  local allowed
  read -r -a allowed <<<"$(expand_cpus "$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status)")"
  ALL_LIST=$(IFS=,; echo "${allowed[*]}")
  GW_PIN=() LOAD_PIN=() GW_CPU="" LOAD_CPUS=("${allowed[@]}") LOAD_LIST=$ALL_LIST PINNED=0
  if [ "${NO_PIN:-0}" -eq 0 ] && have taskset && [ ${#allowed[@]} -ge 2 ]; then
    GW_CPU=${allowed[0]}
    LOAD_CPUS=("${allowed[@]:1}")
    LOAD_LIST=$(IFS=,; echo "${LOAD_CPUS[*]}")
    GW_PIN=(taskset -c "$GW_CPU")
    LOAD_PIN=(taskset -c "$LOAD_LIST")
    PINNED=1
  fi
}

# The CPUs whose /proc/stat figures stand for "the gateway's CPU": its own, or all when unpinned.
gateway_cpus() { echo "${GW_CPU:-${LOAD_CPUS[*]}}"; }

# Moves every thread of process $1 to the cpus in $2 (new threads inherit from their creator).
pin_process() {
  local task want
  taskset -a -p -c "$2" "$1" >/dev/null || die "taskset could not move process $1 to CPU $2"
  want=$(expand_cpus "$2")
  for task in /proc/"$1"/task/*; do
    [ -r "$task/status" ] || continue
    [ "$(expand_cpus "$(awk '/^Cpus_allowed_list/ { print $2 }' "$task/status")")" = "$want" ] \
      || die "thread ${task##*/} of process $1 is not on CPU $2"
  done
}

# ---------------------------------------------------------------------------------------------
# Tools, builds and the machine

# nginx lives in /usr/sbin, which a normal user's PATH may leave out.
nginx_binary() { command -v nginx 2>/dev/null || echo /usr/sbin/nginx; }

# Checks java, curl, Redis and the commands in $@ (wrk, nginx).
require_tools() {
  local tool
  for tool in java curl redis-server redis-cli "$@"; do
    [ "$tool" = nginx ] && [ -x "$(nginx_binary)" ] || have "$tool" \
      || die "no $tool on the PATH (Debian packages: openjdk-17-jdk curl redis-server wrk nginx)"
  done
}

# Sets JAR to the newest gateway/target/*-exec.jar, relative to the root.
find_gateway_jar() {
  JAR=$(ls -t gateway/target/*-exec.jar 2>/dev/null | head -n 1 || true)
}

# Builds the gateway and the bench tool from this checkout in one reactor build, so the tool runs
# on this checkout's modules, never on whatever the shared local repository holds.
build() {
  log "building the gateway and the bench tool (./mvnw -B -q -DskipTests package -pl gateway,bench -am)"
  ./mvnw -B -q -pl gateway,bench -am -DskipTests package dependency:build-classpath \
    -Dmdep.includeScope=runtime -Dmdep.outputFile=target/runtime-classpath.txt >"$WORK/build.log" 2>&1 \
    || die "the build failed; see $WORK/build.log"
  find_gateway_jar
}

# Sets JAR to the gateway jar as it is, building it first when there is none.
require_gateway_jar() {
  find_gateway_jar
  [ -n "$JAR" ] || build
  [ -n "$JAR" ] || die "the build made no gateway/target/*-exec.jar"
}

# Runs the bench tool (java options and main class in "$@") on the class path build() wrote, with
# every option of OPTIONS as -Dbench.<option>.
bench_tool() {
  local name var props=()
  for name in ${OPTIONS:-}; do
    var=${name^^} var=${var//-/_}
    props+=("-Dbench.$name=${!var}")
  done
  "${TOOL_PIN[@]}" java -cp "bench/target/classes:$(cat bench/target/runtime-classpath.txt)" \
    -Dslf4j.provider=org.slf4j.simple.SimpleServiceProvider "${props[@]}" \
    -Dbench.command="$COMMAND" -Dbench.machine="$(machine_line)" "$@"
}

# Where the jar comes from, and whether its sources have changed since.
jar_note() {
  local note
  note="built $(date -u -r "$JAR" +%Y-%m-%dT%H:%M:%SZ), checkout at $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  [ -z "$(git status --porcelain -- gateway/src/main queue-core/src/main config 2>/dev/null)" ] \
    || note+=" with uncommitted changes under gateway/src/main, queue-core/src/main or config/"
  [ -z "$(find gateway/pom.xml gateway/src/main queue-core/pom.xml queue-core/src/main -type f -newer "$JAR" -print -quit 2>/dev/null)" ] \
    || note+="; some of its sources are newer than the jar"
  printf '%s' "$note"
}

machine_line() {
  echo "nproc $(nproc), $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo), $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo), Linux $(uname -r)"
}
load_average() { cut -d' ' -f1-3 /proc/loadavg; }
java_version() { java -version 2>&1 | sed -n 's/.*Runtime Environment (build \(.*\))/\1/p' | head -n 1; }
redis_version() { redis-server --version | sed -E 's/.*v=([0-9.]+).*/\1/'; }
wrk_version() { wrk -v 2>&1 | awk 'NR == 1 { print $2 }' || true; }
nginx_version() { "$(nginx_binary)" -v 2>&1 | sed -n 's|.*nginx/||p'; }
