// SPDX-License-Identifier: GPL-2.0
/*
 * hostile_comm.c - forks children that rename themselves (prctl(PR_SET_NAME)) to
 * names an attacker on the machine could choose: terminal escape sequences, BEL,
 * newline, quotes, comma, backslash, invalid UTF-8, a CSV formula.  First each name
 * is exec'ed (through a symlink of that name, pinned to CPU 0), then a burst of forks
 * by a parent renamed to each name.  The parent waits for all of them and exits 0.
 *
 * Used by tests/robust/t_hostile_names.sh under `rqpath record`; prints each name it
 * used, hex-encoded, one per line, so that the test knows what to look for.
 *
 * hostile_comm --utf8 uses names in UTF-8 instead (tests/tui/golden/utf8.dat, the TUI's
 * golden screens of issue 22): wide CJK and fullwidth characters, combining marks (one,
 * three on one letter, one with nothing before it), an emoji, a name the kernel cuts
 * inside a character, invalid bytes, an escape sequence, a right-to-left override and an
 * invisible tag character.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *const hostile_names[] = {
	"\033[31mred\033[0m",	/* colour */
	"\033]0;pwned\007",	/* set the terminal title, BEL-terminated */
	"\033[2J\033[H",	/* clear the screen */
	"bell\007\007",
	"new\nline",
	"cr\rlf\n",
	"tab\there",
	"q\"uo'te",
	"com,ma,\"x\"",
	"back\\slash\\",
	"bad\xff\xfeutf8",
	"\xc3\x28 half",	/* invalid 2-byte sequence */
	"del\x7f" "x",
	"{\"json\":1}",
	"=cmd|' /C calc'!A0",	/* CSV formula injection */
};

static const char *const utf8_names[] = {
	"\u65e5\u672c\u8a9e",			/* CJK, 2 columns each */
	"ab\u65e5\u672c\u8a9e\u306e\u30bf\u30b9\u30af",	/* cut at 15 bytes, in a character */
	"cafe\u0301",				/* e + combining acute */
	"e\u0301\u0302\u0303x",			/* three marks on one letter */
	"\u0301start",				/* a mark with nothing before it */
	"\U0001f600 smile",			/* emoji, 2 columns */
	"bad\xff\xfeutf8",			/* not UTF-8 */
	"ctl\033[2J",				/* clear the screen */
	"rlo\u202eexe.txt",			/* right-to-left override */
	"\uff21\uff22\uff23 wide",		/* fullwidth Latin */
	"tag\U000e0041x",			/* invisible tag character */
	"\u03a9mega",				/* Greek, 1 column */
};

static const char *const *names = hostile_names;
static unsigned long nr_names = sizeof(hostile_names) / sizeof(hostile_names[0]);

#define NR_NAMES nr_names

static void spin(long ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

static void print_hex(const char *s)
{
	for (; *s; s++)
		printf("%02x", (unsigned char)*s);
	putchar('\n');
}

int main(int argc, char **argv)
{
	char exe[4096], dir[] = "/tmp/rqpath-hostile.XXXXXX", link[4096 + 64];
	ssize_t n;

	/* exec'ed child: its comm is now the (hostile) name of the link; exit soon */
	if (argc == 3 && !strcmp(argv[1], "--child")) {
		spin(1);
		usleep(1000);
		return 0;
	}

	if (argc == 2 && !strcmp(argv[1], "--utf8")) {
		names = utf8_names;
		nr_names = sizeof(utf8_names) / sizeof(utf8_names[0]);
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0 || !mkdtemp(dir)) {
		perror("hostile_comm: setup");
		return 1;
	}
	exe[n] = '\0';
	for (unsigned long i = 0; i < NR_NAMES; i++)
		print_hex(names[i]);
	fflush(stdout);

	/*
	 * 1: exec through a link named after each hostile name, pinned to CPU 0: the comm
	 *    after exec is the link's name (needless-callback examples carry it)
	 */
	for (unsigned long i = 0; i < NR_NAMES; i++) {
		char arg[16];
		pid_t pid;

		snprintf(link, sizeof(link), "%s/%s", dir, names[i]);
		if (symlink(exe, link))
			continue;
		prctl(PR_SET_NAME, names[i], 0, 0, 0);
		pid = fork();
		if (pid == 0) {
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET(0, &set);
			sched_setaffinity(0, sizeof(set), &set);
			snprintf(arg, sizeof(arg), "%lu", i);
			execl(link, names[i], "--child", arg, (char *)NULL);
			_exit(127);
		}
		if (pid > 0)
			waitpid(pid, NULL, 0);
		unlink(link);
	}
	rmdir(dir);

	/*
	 * 2: a burst of forks, in reverse order, the parent renamed before each: the
	 *    children start with that name (offcpu-fork examples carry it); they sleep,
	 *    wake up, rename themselves again and exit
	 */
	for (unsigned long k = 0; k < 2 * NR_NAMES; k++) {
		unsigned long i = NR_NAMES - 1 - k % NR_NAMES;
		pid_t pid;

		prctl(PR_SET_NAME, names[i], 0, 0, 0);
		pid = fork();
		if (pid < 0) {
			perror("hostile_comm: fork");
			break;
		}
		if (pid)
			continue;
		spin(1);
		usleep(1000);
		prctl(PR_SET_NAME, names[(i + 1) % NR_NAMES], 0, 0, 0);
		spin(1);
		_exit(0);
	}
	while (wait(NULL) > 0)
		;
	return 0;
}
