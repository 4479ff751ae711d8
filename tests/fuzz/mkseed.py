#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""mkseed.py - cut a trace.dat v6 file down to a small fuzzing seed.

usage: mkseed.py IN.dat OUT.dat [--systems sched,ftrace] [--pages N]

Keeps the headers, only the event formats of the listed systems, an empty kallsyms,
the printk formats and saved cmdlines, no options, and the first N pages of each
CPU's flyrecord data (offsets rewritten).  Not a general trace.dat writer: it reads
the documented v6 layout (man 5 trace-cmd.dat.v6) and refuses anything else.
"""
import struct
import sys


def main():
    args = sys.argv[1:]
    systems = {"sched", "ftrace"}
    pages = 4
    pos = []
    i = 0
    while i < len(args):
        if args[i] == "--systems":
            systems = set(args[i + 1].split(","))
            i += 2
        elif args[i] == "--pages":
            pages = int(args[i + 1])
            i += 2
        else:
            pos.append(args[i])
            i += 1
    if len(pos) != 2:
        sys.exit(__doc__)
    d = open(pos[0], "rb").read()
    if d[:10] != b"\x17\x08\x44tracing" or d[10:12] != b"6\0":
        sys.exit("mkseed: not a trace.dat v6 file")
    if d[12] != 0:
        sys.exit("mkseed: big-endian files not handled")
    out = bytearray(d[:18])
    page_size = struct.unpack_from("<I", d, 14)[0]
    p = 18
    for name in (b"header_page\0", b"header_event\0"):
        assert d[p:p + len(name)] == name
        n = struct.unpack_from("<Q", d, p + len(name))[0]
        end = p + len(name) + 8 + n
        out += d[p:end]
        p = end
    # ftrace formats
    cnt = struct.unpack_from("<I", d, p)[0]
    start = p
    p += 4
    for _ in range(cnt):
        n = struct.unpack_from("<Q", d, p)[0]
        p += 8 + n
    out += d[start:p]
    # event systems
    nsys = struct.unpack_from("<I", d, p)[0]
    p += 4
    kept = bytearray()
    nkept = 0
    for _ in range(nsys):
        z = d.index(b"\0", p)
        name = d[p:z].decode("latin-1")
        s0 = p
        p = z + 1
        cnt = struct.unpack_from("<I", d, p)[0]
        p += 4
        for _ in range(cnt):
            n = struct.unpack_from("<Q", d, p)[0]
            p += 8 + n
        if name in systems:
            kept += d[s0:p]
            nkept += 1
    out += struct.pack("<I", nkept) + kept
    # kallsyms (4-byte size): dropped
    n = struct.unpack_from("<I", d, p)[0]
    p += 4 + n
    out += struct.pack("<I", 0)
    # printk formats (4-byte size)
    n = struct.unpack_from("<I", d, p)[0]
    out += d[p:p + 4 + n]
    p += 4 + n
    # saved cmdlines (8-byte size)
    n = struct.unpack_from("<Q", d, p)[0]
    out += d[p:p + 8 + n]
    p += 8 + n
    cpus = struct.unpack_from("<I", d, p)[0]
    out += d[p:p + 4]
    p += 4
    # skip options, keep the flyrecord section
    if d[p:p + 10] == b"options  \0":
        p += 10
        while True:
            opt = struct.unpack_from("<H", d, p)[0]
            p += 2
            if opt == 0:
                break
            p += 4 + struct.unpack_from("<I", d, p)[0]
    if d[p:p + 10] != b"flyrecord\0":
        sys.exit("mkseed: no flyrecord section where expected (latency trace?)")
    p += 10
    cpu = []
    for c in range(cpus):
        off, size = struct.unpack_from("<QQ", d, p + 16 * c)
        cpu.append((off, min(size, pages * page_size)))
    p += 16 * cpus
    clock = b"[local] global counter\n"
    out += b"flyrecord\0"
    hdr_end = len(out) + 16 * cpus
    data_start = (hdr_end + page_size - 1) // page_size * page_size
    offs = []
    o = data_start
    for off, size in cpu:
        offs.append(o)
        o += (size + page_size - 1) // page_size * page_size
    for c in range(cpus):
        out += struct.pack("<QQ", offs[c], cpu[c][1])
    out += b"\0" * (data_start - len(out))
    for c in range(cpus):
        off, size = cpu[c]
        chunk = d[off:off + size]
        out += chunk + b"\0" * ((size + page_size - 1) // page_size * page_size - size)
    # the trace_clock text that follows the data in v6
    out += struct.pack("<Q", len(clock)) + clock
    open(pos[1], "wb").write(out)


if __name__ == "__main__":
    main()
