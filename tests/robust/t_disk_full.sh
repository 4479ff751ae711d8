#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t_disk_full.sh - `rqpath record` onto a 256 KiB tmpfs that fills up while a spawn
# workload runs: exit 2 with one clear line that says the disk is full, no rqpath
# tracefs instance left behind, and the partial file, if any, is either a trace that
# audits or a clean "corrupt/truncated" error (exit 2, one line), never a crash.
set -u
: "${RQPATH:?}"
if [ "$(id -u)" -ne 0 ]; then
	echo "not root: mounting a small tmpfs and recording need root"; exit 77
fi
. "$(dirname "$0")/../live/tracefs.sh"
tracefs_ready || exit 77
mnt=$(mktemp -d /tmp/rqpath-full.XXXXXX) || exit 1
tmp=$(mktemp -d) || exit 1
cleanup() {
	umount "$mnt" 2>/dev/null
	rmdir "$mnt" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
if ! mount -t tmpfs -o size=256k,mode=0755 rqpath-full "$mnt" 2>"$tmp/mount.err"; then
	echo "cannot mount a tmpfs here: $(cat "$tmp/mount.err")"; exit 77
fi
fail=0
bad() { echo "FAIL $*"; fail=1; }
before=$(ls $T/instances | grep '^rqpath' || true)

timeout 300 "$RQPATH" record -o "$mnt/t.dat" -- "$RQPATH" workload spawn --count 2000 \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
# the workload prints its own summary on stdout; rqpath's messages are on stderr
grep -q 'Sanitizer\|runtime error' "$tmp/err" && { bad "sanitizer report"; sed -n 1,30p "$tmp/err"; }
[ $rc -eq 2 ] || bad "record onto a full disk: exit $rc (want 2)"
errs=$(grep -c '^rqpath: ' "$tmp/err")
grep '^rqpath: ' "$tmp/err" | grep -qi 'no space\|disk full\|ENOSPC' ||
	bad "no error line says the disk is full:"
[ "$errs" -eq 1 ] || bad "$errs 'rqpath:' lines on stderr (want 1)"
[ $fail -eq 0 ] || cat "$tmp/err"
[ -n "${VERBOSE:-}" ] && grep "^rqpath: " "$tmp/err"

after=$(ls $T/instances | grep '^rqpath' || true)
if [ -n "$after" ] && [ "$after" != "$before" ]; then
	bad "tracefs instance(s) left behind: $after"
fi

if [ -e "$mnt/t.dat" ]; then
	timeout 120 "$RQPATH" audit --format json "$mnt/t.dat" >"$tmp/a.out" 2>"$tmp/a.err"
	arc=$?
	grep -q 'Sanitizer\|runtime error' "$tmp/a.err" && { bad "audit of the partial file: sanitizer report"; sed -n 1,30p "$tmp/a.err"; }
	case $arc in
	0) python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/a.out" ||
		bad "audit of the partial file: exit 0 but not JSON" ;;
	2) [ "$(wc -l <"$tmp/a.err")" -eq 1 ] || { bad "audit of the partial file: stderr not one line"; cat "$tmp/a.err"; } ;;
	*) bad "audit of the partial file: exit $arc"; tail -n 5 "$tmp/a.err" ;;
	esac
	echo "partial file: $(wc -c <"$mnt/t.dat") bytes, audit exit $arc"
else
	echo "no partial file left (removed by record)"
fi
exit $fail
