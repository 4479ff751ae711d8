// SPDX-License-Identifier: GPL-2.0
/*
 * child.c - the command of `record -- CMD` and `audit --live -- CMD`, and the signals
 * of a recording.  The recorder (src/input/tracefs.c) starts no process and catches no
 * signal; it calls the hooks made here: start once tracing is on, ended at each step,
 * stop when the recording ends first.
 *
 * The terminal.  A command run as root (rqpath's own user) shares rqpath's terminal the
 * way a shell's job does: its own process group in the foreground, given back when it
 * ends or stops (^Z).  A command run as another user (--user, or the user who ran sudo)
 * must not share root's terminal at all: a process on a terminal that it shares with a
 * root shell can push input into it (ioctl TIOCSTI), and one that keeps the terminal
 * open can read root's keys after rqpath has gone.  Such a command gets a session of its
 * own (setsid: no controlling terminal of rqpath's) and, where rqpath's stdin, stdout or
 * stderr is a terminal, a pseudo-terminal in its place that a thread of rqpath relays:
 * rqpath's terminal input (raw, so ^C and ^D reach the command's terminal) to the
 * command, the command's terminal output to rqpath's.  When the recording ends the
 * pseudo-terminal is closed: whatever of the command is left there has lost it.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "child.h"
#include "escape.h"

/* ---- the signals of a recording ---------------------------------------------------- */

volatile sig_atomic_t cli_stop_signal;

/* Every signal whose default action ends the process: rqpath cleans up on each. */
static const int stop_signals[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE, SIGVTALRM,
	SIGPROF, SIGXCPU, SIGIO, SIGPWR, SIGSTKFLT,
};
#define NR_STOP_SIGNALS (sizeof(stop_signals) / sizeof(stop_signals[0]))

static struct sigaction old_stop[NR_STOP_SIGNALS], old_xfsz;
static bool caught;

static void on_stop_signal(int sig)
{
	cli_stop_signal = sig;
}

void cli_catch_stop_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	cli_stop_signal = 0;
	for (size_t i = 0; i < NR_STOP_SIGNALS; i++)
		sigaction(stop_signals[i], &sa, &old_stop[i]);
	/* a file size limit is a full disk for the recorder, not a reason to die */
	sa.sa_handler = SIG_IGN;
	sigaction(SIGXFSZ, &sa, &old_xfsz);
	caught = true;
}

void cli_restore_signals(void)
{
	if (!caught)
		return;
	for (size_t i = 0; i < NR_STOP_SIGNALS; i++)
		sigaction(stop_signals[i], &old_stop[i], NULL);
	sigaction(SIGXFSZ, &old_xfsz, NULL);
	caught = false;
}

/* ---- the pseudo-terminal of a command run as another user -------------------------- */

struct cli_relay {
	int master;		/* O_NONBLOCK */
	char slave[64];		/* its name, opened by the child */
	int in_fd;		/* rqpath's terminal input relayed to the command, -1: none */
	int out_fd;		/* where the command's terminal output goes, -1: dropped */
	struct termios tio;	/* rqpath's terminal's settings, copied to the command's */
	struct winsize ws;
	bool have_tio, have_ws;
	bool raw;		/* in_fd is in raw mode until the relay ends */
	int wake[2];		/* a byte here: drain the output and end */
	pthread_t thread;
	bool running;
	struct sigaction old_winch;
};

static volatile sig_atomic_t winch;

static void on_winch(int sig)
{
	winch = 1;
}

