# shellcheck shell=bash
# A look inside the gateway with the JDK's own Flight Recorder: which of Anteroom's methods the
# request threads are in, by share of execution samples. No agent, no extra tool; a JDK with jcmd
# and jfr is enough.

have_jfr() {
  have jcmd && have jfr
}

# Records the gateway while "$2..." runs, into $WORK/$1.jfr.
jfr_record() {
  local name=$1
  shift
  jcmd "$GATEWAY_PID" JFR.start name="$name" settings=profile filename="$WORK/$name.jfr" >"$WORK/jfr-$name.log" 2>&1 \
    || die "jcmd could not start a recording; see $WORK/jfr-$name.log"
  "$@"
  jcmd "$GATEWAY_PID" JFR.stop name="$name" >>"$WORK/jfr-$name.log" 2>&1 \
    || die "jcmd could not stop the recording; see $WORK/jfr-$name.log"
}

# "samples" then, per method of package $2 (e.g. io.anteroom), "share_% method" of the execution
# samples in recording $1 whose stack holds it, largest first, at most $3 lines.
jfr_inclusive() {
  "${LOAD_PIN[@]}" jfr print --events jdk.ExecutionSample --stack-depth 64 "$WORK/$1.jfr" \
    | awk -v pkg="$2" '
      /^jdk.ExecutionSample/ { n++; split("", seen); next }
      /line:/ { f = $1; sub(/\(.*/, "", f); if (index(f, pkg) == 1 && !(f in seen)) { seen[f] = 1; c[f]++ } }
      END {
        print n + 0
        for (f in c) printf "%.1f %s\n", 100 * c[f] / (n ? n : 1), f
      }' | { read -r samples; echo "$samples"; sort -k1,1gr | awk -v m="$3" 'NR <= m'; }
}
