// SPDX-License-Identifier: GPL-2.0
/*
 * tty_attack.c - what a command run by `rqpath record --user NAME -- CMD` could do to
 * the terminal of the root shell that started rqpath.  Used by tests/live/t_user_tty.sh
 * as CMD, with a directory it may write (DIR) and one mode:
 *
 *   ctty   write DIR/ctty: "MAJOR:MINOR" of its controlling terminal, or "none";
 *          and DIR/fds: "FD MAJOR:MINOR" for each of its fds 0-2 that is a terminal.
 *   sti    push "echo INJECTED-BY-CMD\n" into the input of each terminal it holds
 *          (ioctl TIOCSTI on fds 0-2 and /dev/tty); DIR/sti says which pushes worked.
 *   read   leave a reader behind (a new session, SIGHUP ignored, so that rqpath's end
 *          does not end it) that reads its terminal fds for 8 s and appends what it got
 *          to DIR/stolen; its pid goes to DIR/reader.pid.
 *   io     print "hello from CMD" on stdout, read one line from stdin and write it to
 *          DIR/got (the relay of a terminal works both ways).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

static const char *dir;

static FILE *out(const char *name, const char *mode)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return fopen(path, mode);
}

static void devno(FILE *f, int fd)
{
	struct stat st;

	if (fstat(fd, &st) == 0)
		fprintf(f, "%u:%u", major(st.st_rdev), minor(st.st_rdev));
	else
		fprintf(f, "none");
}

/* The controlling terminal, from /proc/self/stat (tty_nr, the kernel's encoding). */
static void ctty(void)
{
	FILE *f = fopen("/proc/self/stat", "r");
	char buf[1024], *p = NULL;
	unsigned long nr = 0;

	if (f && fgets(buf, sizeof(buf), f))
		p = strrchr(buf, ')');
	if (f)
		fclose(f);
	/* after "(comm)": state ppid pgrp session tty_nr */
	if (p && sscanf(p + 1, " %*c %*d %*d %*d %lu", &nr) != 1)
		nr = 0;
	f = out("ctty", "w");
	if (nr)
		fprintf(f, "%lu:%lu\n", (nr >> 8) & 0xfff, (nr & 0xff) | ((nr >> 12) & 0xfff00));
	else
		fprintf(f, "none\n");
	fclose(f);
	f = out("fds", "w");
	for (int i = 0; i <= 2; i++)
		if (isatty(i)) {
			fprintf(f, "%d ", i);
			devno(f, i);
			fputc('\n', f);
		}
	fclose(f);
}

static void sti(void)
{
	static const char line[] = "echo INJECTED-BY-CMD\n";
	FILE *f = out("sti", "w");
	int fds[4] = { 0, 1, 2, open("/dev/tty", O_RDWR | O_NOCTTY) };

	for (int i = 0; i < 4; i++) {
		int ok = fds[i] >= 0 && isatty(fds[i]);

		for (const char *c = line; ok && *c; c++)
			ok = ioctl(fds[i], TIOCSTI, c) == 0;
		fprintf(f, "%s %s\n", i < 3 ? (const char *[]){ "0", "1", "2" }[i] : "/dev/tty",
			ok ? "pushed" : strerror(errno));
	}
	fclose(f);
}

static void reader(void)
{
	pid_t pid = fork();
	FILE *f;

	if (pid != 0) {
		f = out("reader.pid", "w");
		fprintf(f, "%d\n", (int)pid);
		fclose(f);
		return;
	}
	setsid();
	signal(SIGHUP, SIG_IGN);
	for (time_t end = time(NULL) + 8; time(NULL) < end;) {
		struct pollfd p[3];
		int n = 0;

		for (int i = 0; i <= 2; i++)
			if (isatty(i))
				p[n++] = (struct pollfd){ .fd = i, .events = POLLIN };
		if (!n || poll(p, (nfds_t)n, 200) < 0)
			break;
		for (int i = 0; i < n; i++) {
			char buf[256];
			ssize_t k;

			if (!(p[i].revents & POLLIN))
				continue;
			k = read(p[i].fd, buf, sizeof(buf));
			if (k <= 0)
				_exit(0);	/* the terminal is gone: nothing to steal */
			f = out("stolen", "a");
			fwrite(buf, 1, (size_t)k, f);
			fclose(f);
		}
	}
	_exit(0);
}

static void io(void)
{
	char buf[256];
	FILE *f;

	printf("hello from CMD\n");
	fflush(stdout);
	if (!fgets(buf, sizeof(buf), stdin))
		snprintf(buf, sizeof(buf), "(nothing)\n");
	f = out("got", "w");
	fputs(buf, f);
	fclose(f);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: tty_attack DIR ctty|sti|read|io\n");
		return 2;
	}
	dir = argv[1];
	if (!strcmp(argv[2], "ctty"))
		ctty();
	else if (!strcmp(argv[2], "sti"))
		sti();
	else if (!strcmp(argv[2], "read"))
		reader();
	else if (!strcmp(argv[2], "io"))
		io();
	else
		return 2;
	return 0;
}