/* Write all of buf to a non-blocking fd, waiting at most about a second in all. */
static void relay_write(int fd, const char *buf, size_t len)
{
	int tries = 0;

	while (len && fd >= 0) {
		ssize_t n = write(fd, buf, len);

		if (n > 0) {
			buf += n;
			len -= (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN && tries++ < 20) {
			struct pollfd p = { .fd = fd, .events = POLLOUT };

			poll(&p, 1, 50);
			continue;
		}
		return;	/* the reader is gone or stuck: drop it */
	}
}

/* Copy what the command wrote to its terminal; false once no process holds it. */
static bool relay_output(struct cli_relay *r)
{
	char buf[4096];
	ssize_t n = read(r->master, buf, sizeof(buf));

	if (n > 0) {
		relay_write(r->out_fd, buf, (size_t)n);
		return true;
	}
	return n < 0 && (errno == EAGAIN || errno == EINTR);
}

static void *relay_thread(void *arg)
{
	struct cli_relay *r = arg;
	bool finishing = false;

	for (;;) {
		struct pollfd p[3] = {
			{ .fd = r->master, .events = POLLIN },
			{ .fd = r->wake[0], .events = POLLIN },
			{ .fd = r->in_fd, .events = POLLIN },
		};
		int n = poll(p, r->in_fd >= 0 ? 3 : 2, finishing ? 0 : 250);

		if (winch && r->in_fd >= 0) {
			struct winsize ws;

			winch = 0;
			if (ioctl(r->in_fd, TIOCGWINSZ, &ws) == 0)
				ioctl(r->master, TIOCSWINSZ, &ws);
		}
		if (n < 0 && errno != EINTR)
			break;
		if (n <= 0) {
			if (finishing)
				break;	/* drained */
			continue;
		}
		if (p[0].revents && !relay_output(r))
			break;	/* EIO: the command and all it started closed the terminal */
		if (p[1].revents)
			finishing = true;
		if (!finishing && r->in_fd >= 0 && p[2].revents) {
			char buf[1024];
			ssize_t k = read(r->in_fd, buf, sizeof(buf));

			if (k > 0)
				relay_write(r->master, buf, (size_t)k);
			else if (k == 0 || errno != EINTR)
				r->in_fd = -1;	/* end of rqpath's input: nothing more to relay */
		}
	}
	return NULL;
}

static void relay_free(struct cli_relay *r)
{
	if (!r)
		return;
	if (r->raw)
		tcsetattr(r->in_fd, TCSAFLUSH, &r->tio);
	if (r->master >= 0)
		close(r->master);	/* hangs up the command's terminal */
	if (r->wake[0] >= 0)
		close(r->wake[0]);
	if (r->wake[1] >= 0)
		close(r->wake[1]);
	free(r);
}

/*
 * The pseudo-terminal, when rqpath's stdin, stdout or stderr is a terminal (NULL, and
 * no error, when none is).  The relay starts once the child has its end.
 */
static struct cli_relay *relay_new(const struct cli_child *c, char *err, size_t errlen)
{
	struct cli_relay *r;
	int tty = -1;

	for (int fd = 0; fd <= 2 && tty < 0; fd++)
		if (isatty(fd))
			tty = fd;
	if (tty < 0)
		return NULL;
	r = calloc(1, sizeof(*r));
	if (!r) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	r->master = -1;
	r->wake[0] = r->wake[1] = -1;
	r->in_fd = r->out_fd = -1;
	r->have_tio = tcgetattr(tty, &r->tio) == 0;
	r->have_ws = ioctl(tty, TIOCGWINSZ, &r->ws) == 0;
	r->master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (r->master < 0 || grantpt(r->master) < 0 || unlockpt(r->master) < 0 ||
	    ptsname_r(r->master, r->slave, sizeof(r->slave)) != 0 ||
	    pipe2(r->wake, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "cannot open a terminal for the command: %s",
			 strerror(errno));
		relay_free(r);
		return NULL;
	}
	/* the command's own terminal is its user's, as login gives one */
	if (chown(r->slave, (uid_t)c->run_uid, (gid_t)c->run_gid) < 0 ||
	    chmod(r->slave, 0620) < 0) {
		snprintf(err, errlen, "cannot give the command its terminal: %s", strerror(errno));
		relay_free(r);
		return NULL;
	}
	fcntl(r->master, F_SETFL, fcntl(r->master, F_GETFL) | O_NONBLOCK);
	/*
	 * Keys are relayed only while rqpath is in its terminal's foreground: reading it
	 * from the background would stop rqpath (SIGTTIN).
	 */
	if (isatty(STDIN_FILENO) && tcgetpgrp(STDIN_FILENO) == getpgrp())
		r->in_fd = STDIN_FILENO;
	r->out_fd = isatty(STDOUT_FILENO) ? STDOUT_FILENO : isatty(STDERR_FILENO) ?
		    STDERR_FILENO : -1;
	return r;
}

/* In the parent, once the child holds the terminal: raw keys, and the thread. */
static int relay_start(struct cli_relay *r, char *err, size_t errlen)
{
	struct sigaction sa;

	if (r->in_fd >= 0 && r->have_tio) {
		struct termios raw = r->tio;

		/* keys go through as typed (^C, ^Z, ^D act on the command's terminal) */
		raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO | ISIG | IEXTEN);
		raw.c_iflag &= ~(tcflag_t)(IXON | ICRNL | INLCR | IGNCR | ISTRIP | BRKINT);
		raw.c_cc[VMIN] = 1;
		raw.c_cc[VTIME] = 0;
		r->raw = tcsetattr(r->in_fd, TCSAFLUSH, &raw) == 0;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_winch;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	winch = 0;
	sigaction(SIGWINCH, &sa, &r->old_winch);
	errno = pthread_create(&r->thread, NULL, relay_thread, r);
	if (errno) {
		snprintf(err, errlen, "cannot relay the command's terminal: %s", strerror(errno));
		sigaction(SIGWINCH, &r->old_winch, NULL);
		return -1;
	}
	r->running = true;
	return 0;
}

/* The command has ended (or is ended): its last output, then the terminal is closed. */
static void relay_end(struct cli_relay *r)
{
	if (!r)
		return;
	if (r->running) {
		if (write(r->wake[1], "", 1) < 0)
			(void)0;
		pthread_join(r->thread, NULL);
		sigaction(SIGWINCH, &r->old_winch, NULL);
	}
	relay_free(r);
}

/* In the child: a session of its own, and the pseudo-terminal for every terminal fd. */
static int child_own_session(struct cli_relay *r)
{
	int fd;

	if (setsid() < 0)
		return -1;
	if (!r)
		return 0;
	/* the first terminal a session leader without one opens becomes its own */
	fd = open(r->slave, O_RDWR);
	if (fd < 0 || ioctl(fd, TIOCSCTTY, 0) < 0)
		return -1;
	if (r->have_tio)
		tcsetattr(fd, TCSANOW, &r->tio);
	if (r->have_ws)
		ioctl(fd, TIOCSWINSZ, &r->ws);
	for (int i = 0; i <= 2; i++)
		if (isatty(i) && dup2(fd, i) < 0)
			return -1;
	if (fd > 2)
		close(fd);
	return 0;
}

/* ---- the command ------------------------------------------------------------------- */

/* The command runs as another user: it gets no share of rqpath's terminal. */
static bool isolated(const struct cli_child *c)
{
	return c->run_uid > 0;
}

/* The terminal to the command's process group (SIGTTOU blocked: we may be asked). */
static void give_tty(struct cli_child *c, pid_t pgrp)
{
	sigset_t ttou, old;

	sigemptyset(&ttou);
	sigaddset(&ttou, SIGTTOU);
	sigprocmask(SIG_BLOCK, &ttou, &old);
	if (tcsetpgrp(STDIN_FILENO, pgrp) == 0)
		c->tty_given = c->had_tty = true;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* The terminal back to rqpath's process group, once the command has ended. */
static void take_tty_back(struct cli_child *c)
{
	sigset_t ttou, old;

	if (!c->tty_given)
		return;
	sigemptyset(&ttou);
	sigaddset(&ttou, SIGTTOU);
	sigprocmask(SIG_BLOCK, &ttou, &old);
	tcsetpgrp(STDIN_FILENO, getpgrp());
	sigprocmask(SIG_SETMASK, &old, NULL);
	c->tty_given = false;
}

/* In the child, between fork and exec: report why it failed through fd and exit. */
static void child_fail(int fd, int e)
{
	ssize_t r = write(fd, &e, sizeof(e));

	(void)r;
	_exit(127);
}

static void child_exec(struct cli_child *c, int errfd)
{
	sigset_t none;

	for (size_t i = 0; i < NR_STOP_SIGNALS; i++)
		signal(stop_signals[i], SIG_DFL);
	signal(SIGXFSZ, SIG_DFL);
	signal(SIGTTOU, SIG_DFL);
	signal(SIGWINCH, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (isolated(c)) {
		if (child_own_session(c->relay) < 0)
			child_fail(errfd, errno);
	} else {
		setpgid(0, 0);
	}
	/*
	 * Nothing of rqpath's reaches the command: every descriptor above stderr is closed
	 * on exec (the ring-buffer fds of libtracefs are not O_CLOEXEC), except errfd,
	 * which is already close-on-exec and reports a failed exec.
	 */
	if (close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) < 0) {
		long max = sysconf(_SC_OPEN_MAX);

		for (int fd = 3; fd < (max > 0 ? max : 1024); fd++)
			if (fd != errfd)
				close(fd);
	}
	if (c->run_uid > 0) {
		if (c->run_user ? initgroups(c->run_user, (gid_t)c->run_gid) < 0 :
				  setgroups(0, NULL) < 0)
			child_fail(errfd, errno);
		if (setgid((gid_t)c->run_gid) < 0 || setuid((uid_t)c->run_uid) < 0)
			child_fail(errfd, errno);
		if (setuid(0) == 0)	/* root must be gone for good */
			child_fail(errfd, EPERM);
	}
	/*
	 * Ends with rqpath, even with a kill -9 of rqpath that no handler sees.  Set after
	 * the change of user, which clears it; rqpath may have ended already before it
	 * was set, which the parent's pid says (the child is then another's)
	 */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		child_fail(errfd, errno);
	if (getppid() != c->parent)
		_exit(127);
	/* the target user's environment, made before the fork (execvp searches its PATH) */
	if (c->envp)
		environ = c->envp;
	execvp(c->argv[0], c->argv);
	child_fail(errfd, errno);
}

static void stop_child(struct cli_child *c)
{
	int status;

	if (!c->pid || c->done)
		return;
	/* rqpath ends it (duration, signal, error): its exit status is not its own verdict */
	c->stopped = true;
	kill(-c->pid, SIGTERM);
	kill(c->pid, SIGTERM);
	for (int i = 0; i < 40; i++) {
		if (waitpid(c->pid, &status, WNOHANG) == c->pid) {
			c->status = status;
			c->done = true;
			break;
		}
		usleep(50000);
	}
	if (!c->done) {
		kill(-c->pid, SIGKILL);
		kill(c->pid, SIGKILL);
		if (waitpid(c->pid, &status, 0) == c->pid)
			c->status = status;
		c->done = true;
	}
}

static int hook_start(void *ctx, char *err, size_t errlen)
{
	struct cli_child *c = ctx;
	int pfd[2];
	int child_errno = 0;
	ssize_t r;
	pid_t pid;

	if (isolated(c)) {
		c->relay = relay_new(c, err, errlen);
		if (!c->relay && err[0])
			return -1;
	}
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "cannot start %s: %s", c->argv[0], strerror(errno));
		relay_end(c->relay);
		c->relay = NULL;
		return -1;
	}
	fflush(NULL);
	c->parent = getpid();
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "cannot start %s: %s", c->argv[0], strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		relay_end(c->relay);
		c->relay = NULL;
		return -1;
	}
	if (pid == 0) {
		close(pfd[0]);
		child_exec(c, pfd[1]);
	}
	if (!isolated(c)) {
		setpgid(pid, pid);
		/*
		 * A command on a terminal gets the terminal: its own process group in the
		 * foreground, so that it can read it (a background group gets EIO or
		 * SIGTTIN).  Given back when it ends or stops.
		 */
		if (c->foreground && isatty(STDIN_FILENO) &&
		    tcgetpgrp(STDIN_FILENO) == getpgrp())
			give_tty(c, pid);
	}
	close(pfd[1]);
	do {
		r = read(pfd[0], &child_errno, sizeof(child_errno));
	} while (r < 0 && errno == EINTR);
	close(pfd[0]);
	c->pid = pid;
	if (r == sizeof(child_errno)) {
		char name[256];

		waitpid(pid, &c->status, 0);
		take_tty_back(c);
		relay_end(c->relay);
		c->relay = NULL;
		c->pid = 0;
		c->done = true;
		rq_escape_c(c->argv[0], strlen(c->argv[0]), name, sizeof(name));
		snprintf(err, errlen, "cannot run %s: %s", name, strerror(child_errno));
		return -1;
	}
	if (c->relay && relay_start(c->relay, err, errlen) < 0) {
		stop_child(c);
		relay_end(c->relay);
		c->relay = NULL;
		return -1;
	}
	return 0;
}

