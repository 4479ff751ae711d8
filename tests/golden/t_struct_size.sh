#!/bin/sh
# struct rq_analysis stays a handful of parts: fewer than 30 direct members,
# each part's state in a sub-struct of its own (model.h, cpubits.h, classify.h,
# truth_model.h, engine.h).  A member is a declarator at the struct's own level: "int a,
# b;" is two, an embedded struct one.  Checked on the tree (or the tree given as $1).
# The test first counts a planted struct of 30 members (ten lines of three) and must see
# it refused, so that it cannot pass by counting nothing.
top=${1:-${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}}
max=30

# count FILE STRUCT: the direct members of struct STRUCT in FILE (comments left out)
count() {
	awk -v name="$2" '
	{ line = $0 }
	incom { if (!sub(/^.*\*\//, "", line)) next; incom = 0 }
	{
		gsub(/\/\*.*\*\//, "", line); sub(/\/\/.*/, "", line)
		if (sub(/\/\*.*$/, "", line)) incom = 1
	}
	!on && line ~ "^struct " name " \\{" { on = 1; depth = 1; next }
	!on { next }
	{
		for (i = 1; i <= length(line); i++) {
			c = substr(line, i, 1)
			if (c == "{") depth++
			else if (c == "}") { depth--; if (!depth) { print n; exit } }
			else if (depth == 1 && c == "(") paren++
			else if (depth == 1 && c == ")") paren--
			else if (depth == 1 && !paren && c == ",") n++
			else if (depth == 1 && c == ";") n++
		}
	}' "$1"
}

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
{
	echo 'struct rq_analysis {'
	for i in 0 1 2 3 4 5 6 7 8 9; do
		printf '\tint a%s, b%s[2], c%s; /* x, y; */\n' $i $i $i
	done
	echo '};'
} >"$tmp/planted.h"
n=$(count "$tmp/planted.h" rq_analysis)
if [ "$n" != 30 ]; then
	echo "FAIL: the planted struct of 30 members was counted as ${n:-nothing}"
	exit 1
fi
file=$(grep -l '^struct rq_analysis {' "$top"/src/engine/*.h)
[ -n "$file" ] || { echo "FAIL: no src/engine/*.h defines struct rq_analysis"; exit 1; }
n=$(count "$file" rq_analysis)
[ -n "$n" ] && [ "$n" -ge 5 ] ||
	{ echo "FAIL: struct rq_analysis counted as '$n' members"; exit 1; }
if [ "$n" -ge $max ]; then
	echo "FAIL: struct rq_analysis ($file) has $n direct members, $max or more"
	exit 1
fi
echo "ok: struct rq_analysis has $n direct members, fewer than $max (a planted 30 is seen)"
