#!/bin/sh
# The possible ones can be listed too (issue: the whole-trace index kept no possible bits,
# so a possible count had no list): f possible=F lists every placement where finding F
# would count but the selection is not proven, as many as tests/tools/verdicts.py (an
# independent model over trace-cmd report) counts; finding=F still lists the proven ones
# only, and the two lists do not overlap.  With the ring cut to 100 placements, the rows
# come from the index of the whole trace.
# Enter on the finding (findings view, dashboard) lists both (issue 22 item 3: it listed
# the 4 proven ones only, and a possible row's detail said "not flagged"): two sections,
# proven then possible, each under a title with its count, each row marked M (proven) or
# m (possible); the counts are verdicts.py's, and so are the rows under each title.
. "$(dirname "$0")/golden/script.sh"

command -v trace-cmd >/dev/null 2>&1 || { echo "trace-cmd not installed"; exit 77; }
set -- $(python3 "$top/tests/tools/verdicts.py" "$top/$fixture" | python3 -c '
import json, sys
f = json.load(sys.stdin)["missed-idle"]
print(f["count"], f["possible"])')
proven=$1 possible=$2
[ "$possible" -gt 0 ] || { echo "FAIL: the fixture has no possible missed-idle"; exit 1; }

step possible "2fpossible=missed-idle<Enter>"
step both "ffinding=missed-idle possible=missed-idle<Enter>"
step proven "ffinding=missed-idle<Enter>"
step bad "fpossible=nothing<Enter>"
run_script RQPATH_TUI_RING=100 -- replay "$fixture"

has possible "^ $possible placements matching possible=missed-idle" \
	"possible=missed-idle: not verdicts.py's $possible"
has both "^ 0 placements matching finding=missed-idle possible=missed-idle" \
	"a placement both proven and possible"
has proven "^ $proven placements matching finding=missed-idle" \
	"finding=missed-idle: not verdicts.py's $proven proven"
has bad "no finding 'nothing'" "a bad possible= value is not refused"
[ "$rc" -eq 0 ] || fail "exit status $rc"

# a screen tall enough for every row of both sections
script_reset
step enter "4/missed-idle<Enter><Enter>"
step detail "<End><Enter>"
step dash "<Esc><Esc>1<End><Enter>"
run_script RQPATH_TUI_RING=100 RQPATH_TUI_SIZE=80x$((proven + possible + 12)) -- replay "$fixture"
both=$((proven + possible))
has enter "^ $both placements matching with=missed-idle: $proven proven, $possible possible" \
	"Enter on missed-idle: not $proven proven and $possible possible (verdicts.py)"
has enter "proven missed-idle: $proven \\(counted" "no proven section of $proven"
has enter "possible missed-idle: $possible \\(not counted" "no possible section of $possible"
# the rows between the titles: all proven (M), then all possible (m)
screen enter | awk -v p="$proven" -v q="$possible" '
	/proven missed-idle:/ { sec = 1; next }
	/possible missed-idle:/ { sec = 2; next }
	sec && / wakeup / { n[sec]++; if ($NF !~ (sec == 1 ? "M$" : "m$")) bad++ }
	END { exit !(n[1] == p && n[2] == q && !bad) }' ||
	fail "the sections' rows are not $proven M then $possible m"
has detail "^possible: missed-idle \\(not counted" "a possible row's detail does not say possible"
hasnt detail "not flagged" "a possible row's detail says not flagged"
has dash "^ $both placements matching with=missed-idle: $proven proven, $possible possible" \
	"Enter on the dashboard's missed-idle: not both sections"
[ "$rc" -eq 0 ] || fail "exit status $rc"
finish
