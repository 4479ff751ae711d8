#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t_placements.sh - `rqpath audit FILE --placements csv|jsonl [-o FILE]` on every fixture:
# as many rows as the audit has placements (the sum of its per-path counts), one per seq
# 1..N, the same 15 columns on every CSV row (Python's csv module), every JSON line an
# object with the documented keys; the rows with a delay are as many as the audit's
# delay groups hold, and the rows per path equal the audit's per-path delay n plus the
# ones that did not run; -o writes the file and nothing to stdout; a bad format is exit 2.
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
rqpath=${RQPATH:-$top/rqpath}
command -v python3 >/dev/null 2>&1 || { echo "skip: python3 is not installed"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
for dat in "$top"/fixtures/*.dat; do
	case "$dat" in *.v6.dat) continue ;; esac
	"$rqpath" audit --format json "$dat" >"$tmp/audit.json"
	[ $? -le 1 ] || { echo "FAIL: audit $dat"; fail=1; continue; }
	"$rqpath" audit "$dat" --placements csv >"$tmp/p.csv"
	[ $? -le 1 ] || { echo "FAIL: --placements csv $dat"; fail=1; continue; }
	"$rqpath" audit "$dat" --placements jsonl -o "$tmp/p.jsonl" --force >"$tmp/stdout"
	[ $? -le 1 ] || { echo "FAIL: --placements jsonl $dat"; fail=1; continue; }
	[ -s "$tmp/stdout" ] && { echo "FAIL: -o still wrote to stdout"; fail=1; }
	python3 - "$dat" "$tmp/audit.json" "$tmp/p.csv" "$tmp/p.jsonl" <<'PY' || fail=1
import csv, json, sys
name, audit = sys.argv[1], json.load(open(sys.argv[2]))
COLS = ["seq", "ts", "cpu", "pid", "tgid", "comm", "kind", "path", "confidence", "from_cpu",
        "to_cpu", "waker", "delay_ns", "findings", "possible", "why", "no_selection", "truth",
        "parent"]
bad = []
want = sum(p["count"] for p in audit["placements"])
rows = list(csv.reader(open(sys.argv[3], newline="")))
if rows[0] != COLS:
    bad.append("CSV header %r" % rows[0])
if any(len(r) != len(COLS) for r in rows):
    bad.append("CSV rows with another column count")
lines = [json.loads(l) for l in open(sys.argv[4])]
if any(set(o) != set(COLS) for o in lines):
    bad.append("JSON keys")
# a fork's parent (null for the other kinds), and waker kept beside it
if any((o["kind"] == "fork") != isinstance(o["parent"], int) for o in lines):
    bad.append("parent: not a pid for every fork and null for the others")
for label, n, seqs in (("csv", len(rows) - 1, [int(r[0]) for r in rows[1:]]),
                       ("jsonl", len(lines), [o["seq"] for o in lines])):
    if n != want:
        bad.append("%s: %d rows, the audit has %d placements" % (label, n, want))
    if sorted(seqs) != list(range(1, want + 1)):
        bad.append("%s: seq is not 1..%d once each" % (label, want))
measured = sum(1 for o in lines if o["delay_ns"] is not None)
d = audit["delay"]
if measured != d["flagged"]["n"] + d["unflagged"]["n"]:
    bad.append("rows with a delay %d != audit delay n %d" %
               (measured, d["flagged"]["n"] + d["unflagged"]["n"]))
if len(lines) - measured != d["not_run"] + d["unmeasured"]:
    bad.append("rows without a delay %d != not_run + unmeasured" % (len(lines) - measured))
for p in audit["placements"]:
    got = [o["delay_ns"] for o in lines if o["path"] == p["path"] and o["delay_ns"] is not None]
    if len(got) != p["delay"]["n"] or (got and max(got) != p["delay"]["max_ns"]) or \
            sum(got) != p["delay"]["total_ns"]:
        bad.append("path %s: rows n/max/total differ from the audit's delay" % p["path"])
# the possible column adds up to the audit's possible counts, apart from the findings
for fid, f in audit["findings"].items():
    n = sum(1 for o in lines if fid in o["possible"])
    if n != f["possible"]:
        bad.append("%s: %d rows name it possible, the audit says %d" % (fid, n, f["possible"]))
    if any(fid in o["possible"] and fid in o["findings"] for o in lines):
        bad.append("%s: a row both counted and possible" % fid)
    n = sum(1 for o in lines if fid in o["no_selection"])
    if n != f["no_selection"]:
        bad.append("%s: %d rows name it no selection, the audit says %d" %
                   (fid, n, f["no_selection"]))
csv_delay = [r[12] for r in rows[1:]]
if sorted(csv_delay) != sorted("" if o["delay_ns"] is None else str(o["delay_ns"]) for o in lines):
    bad.append("CSV and JSONL delays differ")
for b in bad:
    print("FAIL: %s: %s" % (name, b))
sys.exit(1 if bad else 0)
PY
done
"$rqpath" audit "$top/fixtures/spawn.dat" --placements xml >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] || { echo "FAIL: a bad format is not exit 2 with one line"; fail=1; }
[ $fail -eq 0 ] && echo "ok: placements export of every fixture"
exit $fail
