#!/bin/sh
# The documentation in the repository stays true to the tree:
# - every citation of a docs/ file (and section, "§N") in the code, tests and pages names
#   a file and a section that exist, and no comment points at the design notes outside
#   the repository;
# - docs/HACKING.md's module map names every .c file (and .def table) of src/*/ and
#   views/, each in its own folder's section, and every file it names exists.
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top" || exit 1
fail=0 n=0

grep -rnoE 'docs/[A-Za-z]+\.md( §[0-9]+(\.[0-9]+)?)?' src views tests man README docs Makefile \
	>"${TMPDIR:-/tmp}/rqpath-docs.$$" 2>/dev/null
while IFS= read -r hit; do
	ref=${hit#*:*:}
	where=${hit%:"$ref"}
	file=${ref%% *}
	[ -f "$file" ] || { echo "FAIL: $where cites $file, which does not exist"; fail=1; continue; }
	case "$ref" in
	*§*)
		sec=${ref#*§}
		grep -qE "^#{2,3} $(echo "$sec" | sed 's/\./\\./g')\.? " "$file" ||
			{ echo "FAIL: $where cites $ref: no section $sec in $file"; fail=1; }
		;;
	esac
	n=$((n + 1))
done <"${TMPDIR:-/tmp}/rqpath-docs.$$"
rm -f "${TMPDIR:-/tmp}/rqpath-docs.$$"
[ $n -ge 10 ] || { echo "FAIL: only $n citations of docs/ found"; fail=1; }

if grep -rnE 'DESIGN\.md|kernel-paths\.md|\.\./shared/[a-z-]+\.md' src views tests/*/*.sh \
	tests/unit man README Makefile; then
	echo "FAIL: the lines above cite documents outside the repository"; fail=1
fi

# the module map: names in bold (**a.c, b.h**) in docs/HACKING.md, per directory section
map=docs/HACKING.md
# each directory's files in that directory's section ("### src/cli/ — ...")
section() {
	awk -v h="### $1 " 'index($0, h) == 1 { on = 1; next } /^##/ { on = 0 } on' "$map"
}
for f in src/*/*.c src/*/*.def views/*.c; do
	dir=${f%/*}/ base=${f##*/}
	section "$dir" | grep -qE "^- \*\*([^*]*[ ,])?$(echo "$base" | sed 's/\./\\./g')[,*]" ||
		{ echo "FAIL: $map's module map does not name $f under ### $dir"; fail=1; }
done
grep -oE '^- \*\*[^*]+\*\*' "$map" | sed -e 's/^- \*\*//' -e 's/\*\*$//' -e 's/, /\n/g' |
while IFS= read -r name; do
	case "$name" in *.c|*.h|*.def) ;; *) continue ;; esac
	found=""
	for d in src/*/ views/; do [ -e "$d$name" ] && found=1; done
	[ -n "$found" ] ||
		{ echo "FAIL: $map names $name, which is in none of src/*/ views/"; exit 1; }
done || fail=1

[ $fail -eq 0 ] && echo "docs: $n citations resolve; the module map names every source file"
exit $fail
