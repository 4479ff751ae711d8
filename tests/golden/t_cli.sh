#!/bin/sh
# The command line comes from one option table per command (src/cli/opts.h):
# rqpath(1)'s SYNOPSIS is exactly the usage lines `rqpath help` prints from it,
# `rqpath help CMD` is `rqpath CMD --help` and lists every option of its usage line,
# and every command refuses a bad option or value with one line and exit 2.
top=${RQPATH_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
rq=${RQPATH:-$top/rqpath}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
cd "$tmp" || exit 1

# 1. SYNOPSIS = the table's usage lines (spaces collapsed: groff pads after "]" and "...")
"$rq" help >"$tmp/help" || { echo "FAIL: rqpath help exit $?"; exit 1; }
sed -n '1,/^$/p' "$tmp/help" | sed -e 's/^usage://' -e 's/^ *//' -e '/^$/d' >"$tmp/table"
[ "$(wc -l <"$tmp/table")" -ge 8 ] || { echo "FAIL: rqpath help has no usage lines"; cat "$tmp/help"; exit 1; }
noman=""
if command -v man >/dev/null 2>&1; then
	LC_ALL=C MANWIDTH=1000 man -l "$top/man/rqpath.1" 2>/dev/null | col -bx |
		sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' | sed -e '1d' -e '$d' -e 's/^ *//' \
		-e 's/  */ /g' -e 's/ *$//' -e '/^$/d' >"$tmp/man"
	if ! diff -u "$tmp/man" "$tmp/table" >"$tmp/syn.diff"; then
		echo "FAIL: rqpath(1) SYNOPSIS and the option tables differ (- man, + table):"
		cat "$tmp/syn.diff"; fail=1
	fi
else
	noman="man (man-db) is not installed: SYNOPSIS not compared"
fi

# 2. help CMD = CMD --help; every option of the usage line is explained
for cmd in live replay record audit diff explain workload "workload spawn" "workload execl" \
	   "workload idle-stack" "workload wake-llc" completion help; do
	# shellcheck disable=SC2086
	"$rq" help $cmd >"$tmp/h1" 2>&1; rc1=$?
	# shellcheck disable=SC2086
	"$rq" $cmd --help >"$tmp/h2" 2>&1; rc2=$?
	[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] || { echo "FAIL: help $cmd exit $rc1, $cmd --help exit $rc2"; fail=1; }
	cmp -s "$tmp/h1" "$tmp/h2" || { echo "FAIL: 'help $cmd' differs from '$cmd --help'"; fail=1; }
	head -1 "$tmp/h1" | grep -q "^usage: rqpath \[*$cmd" || { echo "FAIL: help $cmd: no usage line"; fail=1; }
	for o in $(head -1 "$tmp/h1" | grep -o -- '--[a-z][a-z-]*' | sort -u); do
		[ "$cmd" = audit ] && [ "$o" = "--" ] && continue
		sed -n '/^options:/,$p' "$tmp/h1" | grep -q -- " $o\b" ||
			{ echo "FAIL: help $cmd: $o is in the usage line but not explained"; fail=1; }
	done
done

# 3. bad options and values: one line on stderr, nothing on stdout, exit 2
esc=$(printf '\033')
while IFS='@' read -r expect args; do
	[ -n "$expect" ] || continue
	# shellcheck disable=SC2086
	"$rq" $args >"$tmp/out" 2>"$tmp/err"; rc=$?
	if [ $rc -ne 2 ] || [ -s "$tmp/out" ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] ||
	   ! grep -qF -- "$expect" "$tmp/err"; then
		echo "FAIL: rqpath $args: exit $rc, want 2 and one line with: $expect"
		cat "$tmp/out" "$tmp/err" | head -5; fail=1
	fi
done <<EOT
live: --buffer-kb wants an integer in 1..4194304, not '10x'@live --buffer-kb 10x
live: --buffer-kb wants an integer in 1..4194304, not '0'@live --buffer-kb=0
record: --buffer-kb wants an integer in 1..4194304, not '10x'@record -o x.dat --buffer-kb 10x
record: --duration wants a number of seconds > 0, not 'nan'@record -o x.dat --duration nan
record: --file-version wants 6|7, not '5'@record -o x.dat --file-version 5
record: -o needs a value@record -o
record: unexpected argument 'sleep'; a command to run goes after --@record -o x.dat sleep 1
record: unknown option '--bogus'@record --bogus
record: unknown option '-z'@record -qz
record: unknown option '--\\x1b[31m'@record --${esc}[31m
audit: --format wants text|json|jsonl|csv|html|perfetto, not 'xml'@audit --format xml x.dat
audit: --placements wants csv|jsonl, not 'tsv'@audit --placements tsv x.dat
audit: --threads wants an integer in 1..1024, not '0'@audit --threads 0 x.dat
audit: --duration wants a number of seconds > 0, not '-1'@audit --live --duration -1
audit: unknown option '--bogus'; see 'rqpath audit --help'@audit --bogus
diff: --format wants text|json|csv|html, not 'xml'@diff --format xml a.dat b.dat
diff: give BASE.dat NEW.dat, or BASE... -- NEW... (1 file given)@diff a.dat
explain: unknown option '--verbose'@explain --verbose
explain: one FILE at most@explain a.dat b.dat
replay: needs a FILE.dat (no trace.dat here)@replay
replay: one FILE.dat (several go with@replay -i a.dat b.dat
replay: a trace cannot be read from standard input@replay -
audit: no trace file given and no trace.dat here@audit
explain: one FILE at most@explain -i a.dat b.dat
live: -o - would send the recording to the TUI@live -o -
live: unknown option '-f' (-f is --format where there is one; write --force)@live -f -o x.dat
record: unknown option '-f' (-f is --format where there is one; write --force)@record -f -o x.dat --duration 0.1
unknown command 'nope', and no such file@nope
'/' is a directory, not a trace file@/
completion: give bash or zsh@completion fish
replay: unknown option '-x'@replay -x a.dat
workload spawn: --count wants an integer in 0..100000000, not '1e3'@workload spawn --count 1e3
workload idle-stack: --duration wants a number of seconds in (0, 3600], not '4000'@workload idle-stack --duration 4000
workload wake-llc: unexpected argument 'now'@workload wake-llc now
workload: unknown workload 'nope'@workload nope
no command 'nope'@help nope
no 'nope' in 'workload'@help workload nope
EOT

# 4. the conventions of trace-cmd and perf (rqpath(1), Command line conventions)
fx=$top/fixtures/spawn.dat
# rqpath FILE and rqpath -i FILE are replay: here without a terminal, replay's own refusal
for args in "$fx" "-i $fx" "--input=$fx" "replay -i $fx"; do
	# shellcheck disable=SC2086
	"$rq" $args </dev/null >"$tmp/out" 2>"$tmp/err"; rc=$?
	grep -q "the TUI needs a terminal" "$tmp/err" && [ $rc -eq 2 ] ||
		{ echo "FAIL: rqpath $args is not replay: exit $rc, $(cat "$tmp/err")"; fail=1; }
done
# options without a command are live's
"$rq" --buffer-kb 0 >"$tmp/out" 2>"$tmp/err"
grep -q "^rqpath: live: --buffer-kb wants" "$tmp/err" || { echo "FAIL: rqpath --buffer-kb is not live's"; fail=1; }
# trace.dat is the default input of audit and replay; -i is an input as an operand is
cp "$fx" "$tmp/trace.dat"
"$rq" audit trace.dat >"$tmp/a1" 2>&1 || { echo "FAIL: audit trace.dat exit $?"; fail=1; }
"$rq" audit >"$tmp/a2" 2>&1 || { echo "FAIL: audit (default trace.dat) exit $?"; fail=1; }
"$rq" audit -i trace.dat >"$tmp/a3" 2>&1 || { echo "FAIL: audit -i trace.dat exit $?"; fail=1; }
cmp -s "$tmp/a1" "$tmp/a2" && cmp -s "$tmp/a1" "$tmp/a3" ||
	{ echo "FAIL: audit, audit -i trace.dat and audit trace.dat differ"; fail=1; }
"$rq" replay </dev/null >/dev/null 2>"$tmp/err"
grep -q "the TUI needs a terminal" "$tmp/err" || { echo "FAIL: replay without a file did not take trace.dat"; fail=1; }
"$rq" audit -f jsonl -i trace.dat "$fx" >"$tmp/j" || { echo "FAIL: audit -i A B -f jsonl exit $?"; fail=1; }
[ "$(wc -l <"$tmp/j")" -eq 2 ] || { echo "FAIL: audit -i A B --format jsonl: not two lines"; fail=1; }
"$rq" explain -i trace.dat >"$tmp/e1" && "$rq" explain trace.dat >"$tmp/e2" && cmp -s "$tmp/e1" "$tmp/e2" ||
	{ echo "FAIL: explain -i FILE differs from explain FILE"; fail=1; }
# -o - is stdout, never a file named "-"
"$rq" audit -o - trace.dat >"$tmp/o1" || { echo "FAIL: audit -o - exit $?"; fail=1; }
cmp -s "$tmp/o1" "$tmp/a1" || { echo "FAIL: audit -o - did not write the report to stdout"; fail=1; }
"$rq" diff -f csv -o - trace.dat trace.dat >"$tmp/d1" || { echo "FAIL: diff -o - exit $?"; fail=1; }
head -1 "$tmp/d1" | grep -q '^section,' || { echo "FAIL: diff -o - did not write the CSV to stdout"; fail=1; }
[ -e "$tmp/-" ] && { echo "FAIL: -o - wrote a file named '-'"; fail=1; }
# -f is --format
"$rq" audit -f json trace.dat | head -c 1 | grep -q '{' || { echo "FAIL: audit -f json is not JSON"; fail=1; }

[ $fail -eq 0 ] || exit 1
[ -z "$noman" ] || { echo "$noman"; exit 77; }
echo "SYNOPSIS matches the option tables; help and --help agree; bad options refused"