static bool hook_ended(void *ctx)
{
	struct cli_child *c = ctx;
	int status;

	if (!c->pid || c->done)
		return true;
	if (waitpid(c->pid, &status, WNOHANG | WUNTRACED) != c->pid)
		return false;
	if (WIFSTOPPED(status)) {
		/*
		 * ^Z on the command's terminal: stop as a job does, with the terminal given
		 * back, and on SIGCONT (fg) hand it to the command again and resume it.
		 */
		if (!c->tty_given)
			return false;
		take_tty_back(c);
		raise(SIGSTOP);
		give_tty(c, c->pid);
		kill(-c->pid, SIGCONT);
		return false;
	}
	c->status = status;
	c->done = true;
	take_tty_back(c);
	return true;
}

static void hook_stop(void *ctx)
{
	struct cli_child *c = ctx;

	stop_child(c);
	/* the rest of its process group gets no grace either */
	if (c->pid)
		kill(-c->pid, SIGKILL);
	take_tty_back(c);
	relay_end(c->relay);
	c->relay = NULL;
}

const struct rq_record_cmd *cli_child_init(struct cli_child *c, char **argv)
{
	c->argv = argv;
	c->status = -1;
	c->stopped = false;
	c->pid = 0;
	c->done = false;
	c->tty_given = false;
	c->relay = NULL;
	if (!argv || !argv[0])
		return NULL;
	c->hooks.start = hook_start;
	c->hooks.ended = hook_ended;
	c->hooks.stop = hook_stop;
	c->hooks.ctx = c;
	return &c->hooks;
}

