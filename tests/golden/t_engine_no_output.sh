#!/bin/sh
# The engine only judges (issue 34): no file of src/engine/ writes output.  Its files
# keep the data (structs, accessors); src/output/ renders it.  Checked on the tree (or
# the tree given as $1), comments and string literals left out: no src/engine/*.[ch]
# names a stdio writer (printf, fprintf, vfprintf, dprintf, fputs, fputc, putc, putchar,
# puts, fwrite, perror), FILE, stdout or stderr, nor includes a header of src/output/.
# The test first plants an fprintf(), then an include of an output header, in copies of
# src/engine/ files and must see each refused, so that it cannot pass by checking nothing.
top=${1:-${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}}

# FILE:LINE: the line with its comments and string and character literals blanked
code_only() {
	awk 'FNR == 1 { incom = 0 }
	{
		out = ""; instr = 0
		for (i = 1; i <= length($0); i++) {
			c = substr($0, i, 1); d = substr($0, i + 1, 1)
			if (incom) {
				if (c == "*" && d == "/") { incom = 0; i++ }
				continue
			}
			if (instr) {
				if (c == "\\") i++
				else if (c == q) { instr = 0; out = out c }
				continue
			}
			if (c == "/" && d == "*") { incom = 1; i++; out = out " "; continue }
			if (c == "/" && d == "/") break
			if (c == "\"" || c == "\047") { instr = 1; q = c }
			out = out c
		}
		print FILENAME ":" FNR ":" out
	}' "$@"
}

writes='\b(v?f?printf|dprintf|fputs|fputc|putc|putchar|puts|fwrite|perror)[[:space:]]*\('
writes="$writes|\\b(FILE|stdout|stderr)\\b"

# check TREE: prints one FAIL line per breach, exit 1 if any
check() {
	bad=0 nfiles=0
	for f in "$1"/src/engine/*.c "$1"/src/engine/*.h; do
		[ -f "$f" ] || continue
		nfiles=$((nfiles + 1))
		hits=$(code_only "$f" | grep -E "$writes")
		[ -z "$hits" ] || { printf 'FAIL: the engine writes output: %s\n' "$hits"; bad=1; }
		for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' \
			"$f"); do
			[ ! -f "$1/src/output/$inc" ] ||
				{ echo "FAIL: $f includes src/output/$inc"; bad=1; }
		done
	done
	[ $nfiles -gt 0 ] || { echo "FAIL: no file in $1/src/engine/"; bad=1; }
	return $bad
}

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/a/src/engine" "$tmp/a/src/output" "$tmp/b/src/engine" "$tmp/b/src/output"
cp "$top/src/engine/delay.c" "$tmp/a/src/engine/"
printf '\nstatic void planted(FILE *f)\n{\n\tfprintf(f, "x\\n");\n}\n' \
	>>"$tmp/a/src/engine/delay.c"
if check "$tmp/a" >/dev/null; then
	echo "FAIL: the planted fprintf() in a copy of src/engine/delay.c was not seen"
	exit 1
fi
cp "$top/src/engine/delay.c" "$tmp/b/src/engine/"
cp "$top/src/output/report.h" "$tmp/b/src/output/"
printf '#include "report.h"\n' >>"$tmp/b/src/engine/delay.c"
if check "$tmp/b" >/dev/null; then
	echo "FAIL: the planted include of report.h in a copy of src/engine/delay.c was not seen"
	exit 1
fi
check "$top" || exit 1
echo "ok: no file of src/engine/ writes output or includes src/output/ (planted ones are seen)"
