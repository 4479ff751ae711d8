#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t_bombs.sh - small v7 trace.dat files that claim far more than they hold, made here
# (tests/robust/bomb_gen.py, from gen_trace's uncompressed v7 file): CPUs that all list
# the same 256 MiB zstd chunk, or a few-KiB chunk each that claims 256 MiB; an options
# section of 512 MiB (16 KiB compressed) or 1 MiB that names itself as the next; a chain
# of 200 sections of 1 MiB; 64 CPUs of 1 MiB chunks.  audit, explain and diff (the one
# reader) end each with one clear line (exit 2), or, for the fair files, a correct
# report (exit 0), in under 1 s (the 64-CPU file 3 s) and under 64 MB of RSS (the plain build, measured by
# getrusage of the child).  Red on main 461bcf6: the shared and distinct chunks took
# over 1 GB and ran past 15 s, the 512 MiB loop past 15 s (each hop decompressed again).
set -u
: "${RQPATH:?}" "${RQPATH_PLAIN:?}" "${RQPATH_BUILD:?}" "${RQPATH_TOP:?}"
gen=$RQPATH_BUILD/tests/gen_trace
[ -x "$gen" ] || { echo "skip: $gen not built"; exit 77; }
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL $*"; fail=1; }

"$gen" -o "$tmp/g8.dat" --cpus 8 --events 2000 --file-version 7 >/dev/null || bad "gen_trace 8"
"$gen" -o "$tmp/g64.dat" --cpus 64 --events 2000 --file-version 7 >/dev/null || bad "gen_trace 64"

# measure BIN ARGS...: run it, print "rc seconds maxrss_kb" (the child's own usage)
measure() {
	python3 - "$@" <<'PY'
import resource, subprocess, sys, time
t = time.monotonic()
try:
    rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                        timeout=30).returncode
except subprocess.TimeoutExpired:
    rc = 124
t = time.monotonic() - t
print(rc, "%.3f" % t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
}

# check KIND BASE WANT TEXT: WANT 2 (TEXT in the one error line) or 0 (a report)
check() {
	kind=$1 base=$2 want=$3 text=$4 limit=${5:-1}
	f=$tmp/$kind.dat
	python3 "$RQPATH_TOP/tests/robust/bomb_gen.py" "$kind" "$tmp/$base.dat" "$f" ||
		{ bad "$kind: bomb_gen failed"; return; }
	for cmd in audit explain diff; do
		case $cmd in
		audit) set -- audit --format json "$f" ;;
		explain) set -- explain "$f" ;;
		diff) set -- diff "$tmp/$base.dat" "$f" ;;
		esac
		timeout 60 "$RQPATH" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
		rc=$?
		if grep -q 'Sanitizer\|runtime error' "$tmp/err"; then
			bad "$kind $cmd: sanitizer report"; sed -n 1,10p "$tmp/err"; continue
		fi
		[ $rc -eq "$want" ] || { bad "$kind $cmd: exit $rc, want $want"; tail -n 2 "$tmp/err"; }
		if [ "$want" -eq 2 ]; then
			[ "$(wc -l <"$tmp/err")" -eq 1 ] || { bad "$kind $cmd: want 1 line"; cat "$tmp/err"; }
			grep -q "^rqpath: .*$text" "$tmp/err" ||
				bad "$kind $cmd: the error lacks '$text': $(cat "$tmp/err")"
		elif [ $cmd = audit ]; then
			python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/out" ||
				bad "$kind: exit 0 but not JSON"
		fi
		[ -n "${VERBOSE:-}" ] && echo "ok   $kind $cmd: exit $rc $(head -c 200 "$tmp/err")"
		set -- $(measure "$RQPATH_PLAIN" "$@")
		[ "$1" -eq "$want" ] || bad "$kind $cmd (plain build): exit $1, want $want"
		python3 -c 'import sys; sys.exit(not float(sys.argv[1]) < float(sys.argv[2]))' \
			"$2" "$limit" || bad "$kind $cmd: $2 s (want under $limit s)"
		[ "$3" -lt 65536 ] || bad "$kind $cmd: $3 KB of RSS (want under 64 MB)"
		echo "$kind $cmd: exit $1, $2 s, $3 KB max RSS, $(wc -c <"$f") bytes"
	done
}

check shared g8 2 'the data of CPU 0 and CPU 1 overlap'
check distinct g8 2 'claims 268435456 bytes from'
check loop g8 2 'an options section claims 536870912 bytes'
check loop-small g8 2 'the options sections form a loop'
check chain g8 2 'its sections decompress to more than'
# 64 CPUs of a legitimate-size chunk each: decompressed up to the budget (41 MiB here,
# in each of the replays audit, explain and diff make) before the refusal: 0.5 s alone,
# up to 1.5 s on a loaded machine
check wide g64 2 "the CPUs' chunks more than" 3
check fair g8 0 ''
check wide g8 0 ''
exit $fail
