#!/bin/sh
# The timeline view (6): one lane per CPU.  On fixtures/idle-stack.dat the first
# idle-stacking placement (opened from the findings view, then 6 from its detail) must
# show in its lane with the idle CPU visible at that instant: a golden screen, and the
# CPU states checked against trace-cmd report's last sched_switch on each CPU before it,
# and the tasks queued on each CPU (how many, and who first; the other half of the
# verdict's ground) against an
# independent model of the runqueues from trace-cmd report (tests/tools/queued.py), at
# every idle-stacking placement and the missed-idle ones.  c colours (and letters) the
# lanes by policy: the SCHED_IDLE hog as i.  f chooses the finding n/N walk.
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
# per finding: n/N walk only the idle-stacking ones, then the missed-idle ones
step - "1 6<Home>T"
step fi "fidle<Enter>"
for k in 1 2 3 4 5 6 7 8; do step "fi$k" n; done
step fm "fmissed<Enter>n"
step fm2 "n"
step fany "F"
step policy "fidle<Enter>nc"
step task "c"
step fbad "fzz<Enter>"
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
# f: one finding's placements; the header counts them
n_idle=$("$RQPATH" audit --format json "$top/$f" | python3 -c '
import json, sys
print(json.load(sys.stdin)["findings"]["idle-stacking"]["count"])')
has fi ", $n_idle idle-stacking" "f idle: the header does not count the $n_idle idle-stacking placements"
has fi "n/N walk the idle-stacking placements" "f idle: no message"
has fi1 "idle-stacking placement 1 of $n_idle\$" "f idle then n: not the first of $n_idle"
has fm "missed-idle placement [0-9]+ of [0-9]+\$" "f missed then n"
has fm ' \.\.\.M missed-idle$' "f missed: the selected placement is not missed-idle"
has fany "n/N walk every flagged placement" "F: back to any finding"
has fbad "no finding 'zz'" "f zz: no such finding"
# the queue of each CPU at each placement n stopped at, against the independent model
args="" names=""
for st in fi1 fi2 fi3 fi4 fi5 fi6 fi7 fi8 fm fm2; do
	set -- $(screen $st | grep -o '^ [0-9]*\.[0-9]*s wakeup [0-9]*')
	[ -n "$3" ] || continue
	args="$args $3 $(echo "${1%s}" | tr -d .)"
	names="$names $st"
done
python3 "$top/tests/tools/queued.py" "$top/$f" $args >"$work/queued" ||
	fail "queued.py failed"
set -- $names
checked=0
named=0
while read -r pid us q0 q1 w0 w1; do
	st=$1
	shift
	[ "$q0" = none ] && { fail "$st: trace-cmd has no wakeup of $pid at $us"; continue; }
	line=$(screen "$st" | grep '^ at that instant:')
	for c in 0 1; do
		eval want=\$q$c who=\$w$c
		got=$(printf '%s\n' "$line" | sed -n "s/.* cpu$c [^ ]* q\([0-9?]*\).*/\1/p")
		[ "$got" = "?" ] && continue
		[ "$got" = "$want" ] || fail "$st: cpu$c queued $got, trace-cmd report says $want ($line)"
		checked=$((checked + 1))
		# the task named as waiting is one of those the model has queued there
		[ "$got" -gt 0 ] 2>/dev/null || continue
		qpid=$(printf '%s\n' "$line" | sed -n "s/.* cpu$c [^ ]* q[0-9]*\[[^]]*:\([0-9]*\)[] ].*/\1/p")
		case ",$who," in
		*",$qpid,"*) named=$((named + 1)) ;;
		*) fail "$st: cpu$c names pid '$qpid' as queued, trace-cmd report has $who ($line)" ;;
		esac
	done
done <"$work/queued"
[ "$checked" -ge 16 ] || fail "only $checked queue lengths checked"
[ "$named" -ge 3 ] || fail "only $named queued tasks named and checked"
# by policy: the hog (SCHED_IDLE: its sched_setscheduler asks policy 5) is i in its lane
trace-cmd report "$top/$f" 2>/dev/null | grep -q -- '-2006 .*sys_enter_sched_setscheduler:.*policy: 0x00000005' ||
	fail "trace-cmd: the hog (pid 2006) never asked SCHED_IDLE"
