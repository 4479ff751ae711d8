#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""pngstat.py - how much of a region of a PNG is coloured (not grey/white).

usage: pngstat.py FILE.png X,Y,W,H

Prints the fraction of pixels in the rectangle whose channels differ by more than 40
(max - min of R, G, B): drawn colour, as opposed to white, grey and black.  Decodes
8-bit RGB/RGBA non-interlaced PNGs (what Chromium's screenshots are) with the standard
library only.
"""
import struct
import sys
import zlib


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("pngstat: not a PNG")
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        sys.exit("pngstat: only 8-bit RGB/RGBA, not interlaced")
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(h):
        ft, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if ft == 1:
                line[x] = (line[x] + a) & 255
            elif ft == 2:
                line[x] = (line[x] + b) & 255
            elif ft == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif ft == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, bpp, rows


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    w, h, bpp, rows = decode(argv[0])
    x0, y0, rw, rh = (int(v) for v in argv[1].split(","))
    total = coloured = 0
    for y in range(max(0, y0), min(h, y0 + rh)):
        line = rows[y]
        for x in range(max(0, x0), min(w, x0 + rw)):
            r, g, b = line[x * bpp:x * bpp + 3]
            total += 1
            coloured += max(r, g, b) - min(r, g, b) > 40
    print("%.4f" % (coloured / total if total else 0.0))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
