#!/bin/sh
# `record --user NAME -- CMD` on a root shell's terminal: CMD must get no share of that
# terminal (issue 19 item 1).  A small "shell" (python, below) owns a pseudo-terminal as
# a login shell owns its terminal, runs rqpath as its foreground job there, takes the
# terminal back when rqpath ends and reads what is waiting in its input, as the next
# prompt would.  CMD is tests/helpers/tty_attack.c run as nobody:
#   ctty  its controlling terminal and its terminal fds are not the shell's
#   sti   what it pushes with ioctl(TIOCSTI) never reaches the shell's input
#         (dev.tty.legacy_tiocsti=0 refuses every push anyway: then this proves nothing
#         alone, the next two do)
#   read  a reader it leaves behind reads none of the keys typed after rqpath ended
#   io    the terminal rqpath relays works: CMD's output reaches the shell's terminal,
#         a line typed there reaches CMD
# Red on c0243a9 (CMD shared the shell's terminal: ctty equal, INJECTED in the shell's
# input with legacy_tiocsti=1, the keys typed later stolen).
. "$(dirname "$0")/lib.sh"
need python3
helper="$RQPATH_BUILD/tests/tty_attack"
[ -x "$helper" ] || { echo "skip: $helper is not built"; exit 77; }
id nobody >/dev/null 2>&1 || { echo "skip: no user nobody"; exit 77; }

dir=$(mktemp -d) || exit 1
chmod 755 "$dir"
cp "$helper" "$dir/tty_attack"
trap 'for p in "$dir"/*/reader.pid; do [ -f "$p" ] && kill "$(cat "$p")" 2>/dev/null; done;
	rm -rf "$dir"' EXIT

cat >"$dir/shell.py" <<'EOF'
import fcntl, os, pty, select, signal, sys, termios, threading, time

rqpath, helper, work, mode, typed_during, typed_after = sys.argv[1:7]
master, slave = pty.openpty()
st = os.fstat(slave)
open(work + "/shell_tty", "w").write("%d:%d\n" % (os.major(st.st_rdev), os.minor(st.st_rdev)))
seen = bytearray()			# what the terminal showed (rqpath's and CMD's output)

def drain():
	while True:
		try:
			b = os.read(master, 4096)
		except OSError:
			return
		if not b:
			return
		seen.extend(b)
threading.Thread(target=drain, daemon=True).start()

report_r, report_w = os.pipe()
go_r, go_w = os.pipe()
shell = os.fork()
if shell == 0:
	# the shell: session leader on the terminal, rqpath its foreground job
	os.close(master); os.close(report_r); os.close(go_w)
	os.setsid()
	fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
	for fd in (0, 1, 2):
		os.dup2(slave, fd)
	signal.signal(signal.SIGTTOU, signal.SIG_IGN)
	job = os.fork()
	if job == 0:
		os.setpgid(0, 0)
		signal.signal(signal.SIGTTOU, signal.SIG_DFL)
		os.execv(rqpath, [rqpath, "record", "-q", "-o", work + "/t.dat", "--user",
			"nobody", "--", helper, work, mode])
	os.setpgid(job, job)
	os.tcsetpgrp(0, job)
	_, status = os.waitpid(job, 0)
	os.tcsetpgrp(0, os.getpgrp())
	os.write(report_w, b"%d\n" % os.waitstatus_to_exitcode(status))
	os.read(go_r, 1)		# the keys typed after rqpath ended are in by now
	t = termios.tcgetattr(0)
	t[3] &= ~termios.ICANON
	t[6][termios.VMIN] = 0
	t[6][termios.VTIME] = 0
	termios.tcsetattr(0, termios.TCSANOW, t)
	got = b""
	while select.select([0], [], [], 0.3)[0]:
		b = os.read(0, 4096)
		if not b:
			break
		got += b
	os.write(report_w, got)
	os._exit(0)
os.close(slave); os.close(report_w); os.close(go_r)
if typed_during:
	time.sleep(1.0)
	os.write(master, typed_during.encode() + b"\r")
rc = b""
while not rc.endswith(b"\n"):
	b = os.read(report_r, 64)
	if not b:
		break
	rc += b
if typed_after:
	os.write(master, typed_after.encode() + b"\r")
	time.sleep(1.5)
os.write(go_w, b"g")
shell_input = b""
while True:
	b = os.read(report_r, 4096)
	if not b:
		break
	shell_input += b
os.waitpid(shell, 0)
time.sleep(0.2)
open(work + "/rc", "w").write(rc.decode())
open(work + "/shell_input", "wb").write(shell_input)
open(work + "/screen", "wb").write(bytes(seen))
EOF

# $1 mode, $2 typed while CMD runs, $3 typed after rqpath ended
run() {
	w="$dir/$1"
	mkdir -p "$w" && chmod 777 "$w"
	timeout -s KILL 60 python3 "$dir/shell.py" "$RQPATH" "$dir/tty_attack" "$w" "$1" "$2" "$3" \
		|| no "$1: the test's shell failed (exit $?)"
	echo "$1: rqpath exit $(cat "$w/rc" 2>/dev/null), shell input: $(od -c "$w/shell_input" | head -3)"
}

run ctty "" ""
run sti "" ""
run read "" "SECRET-KEYS-OF-ROOT"
run io "ping-from-root" ""

echo "legacy_tiocsti: $(sysctl -n dev.tty.legacy_tiocsti 2>/dev/null || echo unknown)"
cat "$dir/sti/sti" 2>/dev/null
echo "ctty: $(cat "$dir/ctty/ctty" 2>/dev/null); fds: $(cat "$dir/ctty/fds" 2>/dev/null | tr '\n' ' ')"

# ctty: CMD's controlling terminal and terminal fds are a pseudo-terminal of its own
[ "$(cat "$dir/ctty/rc")" = 0 ] || no "ctty: rqpath exit $(cat "$dir/ctty/rc")"
[ -s "$dir/ctty/ctty" ] || no "ctty: CMD did not run"
shell_tty=$(cat "$dir/ctty/shell_tty")
grep -qx "$shell_tty" "$dir/ctty/ctty" && no "ctty: CMD's controlling terminal is the shell's"
grep -q " $shell_tty\$" "$dir/ctty/fds" && no "ctty: CMD holds the shell's terminal open"
# sti: nothing pushed reached the shell
[ -s "$dir/sti/sti" ] || no "sti: CMD did not run"
grep -q INJECTED "$dir/sti/shell_input" && no "sti: CMD's TIOCSTI reached the root shell's input"
# read: the keys typed after rqpath ended are the shell's alone
[ -s "$dir/read/reader.pid" ] || no "read: CMD did not run"
grep -q SECRET "$dir/read/stolen" 2>/dev/null && no "read: CMD's reader read the root shell's keys"
grep -q SECRET "$dir/read/shell_input" || no "read: the keys typed did not reach the shell"
# io: the relay works both ways
grep -q 'hello from CMD' "$dir/io/screen" || no "io: CMD's output did not reach the terminal"
grep -q 'ping-from-root' "$dir/io/got" 2>/dev/null || no "io: the line typed did not reach CMD"
[ "$(cat "$dir/io/rc")" = 0 ] || no "io: rqpath exit $(cat "$dir/io/rc")"
[ -z "$(stale)" ] || no "instances left: $(stale)"
exit $fail
