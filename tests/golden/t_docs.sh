#!/bin/sh
# The documentation in the repository stays true to the tree:
# - every citation of a docs/ file (and section, "§N") in the code, tests and pages names
#   a file and a section that exist, and no comment points at the design notes outside
#   the repository;
# - docs/HACKING.md's module map names every .c file (and .def table) of src/*/ and
#   views/, each in its own folder's section, and every file a section names is in that
#   section's folder (both ways);
# - its recipes ("## How to add a tracepoint / a path / a finding / a view / an output")
#   exist, and every file, folder, man page and identifier they name is in the tree (an
#   identifier said to be "in FILE" or "(FILE)" in that file).
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
tmp=${TMPDIR:-/tmp}/rqpath-docs-map.$$
# each directory's files in that directory's section ("### src/cli/ — ...")
section() {
	awk -v h="### $1 " 'index($0, h) == 1 { on = 1; next } /^##/ { on = 0 } on' "$map"
}
for f in src/*/*.c src/*/*.def views/*.c; do
	dir=${f%/*}/ base=${f##*/}
	section "$dir" | grep -qE "^- \*\*([^*]*[ ,])?$(echo "$base" | sed 's/\./\\./g')[,*]" ||
		{ echo "FAIL: $map's module map does not name $f under ### $dir"; fail=1; }
done
# and the other way: every file a section names is in that section's folder
grep -E '^### [a-z]+/([a-z]+/)? ' "$map" | sed -e 's/^### //' -e 's/ .*//' | sort -u >"$tmp.dirs"
[ "$(wc -l <"$tmp.dirs")" -ge 6 ] || { echo "FAIL: fewer than 6 folder sections in $map"; fail=1; }
while IFS= read -r dir; do
	section "$dir" | grep -oE '^- \*\*[^*]+\*\*' | sed -e 's/^- \*\*//' -e 's/\*\*$//' |
		tr ',' '\n' | sed 's/^ *//; s/ *$//' | grep -E '\.(c|h|def)$' |
	while IFS= read -r name; do
		[ -e "$dir$name" ] ||
			{ echo "FAIL: $map names $name under ### $dir: no such file"; exit 1; }
	done || fail=1
done <"$tmp.dirs"

# the recipes ("## How to add ..."): one for each thing people add, and every file,
# folder, man page and identifier they name exists (an identifier said to be "in FILE"
# or "(FILE)" is in that file)
for what in "a tracepoint" "a path" "a finding" "a view" "an output"; do
	grep -q "^## How to add $what\$" "$map" ||
		{ echo "FAIL: $map has no '## How to add $what'"; fail=1; }
done
awk '/^## How to add/ { on = 1 } /^## / && !/^## How to add/ { on = 0 } on' "$map" >"$tmp.recipes"
# paths with a folder, as written (a template like views/<name>.c is not a file)
for ref in $(grep -oE '(src|views|tests|docs|man|fixtures)/[A-Za-z0-9_./-]*[A-Za-z0-9_/]' \
	     "$tmp.recipes" | sort -u); do
	[ -e "$ref" ] || { echo "FAIL: $map's recipes name $ref, which does not exist"; fail=1; }
done
# bare file names: in a folder of the tree
where() {
	for d in src/*/ views/ tests/*/ docs/ man/ fixtures/; do
		[ -e "$d$1" ] && { echo "$d$1"; return 0; }
	done
	return 1
}
for ref in $(sed 's|[a-z]*/[A-Za-z0-9_./-]*||g' "$tmp.recipes" |
	     grep -oE '\b[a-z][a-z0-9_]*\.(c|h|def|py|sh)\b' | sort -u); do
	where "$ref" >/dev/null ||
		{ echo "FAIL: $map's recipes name $ref, in no folder of the tree"; fail=1; }
done
for page in $(grep -oE 'rqpath(-[a-z]+)?\([0-9]\)' "$tmp.recipes" | sort -u); do
	f=man/${page%(*}.${page#*(}
	f=${f%)}
	[ -f "$f" ] || { echo "FAIL: $map's recipes name $page: no $f"; fail=1; }
done
# identifiers in backquotes: each in the code (templates with <...> and plain words aside)
grep -oE '`[^`]+`' "$tmp.recipes" | tr -d '`' | sed -E 's/^(enum|struct) //' | grep -v '[<>" ]' |
	grep -E '^[A-Za-z_][A-Za-z0-9_]*(\(\)|\[\])?$' | grep -E '_' | sort -u |
while IFS= read -r id; do
	name=$(printf '%s' "$id" | sed 's/[][()]//g')
	grep -rqw -- "$name" src views tests ||
		{ echo "FAIL: $map's recipes name \`$id\`, in none of src/ views/ tests/"; exit 1; }
done || fail=1
# "`ident` in file.c", "`ident` (file.c)": the identifier is in that file
ident='`[A-Za-z_][A-Za-z0-9_]*(\(\)|\[\])?`'
grep -oE "$ident( in| \\()? [a-z/_]*[a-z_]+\\.(c|h|def)" "$tmp.recipes" |
	sort -u | while IFS= read -r hit; do
	name=$(printf '%s' "$hit" | sed 's/^`\([A-Za-z0-9_]*\).*/\1/')
	file=$(printf '%s' "$hit" | grep -oE '[a-z/_]*[a-z_]+\.(c|h|def)$')
	case "$file" in */*) path=$file ;; *) path=$(where "$file") ;; esac
	found=""
	for f in $path $(for d in src/*/ views/; do [ -e "$d$file" ] && echo "$d$file"; done); do
		grep -qw -- "$name" "$f" && found=1
	done
	[ -n "$found" ] ||
		{ echo "FAIL: $map's recipes put \`$name\` in $file: not there"; exit 1; }
done || fail=1
rm -f "$tmp.dirs" "$tmp.recipes"

[ $fail -eq 0 ] && echo "docs: $n citations resolve; the module map and the tree agree both" \
	"ways; the recipes name files and identifiers that exist"
exit $fail
