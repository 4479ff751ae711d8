#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""queuedelay.py - queue delay of fork and wakeup placements, from `trace-cmd report`.

usage: queuedelay.py [--trace-cmd PATH] FILE.dat

An independent computation to check `rqpath audit`'s "delay" numbers against, from the
text of `trace-cmd report -l -t -R` (nanosecond timestamps, the record's flags, raw
field=value bodies):

  a placement   every sched_wakeup_new (kind "fork") and sched_wakeup (kind "wakeup")
                record, of the task named by its pid= field
  its delay     from the record's time until the task next runs: a sched_switch with
                next_pid = the task, or, as an idle CPU's switch out of the idle task is
                not always in the trace, any other record the task wrote itself (the
                PID of the record header) that shows its writer running: not the
                recorder's rqpath/1 lines, not NMI context, and not a record of another
                system the outgoing task writes right after its own switch (until the
                incoming task writes); 0 if the task was running already (it runs on a
                CPU from there until another task runs on that CPU)
  not run       placements whose task did not run again before the trace ended, or whose
                pid was reused by a fork first

Prints one JSON object: per kind n, p50_ns, p90_ns, max_ns, total_ns (nearest-rank
quantiles over the exact values), and not_run.  Python 3 standard library only.
"""
import json
import math
import re
import subprocess
import sys

HDR = re.compile(r"-(\d+)\s+\[?(\d+)\]?-0x([0-9a-f]+)\s+(\d+)\.(\d{9}):\s+([A-Za-z0-9_]+):\s*(.*)$")
NMI = 0x40
# the events rqpath reads: a record of any other system by the outgoing task right after
# its switch does not show it running
OURS = {
    "sched_switch", "sched_waking", "sched_wakeup", "sched_wakeup_new",
    "sched_migrate_task", "sched_process_fork", "sched_process_exit", "sched_process_free",
    "sched_prepare_exec", "sched_process_exec", "sched_move_numa", "sched_swap_numa",
    "sys_enter_sched_setaffinity", "sys_exit_sched_setaffinity",
    "sys_enter_sched_setscheduler", "sys_exit_sched_setscheduler",
    "sys_enter_sched_setattr", "sys_exit_sched_setattr", "cgroup_attach_task", "print",
}
WAKE_PID = re.compile(r"\bpid=(\d+) prio=-?\d+ target_cpu=\d+\s*$")
SWITCH = re.compile(r"\bprev_pid=(-?\d+) prev_prio=-?\d+ prev_state=\S+ next_comm=.*"
                    r"\bnext_pid=(-?\d+) next_prio=-?\d+\s*$")
FORK_CHILD = re.compile(r"\bchild_pid=(\d+)\s*$")


def rank(values, q):
    r = max(1, math.ceil(q * len(values) - 1e-9))
    return values[min(r, len(values)) - 1]


def main(argv):
    tc = "trace-cmd"
    args = list(argv)
    if len(args) >= 2 and args[0] == "--trace-cmd":
        tc = args[1]
        args = args[2:]
    if len(args) != 1:
        sys.exit(__doc__)
    out = subprocess.run([tc, "report", "-l", "-t", "-R", args[0]], capture_output=True,
                         text=True, errors="surrogateescape")
    if out.returncode:
        sys.exit("queuedelay: trace-cmd report failed: %s" % out.stderr.strip())
    running = {}
    pending = {}
    curr = {}           # per CPU: the task running there (0 idle)
    trailing = {}       # per CPU: the prev of its last switch, until the next task writes
    delays = {"fork": [], "wakeup": []}
    not_run = 0

    def on_cpu(cpu, pid, ts):
        old = curr.get(cpu)
        if old == pid:
            return
        if old is not None and old > 0:
            running[old] = False
        curr[cpu] = pid
        run(pid, ts)

    def run(pid, ts):
        if pid <= 0 or running.get(pid):
            return
        running[pid] = True
        for kind, t0 in pending.pop(pid, []):
            delays[kind].append(ts - t0)

    for line in out.stdout.splitlines():
        # rqpath's kernel truth, a buffer of its own: no CPU's record
        if line.startswith("rqpath-truth:"):
            continue
        m = HDR.search(line)
        if not m:
            continue
        writer, cpu, flags = int(m.group(1)), int(m.group(2)), int(m.group(3), 16)
        ts = int(m.group(4)) * 1000000000 + int(m.group(5))
        event, body = m.group(6), m.group(7)
        if event in ("sched_wakeup_new", "sched_wakeup"):
            w = WAKE_PID.search(body)
            if w:
                pid = int(w.group(1))
                kind = "fork" if event == "sched_wakeup_new" else "wakeup"
                if running.get(pid):
                    delays[kind].append(0)
                else:
                    pending.setdefault(pid, []).append((kind, ts))
        if event == "sched_process_fork":
            c = FORK_CHILD.search(body)
            if c:
                child = int(c.group(1))
                not_run += len(pending.pop(child, []))
                running[child] = False
        if event == "sched_switch":
            s = SWITCH.search(body)
            if s:
                trailing[cpu] = int(s.group(1))
                on_cpu(cpu, int(s.group(2)), ts)
            continue
        if flags & NMI or (event == "print" and "buf=rqpath/1 " in body):
            continue
        if writer == curr.get(cpu):
            trailing[cpu] = None
            continue
        if writer == trailing.get(cpu) and event not in OURS:
            continue
        trailing[cpu] = None
        on_cpu(cpu, writer, ts)
    not_run += sum(len(v) for v in pending.values())
    res = {"not_run": not_run}
    for kind, v in delays.items():
        v.sort()
        res[kind] = {"n": len(v), "p50_ns": rank(v, 0.5) if v else 0,
                     "p90_ns": rank(v, 0.9) if v else 0, "max_ns": v[-1] if v else 0,
                     "total_ns": sum(v)}
    json.dump(res, sys.stdout, sort_keys=True)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
