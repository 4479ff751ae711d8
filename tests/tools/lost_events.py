#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""lost_events.py FILE.dat: the events a recording lost, counted from trace-cmd alone.

Two sources describe the same losses: the per-CPU ring-buffer statistics ("overrun:"
in `trace-cmd report --stat`) and the missed-event marks of the data pages
("CPU:N [K EVENTS DROPPED]" in `trace-cmd report`).  They overlap, so the loss of a
CPU is the larger of the two, never their sum.  Prints "total=N" and one
"cpuN overrun=A marks=B lost=max" line per CPU.
"""
import re
import subprocess
import sys


def main():
    path = sys.argv[1]
    stat = subprocess.run(["trace-cmd", "report", "--stat", path], capture_output=True,
                          text=True, errors="surrogateescape", check=True).stdout
    overrun = {}
    cpu = None
    for line in stat.splitlines():
        m = re.match(r"CPU: (\d+)$", line.strip())
        if m:
            cpu = int(m.group(1))
        m = re.match(r"overrun: (\d+)", line.strip())
        if m and cpu is not None:
            overrun[cpu] = int(m.group(1))
    report = subprocess.run(["trace-cmd", "report", path], capture_output=True, text=True,
                            errors="surrogateescape", check=True).stdout
    marks = {}
    for m in re.finditer(r"CPU:(\d+) \[(\d+) EVENTS DROPPED\]", report):
        marks[int(m.group(1))] = marks.get(int(m.group(1)), 0) + int(m.group(2))
    total = 0
    for c in sorted(set(overrun) | set(marks)):
        lost = max(overrun.get(c, 0), marks.get(c, 0))
        total += lost
        print(f"cpu{c} overrun={overrun.get(c, 0)} marks={marks.get(c, 0)} lost={lost}")
    print(f"total={total}")


if __name__ == "__main__":
    main()
