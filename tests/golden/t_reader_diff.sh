#!/bin/sh
# rqpath's own trace.dat reader against libtracecmd (the oracle), record by record
# (tests/helpers/reader_diff.c: count, order, timestamps, CPUs, bytes, missed-event
# marks, decoded field checksums per event type) on every fixture, every trace in
# ../shared/traces, and a generated set of odd files: v6 <-> v7 and zstd / none by
# `trace-cmd convert`, zlib chunks, TSC2NSEC/OFFSET/DATE options, missed-event marks and
# a page whose clock goes backwards, a format id of 2^31-1 (tests/tools/mkodd.py).
# Then rqpath itself on the odd files: the zlib copy audits like its source, missed
# marks are counted, the id of 2^31-1 allocates nothing by its value, and a buffer whose
# page size contradicts the header page, a TIME_SHIFT option (host/guest clock
# synchronisation, not implemented) and a big-endian file are refused with one line.
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${RQPATH_BUILD:-$top/build}
diff=$build/tests/reader_diff
traces=$top/../shared/traces
[ -x "$diff" ] || { echo "FAIL: $diff not built"; exit 1; }
command -v trace-cmd >/dev/null || { echo "trace-cmd missing"; exit 77; }
command -v python3 >/dev/null || { echo "python3 missing"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0 n=0

check() { # check FILE [ORACLE]
	n=$((n + 1))
	if out=$("$diff" "$@"); then
		echo "ok   $out"
	else
		echo "FAIL $out"; fail=1
	fi
}

for dat in "$top"/fixtures/*.dat "$traces"/*.dat; do
	[ -f "$dat" ] || continue
	check "$dat"
done

# conversions: every v6 fixture to v7 zstd and v7 uncompressed, every v7 one to v6
for dat in "$top"/fixtures/*.dat "$traces"/*.dat; do
	[ -f "$dat" ] || continue
	name=$(basename "$dat" .dat)
	if [ "$(head -c 11 "$dat" | tail -c 1)" = 6 ]; then
		for c in zstd none; do
			trace-cmd convert -i "$dat" --file-version 7 --compression $c \
				-o "$tmp/$name.7$c.dat" >/dev/null 2>&1 ||
				{ echo "FAIL: trace-cmd convert $name to v7 $c"; fail=1; continue; }
			check "$tmp/$name.7$c.dat"
		done
	else
		trace-cmd convert -i "$dat" --file-version 6 -o "$tmp/$name.6.dat" >/dev/null 2>&1 ||
			{ echo "FAIL: trace-cmd convert $name to v6"; fail=1; continue; }
		check "$tmp/$name.6.dat"
	fi
done

# odd files, made from an uncompressed v7 copy of a fixture
src=$top/fixtures/spawn.v6.dat
trace-cmd convert -i "$src" --file-version 7 --compression none -o "$tmp/base.dat" \
	>/dev/null 2>&1 || { echo "FAIL: trace-cmd convert spawn to v7 none"; exit 1; }
for kind in zlib options missed backwards pagesize bigid timeshift bigendian; do
	python3 "$top/tests/tools/mkodd.py" $kind "$tmp/base.dat" "$tmp/$kind.dat" ||
		{ echo "FAIL: mkodd.py $kind"; fail=1; }
done
check "$tmp/zlib.dat" "$tmp/base.dat"
for kind in options missed backwards bigid; do
	check "$tmp/$kind.dat"
done
# the marks are there (the oracle agreeing on "none" would prove nothing)
"$diff" "$tmp/missed.dat" | grep -q ' 4 missed-event marks' ||
	{ echo "FAIL: missed.dat: not the 4 missed-event marks made"; fail=1; }
"$diff" "$tmp/backwards.dat" | grep -q ' 1 backwards' ||
	{ echo "FAIL: backwards.dat: the backwards page is not seen"; fail=1; }

# rqpath on them
"$RQPATH" audit --format json "$tmp/zlib.dat" >"$tmp/a.raw" &&
	"$RQPATH" audit --format json "$tmp/base.dat" >"$tmp/b.raw" &&
	sed "s|$tmp/zlib.dat|X|" "$tmp/a.raw" >"$tmp/a" &&
	sed "s|$tmp/base.dat|X|" "$tmp/b.raw" >"$tmp/b" &&
	cmp -s "$tmp/a" "$tmp/b" || { echo "FAIL: the zlib copy does not audit like its source"; fail=1; }
"$RQPATH" audit --format json "$tmp/missed.dat" >"$tmp/m.json" ||
	{ echo "FAIL: audit of missed.dat exit $?"; fail=1; }
python3 - "$tmp/m.json" <<'PY' || fail=1
import json, sys
t = json.load(open(sys.argv[1]))["trace"]
# 1234 stored on each CPU's 2nd page, an unknown number on the 3rd: at least 2468
if t["lost_events"] < 2468:
    print("FAIL: missed.dat: %d lost events reported, want >= 2468" % t["lost_events"]); sys.exit(1)
PY
"$RQPATH" audit --format json "$tmp/backwards.dat" >/dev/null ||
	{ echo "FAIL: audit of backwards.dat exit $?"; fail=1; }
refused() { # refused KIND TEXT: rqpath audit exits 2 with one line containing TEXT
	"$RQPATH" audit "$tmp/$1.dat" >/dev/null 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 2 ] || ! grep -q "$2" "$tmp/err" || [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
		echo "FAIL: $1.dat: exit $rc, $(cat "$tmp/err") (want 2 and '$2')"; fail=1
	fi
}
refused pagesize 'page size 8192 contradicts'
refused timeshift 'TIME_SHIFT'
refused bigendian 'big-endian file'

# an event id of 2^31-1 in a format: nothing allocated by its value (4 GB of address
# space is plenty), the records that do not carry it are not that event
plain=${RQPATH_PLAIN:-$RQPATH}
(ulimit -v 4000000; "$plain" audit --format json "$tmp/bigid.dat") >"$tmp/big.json" 2>"$tmp/err" ||
	{ echo "FAIL: an event id of 2^31-1: exit $?, $(cat "$tmp/err")"; fail=1; }
python3 - "$tmp/big.json" <<'PY' || fail=1
import json, sys
j = json.load(open(sys.argv[1]))
if j["trace"]["events"] != 1790 or j["counts"]["sched_switch"] != 0:
    print("FAIL: bigid.dat: %d events, %d sched_switch (want 1790, 0)" %
          (j["trace"]["events"], j["counts"]["sched_switch"])); sys.exit(1)
PY

[ $n -gt 10 ] || { echo "FAIL: only $n files compared"; exit 1; }
[ $fail -eq 0 ] && echo "$n files read alike by rqpath and libtracecmd"
exit $fail
