#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t_malformed.sh - bad input to `rqpath audit`: empty, truncated inside every section,
# wrong magic, unknown version, absurd header sizes, a directory, a FIFO, /dev/zero, an
# unreadable file, a trace without the events rqpath needs.  Each must end with exit 2
# and one clear line on stderr (or exit 0 and a correct report), never a crash, a
# sanitizer report or a hang.
set -u
: "${RQPATH:?}" "${RQPATH_TOP:?}"
V6=$RQPATH_TOP/fixtures/spawn.v6.dat
V7=$RQPATH_TOP/fixtures/spawn.dat
NOSCHED=$RQPATH_TOP/../shared/traces/lisa-juno-rtapp.dat
for f in "$V6" "$V7"; do
	[ -f "$f" ] || { echo "fixture $f missing"; exit 77; }
done
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0

bad() { echo "FAIL $*"; fail=1; }

# expect LABEL FILE [want]: want = "2" (must be rejected) or "any" (0 with JSON, or 2)
expect() {
	label=$1 file=$2 want=${3:-2}
	n=$((n + 1))
	timeout 60 "$RQPATH" audit --format json "$file" </dev/null >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if grep -q 'Sanitizer\|runtime error' "$tmp/err"; then
		bad "$label: sanitizer report"; sed -n 1,15p "$tmp/err"; return
	fi
	if [ $rc -eq 124 ]; then
		bad "$label: hung"; return
	fi
	if [ $rc -eq 0 ] && [ "$want" = any ]; then
		python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/out" ||
			bad "$label: exit 0 but not JSON"
		return
	fi
	if [ $rc -ne 2 ]; then
		bad "$label: exit $rc (want 2)"; tail -n 3 "$tmp/err"; return
	fi
	lines=$(wc -l <"$tmp/err")
	[ "$lines" -eq 1 ] || { bad "$label: $lines lines on stderr (want 1)"; cat "$tmp/err"; }
	[ -s "$tmp/out" ] && bad "$label: output on stdout besides the error"
	grep -q '^rqpath: ' "$tmp/err" || bad "$label: error line does not start 'rqpath: '"
	LC_ALL=C grep -q '[[:cntrl:]]' "$tmp/err" && bad "$label: control bytes in the error line"
	[ -n "${VERBOSE:-}" ] && echo "ok   $label: $(cat "$tmp/err")"
	return 0
}

# empty, wrong magic, unknown version, garbage after a good magic
: >"$tmp/empty.dat"
expect empty "$tmp/empty.dat"
printf 'this is not a trace.dat file at all\n' >"$tmp/text.dat"
expect wrong-magic "$tmp/text.dat"
printf '\027\010Dtracing9\0' >"$tmp/v9.dat"
tail -c +13 "$V6" >>"$tmp/v9.dat"
expect version-9 "$tmp/v9.dat"
printf '\027\010Dtracing' >"$tmp/magic-only.dat"
expect magic-only "$tmp/magic-only.dat"
printf '\027\010Dtracing6\0' >"$tmp/v6-head-only.dat"
expect v6-head-only "$tmp/v6-head-only.dat"
{ printf '\027\010Dtracing6\0'; head -c 65536 /dev/urandom; } >"$tmp/v6-random.dat"
expect v6-random-body "$tmp/v6-random.dat" any

# truncated: every KiB of the first 64 KiB, then a few points up to the end
for src in "$V6" "$V7"; do
	size=$(wc -c <"$src")
	tag=$(basename "$src" .dat)
	cut=1
	while [ $cut -lt "$size" ] && [ $cut -le 65536 ]; do
		head -c $cut "$src" >"$tmp/cut.dat"
		expect "$tag cut at $cut" "$tmp/cut.dat" any
		cut=$((cut + 1024))
	done
	for frac in 3 2; do
		cut=$((size - size / frac))
		head -c $cut "$src" >"$tmp/cut.dat"
		expect "$tag cut at $cut" "$tmp/cut.dat" any
	done
	for cut in $((size - 4097)) $((size - 1)); do
		head -c $cut "$src" >"$tmp/cut.dat"
		expect "$tag cut at $cut" "$tmp/cut.dat" any
	done
done

# absurd sizes in headers: the page size (offset 14, 4 bytes) and, in v6, the size
# of the header_page section (offset 30, 8 bytes) patched to huge values and to 0
patch() { # patch SRC OUT OFFSET HEXBYTES
	cp "$1" "$2" && printf "$(echo "$4" | sed 's/../\\x&/g')" |
		dd of="$2" bs=1 seek="$3" conv=notrunc status=none
}
for v in ffffffff 00000000 00000001 00000080; do
	patch "$V6" "$tmp/ps.dat" 14 "$v"
	expect "v6 page size 0x$v" "$tmp/ps.dat" any
	patch "$V7" "$tmp/ps.dat" 14 "$v"
	expect "v7 page size 0x$v" "$tmp/ps.dat" any
