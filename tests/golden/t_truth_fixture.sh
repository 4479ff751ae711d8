#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t_truth_fixture.sh - a recording with the kernel's state in it (tests/fixtures/truth/
# spawn-truth.dat: `rqpath record --file-version 7 -- rqpath workload spawn --count 150`
# with the BPF side on, 6.18), no root needed: the audit reads its rqpath:truth records
# (as many as trace-cmd report prints) and judges from them (missed-idle possible 0, each
# placement with a record names it in the export); --no-truth gives the tracepoint
# model's verdicts, which tests/tools/verdicts.py -- reading trace-cmd report and taking
# the truth events for nothing -- re-counts to the same numbers; the model scored
# against the truth run passes (tests/tools/truth_score.py).
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
rqpath=${RQPATH:-$top/rqpath}
dat=$top/tests/fixtures/truth/spawn-truth.dat
command -v python3 >/dev/null 2>&1 || { echo "skip: python3 is not installed"; exit 77; }
command -v trace-cmd >/dev/null 2>&1 || { echo "skip: trace-cmd is not installed"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
"$rqpath" audit --format json "$dat" >"$tmp/truth.json" || { echo "FAIL: audit exit $?"; exit 1; }
"$rqpath" audit --format json --no-truth "$dat" >"$tmp/model.json" ||
	{ echo "FAIL: audit --no-truth exit $?"; exit 1; }
"$rqpath" audit "$dat" --placements jsonl >"$tmp/t.jsonl" || fail=1
"$rqpath" audit "$dat" --placements jsonl --no-truth >"$tmp/m.jsonl" || fail=1
python3 "$top/tests/tools/verdicts.py" "$dat" >"$tmp/v.json" ||
	{ echo "FAIL: verdicts.py on $dat"; exit 1; }
n_tc=$(trace-cmd report "$dat" 2>/dev/null | grep -c ' truth: ')
python3 - "$tmp" "$n_tc" <<'PY' || fail=1
import json, sys
d, n_tc = sys.argv[1], int(sys.argv[2])
t, m, v = (json.load(open("%s/%s.json" % (d, k))) for k in ("truth", "model", "v"))
bad = []
mvt = t["trace"]["data_quality"]["model_vs_truth"]
if mvt["records"] != n_tc or not n_tc:
    bad.append("truth records %d, trace-cmd report prints %d" % (mvt["records"], n_tc))
if m["trace"]["data_quality"]["model_vs_truth"]["records"]:
    bad.append("--no-truth still read records")
if t["findings"]["missed-idle"]["possible"]:
    bad.append("missed-idle possible %d with truth" % t["findings"]["missed-idle"]["possible"])
for fid in ("idle-stacking", "missed-idle"):
    for k in ("count", "possible", "not_judged", "judged"):
        if m["findings"][fid][k] != v[fid][k]:
            bad.append("--no-truth %s %s %d, verdicts.py %d" % (fid, k, m["findings"][fid][k],
                                                                  v[fid][k]))
rows = [json.loads(l) for l in open(d + "/t.jsonl")]
with_truth = sum(1 for r in rows if r["truth"])
if with_truth != mvt["placements"]:
    bad.append("%d rows with a truth object, the audit judged %d from records" %
               (with_truth, mvt["placements"]))
if any(r["truth"] for r in map(json.loads, open(d + "/m.jsonl"))):
    bad.append("a --no-truth row names a record")
for b in bad:
    print("FAIL: " + b)
print("%d records, %d placements judged from them; model: %s" % (
    mvt["records"], mvt["placements"],
    {k: mvt[k] for k in ("selection", "cpu_state", "policy", "mask")}))
sys.exit(1 if bad else 0)
PY
python3 "$top/tests/tools/truth_score.py" --name spawn-truth --truth "$tmp/t.jsonl" \
	--model "$tmp/m.jsonl" || fail=1
[ $fail -eq 0 ] && echo "ok: the truth fixture"
exit $fail
