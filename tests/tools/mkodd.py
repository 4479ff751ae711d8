#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""mkodd.py - odd but valid trace.dat files for the reader's differential test.

    mkodd.py KIND IN.dat OUT.dat

IN is a version 7 file without compression (`trace-cmd convert --compression none`).
KIND:
  zlib       the CPU data recompressed with zlib, two pages per chunk (trace-cmd here
             has no zlib: the oracle reads IN)
  options    an options section appended with TSC2NSEC (x3 >> 1), OFFSET and DATE
  missed     missed-event marks in page headers: a stored count on the 2nd page of
             every CPU, an unknown count on the 3rd
  backwards  the 3rd page of the busiest CPU starts 1 s before the trace
  pagesize   the BUFFER option's page size doubled (must be refused)
  timeshift  an options section appended with a TIME_SHIFT option (a guest trace's
             host clock synchronisation: must be refused, not ignored)
  bigendian  the file header says big-endian (must be refused on a little-endian host)
  cpucount   the CPUCOUNT option says 8 CPUs (a machine whose other CPUs wrote nothing:
             the buffer's CPU list stops before them)
  nowaking   as a kernel before v4.3 would write it: sched_waking and sched_prepare_exec
             undefined (renamed sched_wakinX, sched_prepare_exeX, their records kept
             under the new names), no kernel release (UNAME says "Linux", the
             recorder's kernel line unreadable)
  bigid      sched_switch's format says ID 2147483647 (its records keep their real id):
             a new event formats section appended, the option pointing to it
Written from trace-cmd.dat.v7(5) and the kernel's ring-buffer page layout.
"""
import struct
import sys
import zlib


def cstr(d, p):
    e = d.index(b"\0", p)
    return d[p:e], e + 1


def parse(d):
    """-> (options offset list, buffer options [(cpu_table_offset, page_size, cpus)])"""
    assert d[:10] == b"\x17\x08Dtracing" and d[10:12] == b"7\0", "not a v7 file"
    p = 18
    comp, p = cstr(d, p)
    _, p = cstr(d, p)
    (opt,) = struct.unpack_from("<Q", d, p)
    sections, buffers, dones = [], [], []
    global evopt, cpucount, uname
    evopt, cpucount, uname = [], [], []
    while opt:
        sid, flags, _, size = struct.unpack_from("<HHIQ", d, opt)
        assert sid == 0 and not flags & 1, "options section compressed"
        sections.append(opt)
        q, end, nxt = opt + 16, opt + 16 + size, 0
        while q < end:
            oid, osz = struct.unpack_from("<HI", d, q)
            data = q + 6
            if oid == 0:
                (nxt,) = struct.unpack_from("<Q", d, data)
                dones.append(data)
            elif oid == 18:
                evopt.append(data)
            elif oid == 8:
                cpucount.append(data)
            elif oid == 5:
                uname.append((data, osz))
            elif oid == 3:
                r = data + 8
                _, r = cstr(d, r)
                _, r = cstr(d, r)
                ps, n = struct.unpack_from("<II", d, r)
                cpus = []
                for i in range(n):
                    cpu, off, sz = struct.unpack_from("<IQQ", d, r + 8 + 20 * i)
                    cpus.append((r + 8 + 20 * i, cpu, off, sz))
                (boff,) = struct.unpack_from("<Q", d, data)
                buffers.append((r, ps, cpus, boff))
            q = data + osz
        opt = nxt
    return comp, sections, buffers, dones


def main():
    kind, src, dst = sys.argv[1:4]
    d = bytearray(open(src, "rb").read())
    comp, sections, buffers, dones = parse(d)
    assert comp == b"none", "IN must be uncompressed"
    psz = struct.unpack_from("<I", d, 14)[0]
    if kind == "zlib":
        p = 18
        d[p:p + 5] = b"zlib\0"
        for _, ps, cpus, boff in buffers:
            if not cpus:
                continue
            struct.pack_into("<H", d, boff + 2, 1)  # the flyrecord section: compressed
            for ent, cpu, off, sz in cpus:
                raw = bytes(d[off:off + sz])
                chunks = []
                for c in range(0, len(raw), 2 * ps):
                    part = raw[c:c + 2 * ps]
                    z = zlib.compress(part)
                    chunks.append(struct.pack("<II", len(z), len(part)) + z)
                blob = struct.pack("<I", len(chunks)) + b"".join(chunks)
                while len(d) % psz:
                    d.append(0)
                noff = len(d)
                d += blob
                struct.pack_into("<IQQ", d, ent, cpu, noff, len(blob) - 4)
    elif kind == "cpucount":
        assert cpucount, "no CPUCOUNT option"
        for at in cpucount:
            struct.pack_into("<I", d, at, 8)
    elif kind == "nowaking":
        for old, new in ((b"sched_waking", b"sched_wakinX"),
                         (b"sched_prepare_exec", b"sched_prepare_exeX"),
                         (b"rqpath/1 kernel ", b"rqpath/1 kernex ")):
            assert d.count(old), old
            d[:] = d.replace(old, new)
        assert uname, "no UNAME option"
        for at, size in uname:
            d[at:at + size] = b"Linux".ljust(size, b"\0")
    elif kind == "options":
        opts = b""
        opts += struct.pack("<HI", 14, 16) + struct.pack("<IIQ", 3, 1, 0)
        off = b"123456789\0"
        opts += struct.pack("<HI", 7, len(off)) + off
        date = b"0x10\0"
        opts += struct.pack("<HI", 1, len(date)) + date
        opts += struct.pack("<HIQ", 0, 8, 0)
        while len(d) % 8:
            d.append(0)
        noff = len(d)
        d += struct.pack("<HHIQ", 0, 0, 0, len(opts)) + opts
        struct.pack_into("<Q", d, dones[-1], noff)
    elif kind in ("missed", "backwards"):
        busiest = None
        for _, ps, cpus, boff in buffers:
            for ent, cpu, off, sz in cpus:
                if busiest is None or sz > busiest[1]:
                    busiest = (off, sz, ps)
                if kind != "missed" or sz < 3 * ps:
                    continue
                # 2nd page: MISSED_EVENTS | MISSED_STORED, 1234 stored after the data
                pg = off + ps
                (commit,) = struct.unpack_from("<Q", d, pg + 8)
                size = commit & ((1 << 27) - 1)
                if 16 + size + 8 <= ps:
                    struct.pack_into("<Q", d, pg + 8, size | (1 << 31) | (1 << 30))
                    struct.pack_into("<Q", d, pg + 16 + size, 1234)
                # 3rd page: MISSED_EVENTS only (a number the kernel did not store)
                pg = off + 2 * ps
                (commit,) = struct.unpack_from("<Q", d, pg + 8)
                struct.pack_into("<Q", d, pg + 8, (commit & ((1 << 27) - 1)) | (1 << 31))
        if kind == "backwards":
            off, sz, ps = busiest
            assert sz >= 3 * ps, "the busiest CPU has fewer than 3 pages"
            (first,) = struct.unpack_from("<Q", d, off)
            struct.pack_into("<Q", d, off + 2 * ps, first - 1000000000)
    elif kind == "timeshift":
        # peer trace id, flags, 1 CPU with 1 sample: time, offset, scaling
        ts = struct.pack("<QII", 1, 0, 1) + struct.pack("<I", 1) + struct.pack("<QqQ", 0, 1000, 1)
        opts = struct.pack("<HI", 12, len(ts)) + ts + struct.pack("<HIQ", 0, 8, 0)
        while len(d) % 8:
            d.append(0)
        noff = len(d)
        d += struct.pack("<HHIQ", 0, 0, 0, len(opts)) + opts
        struct.pack_into("<Q", d, dones[-1], noff)
    elif kind == "bigendian":
        d[12] = 1
    elif kind == "pagesize":
        for r, ps, cpus, boff in buffers:
            struct.pack_into("<I", d, r, ps * 2)
    elif kind == "bigid":
        (off,) = struct.unpack_from("<Q", d, evopt[0])
        sid, flags, desc, size = struct.unpack_from("<HHIQ", d, off)
        assert sid == 18 and not flags & 1, "event formats section compressed"
        body = bytes(d[off + 16:off + 16 + size])
        i = body.index(b"name: sched_switch\n")
        j = body.index(b"ID: ", i) + 4
        k = body.index(b"\n", j)
        # the format's own size is the u64 right before its text
        start = i
        (fsz,) = struct.unpack_from("<Q", body, start - 8)
        new = b"2147483647"
        grow = len(new) - (k - j)
        body = (body[:start - 8] + struct.pack("<Q", fsz + grow) + body[start:j] + new +
                body[k:])
        while len(d) % 8:
            d.append(0)
        noff = len(d)
        d += struct.pack("<HHIQ", 18, 0, desc, len(body)) + body
        struct.pack_into("<Q", d, evopt[0], noff)
    else:
        sys.exit("mkodd.py: unknown KIND " + kind)
    open(dst, "wb").write(d)


if __name__ == "__main__":
    main()
