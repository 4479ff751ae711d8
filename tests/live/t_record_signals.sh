#!/bin/sh
# No residue: after a normal end and after every signal that kills by default (INT,
# TERM, HUP, QUIT, USR1, USR2, ALRM, PIPE, VTALRM, PROF, XCPU, IO, PWR) mid-run the rqpath
# instance is gone, the command is stopped and the file is readable; after kill -9 the
# instance stays, and the next `rqpath record` removes it.  A foreign instance made
# here (other-test) survives all of it untouched.
. "$(dirname "$0")/lib.sh"
need trace-cmd

dir=$(mktemp -d) || exit 1
other=$T/instances/other-test-$$	# unique: other runs of this test may be going on
cleanup() {
	[ -d "$other" ] && rmdir "$other"
	rm -rf "$dir"
}
trap cleanup EXIT
# a timeout's TERM (or ^C) must not leave other-test behind: dash runs no EXIT trap then
trap 'exit 130' INT TERM HUP

mkdir "$other" || { echo "cannot create $other"; exit 1; }
echo 1 >"$other/events/sched/sched_switch/enable"
echo 64 >"$other/buffer_size_kb"
before=$(cat "$other/buffer_size_kb")
top_on=$(cat $T/tracing_on)
top_events=$(cat $T/set_event | sort | tr '\n' ' ')

# wait until the recorder's instance exists (the ASan build starts slowly)
wait_instance() {
	i=0
	while [ $i -lt 100 ]; do
		[ -d "$T/instances/rqpath-$1" ] && grep -q 'sched_wakeup' "$T/instances/rqpath-$1/set_event" 2>/dev/null &&
			return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# normal end (duration), then one run per stop signal
"$RQPATH" record -o "$dir/normal.dat" --duration 1 2>"$dir/normal.err" &
p=$!
wait $p || no "normal run exited $?"
[ -d "$T/instances/rqpath-$p" ] && no "instance rqpath-$p left after a normal run"
trace-cmd report "$dir/normal.dat" >/dev/null 2>&1 || no "normal.dat does not open"

for sig in INT TERM HUP QUIT USR1 USR2 ALRM PIPE VTALRM PROF XCPU IO PWR; do
	"$RQPATH" record -o "$dir/$sig.dat" -- sleep 60 2>"$dir/$sig.err" &
	p=$!
	wait_instance $p || no "$sig: rqpath-$p never appeared"
	sleep 0.5
	child=$(pgrep -P $p -x sleep)
	kill -$sig $p
	wait $p
	rc=$?
	echo "SIG$sig: rqpath exited $rc"
	cat "$dir/$sig.err" | grep -v counts
	[ $rc -le 1 ] || no "SIG$sig: exit status $rc"
	[ -d "$T/instances/rqpath-$p" ] && no "SIG$sig: instance rqpath-$p left"
	[ -n "$child" ] && kill -0 "$child" 2>/dev/null && no "SIG$sig: the command (sleep $child) still runs"
	trace-cmd report "$dir/$sig.dat" >"$dir/$sig.txt" 2>&1 || no "SIG$sig: file does not open"
	grep -q 'rqpath/1 snapshot done' "$dir/$sig.txt" || no "SIG$sig: no snapshot marker"
done

# kill -9: the instance stays; the next run (its pid is gone) removes it
"$RQPATH" record -o "$dir/killed.dat" -- sleep 60 2>/dev/null &
p=$!
wait_instance $p || no "kill -9: rqpath-$p never appeared"
child=$(pgrep -P $p -x sleep)
kill -9 $p
wait $p 2>/dev/null
[ -n "$child" ] && kill "$child" 2>/dev/null
[ -d "$T/instances/rqpath-$p" ] || no "kill -9: expected rqpath-$p to be left for the next run"
"$RQPATH" record -o "$dir/after.dat" --duration 0.5 2>"$dir/after.err" &
q=$!
wait $q || no "run after kill -9 exited $?"
[ -d "$T/instances/rqpath-$p" ] && no "stale rqpath-$p not removed by the next run"
[ -d "$T/instances/rqpath-$q" ] && no "rqpath-$q left"

# the foreign instance is untouched
[ -d "$other" ] || no "other-test was removed"
[ "$(cat "$other/events/sched/sched_switch/enable" 2>/dev/null)" = 1 ] ||
	no "other-test's sched_switch was disabled"
[ "$(cat "$other/buffer_size_kb" 2>/dev/null)" = "$before" ] || no "other-test's buffer changed"
[ "$(cat $T/tracing_on)" = "$top_on" ] || no "top-level tracing_on changed"
[ "$(cat $T/set_event | sort | tr '\n' ' ')" = "$top_events" ] || no "top-level events changed"

[ $fail -eq 0 ] && echo "PASS"
exit $fail
