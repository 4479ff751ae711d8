#!/bin/sh
# No function of the command line (src/cli/*.c) is over 100 lines: a command reads as
# parse -> check -> run, each step a helper whose name says what it does.  A function of
# kernel-style C starts at a line "name(..." at column 0 (its signature, maybe over
# several lines) followed by a "{" line at column 0, and ends at the next "}" at column 0;
# its length counts from the signature's first line to that "}".
# The test first plants a 101-line function in a copy of src/cli/topology.c and must see
# it refused, so that it cannot pass by measuring nothing.
top=${1:-${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}}
max=100

# sizes FILE...: "FILE:LINE NAME LENGTH" for every function
sizes() {
	awk '
	FNR == 1 { start = 0; inside = 0 }
	!inside && /^[a-z].*\(/ {
		start = FNR
		name = $0
		sub(/\(.*/, "", name)
		sub(/.*[ *]/, "", name)
		next
	}
	!inside && /^\{/ && start { inside = 1; next }
	inside && /^}/ {
		print FILENAME ":" start " " name " " (FNR - start + 1)
		inside = 0
		start = 0
	}' "$@"
}

# check FILE...: one FAIL line per function over $max lines, exit 1 if any
check() {
	sizes "$@" | awk -v max=$max '
	{ n++ }
	$3 > max { print "FAIL: " $2 "() at " $1 " is " $3 " lines (at most " max ")"; bad = 1 }
	END { if (!n) { print "FAIL: no function measured"; bad = 1 } exit bad }'
}

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cp "$top/src/cli/topology.c" "$tmp/planted.c"
{
	printf '\nstatic int planted(void)\n{\n'
	i=0
	while [ $i -lt 98 ]; do
		printf '\tplanted_line(%d);\n' $i
		i=$((i + 1))
	done
	printf '}\n'
} >>"$tmp/planted.c"
if check "$tmp/planted.c" >/dev/null; then
	echo "FAIL: the planted 101-line planted() was not caught"
	exit 1
fi
check "$top"/src/cli/*.c || exit 1
n=$(sizes "$top"/src/cli/*.c | wc -l)
echo "ok: $n functions in src/cli/, none over $max lines (a planted 101-line one is caught)"
