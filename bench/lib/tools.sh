# shellcheck shell=bash
# Tools the HTTP benchmarks need, the machine they run on, and the CPUs they pin processes to.

# Installs the Debian packages $@ when their commands are missing (root or sudo needed).
apt_install() {
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    have sudo || die "$* missing, and installing needs root or sudo: apt-get install -y $*"
    sudo=(sudo)
  fi
  log "installing $* from Debian"
  "${sudo[@]}" apt-get install -y -qq "$@" >"$WORK/apt.log" 2>&1 \
    || { "${sudo[@]}" apt-get update -qq >>"$WORK/apt.log" 2>&1 && "${sudo[@]}" apt-get install -y -qq "$@" >>"$WORK/apt.log" 2>&1; } \
    || die "apt-get install -y $* failed; see $WORK/apt.log"
}

# Checks java, curl and Redis, and installs wrk (and nginx with "nginx" among $@) when missing.
require_tools() {
  local missing=()
  have java || die "no java on the PATH; Anteroom needs a JDK 17 or newer"
  have curl || die "curl is needed"
  { have redis-server && have redis-cli; } || die "redis-server and redis-cli are needed (Debian: apt-get install redis-server)"
  have wrk || missing+=(wrk)
  case " $* " in *" nginx "*) [ -x "$(nginx_binary)" ] || missing+=(nginx) ;; esac
  [ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"
}

# nginx lives in /usr/sbin, which a normal user's PATH may leave out.
nginx_binary() {
  command -v nginx 2>/dev/null || echo /usr/sbin/nginx
}

# ---------------------------------------------------------------------------------------------
# The gateway's jar

gateway_jar() {
  local jar newest=""
  for jar in "$ROOT"/gateway/target/*-exec.jar; do
    [ -f "$jar" ] || continue
    if [ -z "$newest" ] || [ "$jar" -nt "$newest" ]; then newest=$jar; fi
  done
  printf '%s' "${newest#"$ROOT"/}"
}

# Sets JAR to the newest gateway jar, building it first when there is none.
require_gateway_jar() {
  JAR=$(gateway_jar)
  if [ -z "$JAR" ]; then
    log "building the gateway (./mvnw -B -q -DskipTests package -pl gateway -am)"
    (cd "$ROOT" && ./mvnw -B -q -DskipTests package -pl gateway -am) >"$WORK/build.log" 2>&1 \
      || die "the build failed; see $WORK/build.log"
    JAR=$(gateway_jar)
    [ -n "$JAR" ] || die "the build made no gateway/target/*-exec.jar"
  fi
}

# Where the jar comes from, and whether its sources have changed since.
jar_note() {
  local commit note
  commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
  note="built $(date -u -r "$ROOT/$JAR" +%Y-%m-%dT%H:%M:%SZ), checkout at $commit"
  if [ -n "$(git -C "$ROOT" status --porcelain -- gateway/src/main queue-core/src/main config 2>/dev/null)" ]; then
    note+=" with uncommitted changes under gateway/src/main, queue-core/src/main or config/"
  fi
  if [ -n "$(cd "$ROOT" && find gateway/pom.xml gateway/src/main queue-core/pom.xml queue-core/src/main -type f -newer "$JAR" -print -quit 2>/dev/null)" ]; then
    note+="; some of its sources are newer than the jar"
  fi
  printf '%s' "$note"
}

# ---------------------------------------------------------------------------------------------
# The machine

machine_line() {
  echo "nproc $(nproc), $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo), $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo), Linux $(uname -r)"
}

java_version() {
  java -version 2>&1 | sed -n 's/.*Runtime Environment (build \(.*\))/\1/p' | head -n 1
}

redis_version() {
  redis-server --version | sed -E 's/.*v=([0-9.]+).*/\1/'
}

wrk_version() {
  wrk -v 2>&1 | awk 'NR == 1 { print $2 }' || true
}

nginx_version() {
  "$(nginx_binary)" -v 2>&1 | sed -n 's|.*nginx/||p'
}

# ---------------------------------------------------------------------------------------------
# Pinning: the gateway (or whatever is measured against it) alone on the first allowed CPU; the
# load generator, Redis and the origin on the others.

# With $1 = no, pins nothing. Sets PINNED, GW_CPU, GW_PIN, LOAD_CPUS, LOAD_LIST, LOAD_PIN, ALL_LIST.
setup_pinning() {
  local allowed
  allowed=$(expand_cpus "$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status)")
  read -r -a ALLOWED_CPUS <<<"$allowed"
  ALL_LIST=$(IFS=,; echo "${ALLOWED_CPUS[*]}")
  GW_PIN=()
  LOAD_PIN=()
  if [ "$1" != no ] && have taskset && [ ${#ALLOWED_CPUS[@]} -ge 2 ]; then
    GW_CPU=${ALLOWED_CPUS[0]}
    LOAD_CPUS=("${ALLOWED_CPUS[@]:1}")
    LOAD_LIST=$(IFS=,; echo "${LOAD_CPUS[*]}")
    GW_PIN=(taskset -c "$GW_CPU")
    LOAD_PIN=(taskset -c "$LOAD_LIST")
    PINNED=1
  else
    GW_CPU=""
    LOAD_CPUS=("${ALLOWED_CPUS[@]}")
    LOAD_LIST=$ALL_LIST
    PINNED=0
  fi
}

# The CPUs whose /proc/stat figures stand for "the gateway's CPU": its own, or all when unpinned.
gateway_cpus() {
  echo "${GW_CPU:-${LOAD_CPUS[*]}}"
}

# Moves every thread of process $1 to the cpus in $2 (new threads inherit from their creator).
pin_process() {
  taskset -a -p -c "$2" "$1" >/dev/null || die "taskset could not move process $1 to CPU $2"
  local task want
  want=$(expand_cpus "$2")
  for task in /proc/"$1"/task/*; do
    [ -r "$task/status" ] || continue
    [ "$(expand_cpus "$(awk '/^Cpus_allowed_list/ { print $2 }' "$task/status")")" = "$want" ] \
      || die "thread ${task##*/} of process $1 is not on CPU $2"
  done
}
