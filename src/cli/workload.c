// SPDX-License-Identifier: GPL-2.0
/*
 * workload.c - `rqpath workload NAME`: built-in reproducers of each pathology.
 *
 * Each reproducer is small enough to read as teaching material and ends with one
 * summary line of key=value pairs on stdout, so that tests can compare a trace
 * against what the workload says it did:
 *
 *   spawn       fork/exit loop (UnixBench spawn)            -> offcpu-fork
 *   execl       exec loop, optionally pinned (UnixBench execl) -> needless-callback
 *   idle-stack  SCHED_IDLE sleepers beside a SCHED_IDLE hog  -> idle-stacking
 *   wake-llc    pipe ping-pong beside a CPU hog               -> missed-idle
 *
 * Children always live in a process group of their own; SIGINT/SIGTERM and the
 * normal end kill that group, and every busy child also has its own deadline and
 * PR_SET_PDEATHSIG, so no busy loop can outlive the run.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "commands.h"
#include "escape.h"

#define WL_MAX_SLEEPERS 64

/* Set by the signal handler; the loops check it and stop cleanly. */
static volatile sig_atomic_t wl_stop;
/* The process group of the children, 0 while there is none. */
static volatile pid_t wl_pgid;

static void wl_on_signal(int sig)
{
	wl_stop = sig;
	/* Kill at once: the main loop may sit in a long wait before it looks at wl_stop. */
	if (wl_pgid > 0)
		kill(-wl_pgid, SIGKILL);
}

static void wl_install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = wl_on_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: waits and sleeps must return EINTR so that we notice wl_stop. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / 1000000000ull),
		.tv_nsec = (long)(ns % 1000000000ull),
	};

	nanosleep(&ts, NULL);
}

/* Spin without sleeping for ns: the "short burst of work" of a sleeper. */
static void spin_ns(uint64_t ns)
{
	uint64_t end = now_ns() + ns;

	while (now_ns() < end)
		;
}

/* ---------------------------------------------------------------- options */

static int wl_spawn(int argc, char **argv);
static int wl_execl(int argc, char **argv);
static int wl_idle_stack(int argc, char **argv);
static int wl_wake_llc(int argc, char **argv);

enum { OPT_COUNT = 256, OPT_PIN, OPT_REMAINING, OPT_START, OPT_DURATION, OPT_SLEEPERS,
       OPT_CONTROL };

static const struct cli_option spawn_options[] = {
	{ "count", OPT_COUNT, CLI_INT, "N", 0, 100000000, 0, "forks (default 1000)" },
	{ NULL },
};

static const struct cli_option execl_options[] = {
	{ "count", OPT_COUNT, CLI_INT, "N", 0, 10000000, 0, "execs (default 200)" },
	{ "pin", OPT_PIN, CLI_INT, "CPU", -1, CPU_SETSIZE - 1, 0,
	  "pin the process to CPU first (-1: do not)" },
	/* the chain of images passes its state on in these */
	{ "_remaining", OPT_REMAINING, CLI_INT, "N", 0, 10000000, CLI_HIDDEN, "" },
	{ "_start", OPT_START, CLI_INT, "NS", 0, LONG_MAX, CLI_HIDDEN, "" },
	{ NULL },
};

static const struct cli_option idle_stack_options[] = {
	{ "duration", OPT_DURATION, CLI_SECONDS, "S", 0, 3600, 0, "run S seconds (default 2)" },
	{ "sleepers", OPT_SLEEPERS, CLI_INT, "N", 1, WL_MAX_SLEEPERS, 0,
	  "SCHED_IDLE sleepers (default 4)" },
	{ "control", OPT_CONTROL, CLI_FLAG, NULL, 0, 0, 0, "the same with SCHED_OTHER" },
	{ NULL },
};

static const struct cli_option wake_llc_options[] = {
	{ "count", OPT_COUNT, CLI_INT, "N", 1, 100000000, 0, "round trips (default 20000)" },
	{ NULL },
};

