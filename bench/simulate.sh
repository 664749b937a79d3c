#!/usr/bin/env bash
# How long `./anteroom simulate` takes for a flash crowd of a million arrivals over an hour, through
# the real join, admit and expire scripts on its own redis-server. Goal: under a minute on a 2-core
# machine. Builds the simulator when needed, runs it, and writes bench/results/simulate.md with the
# wall time, the report and the machine. Run it from anywhere.
#
# Options: --people N (1000000)  --over T (1h)  --rate R (500, admit-per-second)
#          --max-active N (200000)  --out FILE
set -euo pipefail
BENCH=simulate PEOPLE=1000000 OVER=1h RATE=500 MAX_ACTIVE=200000 OUT=bench/results/simulate.md
OPTIONS="people over rate max-active out" FLAGS=""
# shellcheck source=bench/lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
parse_options "$@"
KEEP_WORK=0

ARGS=(--arrivals "crowd:$PEOPLE/$OVER" --set "admit-per-second=$RATE" --set "max-active=$MAX_ACTIVE"
  --chart "$WORK/simulation.png")
LOAD_AT_START=$(load_average)
log "simulating ${ARGS[*]:0:6}"
started=$(date +%s.%N)
./anteroom simulate "${ARGS[@]}" >"$WORK/report.txt"
ended=$(date +%s.%N)
seconds=$(awk -v a="$started" -v b="$ended" 'BEGIN { printf "%.1f", b - a }')
simulated=$(sed -n 's/^Simulated .* in \([0-9.]*\) s$/\1/p' "$WORK/report.txt")
verdict="met"
awk -v s="$simulated" 'BEGIN { exit !(s < 60) }' || verdict="not met"

{
  echo "# Simulator speed"
  echo
  echo "- Date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "- Machine: $(machine_line)"
  echo "- Load average at start: $LOAD_AT_START; at the end: $(load_average)"
  echo "- Java: $(java_version)"
  echo "- Command: \`$COMMAND\` (\`./anteroom simulate ${ARGS[*]:0:6}\`)"
  echo
  echo "The simulation of $PEOPLE arrivals over $OVER took **$simulated s** (goal: under 60 s: $verdict);"
  echo "the whole command, with the JVM and redis-server starting and the chart drawn, $seconds s."
  echo
  echo '```'
  grep -v "^Chart:" "$WORK/report.txt"
  echo '```'
} >"$OUT"
log "written to $OUT: $simulated s simulated, $seconds s in all ($verdict)"
