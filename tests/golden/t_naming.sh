#!/bin/sh
# The naming rule (docs/HACKING.md): rq_ is the library's public API, rqe_ a function one
# engine file calls in another, and a function static to its .c file carries neither
# prefix (a header's static inline helpers are API: they carry their layer's).  Checked on
# the tree (or the tree given as $1): no static function of a .c file in src/ or views/
# named rq_* or rqe_*, and no rqe_ name used outside src/engine/ (tests/unit may look
# inside).
# The test first plants a static rq_ function in a copy of src/engine/model.c and must
# see it refused, so that it cannot pass by checking nothing.
top=${1:-${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}}

# check TREE: prints one FAIL line per breach, exit 1 if any
check() {
	bad=0
	hits=$(grep -nE '^static( inline)? [a-z_ ]*[ *](rq_|rqe_)[a-z0-9_]*\(' \
		"$1"/src/*/*.c "$1"/views/*.c 2>/dev/null)
	[ -z "$hits" ] || { printf 'FAIL: a static with a public or engine prefix: %s\n' "$hits"; bad=1; }
	hits=$(grep -nE '\brqe_[a-z0-9_]+' "$1"/src/base/* "$1"/src/input/*.[ch] \
		"$1"/src/output/* "$1"/src/session/* "$1"/src/cli/* "$1"/views/* 2>/dev/null)
	[ -z "$hits" ] || { printf 'FAIL: an engine-private rqe_ name outside src/engine/: %s\n' "$hits"; bad=1; }
	return $bad
}

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src/engine" "$tmp/views"
cp "$top/src/engine/model.c" "$tmp/src/engine/"
printf '\nstatic int rq_planted(void)\n{\n\treturn 0;\n}\n' >>"$tmp/src/engine/model.c"
if check "$tmp" >/dev/null; then
	echo "FAIL: the planted static rq_planted() in src/engine/model.c was not seen"
	exit 1
fi
check "$top" || exit 1
echo "ok: no static rq_/rqe_ function, no rqe_ name outside src/engine/ (a planted one is seen)"