/*
 * The environment of a command run as a user, as `su -` and sudo's env_reset make it:
 * HOME, SHELL, USER and LOGNAME of that user, the standard PATH for it (login.defs'
 * defaults), TERM kept; nothing else of rqpath's.  Made before the fork (no allocation
 * between fork and exec), in static storage: one command a run.
 */
#define ENV_MAX 6
static char env_text[ENV_MAX][PATH_MAX + 16];
static char *env_vec[ENV_MAX + 1];

static bool env_add(int *n, const char *key, const char *value)
{
	int len = snprintf(env_text[*n], sizeof(env_text[*n]), "%s=%s", key, value);

	if (len < 0 || (size_t)len >= sizeof(env_text[*n]))
		return false;
	env_vec[*n] = env_text[*n];
	(*n)++;
	env_vec[*n] = NULL;
	return true;
}

static int make_env(struct cli_child *c, const struct passwd *pw, char *err, size_t errlen)
{
	const char *term = getenv("TERM");
	const char *name, *home, *shell;
	char num[24];
	int n = 0;

	snprintf(num, sizeof(num), "%ld", c->run_uid);
	name = pw && pw->pw_name && pw->pw_name[0] ? pw->pw_name : num;
	home = pw && pw->pw_dir && pw->pw_dir[0] ? pw->pw_dir : "/";
	shell = pw && pw->pw_shell && pw->pw_shell[0] ? pw->pw_shell : "/bin/sh";
	if (!env_add(&n, "HOME", home) || !env_add(&n, "SHELL", shell) ||
	    !env_add(&n, "USER", name) || !env_add(&n, "LOGNAME", name) ||
	    !env_add(&n, "PATH", c->run_uid == 0 ?
		     "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" :
		     "/usr/local/bin:/usr/bin:/bin") ||
	    (term && !env_add(&n, "TERM", term))) {
		snprintf(err, errlen, "the environment of the user's command is too long");
		return -1;
	}
	c->envp = env_vec;
	return 0;
}