done
for v in ffffffffffffff7f ffffffffffffffff 0000000001000000; do
	patch "$V6" "$tmp/hs.dat" 30 "$v"
	expect "v6 header_page size 0x$v" "$tmp/hs.dat" any
done
# v7: the offset of the first section (after the compression strings) made huge
off=$(python3 -c 'import sys; d=open(sys.argv[1],"rb").read(); p=d.index(b"\0",18); p=d.index(b"\0",p+1); print(p+1)' "$V7")
patch "$V7" "$tmp/v7off.dat" "$off" ffffffffffffff7f
expect "v7 first section offset huge" "$tmp/v7off.dat" any
# v6: the CPU count (right before "options  ") made absurd
off=$(python3 -c 'import sys; d=open(sys.argv[1],"rb").read(); print(d.index(b"options  \0")-4)' "$V6")
for v in ffffffff 00000000 00100000; do
	patch "$V6" "$tmp/cpus.dat" "$off" "$v"
	expect "v6 cpu count 0x$v" "$tmp/cpus.dat" any
done

# things that are not files
expect directory "$tmp"
mkfifo "$tmp/fifo"
expect fifo "$tmp/fifo"
expect /dev/zero /dev/zero
expect missing "$tmp/does-not-exist.dat"

# `rqpath explain FILE` reads through the same replay: the same one-line errors
for f in "$tmp/empty.dat" "$tmp/text.dat" "$tmp/v9.dat" "$tmp/cpus.dat" "$tmp" "$tmp/fifo" \
	/dev/zero; do
	n=$((n + 1))
	timeout 60 "$RQPATH" explain "$f" </dev/null >"$tmp/out" 2>"$tmp/err"
	rc=$?
	grep -q 'Sanitizer\|runtime error' "$tmp/err" && bad "explain $f: sanitizer report"
	if [ $rc -eq 0 ]; then
		continue	# a file that opens (the patched CPU count may be taken)
	fi
	[ $rc -eq 2 ] || bad "explain $f: exit $rc (want 2)"
	[ "$(wc -l <"$tmp/err")" -eq 1 ] || { bad "explain $f: stderr not one line"; cat "$tmp/err"; }
done

# unreadable: root reads anything, so try as nobody
if command -v setpriv >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
	udir=$(mktemp -d /tmp/rqpath-unreadable.XXXXXX)
	cp "$V6" "$udir/t.dat"
	chmod 755 "$udir"
	chmod 000 "$udir/t.dat"
	if setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$RQPATH" 2>/dev/null; then
		n=$((n + 1))
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			timeout 60 "$RQPATH" audit --format json "$udir/t.dat" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		[ $rc -eq 2 ] || bad "unreadable: exit $rc (want 2)"
		[ "$(wc -l <"$tmp/err")" -eq 1 ] || { bad "unreadable: stderr not one line"; cat "$tmp/err"; }
		grep -qi 'permission denied' "$tmp/err" || bad "unreadable: error does not say why: $(cat "$tmp/err")"
	else
		echo "note: unreadable file not tested: $RQPATH is not executable by uid 65534"
	fi
	rm -rf "$udir"
else
	echo "note: unreadable file not tested (not root or no setpriv)"
fi

# a trace without the events rqpath needs: a correct report that says so
if [ -f "$NOSCHED" ]; then
	n=$((n + 1))
	timeout 120 "$RQPATH" audit --format json "$NOSCHED" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 0 ] || bad "no-sched-events trace: exit $rc"; cat "$tmp/err"
	python3 - "$tmp/out" <<'PY' || bad "no-sched-events trace: JSON counts"
import json, sys
j = json.load(open(sys.argv[1]))
c = j["counts"]
zero = ["sched_wakeup_new", "sched_wakeup", "sched_waking", "sched_migrate_task",
        "sched_process_fork", "sched_process_exec"]
bad = [k for k in zero if c.get(k, 0) != 0]
if bad or j["placements"] or any(f["count"] for f in j["findings"].values()):
    print("non-zero counts/placements/findings:", bad, j["placements"])
    sys.exit(1)
PY
	timeout 120 "$RQPATH" audit "$NOSCHED" >"$tmp/txt" 2>"$tmp/err"
	for id in needless-callback offcpu-fork idle-stacking missed-idle; do
		grep -i "$id" "$tmp/txt" | grep -qi 'cannot\|not supported\|unsupported' ||
			bad "no-sched-events trace: the text report does not say that $id cannot be judged (its events are not in the trace) [src/output/report.c write_text]"
	done
else
	echo "note: $NOSCHED missing, no-sched-events case not tested"
fi

echo "$n cases"
exit $fail
