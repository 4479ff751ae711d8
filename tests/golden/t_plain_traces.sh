#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t_plain_traces.sh - traces of machines unlike the recorder's, made from the
# execl-pinned fixture (2 CPUs, 6 counted missed-idle) by renaming one event format in
# place (same length: every record stays where it is), against tests/tools/verdicts.py:
#  nowakeup  sched_wakeup and sched_waking undefined (their records unreadable): the
#            trace cannot support missed-idle; every candidate is not judged, and
#            --fail-on missed-idle exits 0 with a line that says why
#  eas       sched_process_free renamed sched_overutilized, an event only energy-aware
#            kernels define: capacities taken as asymmetric (capacity_source
#            eas-events), every missed-idle possible, none counted
#  plat      a LISA plat_info.yml of 2 CPUs (446, 1024) given to --topology: capacities
#            from the option, asymmetric, every missed-idle possible
# Exit 0 pass, 1 fail, 77 skip.
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
rqpath=${RQPATH:-$top/rqpath}
command -v python3 >/dev/null || { echo "skip: python3 missing"; exit 77; }
command -v trace-cmd >/dev/null || { echo "skip: trace-cmd missing"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

python3 - "$top/fixtures/execl-pinned.v6.dat" "$tmp" <<'EOF' || exit 1
import sys
d = open(sys.argv[1], "rb").read()
for kind, pairs in (("nowakeup", ((b"name: sched_wakeup\n", b"name: sched_wakeuX\n"),
                                  (b"name: sched_waking\n", b"name: sched_wakinX\n"))),
                    ("eas", ((b"name: sched_process_free\n", b"name: sched_overutilized\n"),))):
    out = d
    for a, b in pairs:
        assert out.count(a) == 1, a
        out = out.replace(a, b)
    open("%s/%s.dat" % (sys.argv[2], kind), "wb").write(out)
EOF
cp "$top/fixtures/execl-pinned.v6.dat" "$tmp/plat.dat"
cat >"$tmp/plat_info.yml" <<'EOF'
platform-info:
    conf:
        abi: arm64
        cpu-capacities:
            orig:
                0: 446
                1: 1024
        cpus-count: 2
EOF

for kind in nowakeup eas plat; do
	opt=
	[ $kind = plat ] && opt="--topology $tmp/plat_info.yml"
	"$rqpath" audit $opt --format json "$tmp/$kind.dat" >"$tmp/$kind.json" 2>"$tmp/err" ||
		no "audit $kind exited $?: $(tail -n 1 "$tmp/err")"
	"$rqpath" audit $opt "$tmp/$kind.dat" >"$tmp/$kind.txt" 2>&1
	python3 "$top/tests/tools/verdicts.py" "$tmp/$kind.dat" >"$tmp/$kind.v.json" ||
		no "verdicts.py $kind"
done

"$rqpath" audit --fail-on missed-idle "$tmp/nowakeup.dat" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] || no "--fail-on missed-idle without sched_wakeup exited $rc: $(cat "$tmp/err")"
grep -q "^rqpath: --fail-on missed-idle not checked: missed-idle is not judged, the trace has no sched_wakeup events$" \
	"$tmp/err" || no "--fail-on missed-idle: no line saying why: $(cat "$tmp/err")"
grep -q "^  capacities: not in the trace, but the kernel defines sched_overutilized" "$tmp/eas.txt" ||
	no "eas: the capacities line does not name the event: $(grep capacities "$tmp/eas.txt")"
grep -q "^  capacities: from --topology: they differ" "$tmp/plat.txt" ||
	no "plat: the capacities line: $(grep capacities "$tmp/plat.txt")"
grep -q "^  capacities: not in the trace: all CPUs assumed of one capacity" "$tmp/nowakeup.txt" ||
	no "nowakeup: the symmetric assumption is not said: $(grep capacities "$tmp/nowakeup.txt")"

python3 - "$tmp" <<'EOF' || fail=1
import json, sys
tmp = sys.argv[1]
bad = []
base = json.load(open("%s/nowakeup.v.json" % tmp))
for kind in ("nowakeup", "eas", "plat"):
    a = json.load(open("%s/%s.json" % (tmp, kind)))
    # verdicts.py reads no --topology: for plat, the asymmetric rule is checked below
    v = json.load(open("%s/%s.v.json" % (tmp, "eas" if kind == "plat" else kind)))
    for fid in ("missed-idle", "idle-stacking"):
        for key in ("count", "exact", "inferred", "possible", "not_judged", "judged"):
            if kind == "plat" and key in ("not_judged", "judged"):
                continue    # eas.dat lost the sched_process_free records, plat.dat has them
            if a["findings"][fid][key] != v[fid][key]:
                bad.append("%s: %s.%s rqpath %r, verdicts.py %r"
                           % (kind, fid, key, a["findings"][fid][key], v[fid][key]))
    topo = a["trace"]["topology"]
    m = a["findings"]["missed-idle"]
    if kind == "nowakeup":
        if m["count"] or m["possible"] or m["judged"] or not m["not_judged"]:
            bad.append("nowakeup: missed-idle judged: %r" % m)
        if topo["capacity_source"] != "assumed" or topo["asym_capacity"]:
            bad.append("nowakeup: capacities %r" % topo)
    else:
        src = "eas-events" if kind == "eas" else "option"
        if topo["capacity_source"] != src or not topo["asym_capacity"]:
            bad.append("%s: capacities %r" % (kind, topo))
        if m["count"] or m["possible"] < 6:
            bad.append("%s: missed-idle counted on an asymmetric machine: %r" % (kind, m))
    if kind == "eas" and topo["eas_event"] != "sched_overutilized":
        bad.append("eas: eas_event %r" % topo["eas_event"])
if bad:
    print("FAIL: " + "; ".join(bad))
    sys.exit(1)
print("ok: no sched_wakeup -> not judged; EAS events and a plat_info -> missed-idle possible")
EOF
exit $fail
