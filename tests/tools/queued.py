#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""queued.py - how many tasks waited on each CPU's runqueue just before a wakeup, from
`trace-cmd report`.

usage: queued.py [--trace-cmd PATH] FILE.dat PID USEC [PID USEC ...]

An independent count to check the timeline's "at that instant" line against.  From the
text of `trace-cmd report -l -t -R` (nanosecond timestamps, raw field=value bodies), in file
order, a task is queued on a CPU from
  a sched_wakeup / sched_wakeup_new naming it (on its target_cpu; not if it is running)
  a sched_switch that switches it out runnable (prev_state without a sleep bit: R, R+)
  a sched_migrate_task that moves it while queued (to dest_cpu)
until a sched_switch switches it in, it switches out asleep, or sched_process_exit, or
it writes a record on that CPU (its switch in may be missing from the trace; a record of
hard or soft interrupt context shows the task it interrupted; not NMI context, not the
recorder's rqpath/1 lines).
For each PID USEC (the wakeup's time in microseconds, as the TUI prints it in absolute
time) it prints one line "PID USEC n0 n1 ... q0 q1 ..." with the queue lengths of CPUs
0, 1, ... just before that wakeup record, then the pids queued on each (comma-separated,
"-" for none), or "PID USEC none" when no such record is found.
Python 3 standard library only.
"""
import re
import subprocess
import sys

HDR = re.compile(r"-(\d+)\s+\[?(\d+)\]?-0x([0-9a-f]+)\s+(\d+)\.(\d{9}):\s+([A-Za-z0-9_]+):\s*(.*)$")
NMI = 0x40
WAKE = re.compile(r"\bpid=(\d+) prio=-?\d+ target_cpu=(\d+)\s*$")
SWITCH = re.compile(r"\bprev_pid=(-?\d+) prev_prio=-?\d+ prev_state=(\S+) next_comm=.*"
                    r"\bnext_pid=(-?\d+) next_prio=-?\d+\s*$")
MIGRATE = re.compile(r"\bpid=(\d+) prio=-?\d+ orig_cpu=(\d+) dest_cpu=(\d+)\s*$")
EXIT = re.compile(r"\bpid=(\d+)\b")


def runnable(state):
    try:
        v = int(state, 0)
    except ValueError:
        return state.startswith("R")
    return (v & 0xff) == 0


def main(argv):
    tc = "trace-cmd"
    if len(argv) > 2 and argv[1] == "--trace-cmd":
        tc = argv[2]
        argv = argv[:1] + argv[3:]
    if len(argv) < 4 or len(argv) % 2:
        sys.stderr.write(__doc__)
        return 2
    path = argv[1]
    want = [(int(argv[i]), int(argv[i + 1])) for i in range(2, len(argv), 2)]
    out = subprocess.run([tc, "report", "-l", "-t", "-R", path], capture_output=True, text=True,
                         errors="surrogateescape", check=True).stdout
    queued = {}		# pid -> cpu it waits on
    running = set()
    ncpu = 0
    found = {}
    for line in out.splitlines():
        # rqpath's kernel truth, a buffer of its own: no CPU's record
        if line.startswith("rqpath-truth:"):
            continue
        m = HDR.search(line)
        if not m:
            continue
        writer, cpu, flags = int(m.group(1)), int(m.group(2)), int(m.group(3), 16)
        ncpu = max(ncpu, cpu + 1)
        ts_ns = int(m.group(4)) * 1000000000 + int(m.group(5))
        ev, body = m.group(6), m.group(7)
        if (ev != "sched_switch" and not flags & NMI and queued.get(writer) == cpu and
                not (ev == "print" and "buf=rqpath/1 " in body)):
            queued.pop(writer)      # it runs: its switch in is not in the trace
            running.add(writer)
        if ev in ("sched_wakeup", "sched_wakeup_new"):
            w = WAKE.search(body)
            if not w:
                continue
            pid, target = int(w.group(1)), int(w.group(2))
            ncpu = max(ncpu, target + 1)
            for k in want:
                if k not in found and k[0] == pid and k[1] in (ts_ns // 1000,
                                                               (ts_ns + 500) // 1000):
                    n = [0] * 4096
                    who = {}
                    for p, c in queued.items():
                        n[c] += 1
                        who.setdefault(c, []).append(p)
                    found[k] = (n, who)
            if pid not in running:
                queued[pid] = target
        elif ev == "sched_switch":
            s = SWITCH.search(body)
            if not s:
                continue
            prev, state, nxt = int(s.group(1)), s.group(2), int(s.group(3))
            running.discard(prev)
            queued.pop(prev, None)
            if prev > 0 and runnable(state):
                queued[prev] = cpu
            if nxt > 0:
                queued.pop(nxt, None)
                running.add(nxt)
        elif ev == "sched_migrate_task":
            g = MIGRATE.search(body)
            if g and int(g.group(1)) in queued:
                queued[int(g.group(1))] = int(g.group(3))
        elif ev == "sched_process_exit":
            e = EXIT.search(body)
            if e:
                queued.pop(int(e.group(1)), None)
                running.discard(int(e.group(1)))
    for k in want:
        if k in found:
            n, who = found[k]
            print(k[0], k[1], " ".join(str(x) for x in n[:ncpu]),
                  " ".join(",".join(str(p) for p in sorted(who.get(c, []))) or "-"
                           for c in range(ncpu)))
        else:
            print(k[0], k[1], "none")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
