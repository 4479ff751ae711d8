#!/bin/sh
# The dashboard you can drive (issue: it hid what is unknown; "0 1 not judged" read as
# two numbers; no denominators; 31 blank rows at 200x50): a line of what the trace
# cannot show, "N of M forks/wakeups" (M from trace-cmd report), the findings'
# exact / inferred / possible / not-judged columns and "not judged" in place of a bare
# 0, a cursor over paths and findings with Enter listing their placements, and the
# tasks with the most findings when the screen is tall.
. "$(dirname "$0")/golden/script.sh"

command -v trace-cmd >/dev/null 2>&1 || { echo "trace-cmd not installed"; exit 77; }
count() { trace-cmd report "$top/$1" 2>/dev/null | awk -v e="$2:" '$5 == e { n++ } END { print n + 0 }'; }
forks=$(count "$fixture" sched_wakeup_new)
wakeups=$(count "$fixture" sched_wakeup)
set -- $("$RQPATH" audit --format json "$top/$fixture" | python3 -c '
import json, sys
d = json.load(sys.stdin)
p = {x["path"]: x["count"] for x in d["placements"]}
print(p["fork-moved"], d["findings"]["missed-idle"]["count"])')
n_moved=$1 n_missed=$2

step dash 1
step down-enter "<Down><Enter>"
step end-enter "<Esc><End><Enter>"
step - "<Esc>"
step big ":resize 200x50"
run_script -- replay "$fixture"

has dash 'markers: affinity, policy +LLC: sysfs +profile: from release +repaired: cpu1 1' \
	"no line of what the trace can and cannot show"
has dash "fork-local +[0-9]+ of $forks forks" "fork path without 'of $forks forks'"
has dash "wake-prev +[0-9]+ of $wakeups wakeups" "wakeup path without 'of $wakeups wakeups'"
has dash 'count +of +exact +infer +poss +n/j' "no exact / inferred / possible / not-judged columns"
has dash "offcpu-fork +[0-9]+ +of $forks forks" "offcpu-fork without its denominator"
hasnt dash '[0-9] [0-9]+ not judged' "a bare count next to 'not judged' reads as two numbers"
has down-enter "^ $n_moved placements matching path=fork-moved" "Down Enter: fork-moved's placements"
has end-enter "^ [0-9]+ placements matching with=missed-idle: $n_missed proven" \
	"End Enter: missed-idle's placements"
has big 'tasks with the most findings' "200x50: no tasks section in the spare rows"
blank=$(screen big | awk 'NR > 1 && NR < 50 && /^ *$/ { n++ } END { print n + 0 }')
[ "$blank" -le 12 ] || fail "200x50: $blank blank rows"
screen big | sed -n '/tasks with the most findings/,$p' | awk 'NR > 1 && $3 == "findings" { print $2 }' |
	sort -nrc || fail "top tasks not ordered by findings"

# a trace without markers or topology says so, and a finding nothing could judge says
# "not judged" with its number, not 0
script_reset
step dash 1
run_script -- replay fixtures/execl-nomarkers.dat
has dash 'no markers: affinity, policy assumed +no topology: one LLC assumed' \
	"no-marker trace: the limits line does not say what is assumed"
execs=$(count fixtures/execl-nomarkers.dat sched_process_exec)
has dash "needless-callback +- +of $execs execs +not judged: $execs" \
	"needless-callback with every mask unknown: not 'not judged: $execs'"
[ "$rc" -eq 0 ] || fail "exit status $rc"
finish
