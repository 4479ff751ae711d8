#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t_pipe.sh - `rqpath audit --format json FIXTURE | head -c 10`: the reader goes away
# after 10 bytes; rqpath must end quietly (exit 0 or 141 = SIGPIPE, nothing on stderr,
# no sanitizer report).  Every format, and a fixture big enough to outgrow the pipe.
set -u
: "${RQPATH:?}" "${RQPATH_TOP:?}"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
for f in "$RQPATH_TOP"/fixtures/spawn.dat "$RQPATH_TOP"/../shared/traces/lisa-juno-sched_load.dat; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	for fmt in json csv text; do
		for bytes in 10 0; do
			# the exit status of rqpath, not of head
			{ timeout 120 "$RQPATH" audit --format $fmt "$f" 2>"$tmp/err"; echo $? >"$tmp/rc"; } |
				head -c $bytes >/dev/null
			rc=$(cat "$tmp/rc")
			case $rc in
			0|141) ;;
			*) echo "FAIL $fmt $(basename "$f") | head -c $bytes: exit $rc"; fail=1 ;;
			esac
			if [ -s "$tmp/err" ]; then
				echo "FAIL $fmt $(basename "$f") | head -c $bytes: stderr not empty:"
				sed -n 1,10p "$tmp/err"; fail=1
			fi
		done
	done
done
[ $n -gt 0 ] || { echo "FAIL no input: fixtures/spawn.dat is missing, nothing was tested"; fail=1; }
exit $fail
