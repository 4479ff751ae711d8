#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t_truth_score.sh - the truth tier's scorer (tests/tools/truth_score.py) on hand-made
# placement rows whose scores are known: 6 wakeups the model counts as missed-idle, of
# which the record makes 5 true and 1 no selection (precision 5/6 < 0.98: exit 1), a
# possible one the record makes true (recall of count 5/6, of count+possible 6/6), the
# proof-of-selection matrix, the contradicted premises (wake-runnable of a task not on a
# runqueue, wake-prev of one on a runqueue, exec-affine of a two-CPU task), and a
# control finding that shows.  Without the false row the same file passes.
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
command -v python3 >/dev/null 2>&1 || { echo "skip: python3 is not installed"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp" <<'PY'
import json, os, sys
d = sys.argv[1]
def row(seq, kind, path, findings=(), possible=(), no_sel=(), truth=None, why=""):
    return {"seq": seq, "ts": seq / 1000.0, "cpu": 0, "pid": 100 + seq, "tgid": 0,
            "comm": "t", "kind": kind, "path": path, "confidence": "exact", "from_cpu": 0,
            "to_cpu": 0, "waker": 1, "delay_ns": 1, "findings": list(findings),
            "possible": list(possible), "no_selection": list(no_sel), "why": why,
            "truth": truth}
def tr(on_rq=False, allowed=2, policy=0, one=False):
    return {"on_rq": on_rq, "delayed": on_rq, "policy": policy, "nr_cpus_allowed": allowed,
            "one_cpu": one, "to_cpu_state": "busy", "from": ["selection"]}
T, M = [], []
for i in range(1, 6):    # counted by both: true
    T.append(row(i, "wakeup", "wake-prev", ["missed-idle"], truth=tr()))
    M.append(row(i, "wakeup", "wake-prev", ["missed-idle"]))
# counted by the model, no selection by the record: a false count, a contradicted premise
T.append(row(6, "wakeup", "wake-runnable", no_sel=["missed-idle"], truth=tr(on_rq=True)))
M.append(row(6, "wakeup", "wake-prev", ["missed-idle"]))
# possible for the model, true for the record
T.append(row(7, "wakeup", "wake-prev", ["missed-idle"], truth=tr()))
M.append(row(7, "wakeup", "wake-prev", possible=["missed-idle"], why="selection not proven"))
# wake-runnable for the model, selected for the record
T.append(row(8, "wakeup", "wake-llc", truth=tr()))
M.append(row(8, "wakeup", "wake-runnable"))
# exec-affine for the model, two CPUs for the record; needless-callback shows (control)
T.append(row(9, "exec", "exec-local", truth=tr()))
M.append(row(9, "exec", "exec-affine", ["needless-callback"]))
# no record: not scored
T.append(row(10, "wakeup", "wake-prev"))
M.append(row(10, "wakeup", "wake-prev", ["missed-idle"]))
# the false count of row 6 inferred (resting on a named assumption): listed, not failed
M6 = dict(M[5], confidence="inferred", why="wakeup stayed; rests on: affinity-last-read")
for name, rows in (("t", T), ("m", M), ("t5", T[:5] + T[6:8]), ("m5", M[:5] + M[6:8]),
                   ("t6", T[:8]), ("m6", M[:5] + [M6] + M[6:8])):
    with open(os.path.join(d, name + ".jsonl"), "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
PY
fail=0
score=$top/tests/tools/truth_score.py
python3 "$score" --name bad --truth "$tmp/t.jsonl" --model "$tmp/m.jsonl" \
	--control needless-callback --json "$tmp/s.json" >"$tmp/out"
rc=$?
cat "$tmp/out"
[ $rc -eq 1 ] || { echo "FAIL: a precision of 5/6 and a control that shows: exit $rc, not 1"; fail=1; }
grep -q "FAIL: bad: missed-idle: exact precision 0.833" "$tmp/out" || { echo "FAIL: no precision line"; fail=1; }
grep -q "control: bad shows needless-callback" "$tmp/out" || { echo "FAIL: no control line"; fail=1; }
python3 - "$tmp/s.json" <<'PY' || fail=1
import json, sys
s = json.load(open(sys.argv[1]))
f = s["findings"]["missed-idle"]
want = {"truth_pos": 6, "count": 6, "count_tp": 5, "cp": 7, "cp_tp": 6, "no_selection": 1}
bad = ["missed-idle %s %s != %s" % (k, f[k], v) for k, v in want.items() if f[k] != v]
if abs(f["count_recall"] - 5 / 6) > 1e-9 or f["cp_recall"] != 1.0:
    bad.append("recalls %s %s" % (f["count_recall"], f["cp_recall"]))
if s["scored"] != 9 or s["joined"] != 10:
    bad.append("scored %d joined %d" % (s["scored"], s["joined"]))
sel = s["selection"]
if sel != {"proven/selected": 5, "proven/on_rq": 1, "not proven/selected": 1,
           "runnable/selected": 1}:
    bad.append("selection matrix %r" % sel)
pr = s["premise"]
if pr["wake-runnable"] != {"n": 1, "contradicted": 1} or \
        pr["wake-prev"] != {"n": 7, "contradicted": 1} or \
        pr["exec-affine"] != {"n": 1, "contradicted": 1}:
    bad.append("premises %r" % pr)
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
python3 "$score" --name good --truth "$tmp/t5.jsonl" --model "$tmp/m5.jsonl" >"$tmp/out2"
rc=$?
[ $rc -eq 0 ] || { cat "$tmp/out2"; echo "FAIL: 5 of 5 counted true: exit $rc, not 0"; fail=1; }
python3 "$score" --name inferred --truth "$tmp/t6.jsonl" --model "$tmp/m6.jsonl" >"$tmp/out3"
rc=$?
[ $rc -eq 0 ] || { cat "$tmp/out3"; echo "FAIL: 5 exact true, 1 inferred false: exit $rc, not 0"; fail=1; }
grep -q "missed-idle: 1 counted inferred, not borne out by truth; rested on: affinity-last-read" \
	"$tmp/out3" || { cat "$tmp/out3"; echo "FAIL: the inferred false count is not listed"; fail=1; }
[ $fail -eq 0 ] && echo "ok: truth_score.py scores the known rows"
exit $fail