has policy 'at that instant:  cpu0 rq-idle-hog:2006 ' "policy: the hog is not on cpu0"
# the lane's letter under the axis's cursor (the selected placement's instant)
at_cursor() {
	screen "$1" | python3 -c '
import sys
rows = sys.stdin.read().split("\n")
col = rows[2].find("\u25bc")
print(rows[3][col] if col >= 0 and col < len(rows[3]) else "")'
}
[ "$(at_cursor policy)" = i ] || fail "policy: cpu0 at the cursor is not i (SCHED_IDLE): $(row policy 4)"
has policy 'n normal b batch i idle F fifo R rr D deadline' "policy: no legend"
[ "$(at_cursor task)" = r ] || fail "c again: cpu0 at the cursor is not r (rq-idle-hog): $(row task 4)"

# the mouse on the marks: a click selects the placement a mark stands for, a double click
# opens its detail (4 ms around the first idle-stacking: its marks at columns 43 and 62 of
# row 4, the offcpu forks' O from column 14)
script_reset
step - "4/idle-stacking<Enter><Down><Down><Enter>"
step zoom "6Z"
step click "<Click:4:62>"
step dclick "<DClick:4:14>"
run_script -- replay "$f"
row zoom 5 | grep -q '^ \{14\}O  O O  O 1 \{18\}I \{18\}I$' || fail "zoom: the marks moved: $(row zoom 5)"
has click '^ 0\.015561s wakeup 2008 rq-idle-sleep cpu 0→0  wake-prev  \.\.I\. idle-stacking$' \
	"click on the second I: not the second idle-stacking placement"
has dclick 'placement #[0-9]+ at 0\.01' "double click on an O: no detail"
has dclick 'offcpu-fork' "double click on an O: not an offcpu-fork placement"

# lost-event gaps: the spawn fixture with missed-event marks in its pages (mkodd.py
# missed); each "[N EVENTS DROPPED]" trace-cmd report prints must be an x in the lane of
# its CPU, in the column of the CPU's next record, and no x anywhere else
trace-cmd convert -i "$top/fixtures/spawn.dat" --file-version 7 --compression none \
	-o "$work/base.dat" >/dev/null 2>&1 || fail "trace-cmd convert"
python3 "$top/tests/tools/mkodd.py" missed "$work/base.dat" "$work/missed.dat" || fail "mkodd.py"
script_reset
step lost "6T"
run_script -- replay "$work/missed.dat"
trace-cmd report "$work/missed.dat" 2>/dev/null >"$work/missed.txt"
screen lost >"$work/lost.screen"
python3 - "$work/missed.txt" "$work/lost.screen" <<'PY' || fail "lost-event gaps: see above"
import re, sys
rep = open(sys.argv[1]).read().split("\n")
scr = open(sys.argv[2]).read().split("\n")
m = re.match(r" (\d+\.\d+) to (\d+\.\d+) s", scr[1])
t0, t1 = float(m.group(1)), float(m.group(2))
w = 80 - 7
want = {}
pending = set()
for line in rep:
    d = re.search(r"CPU:(\d+) \[(\d+ )?EVENTS DROPPED\]", line)
    if d:
        pending.add(int(d.group(1)))
        continue
    r = re.search(r"\[(\d{3})\]\s+(\d+\.\d+):", line)
    if r and int(r.group(1)) in pending:
        cpu = int(r.group(1))
        pending.discard(cpu)
        col = int((float(r.group(2)) - t0) * w / (t1 - t0))
        want.setdefault(cpu, set()).add(col)
bad = 0
if not want:
    print("trace-cmd report shows no dropped events"); bad = 1
for cpu in (0, 1):
    lane = next(l for l in scr if l.startswith("cpu%d " % cpu))[7:]
    xs = {i for i, c in enumerate(lane) if c == "x"}
    for col in want.get(cpu, ()):
        if not xs & {col - 1, col, col + 1}:
            print("cpu%d: no x near column %d: %s" % (cpu, col, lane)); bad = 1
    for x in xs:
        if not any(abs(x - col) <= 1 for col in want.get(cpu, ())):
            print("cpu%d: an x at column %d where trace-cmd dropped nothing" % (cpu, x)); bad = 1
sys.exit(bad)
PY
[ "$rc" -eq 0 ] || fail "exit status $rc"
# its keys in ? help, under its own title
script_reset
step help "6?"
run_script RQPATH_TUI_SIZE=80x120 -- replay "$f"
screen help | sed -n '/^ timeline view$/,/^$/p' >"$work/help-tl"
for k in 'z +zoom in' 'Z +zoom out' 'Left/h +pan left' '\[ +previous placement' \
	'n +next flagged placement' 'f/F4 +which finding n/N walk' 'c +lanes by task or by scheduling policy' \
	'Enter +the detail of the selected placement'; do
	grep -Eq "^   $k" "$work/help-tl" || fail "? help: no timeline key '$k'"
done
has help '^ +timeline +one lane per CPU' "? help: the timeline is not among the views"
finish
