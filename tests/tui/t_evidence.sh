#!/bin/sh
# The evidence in the detail view (issue: the detail showed the verdict, not the records
# it rests on): the sched_waking / sched_wakeup / sched_switch records around the
# placement as trace-cmd report prints them, the deciding one marked '>'.  Every record
# shown must be a line of `trace-cmd report` (CPU, time, event and fields; the owner's
# name may be the task's current comm where trace-cmd shows the one it saved).
. "$(dirname "$0")/golden/script.sh"

command -v trace-cmd >/dev/null 2>&1 || { echo "trace-cmd not installed"; exit 77; }
f=fixtures/idle-stack.dat
trace-cmd report "$top/$f" 2>/dev/null | sed 's/^[^:]*: *//' |
	sed 's/^.*\(\[[0-9][0-9][0-9]\]\)/\1/' | tr -s ' ' >"$work/report"

step detail "4/idle-stacking<Enter><Down><Down><Enter>"
run_script RQPATH_TUI_SIZE=160x60 -- replay "$f"
has detail 'the records \(as trace-cmd report prints them; > the deciding one\)' "no records section"
screen detail | sed -n '/^the records/,/^$/p' | sed '1d;/^$/d' >"$work/shown"
[ "$(wc -l <"$work/shown")" -ge 5 ] || fail "fewer than 5 records shown"
grep -q '^>.*sched_wakeup: *rq-idle-sleep:[0-9]* \[120\] CPU:000' "$work/shown" ||
	fail "the deciding sched_wakeup is not marked"
while IFS= read -r l; do
	key=$(printf '%s\n' "$l" | sed 's/^.*\(\[[0-9][0-9][0-9]\]\)/\1/' | tr -s ' ')
	grep -Fxq -- "$key" "$work/report" || fail "not a trace-cmd report line: $key"
done <"$work/shown"
[ "$rc" -eq 0 ] || fail "exit status $rc"
finish
