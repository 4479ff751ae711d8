#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# table.sh - the README's truth table: run the truth tier (root, rqpath built with BPF)
# keeping each score, then print, per workload and finding, the truth run's verdicts and
# the tracepoint-only model's precision and recall against them, the proof-of-selection
# confusion matrix, the path premises the record contradicts and model_vs_truth.
#   RQPATH=./rqpath sh tests/truth/table.sh
# Not a test (no t_ prefix): tests/run.sh does not run it.
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${RQPATH:=$top/rqpath}"
export RQPATH RQPATH_TOP="$top"
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
export TRUTH_TABLE="$out"
for t in "$top"/tests/truth/t_truth_*.sh; do
	sh "$t" >"$out/$(basename "$t" .sh).log" 2>&1
	echo "$(basename "$t" .sh): exit $? ($(tail -n 1 "$out/$(basename "$t" .sh).log"))" >&2
done
python3 - "$out" <<'PY'
import glob, json, os, sys
rows = [json.load(open(p)) for p in sorted(glob.glob(os.path.join(sys.argv[1], "*.json")))]
if not rows:
    sys.exit("table: no scores (no truth records: see the skip lines above)")
f3 = lambda x: "-" if x is None else "%.3f" % x
print("%-18s %-17s %6s %5s %6s | %5s %6s %6s %6s %6s %6s" % (
    "workload", "finding", "exact", "nosel", "truth+", "count", "prec", "recall",
    "c+poss", "prec", "recall"))
for r in rows:
    for fid, s in r["findings"].items():
        a = r["audit_truth"][fid]
        if not (s["truth_pos"] or s["count"] or s["cp"] or a["no_selection"]):
            continue
        print("%-18s %-17s %6d %5d %6d | %5d %6s %6s %6d %6s %6s" % (
            r["name"], fid, a["exact"], a["no_selection"], s["truth_pos"], s["count"],
            f3(s["count_precision"]), f3(s["count_recall"]), s["cp"], f3(s["cp_precision"]),
            f3(s["cp_recall"])))
print()
print("proof of selection, model / record (wakeups):")
for r in rows:
    print("  %-18s %s" % (r["name"], ", ".join("%s %d" % kv for kv in sorted(r["selection"].items()))))
print("path labels whose premise the record contradicts (model run):")
for r in rows:
    bad = ["%s %d of %d" % (p, v["contradicted"], v["n"]) for p, v in sorted(r["premise"].items())
           if v["contradicted"]]
    print("  %-18s %s" % (r["name"], ", ".join(bad) or "none"))
print("model_vs_truth (disagree of compared):")
for r in rows:
    m = r["model_vs_truth"]
    print("  %-18s %s" % (r["name"], ", ".join("%s %d/%d" % (k, v["disagree"], v["compared"])
                                               for k, v in m.items() if isinstance(v, dict))))
PY
