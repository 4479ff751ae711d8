#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t_odd_kernels.sh - traces of machines unlike this one, made from the spawn fixture by
# tests/tools/mkodd.py (issue 19 items 10 and 11):
#  cpucount  the v7 CPUCOUNT option says 8 CPUs, the buffer lists CPUs 0-1 (the others
#            wrote nothing): rqpath reads 8 CPUs, as trace-cmd report does, and accepts
#            --topology 'llc 0-7';
#  nowaking  as a kernel before v4.3 writes it (no sched_waking, no sched_prepare_exec,
#            no release): the profile has no delayed dequeue and says why; each wakeup
#            and fork is one placement with the move it made (placements = sched_wakeup
#            + sched_wakeup_new + sched_process_exec records of trace-cmd report).
# On both, the verdicts equal tests/tools/verdicts.py's.
#
# Exit 0 pass, 1 fail, 77 skip.
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
rqpath=${RQPATH:-$top/rqpath}
command -v python3 >/dev/null || { echo "skip: python3 missing"; exit 77; }
command -v trace-cmd >/dev/null || { echo "skip: trace-cmd missing"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

trace-cmd convert -i "$top/fixtures/spawn.v6.dat" --file-version 7 --compression none \
	-o "$tmp/base.dat" >/dev/null 2>&1 || { echo "FAIL: trace-cmd convert"; exit 1; }
for kind in cpucount nowaking; do
	python3 "$top/tests/tools/mkodd.py" $kind "$tmp/base.dat" "$tmp/$kind.dat" ||
		{ echo "FAIL: mkodd.py $kind"; exit 1; }
	"$rqpath" audit --format json "$tmp/$kind.dat" >"$tmp/$kind.json" 2>"$tmp/err"
	rc=$?
	[ $rc -le 1 ] || no "audit $kind exited $rc: $(tail -n 1 "$tmp/err")"
	python3 "$top/tests/tools/verdicts.py" "$tmp/$kind.dat" >"$tmp/$kind.v.json" ||
		no "verdicts.py $kind"
	trace-cmd report "$tmp/$kind.dat" >"$tmp/$kind.report" 2>/dev/null ||
		no "trace-cmd report $kind"
done

"$rqpath" audit --topology 'llc 0-7' "$tmp/cpucount.dat" >"$tmp/topo.txt" 2>&1
rc=$?
[ $rc -le 1 ] || no "--topology 'llc 0-7' on the 8-CPU file exited $rc: $(tail -n 1 "$tmp/topo.txt")"

python3 - "$tmp" <<'EOF' || fail=1
import json, re, sys
tmp = sys.argv[1]
bad = []
for kind in ("cpucount", "nowaking"):
    a = json.load(open("%s/%s.json" % (tmp, kind)))
    v = json.load(open("%s/%s.v.json" % (tmp, kind)))
    report = open("%s/%s.report" % (tmp, kind)).read()
    for fid in ("missed-idle", "idle-stacking"):
        for key in ("count", "exact", "inferred", "possible", "not_judged", "judged"):
            if a["findings"][fid][key] != v[fid][key]:
                bad.append("%s: %s.%s rqpath %r, verdicts.py %r"
                           % (kind, fid, key, a["findings"][fid][key], v[fid][key]))
    if kind == "cpucount":
        m = re.search(r"^cpus=(\d+)", report, re.M)
        if not m or a["trace"]["cpus"] != int(m.group(1)) or a["trace"]["cpus"] != 8:
            bad.append("cpucount: rqpath reads %r CPUs, trace-cmd report %s, the option 8"
                       % (a["trace"]["cpus"], m and m.group(1)))
        continue
    prof = a["trace"]["profile"]
    if prof["delay_dequeue"] is not False or "sched_waking" not in prof["source"]:
        bad.append("nowaking: profile %r: want delay_dequeue false, saying why" % prof)
    n = {e: len(re.findall(r"\s%s:" % e, report))
         for e in ("sched_wakeup", "sched_wakeup_new", "sched_process_exec",
                   "sched_migrate_task")}
    placed = sum(p["count"] for p in a["placements"])
    want = n["sched_wakeup"] + n["sched_wakeup_new"] + n["sched_process_exec"]
    if not n["sched_migrate_task"] or placed != want:
        bad.append("nowaking: %d placements, want %d (sched_wakeup %d + sched_wakeup_new %d"
                   " + sched_process_exec %d; the %d moves belong to them)"
                   % (placed, want, n["sched_wakeup"], n["sched_wakeup_new"],
                      n["sched_process_exec"], n["sched_migrate_task"]))
for b in bad:
    print("FAIL " + b)
sys.exit(1 if bad else 0)
EOF
[ $fail -eq 0 ] && echo "odd kernels: 8 CPUs from CPUCOUNT; a pre-v4.3 trace judged as such"
exit $fail
