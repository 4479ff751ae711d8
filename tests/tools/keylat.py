#!/usr/bin/env python3
"""Key-to-screen latency of the TUI, measured on a pseudo-terminal (no tmux).

keylat.py N RQPATH ARGS...: runs RQPATH ARGS on a pty (80x24, TERM=xterm), waits for the
screen to come up, then N times presses ? (the help view) and 1 (the dashboard) and times
each from the key's write to the first output that carries the new view's text ("keys
everywhere", "running task").  (Not Esc: curses waits ESCDELAY for a sequence after it.)  Prints one line per key (ms) and a last line
"median M max X".  Exit 1 if the TUI never answered."""
import os, pty, select, signal, struct, sys, time, fcntl, termios


def main():
    n = int(sys.argv[1])
    argv = sys.argv[2:]
    pid, fd = pty.fork()
    if pid == 0:
        env = dict(os.environ, TERM="xterm", LANG="C.UTF-8", RQPATH_TUI_TEST="1")
        os.execvpe(argv[0], argv, env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    buf = b""

    def read_until(pattern, timeout):
        nonlocal buf
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            r, _, _ = select.select([fd], [], [], 0.005)
            if r:
                try:
                    data = os.read(fd, 65536)
                except OSError:
                    return False
                buf += data
                if pattern in buf:
                    buf = b""
                    return True
        return False

    if not read_until(b"running task", 30):
        print("the TUI did not come up", file=sys.stderr)
        os.kill(pid, signal.SIGTERM)
        return 1
    # drain for a second (a live screen keeps changing: never wait for silence)
    end = time.monotonic() + 1.0
    while time.monotonic() < end:
        if select.select([fd], [], [], 0.05)[0]:
            os.read(fd, 65536)
    buf = b""
    times = []
    for i in range(n):
        for key, want in ((b"?", b"keys everywhere"), (b"1", b"running task")):
            t0 = time.monotonic()
            os.write(fd, key)
            if not read_until(want, 5):
                print("no answer to %r" % key, file=sys.stderr)
                os.kill(pid, signal.SIGTERM)
                return 1
            ms = (time.monotonic() - t0) * 1000
            times.append(ms)
            print("%s %.1f" % (key.decode(), ms))
            time.sleep(0.15)
    os.write(fd, b"\x03")
    # keep reading until it exits: a full pty would block its last screen writes
    end = time.monotonic() + 10
    while time.monotonic() < end:
        if select.select([fd], [], [], 0.05)[0]:
            try:
                if not os.read(fd, 65536):
                    break
            except OSError:
                break
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            break
    else:
        os.kill(pid, signal.SIGTERM)
        os.waitpid(pid, 0)
    times.sort()
    print("median %.1f max %.1f" % (times[len(times) // 2], times[-1]))
    return 0


sys.exit(main())
