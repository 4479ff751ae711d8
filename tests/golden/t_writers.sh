#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t_writers.sh - every output word of `rqpath audit --help` (--format W, --placements W)
# has its writer (src/output/writer.c's table): each writes something of its own kind on
# a fixture (text with "Placements", JSON with the schema id, CSV with a header line,
# HTML, Perfetto, placement rows, jsonl one line per file) and exits 0 or 1; two words
# never give the same bytes; text is what the default (no --format) gives.
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
rqpath=${RQPATH:-$top/rqpath}
dat=$top/fixtures/spawn.dat
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
"$rqpath" audit --help >"$tmp/help" || { echo "FAIL: audit --help"; exit 1; }
words() { # OPTION: the words of its value in the usage line
	sed -n "1s/.*\[--$1 \([a-z|]*\)\].*/\1/p" "$tmp/help" | tr '|' ' '
}
formats=$(words format) placements=$(words placements)
[ -n "$formats" ] && [ -n "$placements" ] || { echo "FAIL: no --format/--placements words"; exit 1; }
n=0
for w in $formats; do
	out=$tmp/format-$w
	if [ "$w" = jsonl ]; then
		"$rqpath" audit "$dat" "$dat" --format jsonl >"$out" 2>"$out.err"
	else
		"$rqpath" audit "$dat" --format "$w" >"$out" 2>"$out.err"
	fi
	rc=$?
	[ $rc -le 1 ] || { bad "--format $w: exit $rc: $(head -n 1 "$out.err")"; continue; }
	[ -s "$out" ] || bad "--format $w: no output"
	case $w in
	text) grep -q '^Placements' "$out" || bad "text: no Placements section" ;;
	json) grep -q '"schema": "rqpath.audit/1"' "$out" || bad "json: no schema id" ;;
	jsonl) [ "$(wc -l <"$out")" -eq 2 ] && [ "$(grep -c '^{"file": ' "$out")" -eq 2 ] ||
		bad "jsonl: not one line per file" ;;
	csv) head -n 1 "$out" | grep -q '^[a-z_]*,' || bad "csv: no header line" ;;
	html) head -n 1 "$out" | grep -q '^<!DOCTYPE html>' || bad "html: not a page" ;;
	perfetto) [ "$(head -c 1 "$out" | od -An -tx1 | tr -d ' ')" = 0a ] || bad "perfetto: not a Trace" ;;
	esac
	n=$((n + 1))
done
for w in $placements; do
	out=$tmp/placements-$w
	"$rqpath" audit "$dat" --placements "$w" >"$out" 2>"$out.err"
	rc=$?
	[ $rc -le 1 ] || { bad "--placements $w: exit $rc: $(head -n 1 "$out.err")"; continue; }
	[ "$(wc -l <"$out")" -gt 10 ] || bad "--placements $w: fewer than 10 rows"
	n=$((n + 1))
done
"$rqpath" audit "$dat" >"$tmp/default" 2>/dev/null
cmp -s "$tmp/default" "$tmp/format-text" || bad "the default report is not --format text"
# no two writers give the same bytes
dups=$(cd "$tmp" && md5sum format-[a-z]* placements-[a-z]* 2>/dev/null | grep -v "\.err$" | sort | uniq -w32 -d)
[ -z "$dups" ] || bad "two words write the same: $dups"
[ $fail -eq 0 ] && echo "ok: $n writers ($formats / $placements) each write their kind"
exit $fail
