#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t_diff_stats.sh - rqpath diff's rank test (src/output/mannwhitney.c, through
# build/tests/mw_check) against tests/tools/mannwhitney.py, which counts U pair by pair
# and p by enumerating every split of the pooled values (exact, ties included) or by the
# normal approximation beyond 30 values: 300 random cases, many with ties, from 1+1 to
# 60+60 values.  U must be equal, p equal to 1e-12.
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${RQPATH_BUILD:-$top/build}
command -v python3 >/dev/null 2>&1 || { echo "skip: python3 is not installed"; exit 77; }
[ -x "$build/tests/mw_check" ] || { echo "no $build/tests/mw_check (make check builds it)"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

python3 - >"$tmp/cases" <<'PY'
import random
r = random.Random(22)
for i in range(300):
    if i < 270:       # exact: at most 16 values, enumerable
        na, nb = r.randint(1, 8), r.randint(1, 8)
    else:             # normal approximation
        na, nb = r.randint(16, 60), r.randint(16, 60)
    spread = r.choice([2, 4, 10, 1000])    # few distinct values: many ties
    a = [r.randint(0, spread) + r.choice([0, 0.5]) for _ in range(na)]
    shift = r.choice([0, 0, 1, 3])
    b = [r.randint(0, spread) + shift for _ in range(nb)]
    print(" ".join("%g" % x for x in a), "|", " ".join("%g" % x for x in b))
PY
"$build/tests/mw_check" <"$tmp/cases" >"$tmp/rqpath"
python3 "$top/tests/tools/mannwhitney.py" <"$tmp/cases" >"$tmp/oracle"
python3 - "$tmp/cases" "$tmp/rqpath" "$tmp/oracle" <<'PY'
import sys
cases = open(sys.argv[1]).read().splitlines()
got = open(sys.argv[2]).read().splitlines()
want = open(sys.argv[3]).read().splitlines()
bad = 0
if len(got) != len(cases) or len(want) != len(cases):
    print("FAIL: %d cases, %d answers, %d oracle answers" % (len(cases), len(got), len(want)))
    sys.exit(1)
kinds = {"exact": 0, "normal": 0}
for c, g, w in zip(cases, got, want):
    gu, gp, gk = g.split()
    wu, wp, wk = w.split()
    kinds[wk] += 1
    if float(gu) != float(wu) or gk != wk or abs(float(gp) - float(wp)) > 1e-12:
        print("FAIL: %s: rqpath %s, oracle %s" % (c, g, w))
        bad += 1
print("%d cases (%d exact, %d normal), %d differ" % (len(cases), kinds["exact"],
                                                  kinds["normal"], bad))
sys.exit(1 if bad else 0)
PY
