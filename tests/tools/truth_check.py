#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""truth_check.py FILE.dat [MAX_US [SLACK [TRUTH_SLACK]]]: rqpath's truth records against the tracepoints, from
`trace-cmd report -t` alone (an independent count: no rqpath code reads the file).

The top buffer's sched_* records set the span (first to last timestamp).  Within it, each
sched_waking must have one rqpath:truth "waking" record of the same pid, and each
sched_wakeup_new one "wakeup_new" record, the closest pairs first within MAX_US
microseconds (default 1000), and the median offset must be at most 5 us: the BPF clock
(bpf_ktime_get_ns) and the trace clock (mono) are the same clock.  Truth
records of those points with no tracepoint record are counted too.  A tracepoint hit on a
CPU whose current task the trace switches in but never out (hidden from the tracepoints:
no probe runs in its context, rqpath(1) BUGS) is counted apart, and the tasks current at
the unpaired hits are named.  Prints one line per point (tracepoints, truth records,
matched, unmatched on each side, the median and largest offset in ns) and
"truth_total=N"; exit 0 when every record is matched (or at most the fraction SLACK of
the tracepoints, default 0, is unpaired on the tracepoints' side, a hidden task's hits
left out, and at most TRUTH_SLACK, default SLACK, on the truth records' side),
1 if not.
"""
import re
import subprocess
import sys

# the two stamps of one tracepoint hit: a few microseconds apart (a virtual CPU that is
# descheduled between the two probes makes the odd one tens of microseconds late)
MEDIAN_NS = 5000
SWITCH = re.compile(r":(\d+) \[-?\d+\] \S+ ==> .*:(\d+) \[-?\d+\]")
LINE = re.compile(r"^(\S+:)?\s+(.*?)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+(\S+):\s+(.*)$")


def main():
    path = sys.argv[1]
    max_ns = int(float(sys.argv[2]) * 1000) if len(sys.argv) > 2 else 1000000
    slack = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
    truth_slack = float(sys.argv[4]) if len(sys.argv) > 4 else slack
    out = subprocess.run(["trace-cmd", "report", "-t", path], capture_output=True, text=True,
                         errors="surrogateescape", check=True).stdout
    top = {"sched_waking": {}, "sched_wakeup_new": {}}
    truth = {"waking": {}, "wakeup_new": {}}
    first = last = None
    total = 0
    ins, outs = {}, {}	# sched_switch into and out of each pid
    for line in out.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        buf, ts = m.group(1), int(m.group(4)) * 10**9 + int(m.group(5).ljust(9, "0")[:9])
        event, rest = m.group(6), m.group(7)
        # the task that was current on the CPU at the hit (the waker, or the one interrupted)
        curr = m.group(2).strip()
        if buf == "rqpath-truth:":
            total += 1
            point = rest.split()[0]
            pid = re.search(r"\bpid=(\d+)", rest)
            if point in truth and pid:
                truth[point].setdefault(int(pid.group(1)), []).append(ts)
            continue
        if buf:
            continue	# another instance
        if not event.startswith("sched_"):
            continue	# the recorder's markers: written before and after the events
        first = ts if first is None else min(first, ts)
        last = ts if last is None else max(last, ts)
        sw = SWITCH.search(rest) if event == "sched_switch" else None
        if sw:
            outs[int(sw.group(1))] = outs.get(int(sw.group(1)), 0) + 1
            ins[int(sw.group(2))] = ins.get(int(sw.group(2)), 0) + 1
        if event in top:
            pid = re.search(r"\bpid=(\d+)", rest) if event == "sched_waking" else \
                re.search(r":(\d+) \[", rest)
            if pid:
                top[event].setdefault(int(pid.group(1)), []).append((ts, curr))
    # A task switched in but never out: the tracepoints do not see its own context (no
    # event of it, no switch out of it), and no probe runs for a hit while it is current.
    hidden = {p for p in ins if p and not outs.get(p)}
    ok = True
    for tp, point in (("sched_waking", "waking"), ("sched_wakeup_new", "wakeup_new")):
        n_tp = sum(len(v) for v in top[tp].values())
        inside = {p: [t for t in v if first is not None and first - max_ns <= t <= last + max_ns]
                  for p, v in truth[point].items()}
        n_truth = sum(len(v) for v in inside.values())
        offsets, miss_tp, miss_by, miss_hidden = [], 0, {}, 0
        for pid, hits in top[tp].items():
            stamps = [t for t, _ in hits]
            # the closest pairs first: each record of either side in one pair at most
            cand = sorted(inside.get(pid, []))
            pairs = sorted((abs(c - t), i, j) for i, t in enumerate(stamps)
                           for j, c in enumerate(cand) if abs(c - t) <= max_ns)
            used_t, used_c = set(), set()
            for d, i, j in pairs:
                if i in used_t or j in used_c:
                    continue
                used_t.add(i)
                used_c.add(j)
                offsets.append(d)
            miss_tp += len(stamps) - len(used_t)
            for i, (_, curr) in enumerate(hits):
                if i not in used_t:
                    name = re.sub(r"-\d+$", "", curr)
                    miss_by[name] = miss_by.get(name, 0) + 1
                    cpid = re.search(r"-(\d+)$", curr)
                    miss_hidden += bool(cpid and int(cpid.group(1)) in hidden)
        matched = len(offsets)
        miss_truth = n_truth - matched
        offsets.sort()
        med = offsets[len(offsets) // 2] if offsets else 0
        p99 = offsets[len(offsets) * 99 // 100] if offsets else 0
        mx = offsets[-1] if offsets else 0
        print("%s: tracepoints=%d truth=%d matched=%d unmatched_tracepoints=%d "
              "(in a hidden task's context %d) unmatched_truth=%d median_ns=%d p99_ns=%d "
              "max_ns=%d" % (point, n_tp, n_truth, matched, miss_tp, miss_hidden, miss_truth,
                             med, p99, mx))
        if miss_by:
            # where the programs did not run: so far always while one task was current
            print("  %s unmatched by the task current at the hit: %s" % (point, ", ".join(
                "%s %d" % kv for kv in sorted(miss_by.items(), key=lambda kv: -kv[1]))))
        allowed = int(slack * n_tp)
        truth_allowed = int(truth_slack * n_tp)
        # a hidden task's hits are the kernel's to explain (rqpath(1) BUGS), not the slack's
        ok &= miss_tp - miss_hidden <= allowed and miss_truth <= truth_allowed and n_tp > 0 and med <= MEDIAN_NS
    print("truth_total=%d" % total)
    # a tracepoint hit the programs did not run for (the recorder's misses) has no record
    misses = re.search(r"rqpath/1 truth source=bpf drops=(\d+) misses=(\d+)", out)
    if misses:
        print("recorder: drops=%s misses=%s" % misses.groups())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
