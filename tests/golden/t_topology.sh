#!/bin/sh
# --topology and the verdict outputs through the CLI: `rqpath topology` prints a spec
# that --topology reads back; a spec that splits the fixture's two CPUs into two LLCs
# turns its wake-llc move into wake-cross-llc and says where the topology came from; a
# CPU beyond the trace's is one error line (exit 2); --fail-on trips on the proven
# count only, RULE:possible on the possible ones.
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
fx=$top/fixtures/spawn.dat
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

"$RQPATH" topology >"$tmp/host.topo" || no "rqpath topology exited $?"
grep -q '^llc [0-9]' "$tmp/host.topo" || no "rqpath topology printed no llc line"
"$RQPATH" audit --topology "$tmp/host.topo" "$fx" >"$tmp/host.txt" 2>&1
rc=$?
[ $rc -le 1 ] || no "audit --topology of this machine's spec exited $rc: $(tail -n 1 "$tmp/host.txt")"
grep -q 'topology: from --topology' "$tmp/host.txt" || no "the report does not say --topology"

"$RQPATH" audit --format json --topology 'llc 0 1' "$fx" >"$tmp/split.json" ||
	[ $? -eq 1 ] || no "audit --topology 'llc 0 1' failed"
python3 - "$tmp/split.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
paths = {p["path"]: p["count"] for p in d["placements"]}
bad = []
if d["trace"]["topology"]["source"] != "option":
    bad.append("topology.source %r" % d["trace"]["topology"]["source"])
if d["trace"]["topology"]["llc"] != [0, 1]:
    bad.append("topology.llc %r" % d["trace"]["topology"]["llc"])
if "wake-llc" in paths or paths.get("wake-cross-llc", 0) < 1:
    bad.append("a move between the two LLCs is not wake-cross-llc: %r" % paths)
# with one CPU per LLC no other CPU shares an LLC: nothing can be a missed idle CPU
mi = d["findings"]["missed-idle"]
if mi["count"] or mi["possible"]:
    bad.append("missed-idle %d/%d with no LLC neighbour" % (mi["count"], mi["possible"]))
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY

"$RQPATH" audit --topology 'llc 0-3' "$fx" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] || no "a CPU beyond the trace's: exit $rc, want 2"
[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q 'CPU 2, but the trace has 2 CPUs' "$tmp/err" ||
	no "a CPU beyond the trace's: $(cat "$tmp/err")"
"$RQPATH" audit --topology 'cache 0-1' "$fx" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || no "an unknown topology line is not refused"

# spawn.dat: missed-idle has 4 proven and 98 possible (tests/tools/verdicts.py); the 4 are
# inferred: the trace lacks cgroup_attach_task, so the marked masks rest on cpuset-unseen
"$RQPATH" audit --fail-on missed-idle=4 "$fx" >/dev/null 2>&1
[ $? -eq 0 ] || no "--fail-on missed-idle=4 tripped on 4 proven"
"$RQPATH" audit --fail-on missed-idle=3 "$fx" >/dev/null 2>&1
[ $? -eq 1 ] || no "--fail-on missed-idle=3 did not trip on 4 proven"
"$RQPATH" audit --fail-on missed-idle:possible=97 "$fx" >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] || no "--fail-on missed-idle:possible=97 did not trip on 98 possible"
grep -q 'missed-idle:possible=97 tripped: 98 found' "$tmp/err" || no "trip line: $(cat "$tmp/err")"
"$RQPATH" audit --fail-on missed-idle:possible=98 "$fx" >/dev/null 2>&1
[ $? -eq 0 ] || no "--fail-on missed-idle:possible=98 tripped"
"$RQPATH" audit --fail-on missed-idle:likely "$fx" >/dev/null 2>&1
[ $? -eq 2 ] || no "--fail-on missed-idle:likely is not refused"

# the text report: the verdict columns, and "not judged" for a finding nothing judged
"$RQPATH" audit "$fx" >"$tmp/text"
grep -q '^Findings  *count  *exact inferred possible not judged  judged$' "$tmp/text" ||
	no "no verdict columns in the text report"
"$RQPATH" audit "$top/fixtures/execl-nomarkers.dat" >"$tmp/nm.txt"
grep -q '^  needless-callback  *not judged ' "$tmp/nm.txt" ||
	no "needless-callback without markers does not say not judged"
grep -q '^  missed-idle  *4  *0  *4  *98  *0  *218$' "$tmp/text" || no "missed-idle row"
awk 'length > 80 { print "FAIL: text line longer than 80 columns: " $0; bad = 1 }
	END { exit bad }' "$tmp/text" || fail=1

[ $fail -eq 0 ] && echo "topology and verdict outputs: ok"
exit $fail
