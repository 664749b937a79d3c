#!/usr/bin/env bash
# The attack suite: what anonymous traffic could do to the line, at full size. Runs the classes
# marked @AttackTest (./mvnw verify -Dtier=attack; never part of ./mvnw verify): 1,000 made-up item
# ids filling a pre-queue room, 100,000 one-shot arrivals ahead of polling visitors, 1,000 active
# queues of a room with room-wide limits, an hour of arrivals in shadow mode; then the origin guard
# against the path spellings through a real Spring MVC and a WebFlux app. Each test starts its own
# redis-server (and the gateway and a worker where it needs them). Writes bench/results/attacks.md
# with the machine, versions, command and a table of the figures. Run it from anywhere; about five
# minutes on two shared cores (5 min 17 s in the recorded run).
#
# Options: --out FILE (bench/results/attacks.md)  --offline (Maven without the network)
set -euo pipefail
BENCH=attacks OUT=bench/results/attacks.md OFFLINE=0
OPTIONS="out" FLAGS="offline"
# shellcheck source=bench/lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
parse_options "$@"
require_tools
KEEP_WORK=0

MVN=(./mvnw -B -q)
[ "$OFFLINE" = 1 ] && MVN+=(-o)
FIGURES="$WORK/figures"
mkdir -p "$FIGURES"
LOAD_AT_START=$(load_average)
FAILED=()

# Runs one Maven invocation ($1 names it), its output to $WORK/<name>.log; notes a failure and goes on.
run_maven() {
  local name=$1 started=$SECONDS
  shift
  log "$name: ${MVN[*]} $*"
  if "${MVN[@]}" "$@" >"$WORK/$name.log" 2>&1; then
    log "$name: passed in $((SECONDS - started)) s"
  else
    log "$name: FAILED after $((SECONDS - started)) s (see the table and $OUT)"
    FAILED+=("$name")
    KEEP_WORK=1
  fi
}

rm -f gateway/target/failsafe-reports/failsafe-summary*.xml \
  admission-worker/target/failsafe-reports/failsafe-summary*.xml \
  origin-guard/target/failsafe-reports/failsafe-summary*.xml
run_maven attacks -pl gateway,admission-worker -am verify -Dtier=attack -Dtest=none \
  -Dsurefire.failIfNoSpecifiedTests=false -Dattacks.out="$FIGURES"
run_maven spellings -pl origin-guard -am verify -Dtest=none \
  -Dit.test='PassGuardFilterSpellingsIntegrationTests,PassGuardWebFilterSpellingsIntegrationTests' \
  -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false

# Test cases and failures of a class, from its Failsafe report.
cases() {
  local report="origin-guard/target/failsafe-reports/TEST-io.anteroom.guard.$1.xml"
  [ -f "$report" ] || { echo "no report"; return; }
  local suite attr
  suite=$(grep -m 1 -o '<testsuite [^>]*' "$report")
  for attr in tests failures errors; do
    printf '%s ' "$(sed -n "s/.* $attr=\"\([0-9]*\)\".*/\1/p" <<<"$suite")"
  done
}
spelling_row() {
  local framework=$1 counts tests failures errors met=no
  counts=$(cases "$2")
  read -r tests failures errors <<<"$counts" || true
  [ "${failures:-1}" = 0 ] && [ "${errors:-1}" = 0 ] && [ -n "${tests:-}" ] && met=yes
  printf '5. The origin guard and path spellings\t%s: cases (each a spelling of a protected path without a pass, or of another product with a pass for product 1) served by the origin\t%s of %s\t0\t%s\n' \
    "$framework" "$(( ${failures:-0} + ${errors:-0} ))" "${tests:-?}" "$met"
}
{
  spelling_row "Spring MVC on Tomcat (PassGuardFilterSpellingsIntegrationTests)" PassGuardFilterSpellingsIntegrationTests
  spelling_row "WebFlux on Reactor Netty (PassGuardWebFilterSpellingsIntegrationTests)" PassGuardWebFilterSpellingsIntegrationTests
} >"$FIGURES/5-spellings.tsv"

# Seconds each attack class took, from the Failsafe reports.
class_times() {
  grep -ho 'testsuite [^>]*name="[^"]*Attack[^"]*"[^>]*' gateway/target/failsafe-reports/TEST-*.xml \
    admission-worker/target/failsafe-reports/TEST-*.xml 2>/dev/null \
    | sed -n 's/.*name="io\.anteroom\.[a-z.]*\.\([A-Za-z]*\)".*time="\([0-9.,]*\)".*/- `\1`: \2 s/p; s/.*time="\([0-9.,]*\)".*name="io\.anteroom\.[a-z.]*\.\([A-Za-z]*\)".*/- `\2`: \1 s/p'
}

{
  echo "# The attack suite"
  echo
  echo "- Date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "- Machine: $(machine_line)"
  echo "- Load average at start: $LOAD_AT_START; at the end: $(load_average)"
  echo "- Java: $(java_version); Redis: $(redis_version)"
  echo "- Checkout: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$([ -z "$(git status --porcelain -- . ':!bench/results' 2>/dev/null)" ] || echo ' with uncommitted changes')"
  echo "- Command: \`$COMMAND\` (\`${MVN[*]} -pl gateway,admission-worker -am verify -Dtier=attack\`, then the two spelling classes of origin-guard)"
  echo "- Result: $([ ${#FAILED[@]} -eq 0 ] && echo 'every test passed' || echo "FAILED: ${FAILED[*]}")"
  echo
  echo "Each figure is measured by the test named in bench/README.md (\"The attack suite\"); a goal not"
  echo "met is reported, not hidden: the tests assert what must hold (nobody lost, nobody who left"
  echo "admitted, order kept), and the table says whether each figure reached its goal."
  echo
  echo "| attack | what was measured | figure | goal | met? |"
  echo "| --- | --- | --- | --- | --- |"
  for file in "$FIGURES"/*.tsv; do
    [ -f "$file" ] || continue
    awk -F'\t' '{ printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }' "$file"
  done
  echo
  echo "Time per attack class (Failsafe):"
  echo
  class_times
} >"$OUT"
log "written to $OUT"
[ ${#FAILED[@]} -eq 0 ] || die "failed: ${FAILED[*]}; logs in $WORK"
