#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# t_output_file.sh - `audit -o` and `diff -o` (issue 19 item 3): a run that fails leaves
# the old report as it was (and creates nothing new); a symlink is never followed, a
# device, FIFO or directory never written unless --force (then the link itself is
# replaced, the device written as it is; a directory still refused); `-o -` is stdout; a report replaces an older
# regular file only with --force (without, it is refused and left) and leaves no
# temporary file; an output that is one of the inputs (the same device and inode: the
# path, a hard link, a symlink to it) is refused with or without --force; a report is
# made 0600 (narrowed by the umask); the placements and JSONL streams go the same way.
# Red on c0243a9: `audit /nonexistent -o rep.txt` emptied rep.txt, `-o link` wrote the
# link's target, `-o -` created a file named "-".  Red on 461bcf6: `audit a.dat -o
# a.dat`, `diff A B -o B` and `audit A --placements csv -o A` replaced the recording
# with the report (exit 0), an existing report was replaced without --force, and
# reports were made 0644 under umask 022.
set -u
: "${RQPATH:?}" "${RQPATH_TOP:?}"
fx="$RQPATH_TOP/fixtures/spawn.dat"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
no() { echo "FAIL: $*"; fail=1; }
# $1: exit status wanted, $2: text wanted in the one error line ("" for none)
expect() {
	want=$1 text=$2; shift 2
	timeout 20 "$@" >out 2>err </dev/null
	rc=$?
	echo "\$ $* -> exit $rc: $(head -c 300 err)"
	[ "$rc" -eq "$want" ] || no "$*: exit $rc, want $want"
	if [ -n "$text" ]; then
		[ "$(wc -l <err)" -eq 1 ] || no "$*: want one line on stderr"
		grep -q "^rqpath: .*$text" err || no "$*: message lacks '$text'"
	fi
}

for cmd in "audit" "diff $fx --"; do
	name=${cmd%% *}
	# a failed run keeps the old report and creates none
	echo old >rep.txt
	expect 2 'nonexistent' "$RQPATH" $cmd /nonexistent -o rep.txt --force
	[ "$(cat rep.txt)" = old ] || no "$name: a failed run changed the old report"
	# an existing file without --force: refused, left as it was
	expect 2 'exists; use --force' "$RQPATH" $cmd "$fx" -o rep.txt
	[ "$(cat rep.txt)" = old ] || no "$name: -o rep.txt without --force replaced it"
	expect 2 'nonexistent' "$RQPATH" $cmd /nonexistent -o new.txt
	[ -e new.txt ] && no "$name: a failed run created its output"

	# a symlink is not followed, whether its target exists or not
	echo secret >target
	ln -sf target link
	expect 2 'symbolic link' "$RQPATH" $cmd "$fx" -o link
	[ "$(cat target)" = secret ] || no "$name: -o link wrote the link's target"
	[ -L link ] || no "$name: -o link removed the link"
	ln -sf nothere dangling
	expect 2 'symbolic link' "$RQPATH" $cmd "$fx" -o dangling
	[ -e nothere ] && no "$name: -o dangling created the link's target"

	# a device, a FIFO, a directory: refused and left
	mknod dev c 1 3 2>/dev/null || no "mknod failed"
	expect 2 'character device' "$RQPATH" $cmd "$fx" -o dev
	[ -c dev ] || no "$name: the device was replaced"
	mkfifo fifo
	expect 2 'FIFO' "$RQPATH" $cmd "$fx" -o fifo
	[ -p fifo ] || no "$name: the FIFO was replaced"
	mkdir -p adir
	expect 2 'directory' "$RQPATH" $cmd "$fx" -o adir
	[ -d adir ] || no "$name: the directory was replaced"

	# --force: the link itself is replaced (never its target), a device written as it is,
	# a directory still refused
	expect 0 '' "$RQPATH" $cmd "$fx" -o link --force
	[ "$(cat target)" = secret ] || no "$name: -o link --force wrote the link's target"
	[ -f link ] && [ ! -L link ] || no "$name: -o link --force did not replace the link"
	grep -q . link || no "$name: -o link --force: no report"
	expect 0 '' "$RQPATH" $cmd "$fx" -o dev --force
	[ -c dev ] || no "$name: -o dev --force replaced the device"
	expect 2 'directory' "$RQPATH" $cmd "$fx" -o adir --force
	[ -d adir ] || no "$name: the directory was replaced with --force"
	ln -sf target link

	# -o -: stdout
	expect 0 '' "$RQPATH" $cmd "$fx" -o -
	[ -e ./- ] && no "$name: -o - created a file named '-'"
	[ -s out ] || no "$name: -o - printed nothing on stdout"
	cp out stdout.txt

	# success (--force) replaces the old report with what stdout shows, and leaves
	# nothing else
	expect 0 '' "$RQPATH" $cmd "$fx" -o rep.txt --force
	[ "$(stat -c %a rep.txt)" = 600 ] || no "$name: report made $(stat -c %a rep.txt), want 600"
	cmp -s rep.txt stdout.txt || no "$name: -o rep.txt differs from the report on stdout"
	left=$(ls -A | grep -v -x -e rep.txt -e target -e link -e dangling -e dev -e fifo \
		-e adir -e out -e err -e stdout.txt)
	[ -z "$left" ] || no "$name: left in the directory: $left"
	rm -f rep.txt target link dangling dev fifo stdout.txt
	rmdir adir
