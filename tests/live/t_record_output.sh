#!/bin/sh
# Output safety and error lines: an existing output needs --force (exit 2); only a
# regular file is ever replaced: a symlink, a character device, a FIFO, a socket or a
# directory at the path is refused even with --force and stays as it was; a failed run
# (a command that cannot start) leaves the old file intact; two runs racing for one
# --force output never lose a recording silently; a missing directory, a non-root user
# and a file size limit each give one clear line; a file cut by a full disk stays
# readable; a recording is 0600 unless --mode says otherwise.
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
expect2 'symbolic link' "$RQPATH" record -o "$dir/link.dat" --force --duration 0.3
[ "$(cat "$dir/target")" = secret ] || no "--force wrote through the symlink"
[ -L "$dir/link.dat" ] || no "--force removed the symlink"

# nothing but a regular file is replaced, --force or not
mknod "$dir/devnull" c 1 3 || no "mknod failed"
expect2 'character device' "$RQPATH" record -o "$dir/devnull" --force --duration 0.2
[ -c "$dir/devnull" ] || no "--force replaced a character device"
mkfifo "$dir/fifo"
expect2 'FIFO' "$RQPATH" record -o "$dir/fifo" --force --duration 0.2
[ -p "$dir/fifo" ] || no "--force replaced a FIFO"
python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$dir/sock"
expect2 'socket' "$RQPATH" record -o "$dir/sock" --force --duration 0.2
[ -S "$dir/sock" ] || no "--force replaced a socket"
mkdir "$dir/adir"
expect2 'directory' "$RQPATH" record -o "$dir/adir" --force --duration 0.2
[ -d "$dir/adir" ] || no "--force replaced a directory"

# a run that fails keeps the old file, byte for byte, and leaves no temporary file
echo precious >"$dir/precious.dat"
expect2 'cannot run' "$RQPATH" record -o "$dir/precious.dat" --force -- /nonexistent/cmd
[ "$(cat "$dir/precious.dat")" = precious ] || no "a failed --force run destroyed the old file"
"$RQPATH" record -o "$dir/precious.dat" --force --duration 0.3 2>/dev/null ||
	no "--force over a regular file failed"
trace-cmd report "$dir/precious.dat" >/dev/null 2>&1 || no "--force output does not open"
left=$(ls -A "$dir" | grep -v -x -e exists.dat -e target -e link.dat -e dangling.dat \
	-e devnull -e fifo -e sock -e adir -e precious.dat -e o -e e)
[ -z "$left" ] && echo "no temporary file left" || no "left in the directory: $left"

# two recordings racing for the same --force output: one gets the name, the other says
# where its recording is; neither is lost and neither reports success falsely
echo old >"$dir/same.dat"
"$RQPATH" record -o "$dir/same.dat" --force --duration 1.5 2>"$dir/r1.err" &
p1=$!
"$RQPATH" record -o "$dir/same.dat" --force --duration 1 2>"$dir/r2.err" &
p2=$!
wait $p1; rc1=$?
wait $p2; rc2=$?
cat "$dir/r1.err" "$dir/r2.err" | grep -v counts
[ "$rc1$rc2" = 20 ] || [ "$rc1$rc2" = 02 ] || no "racing runs: exit $rc1 and $rc2, want one 0 and one 2"
kept=$(cat "$dir/r1.err" "$dir/r2.err" | sed -n 's/.*this output is in //p' | head -1)
[ -n "$kept" ] && [ -f "$kept" ] || no "the losing run does not say where its recording is"
[ -n "$kept" ] && { trace-cmd report "$kept" >/dev/null 2>&1 || no "the kept recording does not open"; }
trace-cmd report "$dir/same.dat" >/dev/null 2>&1 || no "same.dat does not open"
[ -n "$kept" ] && rm -f "$kept"

# every task's name is in a recording: 0600 whatever the umask, --mode otherwise
# (red on c0243a9: 0644 under umask 022)
(umask 022; "$RQPATH" record -q -o "$dir/m1.dat" --duration 0.2) || no "record for the mode failed"
[ "$(stat -c %a "$dir/m1.dat")" = 600 ] || no "a recording is $(stat -c %a "$dir/m1.dat"), want 600"
(umask 077; "$RQPATH" record -q -o "$dir/m2.dat" --mode 0640 --duration 0.2) ||
	no "record --mode 0640 failed"
[ "$(stat -c %a "$dir/m2.dat")" = 640 ] || no "--mode 0640 gave $(stat -c %a "$dir/m2.dat")"
expect2 'permission bits in octal' "$RQPATH" record -o "$dir/m3.dat" --mode 0999 --duration 0.2
expect2 'permission bits in octal' "$RQPATH" record -o "$dir/m3.dat" --mode 0 --duration 0.2
rm -f "$dir/m1.dat" "$dir/m2.dat"

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
