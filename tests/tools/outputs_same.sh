#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# outputs_same.sh REF NEW [FORMAT...] - run two rqpath binaries (say one built from the
# base commit of a refactoring and one from its tip) over every fixture, the diff
# fixtures and /work/shared/traces, and compare their outputs byte for byte: audit
# --format text|json|csv|html|perfetto, --placements csv|jsonl, a two-file jsonl, and
# the exit status.  FORMATs limit the formats compared (default: all).  Prints one line
# per difference and exits 1 if there was any.
ref=$1 new=$2
[ -x "$ref" ] && [ -x "$new" ] || { echo "usage: $0 REF-RQPATH NEW-RQPATH [FORMAT...]"; exit 2; }
shift 2
top=$(cd "$(dirname "$0")/../.." && pwd)
formats=${*:-text json csv html perfetto placements-csv placements-jsonl jsonl}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
diffs=0 n=0
run() { # BIN OUT FORMAT DAT
	case $3 in
	placements-*) "$1" audit "$4" --placements "${3#placements-}" -o "$2" 2>"$2.err" ;;
	jsonl) "$1" audit "$4" "$top/fixtures/spawn.dat" --format jsonl -o "$2" 2>"$2.err" ;;
	*) "$1" audit "$4" --format "$3" -o "$2" 2>"$2.err" ;;
	esac
	echo "exit $?" >>"$2.err"
}
for dat in "$top"/fixtures/*.dat "$top"/tests/fixtures/diff/*.dat /work/shared/traces/*.dat; do
	[ -f "$dat" ] || continue
	for fmt in $formats; do
		run "$ref" "$tmp/ref" "$fmt" "$dat"
		run "$new" "$tmp/new" "$fmt" "$dat"
		n=$((n + 1))
		if ! cmp -s "$tmp/ref" "$tmp/new" || ! cmp -s "$tmp/ref.err" "$tmp/new.err"; then
			echo "DIFFERENT: $fmt $dat"
			diffs=$((diffs + 1))
		fi
	done
done
echo "$n outputs compared, $diffs different"
[ $diffs -eq 0 ]