done

# an output that is one of the inputs: refused, force or not, the input left as it was
cp "$fx" a.dat
cp "$fx" b.dat
ln a.dat hard.dat
ln -s a.dat sym.dat
sum=$(cksum <a.dat)
for f in "" --force; do
	expect 2 'one of the command.s inputs' "$RQPATH" audit a.dat -o a.dat $f
	expect 2 'same file as the input' "$RQPATH" audit ./a.dat -o a.dat $f
	expect 2 'same file as the input' "$RQPATH" audit a.dat -o hard.dat $f
	expect 2 'same file as the input' "$RQPATH" audit a.dat -o sym.dat $f
	expect 2 'one of the command.s inputs' "$RQPATH" audit a.dat --placements csv -o a.dat $f
	expect 2 'one of the command.s inputs' "$RQPATH" audit --format jsonl b.dat a.dat \
		-o a.dat $f
	expect 2 'one of the command.s inputs' "$RQPATH" diff b.dat a.dat -o a.dat $f
	expect 2 'one of the command.s inputs' "$RQPATH" diff b.dat -- a.dat -o a.dat $f
done
[ "$(cksum <a.dat)" = "$sum" ] || no "an input was written over"
[ -L sym.dat ] || no "the link to the input was replaced"
rm -f a.dat b.dat hard.dat sym.dat

# umask narrows the report's 0600, never widens it
(umask 077; "$RQPATH" audit "$fx" -o narrow.txt) || no "audit -o narrow.txt failed"
[ "$(stat -c %a narrow.txt)" = 600 ] || no "report under umask 077: $(stat -c %a narrow.txt)"
(umask 0; "$RQPATH" audit "$fx" -o wide.txt) || no "audit -o wide.txt failed"
[ "$(stat -c %a wide.txt)" = 600 ] || no "report under umask 0: $(stat -c %a wide.txt)"
rm -f narrow.txt wide.txt

# without --force the refusal says what --force would do
ln -s target2 link2
"$RQPATH" audit "$fx" -o link2 2>err >/dev/null
grep -q 'force replaces the link' err || no "the refusal of a link does not mention --force"
rm -f link2 target2

# the streams of audit write the same way
echo old >rep.csv
expect 2 'nonexistent' "$RQPATH" audit --placements csv /nonexistent -o rep.csv --force
[ "$(cat rep.csv)" = old ] || no "audit --placements: a failed run changed the old file"
expect 2 'exists' "$RQPATH" audit --placements csv "$fx" -o rep.csv
[ "$(cat rep.csv)" = old ] || no "audit --placements: replaced the old file without --force"
expect 0 '' "$RQPATH" audit --placements csv "$fx" -o rep.csv --force
head -1 rep.csv | grep -q , || no "audit --placements -o: no CSV written"
ln -s rep.csv link.jsonl
expect 2 'symbolic link' "$RQPATH" audit --format jsonl "$fx" "$fx" -o link.jsonl
head -1 rep.csv | grep -q , || no "audit --format jsonl -o link: the target was written"

[ $fail -eq 0 ] && echo PASS
exit $fail
