#!/bin/sh
# rqpath live: refused with one line and exit 2 without root; as root (with tracefs),
# the dashboard fills with events, q quits with 0 and no tracefs instance is left.
. "$(dirname "$0")/golden/lib.sh"

if command -v setpriv >/dev/null 2>&1; then
	err=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$RQPATH" live 2>&1 </dev/null)
	rc=$?
	[ $rc -eq 2 ] || fail "non-root live: exit $rc"
	[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "non-root live: not one line: $err"
	printf '%s\n' "$err" | grep -q 'root' || fail "non-root live: message does not say root"
fi
. "$(dirname "$0")/../live/tracefs.sh"
live_ready || exit 77
# a live screen never settles (its counts move): send keys with a short pause instead
lkeys() {
	for k in "$@"; do
		tm send-keys -t t "$k"
		sleep 0.3
	done
}
tui_start 80 24 -- live
wait_for 'recording' 20 || { fail "live did not start"; finish; }
sleep 1
# a workload's forks must appear on the dashboard (fork-local + fork-moved >= its forks)
"$RQPATH" workload spawn --count 50 >/dev/null || fail "workload spawn failed"
sleep 1.5
forks=$(cap | awk '$1 == "fork" && ($2 == "fork-local" || $2 == "fork-moved" || $2 == "fork-affine") { n += $3 } END { print n + 0 }')
[ "$forks" -ge 50 ] || fail "live dashboard shows $forks fork placements, want >= 50"
echo "live dashboard: $forks fork placements after a 50-fork workload"
tm send-keys -t t 2
sleep 2
wait_for '[1-9][0-9]* placements' 20 || fail "no placements in live mode"
lkeys 1
cap | grep -Eq ' [1-9][0-9]* events' || fail "no events on the dashboard"
cap | head -1 | grep -q 'rqpath live' || fail "title does not say live"
lkeys 3 4 5 '?' Escape
# no -o: q asks before throwing the recording away, y ends it
lkeys q
cap | grep -q 'end the recording?' || fail "q did not ask"
lkeys y
wait_for 'RQPATH-EXIT=' 10 || fail "did not exit on q y"
cap | grep -q 'RQPATH-EXIT=0' || fail "exit status not 0"
sleep 0.5
# other tests may be recording at the same time: an instance whose owner (the pid that
# ends its name) is gone was left behind
left=$(ls /sys/kernel/tracing/instances 2>/dev/null | grep '^rqpath-' | while read -r i; do
	kill -0 "${i##*-}" 2>/dev/null || echo "$i"; done)
[ -z "$left" ] || fail "tracefs instances left after quit: $left"
finish
