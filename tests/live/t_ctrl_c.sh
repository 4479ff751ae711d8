#!/bin/sh
# Ctrl-C is the user's stop (as in trace-cmd and perf): `record -o F -- sleep 20` whose
# process group gets SIGINT (what a terminal's ^C does: rqpath and sleep both get it)
# (^C sent by tmux to a terminal) exits 0 with F complete and no "killed by SIGINT" error; a command that fails on its
# own still fails the run (exit 2).  record's "recorded N events (+M truth records)" and
# audit's "N events (+M truth records)" are the same two numbers, and M is the number of
# rqpath:truth records trace-cmd report prints.  `live --duration 1 -o F` (under tmux: a
# terminal) ends by itself with exit 0 and F complete.
. "$(dirname "$0")/lib.sh"
need trace-cmd

dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"; [ -n "$sess" ] && tmux kill-session -t "$sess" 2>/dev/null' EXIT
trap 'exit 130' INT TERM HUP

# ^C at a terminal (tmux): the terminal's SIGINT reaches rqpath and the command alike
need tmux
sess=rqpath-ctrlc-$$
tmux new-session -d -s "$sess" -x 100 -y 30 \
	"'$RQPATH' record -o '$dir/c.dat' -- sleep 20 2>'$dir/c.err'; echo \$? >'$dir/c.rc'"
p=$(tmux list-panes -t "$sess" -F '#{pane_pid}')
i=0
while [ $i -lt 100 ] && ! ls -d "$T"/instances/rqpath-* 2>/dev/null | grep -q .; do
	sleep 0.1
	i=$((i + 1))
done
sleep 1
tmux send-keys -t "$sess" C-c
i=0
while [ ! -s "$dir/c.rc" ] && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
rc=$(cat "$dir/c.rc" 2>/dev/null || echo none)
tmux kill-session -t "$sess" 2>/dev/null
sess=
cat "$dir/c.err"
[ "$rc" = 0 ] || no "Ctrl-C at the terminal: exit status $rc, want 0"
grep -q 'killed by' "$dir/c.err" && no "Ctrl-C called the command's end a failure"
trace-cmd report "$dir/c.dat" >"$dir/c.txt" 2>&1 || no "c.dat does not open in trace-cmd"
"$RQPATH" audit "$dir/c.dat" >"$dir/c.audit" 2>"$dir/c.aerr" || no "audit of c.dat failed"
grep -q 'unfinished' "$dir/c.aerr" && no "c.dat is unfinished: $(cat "$dir/c.aerr")"

# one count: record's line against audit's, truth records apart and counted independently
rec=$(sed -n 's/^rqpath: recorded \([0-9]*\) events\( (+\([0-9]*\) truth records)\)\{0,1\},.*/\1 \3/p' "$dir/c.err")
aud=$(sed -n 's/^  kernel .*, [0-9]* CPUs, \([0-9]*\) events\( (+\([0-9]*\) truth records)\)\{0,1\},.*/\1 \3/p' "$dir/c.audit")
echo "record: $rec; audit: $aud"
[ -n "$rec" ] || no "record printed no 'recorded N events' line"
[ "$rec" = "$aud" ] || no "record says '$rec', audit '$aud' (events, truth records)"
truth=$(grep -c 'rqpath:truth\|truth:' "$dir/c.txt")
set -- $rec
[ "${2:-0}" -eq "$truth" ] || no "truth records: rqpath says ${2:-0}, trace-cmd report shows $truth"

# a command that fails on its own still fails the run
"$RQPATH" record -o "$dir/f.dat" -- sh -c 'exit 3' 2>"$dir/f.err"
rc=$?
[ $rc -eq 2 ] || no "a command exiting 3: exit status $rc, want 2"
grep -q 'exited with status 3' "$dir/f.err" || no "no 'exited with status 3' line"

# live --duration S under a terminal (tmux): quits by itself, exit 0, the file complete
if :; then
	sess=rqpath-ctrlc-$$
	tmux new-session -d -s "$sess" -x 100 -y 30 \
		"'$RQPATH' live --duration 1 -o '$dir/l.dat' 2>'$dir/l.err'; echo \$? >'$dir/l.rc'"
	i=0
	while [ ! -s "$dir/l.rc" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	[ -s "$dir/l.rc" ] || no "live --duration 1 did not end within 30 s"
	[ "$(cat "$dir/l.rc" 2>/dev/null)" = 0 ] || no "live --duration 1: exit $(cat "$dir/l.rc" 2>/dev/null): $(cat "$dir/l.err")"
	trace-cmd report "$dir/l.dat" >/dev/null 2>&1 || no "live's l.dat does not open"
	tmux kill-session -t "$sess" 2>/dev/null
	sess=
fi
"$RQPATH" audit "$dir/c.dat" --duration 3 >/dev/null 2>"$dir/d.err"
[ $? -eq 2 ] && grep -q -- '--duration goes with --live' "$dir/d.err" ||
	no "audit FILE --duration 3 was not refused: $(cat "$dir/d.err")"

[ -z "$(stale)" ] || no "instances left: $(stale)"
exit $fail
