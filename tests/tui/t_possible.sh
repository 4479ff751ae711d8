#!/bin/sh
# The possible ones can be listed too (issue: the whole-trace index kept no possible bits,
# so a possible count had no list): f possible=F lists every placement where finding F
# would count but the selection is not proven, as many as tests/tools/verdicts.py (an
# independent model over trace-cmd report) counts; finding=F still lists the proven ones
# only, and the two lists do not overlap.  With the ring cut to 100 placements, the rows
# come from the index of the whole trace.
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
finish