static const struct cli_command workloads[] = {
	{
		.name = "workload spawn",
		.fn = wl_spawn,
		.summary = "fork/exit loop (UnixBench spawn): wake_up_new_task(), offcpu-fork",
		.description =
			"Fork a child that exits immediately, wait for it, N times (default\n"
			"1000), like UnixBench spawn.  Each fork is one sched_wakeup_new; the\n"
			"record CPU is the parent's, target_cpu the chosen one.\n"
			"Summary: workload=spawn forks=N pid=P duration_ms=D",
		.options = spawn_options,
	},
	{
		.name = "workload execl",
		.fn = wl_execl,
		.summary = "exec loop (UnixBench execl): sched_exec() runs the class callback "
			   "even when pinned",
		.description =
			"Re-execute /proc/self/exe N times (default 200), like UnixBench execl.\n"
			"With --pin CPU the process first calls sched_setaffinity(0, {CPU}), so\n"
			"every sched_exec() runs select_task_rq for a task that can only run on\n"
			"one CPU (needless-callback on kernels without the fix).\n"
			"Summary (printed by the last image): workload=execl execs=N\n"
			"pinned_cpu=CPU|-1 pid=P duration_ms=D",
		.options = execl_options,
	},
	{
		.name = "workload idle-stack",
		.fn = wl_idle_stack,
		.summary = "SCHED_IDLE sleepers stacked onto a CPU running a SCHED_IDLE hog "
			   "(before 7.1)",
		.description =
			"One hog pinned to CPU 0 turns SCHED_IDLE (sched_setscheduler(0,\n"
			"SCHED_IDLE)), spins, and every ~1 ms wakes one of N sleepers (default\n"
			"4, each SCHED_IDLE and unpinned) through a pipe; a sleeper works ~50 us\n"
			"per wakeup.  Kernels before 7.1 place these wakeups onto CPU 0\n"
			"(sched_idle_cpu()) while another CPU is idle: idle-stacking.\n"
			"--control does the same with SCHED_OTHER.\n"
			"Runs S seconds (default 2).\n"
			"Summary: workload=idle-stack control=0|1 policy=5|0 hog_pid=P hog_cpu=0\n"
			"sleepers=N sleeper_pids=P,P,... wakeups=N duration_ms=D",
		.options = idle_stack_options,
	},
	{
		.name = "workload wake-llc",
		.fn = wl_wake_llc,
		.summary = "pipe ping-pong beside a CPU hog: wakeups that pass an idle CPU of "
			   "the LLC",
		.description =
			"A SCHED_OTHER hog pinned to CPU 0 spins while two unpinned processes\n"
			"ping-pong one byte through pipes N times (default 20000).  Wakeups that\n"
			"land on the hog's CPU while another CPU of the LLC is idle are the\n"
			"missed-idle finding (select_idle_cpu() and its SIS_UTIL cut-off).\n"
			"Summary: workload=wake-llc round_trips=N wakeups=2N hog_pid=P hog_cpu=0\n"
			"ping_pid=P pong_pid=P duration_ms=D",
		.options = wake_llc_options,
	},
	{ NULL },
};

static int cmd_workload(int argc, char **argv);

const struct cli_command cli_workload = {
	.name = "workload",
	.fn = cmd_workload,
	.lead = "spawn|execl|idle-stack|wake-llc",
	.operands = "[OPTIONS]",
	.summary = "built-in reproducers of each pathology",
	.description =
		"Built-in reproducers of the placements rqpath flags; each ends with one\n"
		"key=value summary line on stdout.  Run them under `rqpath record` or\n"
		"`rqpath audit --live -- rqpath workload ...`.",
	.subcommands = workloads,
};

/*
 * The next option of a workload, or CLI_END; CLI_ERROR when the workload must not run,
 * with *ret its exit status (the help printed, or one error line said).
 */
static int wl_next(struct cli_parser *p, int *ret)
{
	int opt = cli_next(p);
	char esc[256];

	switch (opt) {
	case CLI_HELP:
	case CLI_ERROR:
		*ret = cli_stop(p, opt);
		return CLI_ERROR;
	case CLI_END:
		if (p->optind >= p->argc)
			return CLI_END;
		rq_escape_c(p->argv[p->optind], strlen(p->argv[p->optind]), esc, sizeof(esc));
		rq_error("%s: unexpected argument '%s'; see 'rqpath %s --help'", p->cmd->name,
			 esc, p->cmd->name);
		*ret = RQ_EXIT_ERROR;
		return CLI_ERROR;
	}
	return opt;
}

/* ---------------------------------------------------------------- children */

/*
 * Common start of every child: join the workload's process group and die with the
 * parent, so that neither a signal to the group nor the parent's death can leave it
 * behind.  parent is the pid the child expects as its parent.
 */
