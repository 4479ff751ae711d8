#!/bin/sh
# The tasks view sorts by what its help says (issue: the help named wakeups, the code
# sorted pid, migrations, findings, forks, with no wakeups column and no reverse):
# o and > walk every column, pid comm policy allowed forks execs wakeups migr findings,
# < walks back, O reverses, F6 names a column (the current one again reverses).  The wakeup counts
# come from `trace-cmd report` (one sched_wakeup line per wakeup of the task).
. "$(dirname "$0")/golden/script.sh"

command -v trace-cmd >/dev/null 2>&1 || { echo "trace-cmd not installed"; exit 77; }
# pid and count of the most woken task, from trace-cmd's text
set -- $(trace-cmd report "$top/$fixture" 2>/dev/null | awk '$5 == "sched_wakeup:" {
	split($6, a, ":"); n[a[length(a)]]++ } END {
	for (p in n) if (n[p] > best || (n[p] == best && p + 0 < bp + 0)) { best = n[p]; bp = p }
	print bp, best }')
top_pid=$1 top_n=$2
[ -n "$top_n" ] || { echo "FAIL: no sched_wakeup in trace-cmd report"; exit 1; }

step pid 3
step comm o
step policy ">"
step allowed ">"
step forks o
step execs o
step wakeups "o<Home>"
step reversed "O<Home>"
step migr "o"
step findings "o"
step cycle "o"
step back "<lt>"
step pick "<F6>wak<Enter><Home>"
step pick-again "<F6>wakeups<Enter><Home>"
step pick-bad "<F6>zz<Enter>"
step help "?"
run_script RQPATH_TUI_SIZE=80x80 -- replay "$fixture"

has pid 'sorted by pid' "first sort: pid"
row pid 3 | grep -q '^ *▼pid comm ' || fail "the pid title carries no arrow: $(row pid 3)"
screen pid | awk 'NR > 3 && NR < 24 { print $1 }' | sort -nc ||
	fail "pid order is not ascending"
has comm 'sorted by comm' "o: comm"
has policy 'sorted by policy' "> after comm: policy"
has allowed 'sorted by allowed' "> after policy: allowed"
screen allowed | awk 'NR > 3 && NR < 80 { if ($4 == "0-1") two = 1; else if (two) bad = 1 }
	END { exit !(two && !bad) }' || fail "allowed: not every pinned task before the two-CPU ones"
has forks 'sorted by forks' "o after allowed: forks"
has execs 'sorted by execs' "o: execs"
has wakeups 'sorted by wakeups \(' "o: wakeups"
has wakeups 'wakeups' "no wakeups column"
# the header's columns: wakeups is the 7th field of a row; the arrow is on it
row wakeups 3 | grep -q '▼wakeups' || fail "the wakeups title carries no arrow: $(row wakeups 3)"
col=$(row wakeups 3 | sed 's/[▼▲]/ /g' | awk '{ for (i = 1; i <= NF; i++) if ($i == "wakeups") print i }')
[ "$col" = 7 ] || fail "wakeups is column $col of the header, want 7"
set -- $(row wakeups 4)
[ "$1" = "$top_pid" ] || fail "most woken task: pid $1, trace-cmd says $top_pid"
[ "$7" = "$top_n" ] || fail "its wakeups: $7, trace-cmd counts $top_n"
screen wakeups | awk 'NR > 3 && NR < 24 { print $7 }' | sort -nrc ||
	fail "wakeups not descending"
has reversed 'sorted by wakeups, reversed' "O: reversed"
screen reversed | awk 'NR > 3 && NR < 24 { print $7 }' | sort -nc ||
	fail "reversed wakeups not ascending"
has migr 'sorted by migrations \(' "o after O: migrations, not reversed"
has findings 'sorted by findings' "o: findings"
has cycle 'sorted by pid' "o wraps to pid"
has back 'sorted by findings' "< from pid: back to findings"
has pick 'sorted by wakeups \(' "F6 wak: wakeups"
screen pick | awk 'NR > 3 && NR < 24 { print $7 }' | sort -nrc || fail "F6: wakeups not descending"
has pick-again 'sorted by wakeups, reversed' "F6 naming the current column: reversed"
screen pick-again | awk 'NR > 3 && NR < 24 { print $7 }' | sort -nc ||
	fail "F6 again: wakeups not ascending"
has pick-bad "sort: no column 'zz'" "F6 with no such column"
has help '> +sort by the next column \(o too\)' "help has no >"
has help '< +sort by the previous column' "help has no <"
has help 'O +reverse the sort' "help has no reverse"
has help 'F6 +sort by a column named at a prompt' "help has no F6"
[ "$rc" -eq 0 ] || fail "exit status $rc"
finish
