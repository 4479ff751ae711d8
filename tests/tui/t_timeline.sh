#!/bin/sh
# The timeline view (6): one lane per CPU.  On fixtures/idle-stack.dat the first
# idle-stacking placement (opened from the findings view, then 6 from its detail) must
# show in its lane with the idle CPU visible at that instant: a golden screen, and the
# CPU states checked against trace-cmd report's last sched_switch on each CPU before it.
# Zoom, pan, n/N over the flagged placements, [ ], Enter and Esc back.
. "$(dirname "$0")/golden/script.sh"

command -v trace-cmd >/dev/null 2>&1 || { echo "trace-cmd not installed"; exit 77; }
f=fixtures/idle-stack.dat
flagged=$("$RQPATH" audit --format json "$top/$f" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(sum(v["count"] for v in d["findings"].values()))')

step - "4/idle-stacking<Enter><Down><Down><Enter>"
step timeline-idle-stack-80x24 6
step abs "T"
step zoom-in "Tz"
step zoom-out "ZZ"
step next "n"
step prev "NN"
step pl-next "]"
step detail "[<Enter>"
step back "<Esc>"
step back2 "<Esc>"
step pan "1 6<Home>"
step tab "<Tab>"
run_script -- replay "$f"

golden timeline-idle-stack-80x24
# the selected placement, and every CPU at that instant, from trace-cmd report
set -- $(screen abs | grep -o '^ [0-9]*\.[0-9]*s wakeup [0-9]*')
ts=${1%s} pid=$3
[ -n "$pid" ] || fail "no selected wakeup in absolute time"
has timeline-idle-stack-80x24 "wakeup $pid .* idle-stacking" "the selected placement is not flagged idle-stacking"
expect=$(trace-cmd report "$top/$f" 2>/dev/null | awk -v ts="$ts" '
	$5 == "sched_switch:" { t = substr($4, 1, length($4) - 1) + 0; if (t > ts + 0) next
		cpu = substr($3, 2, 3) + 0; n = split($0, a, "==> "); split(a[2], b, " ")
		next_task[cpu] = b[1] }
	END { for (c = 0; c < 2; c++) { s = next_task[c]; sub(/.*:/, "", s)
		printf "cpu%d %s\n", c, s == "0" ? "idle" : s } }')
for c in 0 1; do
	want=$(printf '%s\n' "$expect" | awk -v c="cpu$c" '$1 == c { print $2 }')
	if [ "$want" = idle ]; then
		has timeline-idle-stack-80x24 "at that instant:.* cpu$c idle" "cpu$c: trace-cmd says idle"
		row timeline-idle-stack-80x24 $((4 + 2 * c)) | grep -q '·' ||
			fail "cpu$c lane shows no idle glyph"
	else
		has timeline-idle-stack-80x24 "at that instant:.* cpu$c [^ ]*:$want( |$)" \
			"cpu$c: trace-cmd says pid $want ran"
	fi
done
printf '%s\n' "$expect" | grep -q idle || fail "trace-cmd shows no idle CPU at the stacking"
has zoom-in '\(1 ms\)' "z: the window did not halve"
has zoom-out '\(4 ms\)' "Z Z: the window did not double twice"
has next "flagged placement [0-9]+ of $flagged\$" "n: not 'flagged placement K of $flagged'"
has prev "flagged placement [0-9]+ of $flagged" "N"
has detail 'placement #[0-9]+ at' "Enter: no detail"
has back ' timeline  ' "Esc from the detail: back to the timeline"
has back2 ' findings  ' "Esc from the timeline: back to the findings (each view is once on the stack)"
has pan '^cpu0 ' "Home: no lanes"
has tab ' dashboard  ' "Tab from the timeline (the sixth view) wraps to the dashboard"
[ "$rc" -eq 0 ] || fail "exit status $rc"
finish
