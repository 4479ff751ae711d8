#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""truth_score.py - score the tracepoint-only verdicts against the kernel's own state.

The same trace.dat, recorded with the BPF truth records on, audited twice:

    rqpath audit FILE --placements jsonl            > truth.jsonl
    rqpath audit FILE --placements jsonl --no-truth > model.jsonl
    truth_score.py --name NAME --truth truth.jsonl --model model.jsonl [--control ID]...

The rows are joined per placement (seq, checked against pid, ts and kind; a placement of
kind "unknown" in one audit and known in the other is one placement, counted apart).  Only the
placements the truth run judged from a record (its "truth" object) are scored; one the
truth run itself left possible for a finding (a CPU the record did not know) is left
out for that finding.  Per finding:

  truth +     the truth run counts it
  count       precision and recall of the model's count against truth +
  count+poss  the same for the model's count and possible together
The proof of selection (wakeups): the model's answer (proven, not proven, ttwu_runnable)
against the record's (selected, on a runqueue).  Path labels whose premise the record
contradicts: wake-runnable with no task on a runqueue, a selecting path with it on one,
an -affine path with more than one CPU allowed, an -rt path of a task that is not RT/DL,
a fair fork or exec path of a one-CPU or RT/DL task.

Exit 1 when a finding with >= 5 counted *exact* by the model has a precision of its exact
counts < 0.98 (an exact verdict claims proof: truth must bear it out), or a --control
finding is counted (or possible) in either run; 2 on bad input.  An inferred count rests
on a stated assumption (its why says which): its precision is reported, and the counted
ones truth does not bear out are listed with what they rested on, but they do not fail
the run (on idle-stack the sleepers turn SCHED_IDLE through a syscall the default
recording does not trace: the model keeps their old policy, and its verdicts that used
it rest on policy-last-read, rqpath(1) BUGS).  --json
FILE writes the numbers for the README table (tests/truth/table.sh).
"""
import argparse
import json
import sys

FINDINGS = ("needless-callback", "offcpu-fork", "idle-stacking", "missed-idle")
RT = (1, 2, 6)
SELECTING = ("wake-prev", "wake-pulled", "wake-llc", "wake-cross-llc", "wake-moved")
FAIR_PATHS = ("fork-local", "fork-moved", "exec-local")


def load(path):
    rows = {}
    try:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                o = json.loads(line)
                rows[o["seq"]] = o
    except (OSError, ValueError, KeyError) as e:
        sys.exit("truth_score: %s: %s" % (path, e))
    return rows


def ratio(a, b):
    return None if b == 0 else a / b


def fmt(x):
    return "-" if x is None else "%.3f" % x


def model_selection(o):
    """The model's answer to "did select_task_rq() run" for a wakeup row."""
    if o["path"] == "wake-runnable":
        return "runnable"
    if o["possible"] or "selection not proven" in o["why"]:
        return "not proven"
    return "proven"


def premise_contradicted(path, t):
    """Does the record contradict what path assumes?  None: the path assumes nothing."""
    one = t["nr_cpus_allowed"] == 1 or t.get("one_cpu", False)
    rt = t["policy"] in RT
    if path == "wake-runnable":
        return not t["on_rq"]
    if path in SELECTING:
        return t["on_rq"] or one
    if path.endswith("-affine"):
        return not one
    if path.endswith("-rt"):
        return not rt
    if path in FAIR_PATHS:
        return one or rt
    return None


def score(truth, model):
    out = {"joined": 0, "unjoined": 0, "scored": 0, "findings": {}, "selection": {},
           "premise": {}, "unjoined_rows": [], "kind_resolved": 0,
           "model_only": sum(1 for seq in model if seq not in truth)}
    per = {f: {"truth_pos": 0, "count": 0, "count_tp": 0, "exact": 0, "exact_tp": 0,
               "inferred_wrong": {}, "cp": 0, "cp_tp": 0, "no_selection": 0, "left_out": 0}
           for f in FINDINGS}
    for seq, t in truth.items():
        m = model.get(seq)
        # one placement: the record may tell what the model could not (a wakeup whose
        # waking came before the trace is "unknown" to the model alone)
        same = m and m["pid"] == t["pid"] and abs(m["ts"] - t["ts"]) <= 1e-6
        if same and m["kind"] != t["kind"] and "unknown" in (m["kind"], t["kind"]):
            out["kind_resolved"] += 1
        elif not same or m["kind"] != t["kind"]:
            out["unjoined"] += 1
            if len(out["unjoined_rows"]) < 3:
                out["unjoined_rows"].append({"seq": seq, "truth": t, "model": m})
            continue
        out["joined"] += 1
        tr = t.get("truth")
        if not tr:
            continue
        out["scored"] += 1
        for f in FINDINGS:
            s = per[f]
            if f in t["possible"]:
                s["left_out"] += 1
                continue
            pos = f in t["findings"]
            s["truth_pos"] += pos
            s["no_selection"] += f in t.get("no_selection", [])
            counted = f in m["findings"]
            cp = counted or f in m["possible"]
            s["count"] += counted
            s["count_tp"] += counted and pos
            exact = counted and m.get("confidence") == "exact"
            s["exact"] += exact
            s["exact_tp"] += exact and pos
            if counted and not pos and not exact:
                why = m.get("why", "")
                rests = why[why.find("rests on: ") + 10:].split(";")[0] if "rests on: " in why \
                    else "(no assumption named)"
                s["inferred_wrong"][rests] = s["inferred_wrong"].get(rests, 0) + 1
            s["cp"] += cp
            s["cp_tp"] += cp and pos
        if t["kind"] == "wakeup":
            key = "%s/%s" % (model_selection(m), "on_rq" if tr["on_rq"] else "selected")
            out["selection"][key] = out["selection"].get(key, 0) + 1
        c = premise_contradicted(m["path"], tr)
        if c is not None:
            p = out["premise"].setdefault(m["path"], {"n": 0, "contradicted": 0})
            p["n"] += 1
            p["contradicted"] += c
    for f, s in per.items():
        s["count_precision"] = ratio(s["count_tp"], s["count"])
        s["exact_precision"] = ratio(s["exact_tp"], s["exact"])
        s["count_recall"] = ratio(s["count_tp"], s["truth_pos"])
        s["cp_precision"] = ratio(s["cp_tp"], s["cp"])
        s["cp_recall"] = ratio(s["cp_tp"], s["truth_pos"])
        out["findings"][f] = s
    return out


