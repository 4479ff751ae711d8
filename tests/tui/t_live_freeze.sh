#!/bin/sh
# rqpath live (root): Z freezes the screen while the recording goes on: the analysis
# waits (the event count stands still over several turns while records keep coming, the
# header says FROZEN), Z again counts from then on (the analysis missed the frozen time,
# so it starts afresh, with a new snapshot of the tasks' attributes: markers again);
# R resets the counters (the count falls).  In-process (script); a fork storm keeps
# events coming.
. "$(dirname "$0")/golden/script.sh"

. "$(dirname "$0")/../live/tracefs.sh"
live_ready || exit 77

events() {
	row "$1" 2 | sed -nE 's/.* ([0-9]+) events .*/\1/p'
}

steps a 15 ":dump"
step frozen "Z"
steps f 15 ":dump"
step thawed "Z"
steps t 15 ":dump"
step reset "R"
step after ":dump"
out=$(mktemp /tmp/rqpath-live-freeze-XXXXXX.dat)
"$RQPATH" workload spawn --count 4000 >/dev/null 2>&1 &
storm=$!
run_script -- live -o "$out" --force
kill $storm 2>/dev/null
wait $storm 2>/dev/null
rm -f "$out"
[ "$rc" -eq 0 ] || fail "exit status $rc"

before=$(events a14)
f0=$(events f0)
f14=$(events f14)
echo "events: before Z $before, frozen $f0 .. $f14, after Z $(events t0) .. $(events t14)," \
	"before R $(events t14), after R $(events after)"
has frozen 'FROZEN' "Z: the header does not say FROZEN"
has f14 'FROZEN' "the screen thawed by itself"
[ -n "$f0" ] && [ "$f0" = "$f14" ] || fail "frozen: the analysis went on ($f0 -> $f14 events)"
[ "$f0" -ge "$before" ] 2>/dev/null || fail "Z lost events seen before it ($before -> $f0)"
has thawed 'counting again from now' "Z again does not say it counts from now"
hasnt t14 'FROZEN' "Z again did not thaw the screen"
has t14 ' markers: affinity' "after thawing, the attribute snapshot did not come again"
t14=$(events t14)
[ "$t14" -gt 0 ] 2>/dev/null || fail "after thawing no event was counted"
has reset 'counters reset' "R does not say the counters were reset"
after=$(events after)
[ "$after" -lt "$t14" ] 2>/dev/null || fail "R: the count did not start again ($t14 -> $after)"
finish