/* The group of a uid without a passwd entry: nogroup (or nobody), else 65534. */
static long group_of_nobody(void)
{
	struct group *gr = getgrnam("nogroup");

	if (!gr)
		gr = getgrnam("nobody");
	return gr ? (long)gr->gr_gid : 65534;
}

int cli_child_user(struct cli_child *c, const char *user, bool preserve_env, char *err,
		   size_t errlen)
{
	const char *su = getenv("SUDO_UID"), *sg = getenv("SUDO_GID");
	struct passwd *pw = NULL;
	char esc[256];

	c->run_uid = 0;
	c->run_gid = 0;
	c->run_user = NULL;
	c->envp = NULL;
	if (user) {
		bool numeric = false;
		char *end;
		long id = -1;

		rq_escape_c(user, strlen(user), esc, sizeof(esc));
		if (*user >= '0' && *user <= '9') {
			errno = 0;
			id = strtol(user, &end, 10);
			numeric = !*end && !errno && id >= 0 && id < (long)(uid_t)-1;
		}
		pw = numeric ? getpwuid((uid_t)id) : getpwnam(user);
		if (!pw && !numeric) {
			snprintf(err, errlen, "--user %s: no such user", esc);
			return -1;
		}
		if ((pw ? pw->pw_uid : (uid_t)id) != 0 && geteuid() != 0) {
			snprintf(err, errlen, "--user needs root");
			return -1;
		}
		if (pw) {
			c->run_uid = pw->pw_uid;
			c->run_gid = pw->pw_gid;
			c->run_user = pw->pw_name;	/* static storage: used before exec */
		} else {
			/* a uid without a passwd entry: no groups of its own (setgroups 0) */
			c->run_uid = id;
			c->run_gid = group_of_nobody();
		}
		return preserve_env ? 0 : make_env(c, pw, err, errlen);
	}
	if (geteuid() != 0 || !su || !sg)
		return 0;
	{
		char *e1, *e2;
		long uid = strtol(su, &e1, 10), gid = strtol(sg, &e2, 10);

		if (!*su || *e1 || !*sg || *e2 || uid < 0 || gid < 0) {
			snprintf(err, errlen, "SUDO_UID/SUDO_GID are not numbers; use --user NAME");
			return -1;
		}
		c->run_uid = uid;
		c->run_gid = gid;
		pw = getpwuid((uid_t)uid);
		c->run_user = pw ? pw->pw_name : NULL;
	}
	return preserve_env || c->run_uid == 0 ? 0 : make_env(c, pw, err, errlen);
}