def main(argv):
    ap = argparse.ArgumentParser(description="score tracepoint-only verdicts against truth")
    ap.add_argument("--name", default="trace")
    ap.add_argument("--truth", required=True, help="placements jsonl, truth on")
    ap.add_argument("--model", required=True, help="placements jsonl, --no-truth")
    ap.add_argument("--control", action="append", default=[], choices=FINDINGS,
                    help="a finding this workload must not show (either run)")
    ap.add_argument("--json", help="write the numbers here")
    a = ap.parse_args(argv)
    truth, model = load(a.truth), load(a.model)
    r = score(truth, model)
    r["name"] = a.name
    bad = []
    if not r["joined"] or r["unjoined"] or r["model_only"]:
        bad.append("%d rows joined, %d not, %d only without truth: the two runs should have "
                   "the same placements" % (r["joined"], r["unjoined"], r["model_only"]))
        # what differs, to find the cause
        for u in r["unjoined_rows"]:
            for side in ("truth", "model"):
                o = u[side]
                print("  unjoined seq %d, %s run: %s" % (u["seq"], side, "none" if not o else
                      " ".join("%s=%s" % (k, o.get(k)) for k in
                               ("ts", "pid", "tgid", "comm", "kind", "path", "from_cpu", "to_cpu", "waker"))))
    print("%s: %d placements, %d scored against a truth record%s" %
          (a.name, r["joined"], r["scored"],
           ", %d of kind unknown to one audit" % r["kind_resolved"] if r["kind_resolved"] else ""))
    print("  %-18s %6s %6s %6s %6s %6s %6s %6s" % ("finding", "truth+", "count", "prec",
                                                 "recall", "c+poss", "prec", "recall"))
    for f in FINDINGS:
        s = r["findings"][f]
        print("  %-18s %6d %6d %6s %6s %6d %6s %6s" % (
            f, s["truth_pos"], s["count"], fmt(s["count_precision"]),
            fmt(s["count_recall"]), s["cp"], fmt(s["cp_precision"]), fmt(s["cp_recall"])))
        if s["exact"] >= 5 and s["exact_precision"] < 0.98:
            bad.append("%s: exact precision %.3f < 0.98 (%d of %d counted exact are true)" %
                       (f, s["exact_precision"], s["exact_tp"], s["exact"]))
        for rests, n in sorted(s["inferred_wrong"].items()):
            print("    %s: %d counted inferred, not borne out by truth; rested on: %s" %
                  (f, n, rests))
    sel = r["selection"]
    print("  proof of selection (model / record): " +
          (", ".join("%s %d" % (k, sel[k]) for k in sorted(sel)) or "no wakeups"))
    prem = r["premise"]
    print("  path premises the record contradicts: " +
          (", ".join("%s %d of %d" % (p, v["contradicted"], v["n"])
                     for p, v in sorted(prem.items()) if v["contradicted"]) or "none"))
    for f in a.control:
        n_t = sum(1 for o in truth.values() if f in o["findings"] or f in o["possible"])
        n_m = sum(1 for o in model.values() if f in o["findings"] or f in o["possible"])
        r.setdefault("control", {})[f] = {"truth": n_t, "model": n_m}
        if n_t or n_m:
            bad.append("control: %s shows %s (%d with truth, %d without)" % (a.name, f, n_t,
                                                                            n_m))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(r, f, indent=1, sort_keys=True)
    for b in bad:
        print("FAIL: %s: %s" % (a.name, b))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
