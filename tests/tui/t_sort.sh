#!/bin/sh
# Sorting the placements by any column (issue 13: "sort placements and tasks by any
# column, reverse with the same key", htop's F6 / < / >): > and o walk time kind pid
# comm cpu path conf findings, < walks back, O reverses, F6 names a column and naming
# the one in force reverses it.  The column's title carries the arrow; the order of the
# rows is checked on screen; the selection stays on its placement; ] in the detail
# steps in the sorted order.  (The tasks view's sort: t_tasks.)
. "$(dirname "$0")/golden/script.sh"

f=fixtures/idle-stack.dat
step time "2<Home>"
step kind ">"
step pid ">"
step pid-rev "O<Home>"
step pick-same "<F6>pid<Enter><Home>"
step cpu "<F6>cpu<Enter><Home>"
step back "<lt><Home>"
step flagged "<F6>findings<Enter><Home>"
step keep "<Down><Down>"
step keep-sort "<F6>comm<Enter>"
step keep-detail "<Enter>"
step keep-next "]"
step prompt "<Esc><F6>"
step prompt-esc "<Esc>"
run_script -- replay "$f"

# column 1 time, 2 kind, 3 pid, then comm (may hold blanks: not used)
rows() { screen "$1" | sed -n '4,23p'; }
row time 3 | grep -q '▼time s' || fail "time: no arrow on its title: $(row time 3)"
rows time | awk '{ print $1 }' | sort -nc || fail "time: rows not in time order"
has kind ', sorted by kind$' "> after time: kind"
row kind 3 | grep -q '▼kind' || fail "kind: no arrow"
has pid ', sorted by pid$' "> after kind: pid"
has pid-rev ', sorted by pid reversed$' "O: reversed"
row pid-rev 3 | grep -q '▲pid' || fail "reversed: no up arrow on pid: $(row pid-rev 3)"
rows pid-rev | awk '{ print $3 }' | sort -nrc || fail "pid reversed: not descending"
has pick-same ', sorted by pid$' "F6 naming the current (reversed) column: reversed again"
rows pick-same | awk '{ print $3 }' | sort -nc || fail "pid: not ascending"
has cpu ', sorted by cpu$' "F6 cpu"
rows cpu | sed 's/.*  *[0-9?]*→\([0-9]*\) .*/\1/' | sort -nc || fail "cpu: target CPUs not ascending"
has back ', sorted by comm$' "< after cpu: comm"
has flagged ', sorted by findings$' "F6 findings"
# flagged placements first: the top rows carry a finding letter
rows flagged | head -1 | grep -Eq '[NOIM]{1,4}$|[NOIM]\.|\.[NOIM]' ||
	fail "findings: the first row is not flagged: $(rows flagged | head -1)"
# the selection stays on its placement: the third row by findings is the detail's
set -- $(rows keep | sed -n 3p)
sel_ts=$1 sel_pid=$3
has keep-detail "placement #[0-9]+ at ${sel_ts}s" "sorting moved the selection off its placement ($sel_ts)"
has keep-detail "task +$sel_pid " "detail of another task than pid $sel_pid"
# ] steps to the next row of the sorted list
has keep-next 'placement [0-9]+ of 996 in the list' "] in the detail"
# F6 names the columns it takes; Esc leaves the sort as it was
has prompt '^sort by \(time kind pid comm cpu path conf findings\):$' "F6: the prompt names no columns"
has prompt-esc ', sorted by comm$' "Esc at the F6 prompt changed the sort"
[ "$rc" -eq 0 ] || fail "exit status $rc"
finish
