// SPDX-License-Identifier: GPL-2.0
/*
 * audit_many.c - many traces at once (audit_many.h).  Each file is audited in a child
 * process that writes its line (the jsonl writer, writer.h) into a pipe and exits with the file's status; the
 * parent reads every pipe as data comes (poll), and prints the lines in the order of the
 * files.  A file that cannot be read is an error object, {"file": ..., "error": ...},
 * with status 2; the others are still audited.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "audit_many.h"
#include "commands.h"
#include "escape.h"
#include "session.h"
#include "writer.h"

struct worker {
	pid_t pid;
	int fd;			/* read end, -1 once at EOF */
	char *buf;
	size_t len, cap;
	int status;		/* exit status, -1 while running */
};

static void error_line(FILE *out, const char *file, const char *msg)
{
	fputs("{\"file\": ", out);
	rq_json_string(out, file, strlen(file));
	fputs(", \"error\": ", out);
	rq_json_string(out, msg, strlen(msg));
	fputs("}\n", out);
}

/* In the child: audit one file, write its line to out, return the exit status. */
static int audit_child(const char *file, const struct audit_many_job *job, FILE *out)
{
	struct rq_analysis_opts aopts = { .profile_override = job->profile,
					  .no_truth = job->no_truth,
					  .topology = job->topology,
					  .filter = job->filter };
	struct rq_session *s = rq_session_open_file(file, &aopts, 0);
	struct rq_writer w = { 0 };
	char tripped[512] = "";
	int ret = RQ_EXIT_OK;

	if (!s || rq_writer_begin(&w, job->ops, out, rq_session_analysis(s))) {
		error_line(out, file, "out of memory");
		rq_writer_free(&w);
		rq_session_close(s);
		return RQ_EXIT_ERROR;
	}
	if (rq_session_run(s, NULL) == RQ_PUMP_ERROR) {
		rq_error("%s", rq_session_error(s));
		error_line(out, file, rq_session_cause(s));
		rq_writer_free(&w);
		rq_session_close(s);
		return RQ_EXIT_ERROR;
	}
	if (job->check &&
	    job->check(rq_session_analysis(s), file, job->ctx, tripped, sizeof(tripped)))
		ret = RQ_EXIT_TRIPPED;
	w.file = file;
	w.tripped = tripped;
	if (rq_writer_end(&w)) {
		error_line(out, file, "cannot write the report (out of memory)");
		ret = RQ_EXIT_ERROR;
	}
	rq_writer_free(&w);
	rq_session_close(s);
	return ret;
}

static int start(struct worker *w, const char *file, const struct audit_many_job *job)
{
	int fds[2];

	memset(w, 0, sizeof(*w));
	w->status = -1;
	if (pipe(fds))
		return -1;
	fflush(NULL);
	w->pid = fork();
	if (w->pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (!w->pid) {
		FILE *out;
		int ret;

		close(fds[0]);
		out = fdopen(fds[1], "w");
		ret = out ? audit_child(file, job, out) : RQ_EXIT_ERROR;
		if (out && (fflush(out) || ferror(out)))
			ret = RQ_EXIT_ERROR;
		_exit(ret);
	}
	close(fds[1]);
	w->fd = fds[0];
	return 0;
}

/* Read what is there; 0, or -1 at EOF or on an error (the fd is closed). */
static int worker_drain(struct worker *w)
{
	char chunk[65536];
	ssize_t n = read(w->fd, chunk, sizeof(chunk));

	if (n < 0 && errno == EINTR)
		return 0;
	if (n <= 0) {
		close(w->fd);
		w->fd = -1;
		return -1;
	}
	if (w->len + (size_t)n > w->cap) {
		size_t ncap = (w->len + (size_t)n) * 2;
		char *nb = realloc(w->buf, ncap);

		if (!nb)
			return 0;	/* dropped: the line will be incomplete, the status says */
		w->buf = nb;
		w->cap = ncap;
	}
	memcpy(w->buf + w->len, chunk, (size_t)n);
	w->len += (size_t)n;
	return 0;
}

static int reap(struct worker *w)
{
	int st;

	while (waitpid(w->pid, &st, 0) < 0)
		if (errno != EINTR)
			return RQ_EXIT_ERROR;
	return WIFEXITED(st) ? WEXITSTATUS(st) : RQ_EXIT_ERROR;
}

int audit_many(char **files, int nfiles, const struct audit_many_job *job, FILE *out)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int workers = job->workers > 0 ? job->workers : cpus > 0 ? (int)cpus : 1;
	struct worker *w = calloc((size_t)nfiles, sizeof(*w));
	struct pollfd *pfd = calloc((size_t)nfiles, sizeof(*pfd));
	int next = 0, printed = 0, running = 0, worst = RQ_EXIT_OK;

	if (!w || !pfd) {
		free(w);
		free(pfd);
		rq_error("audit: out of memory");
		return RQ_EXIT_ERROR;
	}
	while (printed < nfiles) {
		int np = 0;

		while (running < workers && next < nfiles) {
			if (start(&w[next], files[next], job)) {
				w[next].status = RQ_EXIT_ERROR;
				w[next].fd = -1;
				w[next].pid = 0;
			} else {
				running++;
			}
			next++;
		}
		for (int i = printed; i < next; i++)
			if (w[i].fd >= 0)
				pfd[np++] = (struct pollfd){ .fd = w[i].fd, .events = POLLIN };
		if (np && poll(pfd, (nfds_t)np, -1) < 0 && errno != EINTR)
			break;
		for (int i = printed, k = 0; i < next && k < np; i++) {
			if (w[i].fd < 0 || w[i].fd != pfd[k].fd)
				continue;
			if (pfd[k++].revents && worker_drain(&w[i])) {
				w[i].status = reap(&w[i]);
				running--;
			}
		}
		/* print, in file order, what is complete */
		while (printed < next && w[printed].status >= 0) {
			struct worker *x = &w[printed];

			if (x->len && x->buf[x->len - 1] == '\n')
				fwrite(x->buf, 1, x->len, out);
			else {
				char esc[1024];

				rq_escape_c(files[printed], strlen(files[printed]), esc, sizeof(esc));
				if (!x->pid)
					rq_error("audit: %s: cannot start a worker: %s", esc,
						 strerror(errno));
				error_line(out, files[printed], "the worker process failed");
				if (x->status < RQ_EXIT_ERROR)
					x->status = RQ_EXIT_ERROR;
			}
			if (x->status > worst)
				worst = x->status > RQ_EXIT_ERROR ? RQ_EXIT_ERROR : x->status;
			free(x->buf);
			printed++;
		}
	}
	if (fflush(out) || ferror(out)) {
		rq_error("audit: cannot write the output: %s", strerror(errno ? errno : EIO));
		worst = RQ_EXIT_ERROR;
	}
	free(w);
	free(pfd);
	return worst;
}
