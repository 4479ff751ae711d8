#!/bin/sh
# The tasks view sorts by what its help says (issue: the help named wakeups, the code
# sorted pid, migrations, findings, forks, with no wakeups column and no reverse):
# o walks pid comm forks execs wakeups migr findings, O reverses.  The wakeup counts
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
step forks o
step execs o
step wakeups "o<Home>"
step reversed "O<Home>"
step migr "o"
step findings "o"
step cycle "o"
step help "?"
run_script RQPATH_TUI_SIZE=80x80 -- replay "$fixture"

has pid 'sorted by pid' "first sort: pid"
screen pid | awk 'NR > 3 && NR < 24 { print $1 }' | sort -nc ||
	fail "pid order is not ascending"
has comm 'sorted by comm' "o: comm"
has forks 'sorted by forks' "o o: forks"
has execs 'sorted by execs' "o o o: execs"
has wakeups 'sorted by wakeups \(' "o x4: wakeups"
has wakeups 'wakeups' "no wakeups column"
# the header's columns: wakeups is the 8th field of a row
col=$(row wakeups 3 | tr -d '▼▲' | awk '{ for (i = 1; i <= NF; i++) if ($i == "wakeups") print i }')
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
has help 'o +next sort column: pid comm forks execs wakeups migr findings' \
	"help does not name the sort columns"
has help 'O +reverse the sort' "help has no reverse"
[ "$rc" -eq 0 ] || fail "exit status $rc"
finish