static void child_setup(pid_t parent, const char *name)
{
	pid_t pg = wl_pgid;

	setpgid(0, pg > 0 ? pg : 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* The parent may have died between fork() and prctl(). */
	if (getppid() != parent)
		_exit(1);
	/* Readable names in traces; the comm is still printed escaped by rqpath. */
	prctl(PR_SET_NAME, name);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
}

/* Fork a child into the workload's group; returns its pid in the parent, 0 in it. */
static pid_t fork_child(const char *name)
{
	pid_t parent = getpid();
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		child_setup(parent, name);
		return 0;
	}
	/* Also from the parent: whichever of the two runs first wins the race. */
	if (wl_pgid <= 0) {
		setpgid(pid, pid);
		wl_pgid = pid;
	} else {
		setpgid(pid, wl_pgid);
	}
	return pid;
}

/* Kill the whole group and reap every child; safe to call more than once. */
static void reap_all(void)
{
	if (wl_pgid > 0)
		kill(-wl_pgid, SIGKILL);
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
	wl_pgid = 0;
}

static int pin_self(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	/* The syscall itself is what a trace with syscalls events records. */
	return sched_setaffinity(0, sizeof(set), &set);
}

static int set_policy(int policy)
{
	struct sched_param sp = { .sched_priority = 0 };

	/* pid 0: the trace's sys_enter_sched_setscheduler shows pid=0 policy=N. */
	return sched_setscheduler(0, policy, &sp);
}

static unsigned long elapsed_ms(uint64_t start)
{
	return (unsigned long)((now_ns() - start) / 1000000ull);
}

static int interrupted(const char *what)
{
	rq_error("workload %s: interrupted by signal %d", what, (int)wl_stop);
	return RQ_EXIT_ERROR;
}

/* ---------------------------------------------------------------- spawn */

/*
 * Every fork goes through wake_up_new_task() -> select_task_rq(WF_FORK): the fair
 * slow path (sched_balance_find_dst_cpu) decides whether the child starts on the
 * parent's CPU or elsewhere.  The child exits at once, as in UnixBench spawn, so an
 * off-CPU placement buys nothing and costs a migration plus an idle wakeup.
 */
static int wl_spawn(int argc, char **argv)
{
	long count = 1000, done = 0;
	struct cli_parser p;
	uint64_t start;
	int opt, ret;

	cli_parser_init(&p, &workloads[0], argc, argv);
	while ((opt = wl_next(&p, &ret)) != CLI_END) {
		if (opt == CLI_ERROR)
			return ret;
		if (opt == OPT_COUNT)
			count = p.num;
	}

	wl_install_signals();
	start = now_ns();
	fflush(NULL);
	while (done < count && !wl_stop) {
		pid_t pid = fork();
		int st;

		if (pid < 0) {
			rq_error("workload spawn: fork: %s", strerror(errno));
			return RQ_EXIT_ERROR;
		}
		if (pid == 0)
			_exit(0);
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		done++;
	}
	if (wl_stop)
		return interrupted("spawn");
	printf("workload=spawn forks=%ld pid=%d duration_ms=%lu\n", done, (int)getpid(),
	       elapsed_ms(start));
	fflush(stdout);
	return RQ_EXIT_OK;
}

/* ---------------------------------------------------------------- execl */

/*
 * Every execve() calls sched_exec(), which (before Jianyong Wu's fix) calls the
 * class select_task_rq callback directly, without the core wrapper's "only one CPU
 * allowed" short-cut.  Pinned with --pin, every one of those callbacks is wasted.
 * The chain re-executes /proc/self/exe with a hidden countdown so that the pid
 * stays the same and the affinity is inherited through every image.
 */
