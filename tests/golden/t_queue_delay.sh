#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t_queue_delay.sh - the queue delay of `rqpath audit --format json` (delay.by_kind, fork
# and wakeup) on every fixture equals tests/tools/queuedelay.py's independent computation
# from `trace-cmd report` text: n, max, total and not_run to the nanosecond, p50 and p90
# too where rqpath says its quantiles are exact, else within 2 %.
#
# Exit 0 pass, 1 fail (each differing fixture/key named), 77 skip (last line says why).
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
rqpath=${RQPATH:-$top/rqpath}

command -v python3 >/dev/null 2>&1 || { echo "skip: python3 is not installed"; exit 77; }
command -v trace-cmd >/dev/null 2>&1 || { echo "skip: trace-cmd is not installed"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
for dat in "$top"/fixtures/*.dat; do
	case "$dat" in *.v6.dat) continue ;; esac
	n=$((n + 1))
	python3 "$top/tests/tools/queuedelay.py" "$dat" >"$tmp/ref.json" ||
		{ echo "FAIL: queuedelay.py $dat"; fail=1; continue; }
	"$rqpath" audit --format json "$dat" >"$tmp/got.json"
	[ $? -le 1 ] || { echo "FAIL: rqpath audit $dat"; fail=1; continue; }
	"$rqpath" audit --placements jsonl "$dat" >"$tmp/rows.jsonl" ||
		{ echo "FAIL: rqpath audit --placements $dat"; fail=1; continue; }
	python3 - "$dat" "$tmp/ref.json" "$tmp/got.json" "$tmp/rows.jsonl" <<'PY' || fail=1
import json, sys
name, ref, got = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
rows = [json.loads(l) for l in open(sys.argv[4])]
d = got["delay"]
bad = []
# the oracle places forks and wakeups only: their rows that never ran again
not_run = sum(1 for r in rows if r["kind"] in ("fork", "wakeup") and r["delay_ns"] is None)
if not_run != ref["not_run"]:
    bad.append("not_run (forks and wakeups) %s != %s" % (not_run, ref["not_run"]))
if d["not_run"] != sum(1 for r in rows if r["delay_ns"] is None) - d["unmeasured"]:
    bad.append("delay.not_run %s disagrees with the placements export" % d["not_run"])
for kind in ("fork", "wakeup"):
    r = ref[kind]
    g = d["by_kind"].get(kind, {"n": 0, "p50_ns": 0, "p90_ns": 0, "max_ns": 0,
                                "total_ns": 0, "exact": True})
    for k in ("n", "max_ns", "total_ns"):
        if g[k] != r[k]:
            bad.append("%s.%s %s != %s" % (kind, k, g[k], r[k]))
    for k in ("p50_ns", "p90_ns"):
        ok = g[k] == r[k] if g["exact"] else abs(g[k] - r[k]) <= 0.02 * r[k]
        if not ok:
            bad.append("%s.%s %s != %s%s" % (kind, k, g[k], r[k],
                                             "" if g["exact"] else " (+-2 %)"))
for b in bad:
    print("FAIL: %s: %s" % (name, b))
sys.exit(1 if bad else 0)
PY
done
[ $n -gt 0 ] || { echo "FAIL: no fixtures"; exit 1; }
[ $fail -eq 0 ] && echo "ok: queue delay of $n fixtures matches trace-cmd report"
exit $fail
