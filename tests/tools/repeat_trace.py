#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""repeat_trace.py - a long trace.dat made of one recording played again and again.

usage: repeat_trace.py IN.v6.dat EVENTS OUT.dat

Reads a trace-cmd trace.dat of file version 6 (uncompressed: the fixtures' *.v6.dat),
and writes OUT.dat, the same trace with each CPU's records repeated, every copy shifted
in time by the recording's span (plus 1 ms), until at least EVENTS records are written.
The records are packed into full ring-buffer pages (a time-extend record where a delta
does not fit in 27 bits).  Pids repeat in each copy, as pid reuse does; the engine
takes each copy's forks as new tasks.  For the tests that need a multi-million-event
trace (numbers compared across every output); Python standard library only.
"""
import struct
import sys


def walk_header(b):
    """Offset of the per-CPU table after "flyrecord\\0", the CPU count, the page size."""
    if b[:10] != b"\x17\x08\x44tracing" or b[10:12] != b"6\0":
        sys.exit("repeat_trace: not a trace.dat of file version 6")
    if b[12] != 0 or b[13] != 8:
        sys.exit("repeat_trace: only little-endian 64-bit traces")
    page = struct.unpack_from("<I", b, 14)[0]
    o = 18
    for tag in (b"header_page\0", b"header_event\0"):
        assert b[o:o + len(tag)] == tag, tag
        o += len(tag)
        n = struct.unpack_from("<Q", b, o)[0]
        o += 8 + n
    n = struct.unpack_from("<I", b, o)[0]          # ftrace formats
    o += 4
    for _ in range(n):
        o += 8 + struct.unpack_from("<Q", b, o)[0]
    nsys = struct.unpack_from("<I", b, o)[0]       # event systems
    o += 4
    for _ in range(nsys):
        o = b.index(b"\0", o) + 1
        n = struct.unpack_from("<I", b, o)[0]
        o += 4
        for _ in range(n):
            o += 8 + struct.unpack_from("<Q", b, o)[0]
    o += 4 + struct.unpack_from("<I", b, o)[0]     # kallsyms
    o += 4 + struct.unpack_from("<I", b, o)[0]     # printk formats
    o += 8 + struct.unpack_from("<Q", b, o)[0]     # saved cmdlines
    ncpu = struct.unpack_from("<I", b, o)[0]
    o += 4
    instance = None
    while True:
        tag = b[o:o + 10]
        if tag == b"options  \0":
            o += 10
            while True:
                oid = struct.unpack_from("<H", b, o)[0]
                o += 2
                if oid == 0:
                    break
                size = struct.unpack_from("<I", b, o)[0]
                if oid == 3:        # BUFFER: an instance's data (the recorder's)
                    if instance is not None:
                        sys.exit("repeat_trace: more than one buffer instance")
                    instance = struct.unpack_from("<Q", b, o + 4)[0]
                o += 4 + size
            continue
        if tag == b"flyrecord\0":
            break
        sys.exit("repeat_trace: unexpected section %r" % tag)
    if instance is not None:
        o = instance
        if b[o:o + 10] != b"flyrecord\0":
            sys.exit("repeat_trace: the buffer instance has options: not supported")
    return o + 10, ncpu, page


def records(b, off, size, page):
    """Each record of one CPU's pages: (absolute ts, type_len, the bytes after its header)."""
    out = []
    for p in range(off, off + size, page):
        ts, commit = struct.unpack_from("<QQ", b, p)
        commit &= (1 << 27) - 1    # the high bits are flags (missed events)
        o, end = p + 16, p + 16 + commit
        while o < end:
            hdr = struct.unpack_from("<I", b, o)[0]
            tl, delta = hdr & 31, hdr >> 5
            if tl == 29:           # padding: its length follows
                if delta == 0:
                    break
                o += 4 + struct.unpack_from("<I", b, o + 4)[0]
                continue
            if tl == 30:           # time extend
                ts += delta + (struct.unpack_from("<I", b, o + 4)[0] << 27)
                o += 8
                continue
            if tl == 31:           # absolute time stamp
                ts = delta + (struct.unpack_from("<I", b, o + 4)[0] << 27)
                o += 8
                continue
            ts += delta
            if tl == 0:
                n = struct.unpack_from("<I", b, o + 4)[0]
                out.append((ts, 0, b[o + 4:o + 4 + n]))   # its length word, then data
                o += 4 + n
            else:
                out.append((ts, tl, b[o + 4:o + 4 + tl * 4]))
                o += 4 + tl * 4
    return out


def pack(recs, page, ncopies, shift):
    """Full pages of recs played ncopies times, copy k shifted by k * shift."""
    pages = []
    body = bytearray()
    first = prev = None
    room = page - 16
    for k in range(ncopies):
        add = k * shift
        for ts, tl, data in recs:
            ts += add
            need = 4 + len(data)
            delta = 0 if prev is None else ts - prev
            if delta >= 1 << 27:
                need += 8
            if first is None or len(body) + need > room:
                if first is not None:
                    pages.append(struct.pack("<QQ", first, len(body)) + body +
                                 bytes(room - len(body)))
                body = bytearray()
                first = prev = ts
                delta = 0
            elif delta >= 1 << 27:
                body += struct.pack("<II", 30 | ((delta & ((1 << 27) - 1)) << 5), delta >> 27)
                delta = 0
            body += struct.pack("<I", tl | (delta << 5)) + data
            prev = ts
    if first is not None:
        pages.append(struct.pack("<QQ", first, len(body)) + body + bytes(room - len(body)))
    return b"".join(pages)


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    b = open(argv[1], "rb").read()
    table, ncpu, page = walk_header(b)
    cpus = [records(b, *struct.unpack_from("<QQ", b, table + 16 * c), page)
            for c in range(ncpu)]
    n = sum(len(r) for r in cpus)
    if not n:
        sys.exit("repeat_trace: no records")
    lo = min(r[0][0] for r in cpus if r)
    hi = max(r[-1][0] for r in cpus if r)
    # each CPU's copy k starts k spans later: the same instants in every copy
    copies = -(-int(argv[2]) // n)
    datas = [pack(r, page, copies, hi - lo + 1000000) for r in cpus]
    # after the table, the trace clock (its size, then the text)
    clock = table + 16 * ncpu
    clock = b[clock:clock + 8 + struct.unpack_from("<Q", b, clock)[0]]
    start = table + 16 * ncpu + len(clock)
    start = -(-start // page) * page
    out = bytearray(b[:table])
    off = start
    for d in datas:
        out += struct.pack("<QQ", off, len(d))
        off += len(d)
    out += clock
    out += bytes(start - len(out))
    for d in datas:
        out += d
    open(argv[3], "wb").write(out)
    print("%d records, %d copies of %d" % (copies * n, copies, n))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
