#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bomb_gen.py - small trace.dat v7 files that claim far more than they hold, made from
an uncompressed v7 file of rqpath's own writer (gen_trace --file-version 7): the file
header's compression becomes zstd, and the frames are written here by hand (zstd RLE
blocks, RFC 8878: a block of one byte repeated up to 128 KiB costs 4 bytes), so no zstd
library is needed.

usage: bomb_gen.py KIND IN.dat OUT.dat
  shared     every CPU's data is the same 256 MiB chunk (the issue's 53 KB, 2 GB file)
  distinct   every CPU its own 256 MiB chunk of a few KiB
  fair       every CPU its own chunk of 16 zero pages (64 KiB): a correct, empty file
  wide       every CPU its own chunk of 1 MiB (a chunk that size needs no ratio)
  loop       an options section of 512 MiB (a few KiB compressed) pointing at itself
  loop-small an options section of 1 MiB pointing at itself
  chain      200 options sections of 1 MiB each, one after the other
"""
import struct
import sys

OPT_DONE, OPT_BUFFER = 0, 3
SEC_FL_COMPRESS = 1
BLOCK = 128 << 10


def zstd_frame(prefix, usize):
    """A zstd frame of usize bytes: prefix as a raw block, then zeros as RLE blocks."""
    out = bytearray(struct.pack('<I', 0xFD2FB528))
    out.append(0xE0)			# 8-byte content size, single segment, no checksum
    out += struct.pack('<Q', usize)
    left = usize
    blocks = []
    if prefix:
        blocks.append((0, bytes(prefix)))	# raw
        left -= len(prefix)
    while left > 0:
        n = min(BLOCK, left)
        blocks.append((1, n))			# RLE of zeros
        left -= n
    for i, (kind, v) in enumerate(blocks):
        last = 1 if i == len(blocks) - 1 else 0
        size = len(v) if kind == 0 else v
        hdr = last | (kind << 1) | (size << 3)
        out += struct.pack('<I', hdr)[:3]
        out += v if kind == 0 else b'\0'
    return bytes(out)


def chunk(usize):
    """One CPU's data: a chunk count, then a chunk (zsize, usize, frame)."""
    frame = zstd_frame(b'', usize)
    return struct.pack('<III', 1, len(frame), usize) + frame


def parse(d):
    assert d[:10] == b'\x17\x08Dtracing' and d[10:12] == b'7\0', 'not a v7 trace.dat'
    pos = 12 + 2 + 4
    comp = pos
    name_end = d.index(b'\0', pos)
    assert d[pos:name_end] == b'none', 'not an uncompressed file'
    ver_end = d.index(b'\0', name_end + 1)
    first_at = ver_end + 1
    first = struct.unpack_from('<Q', d, first_at)[0]
    return comp, first_at, first


def options(d, off):
    """(id, data offset, size) of each option in the (uncompressed) section at off."""
    sid, flags, _, size = struct.unpack_from('<HHIQ', d, off)
    assert sid == 0 and not flags & SEC_FL_COMPRESS
    p, end = off + 16, off + 16 + size
    while p < end:
        oid, osz = struct.unpack_from('<HI', d, p)
        yield oid, p + 6, osz
        p += 6 + osz


def main():
    kind, src, dst = sys.argv[1:4]
    d = bytearray(open(src, 'rb').read())
    comp, _, first = parse(d)
    d[comp:comp + 4] = b'zstd'		# the version string stays empty
    opts = list(options(d, first))
    done = [o for o in opts if o[0] == OPT_DONE][-1]
    if kind in ('shared', 'distinct', 'fair', 'wide'):
        buf = [o for o in opts if o[0] == OPT_BUFFER][0]
        p = buf[1]
        sec = struct.unpack_from('<Q', d, p)[0]
        p += 8
        p = d.index(b'\0', p) + 1		# name
        p = d.index(b'\0', p) + 1		# clock
        _, ncpu = struct.unpack_from('<II', d, p)
        p += 8
        # the data section is compressed now
        struct.pack_into('<H', d, sec + 2, SEC_FL_COMPRESS)
        usize = {'fair': 64 << 10, 'wide': 1 << 20}.get(kind, 256 << 20)
        blob = chunk(usize)
        at = len(d)
        d += blob
        for i in range(ncpu):
            struct.pack_into('<QQ', d, p + 20 * i + 4, at, len(blob) - 4)
            if kind != 'shared' and i + 1 < ncpu:
                at = len(d)
                d += blob
    else:
        n = 200 if kind == 'chain' else 1
        usize = 512 << 20 if kind == 'loop' else 1 << 20
        at = len(d)
        struct.pack_into('<Q', d, done[1], at)	# the last section points to ours
        for i in range(n):
            nxt = at if kind != 'chain' else (0 if i == n - 1 else None)
            # the next section's offset is known once this one's size is: same size each
            opt = struct.pack('<HIQ', OPT_DONE, 8, 0)
            frame = zstd_frame(opt, usize)
            size = 8 + len(frame)
            if nxt is None:
                nxt = at + 16 + size
            opt = struct.pack('<HIQ', OPT_DONE, 8, nxt)
            frame = zstd_frame(opt, usize)
            d += struct.pack('<HHIQ', 0, SEC_FL_COMPRESS, 0, size)
            d += struct.pack('<II', len(frame), usize) + frame
            at = len(d)
    open(dst, 'wb').write(d)


main()