int cli_child_failed(const struct cli_child *c, char *msg, size_t size)
{
	char name[256];
	int ws = c->status;

	if (!c->argv || !c->argv[0] || ws < 0 || c->stopped)
		return 0;
	rq_escape_c(c->argv[0], strlen(c->argv[0]), name, sizeof(name));
	if (WIFEXITED(ws) && WEXITSTATUS(ws) == 0)
		return 0;
	/*
	 * The user's stop: Ctrl-C at the terminal whose foreground group is the command's
	 * (had_tty), or its pseudo-terminal (relay), reaches the command alone, which ends of SIGINT (a shell: with status
	 * 130), and the recording ends with it; a SIGINT to rqpath reaches both.  Either is
	 * the user's end of the run, as in trace-cmd and perf, not a failure.
	 */
	if ((c->had_tty || c->relay || cli_stop_signal == SIGINT) &&
	    ((WIFSIGNALED(ws) && WTERMSIG(ws) == SIGINT) ||
	     (WIFEXITED(ws) && WEXITSTATUS(ws) == 128 + SIGINT)))
		return 0;
	if (cli_stop_signal && WIFSIGNALED(ws) && WTERMSIG(ws) == cli_stop_signal)
		return 0;
	if (WIFEXITED(ws))
		snprintf(msg, size, "%s exited with status %d", name, WEXITSTATUS(ws));
	else if (WIFSIGNALED(ws))
		snprintf(msg, size, "%s was killed by SIG%s%s", name,
			 sigabbrev_np(WTERMSIG(ws)) ? sigabbrev_np(WTERMSIG(ws)) : "?",
			 WCOREDUMP(ws) ? " (core dumped)" : "");
	else
		snprintf(msg, size, "%s ended with wait status %#x", name, ws);
	return 1;
}
