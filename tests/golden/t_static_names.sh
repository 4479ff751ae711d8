#!/bin/sh
# A static function's name says what it does in its file; two layers never hold statics
# of one name (a second copy of a helper belongs below both, in the lower layer's API:
# rq_is_decimal() in src/base/ once served src/input/ and views/ as two all_digits()).
# Checked on the tree (or the tree given as $1); the test first plants a static of a
# name src/input/ already uses into a copy of views/ and must see it refused.
top=${1:-${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}}

# names TREE: "LAYER NAME" for every static function of a .c file in src/*/ and views/
names() {
	for f in "$1"/src/*/*.c "$1"/views/*.c; do
		[ -f "$f" ] || continue
		d=${f%/*}
		d=${d#"$1"/}
		sed -nE 's/^static( inline)? [a-z_0-9 ]*[ *]([a-z_][a-z0-9_]*)\(.*/\2/p' "$f" |
			sed "s|^|$d |"
	done | sort -u
}

# check TREE: one FAIL line per name in several layers, exit 1 if any
check() {
	out=$(names "$1" | awk '{ n[$2]++; l[$2] = l[$2] " " $1 }
		END { for (k in n) if (n[k] > 1) print k ":" l[k] }' | sort)
	[ -z "$out" ] && return 0
	echo "$out" | sed 's/^/FAIL: a static of one name in several layers: /'
	return 1
}

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src/input" "$tmp/views"
cp "$top/src/input/tracedat.c" "$tmp/src/input/"
cp "$top/views/tlindex.c" "$tmp/views/"
printf '\nstatic int buf_grow(void)\n{\n\treturn 0;\n}\n' >>"$tmp/views/tlindex.c"
if check "$tmp" >/dev/null; then
	echo "FAIL: the planted static buf_grow() in views/ beside src/input/'s was not seen"
	exit 1
fi
n=$(names "$top" | wc -l)
[ "$n" -gt 200 ] || { echo "FAIL: only $n static functions found"; exit 1; }
check "$top" || exit 1
echo "ok: $n static functions, no name in two layers (a planted one is seen)"
