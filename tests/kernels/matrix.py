#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""matrix.py - docs/kernel-matrix.md from the cells tests/kernels/matrix.sh left.

A cell is DIR/KERNEL/TOPOLOGY/: meta (commit, date, tests), boot.rc and boot.err
(tests/kernels/boot.sh's exit and complaints), summary (the guest's kernel, wall and
boot time, the topology it saw), tests.tsv (tests/kernels/guest-truth.sh: test, exit,
seconds, last line) and truth/TEST/*.json: the score JSON the truth tier keeps with
TRUTH_TABLE (tests/truth/lib.sh, fields of tests/tools/truth_score.py) -- read as they
are, not re-derived.  A cell with a not-run file, or none at all, says why it has no
numbers.  Every kernel x topology x test asked for gets a row.
"""
import argparse
import glob
import json
import os
import sys

FINDINGS = ("needless-callback", "offcpu-fork", "idle-stacking", "missed-idle")
BOOT_RC = {"124": "the guest ran past its timeout (QEMU killed)",
           "125": "the guest did not run the tests (boot failed)",
           "3": "the guest's topology is not the one asked for"}


def read(path, default=None):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return default


def kv(line):
    """key=value words of a line (a value may not hold a space, but kernel= does)."""
    out, key = {}, None
    for w in (line or "").split():
        if "=" in w:
            key, v = w.split("=", 1)
            out[key] = v
        elif key:
            out[key] += " " + w
    return out


def f3(x):
    return "-" if x is None else "%.2f" % x


def profile(p):
    if not p:
        return "-"
    lab = [("exec_callback", "exec-callback"), ("idle_stack", "idle-stack"),
           ("fork_util", "fork-util")]
    s = ["%s %s" % (n, p.get(k, "?")) for k, n in lab]
    s.append("delay-dequeue %s" % ("on" if p.get("delay_dequeue") else "off"))
    return ", ".join(s)


def findings(r):
    """Per finding with a number: truth+ (the truth run's count), the model's count and
    its precision / recall against truth+ (truth_score.py's count_* fields)."""
    out = []
    for fid in FINDINGS:
        s = r["findings"].get(fid)
        if not s or not (s["truth_pos"] or s["count"] or s["cp"]):
            continue
        out.append("%s: truth %d, model %d (P %s R %s)" % (
            fid, s["truth_pos"], s["count"], f3(s["count_precision"]),
            f3(s["count_recall"])))
    return "; ".join(out) or "none counted"


def selection(r):
    """model_vs_truth's selection: wakeups where the model's proof of a selection and the
    record's on_rq disagree, of those compared -- nearly all of them is what a wrong
    on_rq read in the truth program looks like (fixtures/truth/README)."""
    m = r.get("model_vs_truth", {}).get("selection")
    return "%d/%d" % (m["disagree"], m["compared"]) if m else "-"


def coverage(r):
    j, sc = r.get("joined", 0), r.get("scored", 0)
    return "%d/%d" % (sc, j) + (" (%d%%)" % round(100.0 * sc / j) if j else "")


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--kernels", required=True)
    ap.add_argument("--topologies", required=True)
    ap.add_argument("--tests", required=True)
    ap.add_argument("--missing", default="not run")
    ap.add_argument("--out", default="-")
    a = ap.parse_args(argv)
    kernels, topos, tests = a.kernels.split(), a.topologies.split(), a.tests.split()
    cells, rows, ran = [], [], []
    for k in kernels:
        for t in topos:
            d = os.path.join(a.dir, k, t)
            meta, summ = kv(read(os.path.join(d, "meta"))), kv(read(os.path.join(d, "summary")))
            nr = read(os.path.join(d, "not-run"))
            brc = read(os.path.join(d, "boot.rc"))
            if nr is None and brc is None:
                nr = a.missing
            why = nr or BOOT_RC.get(brc, "")
            asked = meta.get("tests", "").split(",") if meta else []
            if summ:
                ran.append(meta)
                cells.append("| %s | %s | %s | %s | %s s | %s s | cpus %s, LLC %s, SMT %s, "
                             "nodes %s | %s | %s %s |" % (
                                 k, t, summ.get("kernel", "?").split(" ", 1)[-1],
                                 summ.get("cpu", "max,+topoext"),
                                 summ.get("boot_s", "?"), summ.get("wall_s", "?"),
                                 summ.get("cpus"), summ.get("llc"), summ.get("smt"),
                                 summ.get("nodes"), why or "ok", meta.get("commit", "?"),
                                 meta.get("date", "")))
            else:
                cells.append("| %s | %s | - | - | - | - | - | %s | - |" % (k, t, why))
            res = {}
            for line in (read(os.path.join(d, "tests.tsv"), "") or "").splitlines():
                p = line.split("\t")
                if len(p) >= 3:
                    res[p[0]] = p
            for te in tests:
                if te not in res:
                    if nr or not summ:
                        w = why
                    elif te not in asked:
                        w = "not run: not in this cell's tests (build: KBUILD=1)" \
                            if te == "build" else "not run: not in this cell's tests"
                    else:
                        w = "not run: " + (why or "the guest stopped before it")
                    rows.append("| %s | %s | %s | %s | - | - | - | - | - | - |" % (
                        k, t, te, w))
                    continue
                _, rc, secs = res[te][:3]
                last = res[te][3] if len(res[te]) > 3 else ""
                result = {"0": "pass", "77": "skip"}.get(rc, "FAIL (exit %s)" % rc)
                if rc != "0":
                    # why it failed: its FAIL lines, else its last line
                    log = read(os.path.join(d, te + ".log"), "") or ""
                    fails = [x.strip() for x in log.splitlines() if x.startswith("FAIL")]
                    result += ": " + ("; ".join(fails) or last).replace("|", "/")[:240]
                scores = sorted(glob.glob(os.path.join(d, "truth", te, "*.json")))
                if not scores:
                    rows.append("| %s | %s | %s | %s | %s s | - | - | - | - | - |" % (
                        k, t, te, result, secs))
                for sp in scores:
                    r = json.load(open(sp))
                    tr = r.get("trace", {})
                    rows.append("| %s | %s | %s | %s | %s s | %s | %s | %s | %s | %s |" % (
                        k, t, te, result, secs, r["name"], coverage(r), selection(r),
                        profile(tr.get("profile")), findings(r)))
    out = []
    w = out.append
    w("# Kernel matrix")
    w("")
    w("Written by `make check-kernels` (tests/kernels/matrix.sh, tests/kernels/matrix.py): "
      "Debian's kernel packages (tests/kernels/fetch.sh) booted under QEMU 7.2 TCG, "
      "single-threaded (`-accel tcg,thread=single`: no KVM on the machines this was "
      "measured on) with the host's root over 9p (tests/kernels/boot.sh), the truth tier "
      "(tests/truth/t_truth_*.sh) run in each guest with the rqpath of the tree "
      "(built with BPF).  A cell is filled by its last run; cells run at different times "
      "or by different commits say so.  Rerun: `make check-kernels` (all), or e.g. "
      "`make check-kernels KERNELS=6.1 TOPOLOGIES=4 KTESTS=spawn`.")
    w("")
    w("## Guests")
    w("")
    w("Boot: seconds from power-on to the command (guest uptime); wall: the whole guest, "
      "tests included.  The topology is what the guest reported (index3 shared_cpu_list, "
      "thread_siblings_list, node cpulists); boot.sh fails a guest whose topology is not "
      "the one asked for.")
    w("")
    w("| kernel | topology | Debian version | -cpu | boot | wall | guest saw | status "
      "| run by |")
    w("|---|---|---|---|---|---|---|---|---|")
    out.extend(cells)
    w("")
    w("## Workloads")
    w("")
    w("Result: the truth test's own verdict (pass, FAIL with its last line, skip).  "
      "Coverage: placements scored against a truth record / placements of the file "
      "(truth_score.py scored/joined).  Selection: model_vs_truth's selection, wakeups "
      "where the model and the record disagree on whether select_task_rq() ran, of those "
      "compared (nearly all: the record's on_rq is suspect).  "
      "Profile: the audit's trace.profile labels.  "
      "Findings: per finding with any number, truth = the truth run's count (truth+), "
      "model = the tracepoint model's count (`--no-truth`), P / R its precision and "
      "recall against truth+ (count_precision, count_recall of truth_score.py).")
    w("")
    w("| kernel | topology | test | result | wall | workload | coverage | selection "
      "| profile | findings |")
    w("|---|---|---|---|---|---|---|---|---|---|")
    out.extend(rows)
    w("")
    text = "\n".join(out)
    if a.out == "-":
        print(text)
    else:
        with open(a.out + ".tmp", "w") as f:
            f.write(text)
        os.replace(a.out + ".tmp", a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
