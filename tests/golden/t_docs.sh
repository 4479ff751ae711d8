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
#   identifier said to be "in FILE" or "(FILE)" in that file);
# - the README starts with use: its first lines give `make run` and `make check`, its
#   first 40 lines a record, an audit and a replay command; it stays under 25 KB; every
#   docs/*.md it names exists, among them the pages its long sections moved to, and
#   those pages have the sections the README sends readers to.
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

# the README: use first, short, and what moved out of it reachable from it
readme=README
size=$(wc -c <"$readme")
[ "$size" -lt 25000 ] || { echo "FAIL: $readme is $size bytes (want < 25000)"; fail=1; }
for cmd in 'make run' 'make check'; do
	head -n 10 "$readme" | grep -qE "^ +$cmd( |\$)" ||
		{ echo "FAIL: $readme's first 10 lines do not give \`$cmd\`"; fail=1; }
done
head -n 40 "$readme" >"$tmp.head"
grep -qE '^    (sudo )?rqpath record -o [^ ]+\.dat -- ' "$tmp.head" ||
	{ echo "FAIL: no 'rqpath record -o X.dat -- CMD' in $readme's first 40 lines"; fail=1; }
grep -qE '^    rqpath audit [^ -][^ ]*\.dat' "$tmp.head" ||
	{ echo "FAIL: no 'rqpath audit X.dat' in $readme's first 40 lines"; fail=1; }
grep -qE '^    rqpath (replay )?[^ -][^ ]*\.dat( |$)' "$tmp.head" ||
	{ echo "FAIL: no replay command ('rqpath X.dat') in $readme's first 40 lines"; fail=1; }
rm -f "$tmp.head"
for f in $(grep -oE 'docs/[A-Za-z0-9_-]+\.md' "$readme" | sort -u); do
	[ -f "$f" ] || { echo "FAIL: $readme names $f, which does not exist"; fail=1; }
done
# the moved sections: each page linked from the README, with its key headings
check_page() {
	page=$1; shift
	grep -qF "$page" "$readme" || { echo "FAIL: $readme does not link $page"; fail=1; }
	[ -f "$page" ] || { echo "FAIL: $page does not exist"; fail=1; return; }
	for h in "$@"; do
		grep -qxF "$h" "$page" || { echo "FAIL: $page has no heading '$h'"; fail=1; }
	done
}
check_page docs/verdicts.md '# Verdicts: no count without proof' \
	'## Exact, inferred, possible, not judged' '## Plain trace-cmd recordings' \
	'## How the verdicts are checked'
check_page docs/truth.md '# Kernel truth: the model measured' '## What the records hold' \
	'## Truth checked against the trace' \
	'## The truth tier: the model'"'"'s precision and recall' \
	'## Other kernels and topologies: the kernel tier' '## Validate your own scheduler patch'
check_page docs/performance.md '# Performance' '## make bench' '## Replay speed' \
	'## Output sizes' '## Scale: 256 CPUs, 10 k tasks, 100 M events' '## Recording' \
	'## Kernel truth'"'"'s cost' '## The TUI'
check_page docs/reliability.md '# Reliability' '## Bad input' '## While recording'
# the pages keep current figures, not the story of how they came about
if grep -niE 'earlier today|(this|last) round|round before|kept for the record|tried, not kept' \
	docs/verdicts.md docs/truth.md docs/performance.md docs/reliability.md "$readme"; then
	echo "FAIL: the lines above tell history; give the current figure and its command"; fail=1
fi

[ $fail -eq 0 ] && echo "docs: $n citations resolve; the module map and the tree agree both" \
	"ways; the recipes name files and identifiers that exist; the README ($size bytes)" \
	"starts with use and links the pages its sections moved to"
exit $fail