static int wl_execl(int argc, char **argv)
{
	long count = 200, pin = -1, remaining = -1, startv = -1;
	int ncpu = (int)sysconf(_SC_NPROCESSORS_CONF);
	char rem_s[32], pin_s[32], start_s[32], count_s[32];
	struct cli_parser p;
	uint64_t start;
	int opt, ret;

	cli_parser_init(&p, &workloads[1], argc, argv);
	while ((opt = wl_next(&p, &ret)) != CLI_END) {
		switch (opt) {
		case CLI_ERROR:
			return ret;
		case OPT_COUNT:
			count = p.num;
			break;
		case OPT_PIN:
			pin = p.num;
			if (pin > (ncpu > 0 ? ncpu - 1 : CPU_SETSIZE - 1)) {
				rq_error("workload execl: --pin wants an integer in -1..%d, not '%s'",
					 ncpu > 0 ? ncpu - 1 : CPU_SETSIZE - 1, p.arg);
				return RQ_EXIT_ERROR;
			}
			break;
		case OPT_REMAINING:
			remaining = p.num;
			break;
		case OPT_START:
			startv = p.num;
			break;
		}
	}

	if (remaining < 0) {
		/* The first image: pin before the first exec, then start the chain. */
		if (pin >= 0 && pin_self((int)pin)) {
			rq_error("workload execl: sched_setaffinity(CPU %ld): %s", pin,
				 strerror(errno));
			return RQ_EXIT_ERROR;
		}
		start = now_ns();
		if (count == 0)
			goto done;
		remaining = count - 1;
	} else {
		start = startv >= 0 ? (uint64_t)startv : now_ns();
		if (remaining == 0)
			goto done;
		remaining--;
	}

	snprintf(rem_s, sizeof(rem_s), "%ld", remaining);
	snprintf(pin_s, sizeof(pin_s), "%ld", pin);
	snprintf(count_s, sizeof(count_s), "%ld", count);
	snprintf(start_s, sizeof(start_s), "%llu", (unsigned long long)start);
	{
		char *const nargv[] = {
			"rqpath", "workload", "execl", "--count", count_s, "--pin", pin_s,
			"--_remaining", rem_s, "--_start", start_s, NULL,
		};
		char self[PATH_MAX];
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

		/*
		 * The resolved path keeps the comm "rqpath" (exec sets comm to the file's
		 * basename, "exe" for /proc/self/exe); it is the same file either way.
		 */
		if (n > 0 && n < (ssize_t)sizeof(self) - 1) {
			self[n] = '\0';
			if (access(self, X_OK))
				strcpy(self, "/proc/self/exe");
		} else {
			strcpy(self, "/proc/self/exe");
		}
		fflush(NULL);
		execv(self, nargv);
		rq_error("workload execl: execv %s: %s", self, strerror(errno));
	}
	return RQ_EXIT_ERROR;

done:
	printf("workload=execl execs=%ld pinned_cpu=%ld pid=%d duration_ms=%lu\n", count, pin,
	       (int)getpid(), elapsed_ms(start));
	fflush(stdout);
	return RQ_EXIT_OK;
}

/* ---------------------------------------------------------------- idle-stack */

/*
 * A hog pinned to CPU 0 runs SCHED_IDLE, so CPU 0's runqueue holds only SCHED_IDLE
 * work and sched_idle_cpu(0) is true.  Every millisecond the hog wakes one of the
 * SCHED_IDLE sleepers through a pipe: a WF_SYNC wakeup from CPU 0 while it runs
 * alone there, so wake_affine_idle() proposes CPU 0 and, before v7.1,
 * select_idle_sibling() takes it at once because sched_idle_cpu(0) says "idle-ish",
 * although CPU 1 is truly idle: idle-stacking.  A sleeper that last ran on CPU 0 stays
 * there for the same reason.  With --control everything is SCHED_OTHER: CPU 0 is then
 * merely busy and select_idle_sibling() returns the idle previous CPU (or scans for
 * one), so the same wakeups do not stack.
 */
/* Keep CPU 0 busy with the given policy until the deadline. */
static void cpu_hog(int policy, uint64_t deadline)
{
	pin_self(0);
	if (set_policy(policy))
		_exit(1);
	while (now_ns() < deadline)
		spin_ns(1000000);
	_exit(0);
}

static void idle_hog(int policy, uint64_t deadline, int (*pipes)[2], long sleepers)
{
	long next = 0;

	pin_self(0);
	if (set_policy(policy))
		_exit(1);
	for (long s = 0; s < sleepers; s++)
		close(pipes[s][0]);
	while (now_ns() < deadline) {
		spin_ns(1000000ull + (uint64_t)(next % 7) * 50000ull);
		if (write(pipes[next][1], "w", 1) < 0 && errno != EAGAIN)
			break;
		next = (next + 1) % sleepers;
	}
	_exit(0);
}

static void idle_sleeper(int policy, int fd, uint64_t deadline, volatile long *wakeups)
{
	char c;

	if (set_policy(policy))
		_exit(1);
	/* each byte is one wakeup; EOF when the hog is gone */
	while (now_ns() < deadline && read(fd, &c, 1) == 1) {
		spin_ns(50000);
		(*wakeups)++;
	}
	_exit(0);
}

