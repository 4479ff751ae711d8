#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""mannwhitney.py - the Mann-Whitney U test the slow and obvious way, as the oracle of
rqpath diff's rank test (src/output/mannwhitney.c; tests/golden/t_diff_stats.sh).

    mannwhitney.py < CASES        one case a line: "a1 a2 ... | b1 b2 ..."
    prints "U p exact|normal" a line

U counts the pairs (a, b) with b > a, plus half the pairs with b == a (by comparing every
pair, not from ranks).  With at most 30 values in all (and at most 24 for the brute force
here, C(24,12) = 2.7 M choices) p is exact: every way of choosing which len(b) of the
pooled values are "b" is counted, and p is the share whose U is as far from its mean as
the observed one or farther (two-sided, ties included).  Beyond 30: the normal
approximation with the tie-corrected variance and a continuity correction of 1/2.
"""
import itertools
import math
import sys
from collections import Counter

EXACT_MAX = 30


def u_stat(a, b):
    u = 0.0
    for x in a:
        for y in b:
            u += 1.0 if y > x else 0.5 if y == x else 0.0
    return u


def exact_p(a, b):
    pooled = a + b
    n, nb = len(pooled), len(b)
    mean = len(a) * nb / 2.0
    dev = abs(u_stat(a, b) - mean)
    hits = total = 0
    for pick in itertools.combinations(range(n), nb):
        chosen = set(pick)
        bb = [pooled[i] for i in pick]
        aa = [pooled[i] for i in range(n) if i not in chosen]
        total += 1
        if abs(u_stat(aa, bb) - mean) >= dev - 1e-9:
            hits += 1
    return hits / total


def normal_p(a, b):
    na, nb = len(a), len(b)
    n = na + nb
    ties = sum(t ** 3 - t for t in Counter(a + b).values())
    var = na * nb / 12.0 * ((n + 1) - ties / (n * (n - 1)))
    if var <= 0:
        return 1.0
    z = (abs(u_stat(a, b) - na * nb / 2.0) - 0.5) / math.sqrt(var)
    if z <= 0:
        return 1.0
    return min(1.0, 2 * (1 - 0.5 * (1 + math.erf(z / math.sqrt(2)))))


for line in sys.stdin:
    if "|" not in line:
        continue
    left, right = line.split("|")
    a = [float(x) for x in left.split()]
    b = [float(x) for x in right.split()]
    if len(a) + len(b) <= EXACT_MAX:
        print("%.17g %.17g exact" % (u_stat(a, b), exact_p(a, b)))
    else:
        print("%.17g %.17g normal" % (u_stat(a, b), normal_p(a, b)))
