#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t_stale_check.sh - the leftover check of the test runner (tests/run.sh) and of the
# live tests (stale() in tests/live/lib.sh) must see every rqpath instance whose
# recording is gone (issue 19 item 7): rqpath-PID with PID gone, rqpath-nsINODE-PID
# whose pid namespace INODE has no process left (PID is a pid of that namespace: the
# runner took the 1 of rqpath-ns...-1 for pid 1 here, always alive, and lib.sh matched
# rqpath-PID only, so neither could fail on one), any other rqpath-* name; and none
# whose recording runs.  Fed names, not instances: nothing is created in tracefs.
# Red on c0243a9's checks (run here as old_runner and old_lib).
set -u
: "${RQPATH_TOP:?}"
. "$RQPATH_TOP/tests/live/tracefs.sh"
fail=0
no() { echo "FAIL: $*"; fail=1; }
myns=$(readlink /proc/self/ns/pid | tr -dc 0-9)
dead=999999999
while kill -0 $dead 2>/dev/null; do dead=$((dead - 1)); done
gone_ns=1
while [ -n "$(for n in /proc/[0-9]*/ns/pid; do readlink "$n"; done 2>/dev/null |
	grep -xF "pid:[$gone_ns]")" ]; do gone_ns=$((gone_ns + 1)); done

stale_names="rqpath-$dead rqpath-ns$gone_ns-1 rqpath-ns$gone_ns-$dead rqpath-ns$myns-$dead
rqpath-bogus rqpath-ns-1 rqpath-nsx-1 rqpath-ns1-"
live_names="rqpath-$$ rqpath-ns$myns-$$"
# a recording in another pid namespace that still runs (pid 1 there)
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null; then
	unshare --pid --fork --mount-proc sleep 30 2>/dev/null &
	sleeper=$!
	sleep 0.5
	inner=$(pgrep -P $sleeper sleep | head -1)
	other=$(readlink /proc/"${inner:-0}"/ns/pid 2>/dev/null | tr -dc 0-9)
	[ -n "$other" ] && [ "$other" != "$myns" ] && live_names="$live_names rqpath-ns$other-1"
fi

got=$(rqpath_stale_names $stale_names $live_names)
for n in $stale_names; do
	echo "$got" | grep -qxF "$n" || no "rqpath_stale_names misses $n"
done
for n in $live_names; do
	echo "$got" | grep -qxF "$n" && no "rqpath_stale_names calls $n stale, its recording runs"
done
# rqpath_stale itself names only instances still there after the pid test: a recording
# that removed its instance and exited between the listing and kill -0 is no leftover
# (the live tests once failed on "instance left: " with an empty name)
gone=$(rqpath_stale rqpath-$dead)
[ -z "$gone" ] || no "rqpath_stale names rqpath-$dead, which is no instance: '$gone'"
echo "stale: $(echo $got)"
echo "live:  $live_names"

# the checks this replaced, for the record: each missed a left instance
old_runner() {
	for inst in "$@"; do
		owner=${inst##*-}
		case "$owner" in *[!0-9]*|"") echo "$inst"; continue ;; esac
		kill -0 "$owner" 2>/dev/null || echo "$inst"
	done
}
old_lib() {
	for i in $(printf '%s\n' "$@" | grep '^rqpath-[0-9]*$'); do
		kill -0 "${i#rqpath-}" 2>/dev/null || echo "$i"
	done
}
old_runner rqpath-ns$gone_ns-1 | grep -q . && no "the old runner check was right after all?"
old_lib rqpath-ns$gone_ns-$dead | grep -q . && no "the old lib.sh check was right after all?"
[ -n "${sleeper:-}" ] && kill $sleeper 2>/dev/null && wait $sleeper 2>/dev/null
[ $fail -eq 0 ] && echo PASS
exit $fail