/*
 * The sleepers of idle-stack, each reading its pipe until deadline: their pids into pids.
 * 0, or -1 when a fork failed (errno).
 */
static int fork_sleepers(int policy, int (*pipes)[2], long sleepers, pid_t *pids,
			 uint64_t deadline, volatile long *wakeups)
{
	for (long s = 0; s < sleepers; s++) {
		pids[s] = fork_child("rq-idle-sleep");
		if (pids[s] == 0) {
			for (long o = 0; o < sleepers; o++) {
				close(pipes[o][1]);
				if (o != s)
					close(pipes[o][0]);
			}
			idle_sleeper(policy, pipes[s][0], deadline, &wakeups[s]);
		}
		if (pids[s] < 0)
			return -1;
	}
	return 0;
}

static int wl_idle_stack(int argc, char **argv)
{
	uint64_t duration = 2000000000ull, start, end;
	long sleepers = 4;
	int control = 0, policy, opt, ret;
	struct cli_parser p;
	pid_t hog, pids[WL_MAX_SLEEPERS];
	int pipes[WL_MAX_SLEEPERS][2];
	volatile long *wakeups;
	long total = 0;

	cli_parser_init(&p, &workloads[2], argc, argv);
	while ((opt = wl_next(&p, &ret)) != CLI_END) {
		switch (opt) {
		case CLI_ERROR:
			return ret;
		case OPT_DURATION:
			duration = (uint64_t)(p.secs * 1e9);
			break;
		case OPT_SLEEPERS:
			sleepers = p.num;
			break;
		case OPT_CONTROL:
			control = 1;
			break;
		}
	}

	policy = control ? SCHED_OTHER : SCHED_IDLE;

	/* Shared counters: children die by SIGKILL, so they publish as they go. */
	wakeups = mmap(NULL, sizeof(long) * WL_MAX_SLEEPERS, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (wakeups == MAP_FAILED) {
		rq_error("workload idle-stack: mmap: %s", strerror(errno));
		return RQ_EXIT_ERROR;
	}

	wl_install_signals();
	start = now_ns();
	end = start + duration;
	/* Children stop on their own a little after the parent would kill them. */
	for (long s = 0; s < sleepers; s++) {
		if (pipe2(pipes[s], O_CLOEXEC)) {
			rq_error("workload idle-stack: pipe: %s", strerror(errno));
			reap_all();
			return RQ_EXIT_ERROR;
		}
	}
	/* the hog runs until `end`, the sleepers a little longer: they end at its EOF */
	hog = fork_child("rq-idle-hog");
	if (hog == 0)
		idle_hog(policy, end, pipes, sleepers);
	if (hog < 0)
		goto fork_failed;
	if (fork_sleepers(policy, pipes, sleepers, pids, end + 1000000000ull, wakeups))
		goto fork_failed;
	for (long s = 0; s < sleepers; s++) {
		close(pipes[s][0]);
		close(pipes[s][1]);
	}

	while (!wl_stop) {
		uint64_t t = now_ns();

		if (t >= end)
			break;
		sleep_ns(end - t);
	}
	reap_all();
	if (wl_stop) {
		munmap((void *)wakeups, sizeof(long) * WL_MAX_SLEEPERS);
		return interrupted("idle-stack");
	}

	printf("workload=idle-stack control=%d policy=%d hog_pid=%d hog_cpu=0 sleepers=%ld "
	       "sleeper_pids=", control, policy, (int)hog, sleepers);
	for (long s = 0; s < sleepers; s++) {
		printf("%s%d", s ? "," : "", (int)pids[s]);
		total += wakeups[s];
	}
	printf(" wakeups=%ld duration_ms=%lu\n", total, elapsed_ms(start));
	fflush(stdout);
	munmap((void *)wakeups, sizeof(long) * WL_MAX_SLEEPERS);
	return RQ_EXIT_OK;

fork_failed:
	rq_error("workload idle-stack: fork: %s", strerror(errno));
	reap_all();
	munmap((void *)wakeups, sizeof(long) * WL_MAX_SLEEPERS);
	return RQ_EXIT_ERROR;
}

/* ---------------------------------------------------------------- wake-llc */

/*
 * A SCHED_OTHER hog keeps CPU 0 busy while two processes ping-pong one byte through
 * a pair of pipes.  Pipe wakeups are WF_SYNC: wake_affine() tends to pick the
 * waker's CPU, and select_idle_sibling() then has to find the idle CPU by scanning
 * the LLC; the SIS_UTIL limit (nr_idle_scan) can cut that scan to nothing, so some
 * wakeups land on the busy CPU while another CPU of the LLC is idle: missed-idle.
 */
static void pinger(int wfd, int rfd, long count, volatile long *trips)
{
	char c = 'x';
	long n;

	for (n = 0; n < count; n++) {
		if (write(wfd, &c, 1) != 1 || read(rfd, &c, 1) != 1)
			break;
		*trips = n + 1;
	}
	_exit(n == count ? 0 : 1);
}

static void ponger(int rfd, int wfd)
{
	char c;

	while (read(rfd, &c, 1) == 1)
		if (write(wfd, &c, 1) != 1)
			break;
	_exit(0);
}

static int wl_wake_llc(int argc, char **argv)
{
	long count = 20000;
	struct cli_parser p;
	uint64_t start;
	int ping[2], pong[2], st = 0, opt, ret;
	pid_t hog, a, b;
	volatile long *trips;

	cli_parser_init(&p, &workloads[3], argc, argv);
	while ((opt = wl_next(&p, &ret)) != CLI_END) {
		if (opt == CLI_ERROR)
			return ret;
		if (opt == OPT_COUNT)
			count = p.num;
	}

	trips = mmap(NULL, sizeof(long), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		     -1, 0);
	if (trips == MAP_FAILED) {
		rq_error("workload wake-llc: mmap: %s", strerror(errno));
		return RQ_EXIT_ERROR;
	}
	if (pipe2(ping, O_CLOEXEC) || pipe2(pong, O_CLOEXEC)) {
		rq_error("workload wake-llc: pipe: %s", strerror(errno));
		munmap((void *)trips, sizeof(long));
		return RQ_EXIT_ERROR;
	}

	wl_install_signals();
	start = now_ns();
	/* The hog's own deadline is generous: the parent kills it when the pair is done. */
	hog = fork_child("rq-llc-hog");
	if (hog == 0)
		cpu_hog(SCHED_OTHER, start + 600ull * 1000000000ull);
	a = hog < 0 ? -1 : fork_child("rq-llc-ping");
	if (a == 0) {
		close(ping[0]);
		close(pong[1]);
		pinger(ping[1], pong[0], count, trips);
	}
	b = a < 0 ? -1 : fork_child("rq-llc-pong");
	if (b == 0) {
		close(ping[1]);
		close(pong[0]);
		ponger(ping[0], pong[1]);
	}
	close(ping[0]);
	close(ping[1]);
	close(pong[0]);
	close(pong[1]);
	if (hog < 0 || a < 0 || b < 0) {
		rq_error("workload wake-llc: fork: %s", strerror(errno));
		reap_all();
		munmap((void *)trips, sizeof(long));
		return RQ_EXIT_ERROR;
	}

	/* Only the pinger decides the end; EINTR means a signal already killed the group. */
	while (!wl_stop && waitpid(a, &st, 0) < 0 && errno == EINTR)
		;
	reap_all();
	if (wl_stop) {
		munmap((void *)trips, sizeof(long));
		return interrupted("wake-llc");
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		rq_error("workload wake-llc: the ping-pong stopped after %ld round trips",
			 (long)*trips);
		munmap((void *)trips, sizeof(long));
		return RQ_EXIT_ERROR;
	}
	printf("workload=wake-llc round_trips=%ld wakeups=%ld hog_pid=%d hog_cpu=0 ping_pid=%d "
	       "pong_pid=%d duration_ms=%lu\n", (long)*trips, 2 * (long)*trips, (int)hog, (int)a,
	       (int)b, elapsed_ms(start));
	fflush(stdout);
	munmap((void *)trips, sizeof(long));
	return RQ_EXIT_OK;
}

/* ---------------------------------------------------------------- dispatch */

static int cmd_workload(int argc, char **argv)
{
	const struct cli_command *w;

	if (argc < 2) {
		rq_error("workload: which one? spawn, execl, idle-stack or wake-llc (see --help)");
		return RQ_EXIT_ERROR;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		cli_print_help(stdout, &cli_workload);
		return RQ_EXIT_OK;
	}
	w = cli_find_sub(&cli_workload, argv[1]);
	if (w)
		return w->fn(argc - 1, argv + 1);
	rq_error("workload: unknown workload '%s' (spawn, execl, idle-stack, wake-llc)", argv[1]);
	return RQ_EXIT_ERROR;
}
