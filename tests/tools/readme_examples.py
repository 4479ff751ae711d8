#!/usr/bin/env python3
"""Check the README's `$ rqpath ...` examples against what rqpath prints now.

For each indented block that starts with `    $ rqpath ...` (continuation lines ending in
a backslash joined), run the command from the repository top with PATH leading to the
rqpath under test, and check that every shown output line (the block's lines up to the
next blank line; `...` elides) is a line of the real output, in the same order.  Blocks
whose command writes a file (-o), opens the TUI (replay) or names a file that does not exist are skipped.
Prints one line per block and exits 1 on a mismatch, 2 when fewer than MIN blocks ran.
"""
import os
import re
import shlex
import subprocess
import sys

MIN = 3


def blocks(lines):
    i = 0
    while i < len(lines):
        if lines[i].startswith("    $ rqpath"):
            start = i + 1
            cmd = lines[i][6:]
            while cmd.endswith("\\"):
                i += 1
                cmd = cmd[:-1] + " " + lines[i].strip()
            shown = []
            i += 1
            while i < len(lines) and lines[i].strip():
                shown.append(lines[i][4:].rstrip())
                i += 1
            yield start, cmd, shown
        i += 1


def main():
    top, bindir = sys.argv[1], sys.argv[2]
    with open(os.path.join(top, "README"), encoding="utf-8") as f:
        lines = f.read().split("\n")
    env = dict(os.environ, PATH=bindir + ":" + os.environ.get("PATH", ""), COLUMNS="80")
    ran = bad = 0
    for line, cmd, shown in blocks(lines):
        words = shlex.split(cmd.split("|")[0])
        files = [w for w in words[2:] if w.endswith(".dat")]
        if " -o " in cmd or words[1] == "replay" or not shown or not all(os.path.exists(os.path.join(top, w))
                                                 for w in files):
            print(f"skip  README:{line}: {cmd}")
            continue
        out = subprocess.run(["sh", "-c", cmd], cwd=top, env=env, capture_output=True,
                             text=True, errors="surrogateescape")
        real = [l.rstrip() for l in (out.stdout + out.stderr).split("\n")]
        pos = 0
        missing = None
        for want in shown:
            if want.strip() == "...":
                continue
            try:
                pos = real.index(want, pos) + 1
            except ValueError:
                missing = want
                break
        ran += 1
        if missing is None:
            print(f"ok    README:{line}: {cmd}")
        else:
            bad += 1
            print(f"FAIL  README:{line}: {cmd}\n      not printed (in this order): {missing!r}")
    if ran < MIN:
        print(f"only {ran} examples could run (want >= {MIN})")
        return 2
    return 1 if bad else 0


sys.exit(main())
