#!/bin/sh
# T toggles relative and absolute times (issue: relative in the TUI, absolute in audit,
# no toggle); absolute times are trace-cmd report's (seconds.microseconds), and t takes
# an absolute time then.  t past the end says so (it jumped silently).
. "$(dirname "$0")/golden/script.sh"

command -v trace-cmd >/dev/null 2>&1 || { echo "trace-cmd not installed"; exit 77; }
# the first record and the first placement (a sched_wakeup or sched_wakeup_new), as
# trace-cmd report prints their times
set -- $(trace-cmd report "$top/$fixture" 2>/dev/null | awk '
	$4 ~ /^[0-9]+\.[0-9]+:$/ && !first { first = substr($4, 1, length($4) - 1) }
	($5 == "sched_wakeup:" || $5 == "sched_wakeup_new:") && !pl {
		pl = substr($4, 1, length($4) - 1) }
	END { printf "%s %s %.6f\n", first, pl, pl - first }')
first=$1 first_pl=$2 rel_pl=$3
[ -n "$rel_pl" ] || { echo "FAIL: cannot read trace-cmd report"; exit 1; }

step absmsg "2T"
step abs "<Home>"
step abs-detail "<Enter>"
step rel "<Esc>T<Home>"
step abs-jump "T1gt$first_pl<Enter>"
step past "Tt99<Enter>"
run_script -- replay "$fixture"

has absmsg 'times are absolute' "T does not say what it did"
set -- $(row abs 4)
[ "$1" = "$first_pl" ] || fail "absolute time of the first placement: $1, trace-cmd: $first_pl"
has abs-detail "placement #1 at ${first_pl}s" "detail: absolute time"
set -- $(row rel 4)
[ "$1" = "$rel_pl" ] || fail "relative time of the first placement: $1, want $rel_pl"
row abs-jump 1 | grep -q "paused 1x ${first_pl}s" ||
	fail "t with an absolute time: $(row abs-jump 1), want ${first_pl}s"
has past '99 is past the end of the trace \(0\.043152\): at the end' "t 99: no message"
[ "$rc" -eq 0 ] || fail "exit status $rc"
finish
