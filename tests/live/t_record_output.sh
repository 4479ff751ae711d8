#!/bin/sh
# Output safety and error lines: an existing output needs --force (exit 2); a symlink is
# never followed (not even with --force, which replaces the link itself); a missing
# directory, a non-root user and a file size limit each give one clear line; a file cut
# by a full disk stays readable.
. "$(dirname "$0")/lib.sh"
need trace-cmd

dir=$(mktemp -d) || exit 1
chmod 755 "$dir"
trap 'rm -rf "$dir"' EXIT
# one line on stderr, starting with "rqpath: ", containing $1
expect2() {
	want=$1; shift
	"$@" >"$dir/o" 2>"$dir/e"
	rc=$?
	echo "\$ $* -> exit $rc: $(cat "$dir/e")"
	[ $rc -eq 2 ] || no "$*: exit $rc, want 2"
	[ "$(wc -l <"$dir/e")" -eq 1 ] || no "$*: want one line on stderr"
	grep -q "^rqpath: .*$want" "$dir/e" || no "$*: message lacks '$want'"
}

echo keep >"$dir/exists.dat"
expect2 'exists; use --force' "$RQPATH" record -o "$dir/exists.dat" --duration 0.2
[ "$(cat "$dir/exists.dat")" = keep ] || no "existing output was changed"

echo secret >"$dir/target"
ln -s "$dir/target" "$dir/link.dat"
expect2 'symbolic link' "$RQPATH" record -o "$dir/link.dat" --duration 0.2
[ "$(cat "$dir/target")" = secret ] || no "the symlink target was written"
ln -s "$dir/nothere" "$dir/dangling.dat"
expect2 'symbolic link' "$RQPATH" record -o "$dir/dangling.dat" --duration 0.2
[ -e "$dir/nothere" ] && no "a dangling symlink was followed"
"$RQPATH" record -o "$dir/link.dat" --force --duration 0.3 2>/dev/null ||
	no "--force over a symlink failed"
[ "$(cat "$dir/target")" = secret ] || no "--force wrote through the symlink"
[ -L "$dir/link.dat" ] && no "--force left the symlink in place"
trace-cmd report "$dir/link.dat" >/dev/null 2>&1 || no "--force output does not open"

expect2 'cannot create' "$RQPATH" record -o "$dir/no/such/dir/x.dat" --duration 0.2
expect2 'needs an output file' "$RQPATH" record --duration 0.2
expect2 'file-version wants 6|7' "$RQPATH" record -o "$dir/v.dat" --file-version 5

if command -v setpriv >/dev/null; then
	expect2 'record needs root (CAP_SYS_ADMIN) to use tracefs; run it with sudo' \
		setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$RQPATH" record -o "$dir/nobody.dat" --duration 0.2
	[ -e "$dir/nobody.dat" ] && no "non-root run created its output"
fi

# a file size limit behaves as a full disk: the file is cut and stays readable
(
	ulimit -f 1500
	"$RQPATH" record -o "$dir/cut.dat" --duration 20 -- sh -c \
		'i=0; while [ $i -lt 60000 ]; do i=$((i+1)); /bin/true; done' 2>"$dir/cut.err"
	echo $? >"$dir/cut.rc"
)
[ "$(cat "$dir/cut.rc")" = 2 ] || no "a file-size limit: exit $(cat "$dir/cut.rc"), want 2"
grep -q 'File too large' "$dir/cut.err" || no "a file-size limit: no 'File too large' line"
[ "$(grep -c '^rqpath: ' "$dir/cut.err")" = 1 ] || no "a file-size limit: not one error line"
cat "$dir/cut.err" | grep -v counts
size=$(stat -c %s "$dir/cut.dat" 2>/dev/null || echo 0)
[ "$size" -gt 0 ] && [ "$size" -le $((1500 * 1024)) ] || no "cut file size $size"
trace-cmd report "$dir/cut.dat" >"$dir/cut.txt" 2>&1 || no "the cut file does not open"
grep -q 'rqpath/1 snapshot done' "$dir/cut.txt" || no "the cut file lost its beginning"
[ -n "$(stale)" ] && no "instance left: $(stale)"

[ $fail -eq 0 ] && echo "PASS"
exit $fail
