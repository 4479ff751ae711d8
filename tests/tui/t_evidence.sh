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
# whose records: the task's own switches (either side), its fork as the child, and the
# switches on its CPUs between other tasks
pid=$(sed -n 's/^>.*sched_wakeup: *rq-idle-sleep:\([0-9]*\) .*/\1/p' "$work/shown")
grep -Eq "sched_switch: .*:$pid \[120\] [^=]*==>|==> [^ ]*:$pid \[" "$work/shown" ||
	fail "no sched_switch of the task ($pid) shown"
grep -q "sched_process_fork: .* child_pid=$pid\$" "$work/shown" ||
	fail "the fork of the task ($pid) is not shown"
grep 'sched_switch:' "$work/shown" | grep -vq ":$pid \[" ||
	fail "no sched_switch of other tasks on the placement's CPU shown"
# the owner: <idle>-0 for the idle task's records, else a name and the pid
grep -q '^[> ] *<idle>-0 ' "$work/shown" || fail "no record owned by <idle>-0"
grep -Ev '^[> ] *[!-~]+-[0-9]+ +\[[0-9]{3}\] ' "$work/shown" | grep . &&
	fail "records without a readable owner-pid [cpu]"
[ "$rc" -eq 0 ] || fail "exit status $rc"

# ] [ in the detail read on from where the last placement left the reader (the trace is
# not read again from its start for each step): stepping through 12 placements of the
# list forward and back reads the trace once, and shows for each the very records a
# fresh open shows.  Far back (beyond the records kept) it reads again, right.
records() { screen "$1" | sed -n '/^the records/,/^$/p'; }
script_reset
step s0 "2<Home><PgDn><Enter>"
for i in 1 2 3 4 5 6 7 8 9 10 11; do step "s$i" "]"; done
for i in 10 9 8; do step "b$i" "["; done
run_script RQPATH_TUI_SIZE=160x60 RQPATH_TUI_EV_STATS=1 -- replay "$f"
[ "$(grep -c 'evidence: trace read 1 time' "$work/err")" -ge 12 ] &&
	! grep -v 'evidence: trace read 1 time' "$work/err" | grep -q evidence ||
	fail "stepping re-read the trace: $(sort "$work/err" | uniq -c | tr '\n' ' ')"
for i in 0 1 2 3 4 5 6 7 8 9 10 11 b10 b9 b8; do
	case $i in b*) records "$i" >"$work/step-$i" ;; *) records "s$i" >"$work/step-$i" ;; esac
done
script_reset
for i in 0 1 2 3 4 5 6 7 8 9 10 11; do
	step "f$i" "2<Home><PgDn>$(awk -v n=$i 'BEGIN { for (; n > 0; n--) printf "<Down>" }')<Enter>"
	step - "<Esc>"
done
run_script RQPATH_TUI_SIZE=160x60 -- replay "$f"
for i in 0 1 2 3 4 5 6 7 8 9 10 11; do
	[ -s "$work/step-$i" ] || fail "step $i: no records"
	records "f$i" | cmp -s - "$work/step-$i" ||
		fail "step $i: the records after ] differ from a fresh open's"
done
for i in 10 9 8; do
	cmp -s "$work/step-b$i" "$work/step-$i" || fail "[ back to $i: other records"
done
script_reset
step late "2<End><Enter>"
step early "<Esc><Home><Enter>"
run_script RQPATH_TUI_SIZE=160x60 RQPATH_TUI_EV_STATS=1 -- replay "$f"
tail -1 "$work/err" | grep -q 'trace read 2 time' ||
	fail "from the end to the start: not read again ($(tail -1 "$work/err"))"
has early '^>' "the first placement: no deciding record marked"

# backwards through a list whose rows lie far apart (the 8 wake-affine placements, spread
# over the second): the first step past the kept records reads the rows before it all in
# one pass from the start, so 7 steps back read the trace twice, not once a step; each
# shows the records a fresh open shows
script_reset
step "w7" "2fpath=wake-affine<Enter><End><Enter>"
for i in 6 5 4 3 2 1 0; do step "w$i" "["; done
run_script RQPATH_TUI_SIZE=160x60 RQPATH_TUI_EV_STATS=1 -- replay "$f"
has w0 'placement 1 of 8 in the list' "[ x7: not at the first of the 8 wake-affine placements"
sort -u "$work/err" | grep -q 'trace read [3-9] time' &&
	fail "stepping back read the trace more than twice: $(sort -u "$work/err" | tr '\n' ' ')"
for i in 7 6 5 4 3 2 1 0; do records "w$i" >"$work/back-$i"; done
script_reset
for i in 0 1 2 3 4 5 6 7; do
	step "x$i" "2fpath=wake-affine<Enter><Home>$(awk -v n=$i 'BEGIN { for (; n > 0; n--) printf "<Down>" }')<Enter>"
	step - "<Esc>"
done
run_script RQPATH_TUI_SIZE=160x60 -- replay "$f"
for i in 0 1 2 3 4 5 6 7; do
	[ -s "$work/back-$i" ] || fail "back $i: no records"
	records "x$i" | cmp -s - "$work/back-$i" || fail "back $i: other records than a fresh open's"
done
finish
