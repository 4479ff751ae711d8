#!/bin/sh
# The recorded command inherits nothing of rqpath's: no tracefs fd (trace_pipe_raw,
# trace_marker) in /proc/CMD/fd; a command that leaves a background child behind does
# not keep the instance busy (rqpath ends without "could not remove"); and after
# kill -9 of rqpath its instance can be removed at once although the command still
# runs (before the fix it held the ring-buffer fds and the instance kept recording).
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT

# what the command was started with, seen from outside
"$RQPATH" record -o "$dir/fd.dat" -- sleep 3 2>"$dir/fd.err" &
p=$!
i=0
while [ $i -lt 100 ] && ! child=$(pgrep -P $p -x sleep); do sleep 0.1; i=$((i + 1)); done
sleep 0.2
ls -l /proc/"$child"/fd/ >"$dir/fds" 2>&1
wait $p || no "record -- sleep exited $?"
cat "$dir/fds"
[ -s "$dir/fds" ] || no "the command did not list its fds"
grep -q 'tracing\|trace_pipe\|trace_marker\|debug' "$dir/fds" && no "the command inherited tracefs fds"
n=$(grep -c -- '->' "$dir/fds")
[ "$n" -le 3 ] || no "the command inherited $n fds, want only 0, 1 and 2"

# a background child of the command outlives it: the instance must still go away
start=$(date +%s)
"$RQPATH" record -o "$dir/bg.dat" -- sh -c 'sleep 8 >/dev/null 2>&1 &' 2>"$dir/bg.err"
rc=$?
cat "$dir/bg.err" | grep -v counts
[ $rc -eq 0 ] || no "record -- sh -c 'sleep 8 &' exited $rc"
grep -q 'could not remove' "$dir/bg.err" && no "the instance was busy after the command ended"
[ $(($(date +%s) - start)) -lt 7 ] || no "rqpath waited for the background child"

# kill -9 of rqpath: nothing else holds the instance, so it can be removed right away
"$RQPATH" record -o "$dir/k.dat" -- sleep 30 2>/dev/null &
p=$!
i=0
while [ $i -lt 100 ] && ! grep -q sched_switch "$T/instances/rqpath-$p/set_event" 2>/dev/null; do
	sleep 0.1; i=$((i + 1))
done
i=0
while [ $i -lt 100 ] && ! child=$(pgrep -P $p -x sleep); do sleep 0.1; i=$((i + 1)); done
[ -n "$child" ] || no "no command under rqpath $p"
kill -9 $p; wait $p 2>/dev/null
if [ -d "$T/instances/rqpath-$p" ]; then
	rmdir "$T/instances/rqpath-$p" 2>"$dir/rmdir.err" ||
		no "instance busy after kill -9 while the command runs: $(cat "$dir/rmdir.err")"
fi
[ -n "$child" ] && kill "$child" 2>/dev/null
[ -d "$T/instances/rqpath-$p" ] && rmdir "$T/instances/rqpath-$p" 2>/dev/null
[ -n "$(stale)" ] && no "instance left: $(stale)"

[ $fail -eq 0 ] && echo "PASS"
exit $fail
