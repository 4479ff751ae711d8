#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tracefacts.py - independent facts about a trace.dat, for checking rqpath against.

usage: tracefacts.py [--workload FILE.workload] [--trace-cmd PATH] FILE.dat

Reads `trace-cmd report -R` (raw field=value bodies) and prints one JSON object.  -R
because it prints a string field holding unprintable bytes as ARRAY[hex, ...], so a
hostile comm with a newline cannot forge a record line.

  counts          records per event name: every sched_* and sys_enter/exit_* event
  offcpu_forks    sched_wakeup_new records whose target_cpu differs from the CPU
                  column (the ring buffer that recorded it = the parent's CPU)
  sched_process_exec, rqpath_markers, print, records, unparsed, cpus, file_version
  workload        the key=value pairs of the workload summary line, if given
  idle_stack      for idle-stack workloads: sched_wakeup records of the sleepers
                  (by pid from the summary) per target CPU, and those onto the hog's CPU
                  while every other CPU was running the idle task (pid 0)

Nothing here comes from rqpath: the point is to have numbers that rqpath must match.
Python 3 standard library only.
"""
import json
import re
import subprocess
import sys

# The record header: "[instance: ]COMM-PID [CPU] SECS.USECS: EVENT: BODY".  COMM is at
# most 15 bytes and can hold anything, but the whole header pattern is longer than 15
# characters, so the first match in the line is always the real header.
HDR = re.compile(r"-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+([A-Za-z0-9_]+):\s*(.*)$")
# Fields a comm cannot fake: they are the last fields of their event.
TARGET_CPU = re.compile(r"\btarget_cpu=(\d+)\s*$")
NEXT_PID = re.compile(r"\bnext_pid=(-?\d+) next_prio=(-?\d+)\s*$")
SWITCH_PREV = re.compile(r"\bprev_pid=(-?\d+) prev_prio=-?\d+ prev_state=\S+ next_comm=")
WAKE_PID = re.compile(r"\bpid=(\d+) prio=-?\d+ target_cpu=\d+\s*$")


def counted(name):
    return name.startswith("sched_") or name.startswith("sys_enter_") or \
        name.startswith("sys_exit_")


def parse_workload(path):
    try:
        with open(path) as f:
            line = f.read().strip().splitlines()
    except OSError as e:
        sys.exit("tracefacts: %s" % e)
    out = {}
    for tok in (line[-1].split() if line else []):
        k, sep, v = tok.partition("=")
        if sep:
            out[k] = int(v) if re.fullmatch(r"-?\d+", v) else v
    return out


def file_version(tc, path):
    try:
        r = subprocess.run([tc, "dump", "--summary", path], capture_output=True, text=True)
    except OSError:
        return None
    m = re.search(r"^\s*(\d+)\s+\[Version\]", r.stdout + r.stderr, re.M)
    return int(m.group(1)) if m else None


def main(argv):
    tc = "trace-cmd"
    wl_path = None
    args = list(argv)
    path = None
    while args:
        a = args.pop(0)
        if a == "--workload" and args:
            wl_path = args.pop(0)
        elif a == "--trace-cmd" and args:
            tc = args.pop(0)
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        elif path is None and not a.startswith("-"):
            path = a
        else:
            sys.exit("tracefacts: bad argument %r (see --help)" % a)
    if path is None:
        sys.exit("tracefacts: which trace.dat?")

    wl = parse_workload(wl_path) if wl_path else {}
    stack_pids = set()
    hog_cpu = None
    if wl.get("workload") == "idle-stack":
        stack_pids = {int(p) for p in str(wl.get("sleeper_pids", "")).split(",") if p}
        hog_cpu = int(wl.get("hog_cpu", 0))

    # errors="replace": comms are arbitrary bytes; we never need them.
    proc = subprocess.Popen([tc, "report", "-R", path], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    counts = {}
    cpus = set()
    records = unparsed = prints = markers = offcpu = 0
    curr = {}               # cpu -> pid running there (from sched_switch)
    stack = {"wakeups": 0, "by_target_cpu": {}, "on_hog_cpu_while_other_idle": 0}
    header_cpus = None
    for raw in proc.stdout:
        line = raw.decode("utf-8", "replace").rstrip("\n")
        # rqpath's kernel truth, a buffer of its own: no CPU's record
        if line.startswith("rqpath-truth:"):
            continue
        if header_cpus is None and line.startswith("cpus="):
            header_cpus = int(line[5:])
            continue
        m = HDR.search(line)
        if not m:
            if line.strip():
                unparsed += 1
            continue
        cpu, ev, body = int(m.group(2)), m.group(5), m.group(6)
        records += 1
        cpus.add(cpu)
        if ev == "print":
            prints += 1
            if "buf=rqpath/1 " in body:
                markers += 1
            continue
        if counted(ev):
            counts[ev] = counts.get(ev, 0) + 1
        if ev == "sched_wakeup_new":
            t = TARGET_CPU.search(body)
            if not t:
                unparsed += 1
            elif int(t.group(1)) != cpu:
                offcpu += 1
        elif ev == "sched_switch":
            n = NEXT_PID.search(body)
            if n:
                curr[cpu] = int(n.group(1))
            else:
                unparsed += 1
        elif ev == "sched_wakeup" and stack_pids:
            t, p = TARGET_CPU.search(body), WAKE_PID.search(body)
            if t and p and int(p.group(1)) in stack_pids:
                tc_ = int(t.group(1))
                stack["wakeups"] += 1
                by = stack["by_target_cpu"]
                by[str(tc_)] = by.get(str(tc_), 0) + 1
                others = [c for c in range(header_cpus or 0) if c != tc_]
                if tc_ == hog_cpu and others and all(curr.get(c) == 0 for c in others):
                    stack["on_hog_cpu_while_other_idle"] += 1
    err = proc.stderr.read().decode("utf-8", "replace")
    if proc.wait() != 0:
        sys.exit("tracefacts: trace-cmd report failed on %s: %s" % (path, err.strip()[-300:]))

    facts = {
        "file": path.rsplit("/", 1)[-1],
        "file_version": file_version(tc, path),
        "cpus": header_cpus,
        "records": records,
        "unparsed": unparsed,
        "print": prints,
        "rqpath_markers": markers,
        "counts": dict(sorted(counts.items())),
        "offcpu_forks": offcpu,
        "sched_wakeup_new": counts.get("sched_wakeup_new", 0),
        "sched_process_exec": counts.get("sched_process_exec", 0),
        "workload": wl,
    }
    if stack_pids:
        stack["note"] = ("other CPUs idle = their last sched_switch switched to pid 0; "
                         "a CPU not yet seen switching counts as not idle")
        facts["idle_stack"] = stack
    json.dump(facts, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
