/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record.h - live recording through a private tracefs instance into a trace.dat.
 * (Interface fixed here; implementation in record.c / tracedat_write.c.)
 */
#ifndef RQPATH_RECORD_H
#define RQPATH_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"

struct rq_record_opts {
	const char *output;	/* trace.dat path */
	/*
	 * Instead of output (NULL): write into a file that never has a name ($TMPDIR or
	 * /tmp, O_TMPFILE) and, on success, return its descriptor here (read it through
	 * /proc/self/fd/N; close it when done).  No signal can leave it behind.
	 */
	int *output_fd;
	double duration;	/* seconds, <= 0: until cmd exits or a signal */
	int buffer_kb;		/* per-CPU buffer, 0 = default */
	char **cmd;		/* NULL-terminated argv of a command to run, or NULL */
	bool force;		/* overwrite an existing output file */
	bool quiet;		/* no progress or summary on stderr */
	int file_version;	/* 6 or 7 (0 = default) */
	/*
	 * Also record the sys_enter/exit events of sched_setaffinity, sched_setscheduler
	 * and sched_setattr (exact attribute changes; every task's syscalls get slower
	 * while any syscall event is on).  Without them attributes are re-read from /proc
	 * when the trace shows they may have changed.
	 */
	bool syscalls;
	/*
	 * Who runs cmd: run_uid > 0 drops root to that uid and run_gid before exec (uid,
	 * gid and groups; run_user, when set, names the user for initgroups()); 0 keeps
	 * rqpath's own.  rq_record_cmd_user() fills them from --user or sudo.
	 */
	long run_uid, run_gid;
	const char *run_user;
	/* cmd gets the terminal (foreground process group) when stdin is a terminal */
	bool foreground;
};

struct rq_record_stats {
	uint64_t events;
	uint64_t lost_events;
	uint64_t bytes;
	int cmd_status;		/* wait status of cmd, -1 none */
	bool cmd_stopped;	/* rqpath ended cmd (duration, signal, error) */
	/* Records per decoded type (RQ_EV_OTHER: everything else, e.g. non-rqpath prints). */
	uint64_t by_type[RQ_EV__COUNT];
};

/*
 * Record until done (duration, the command ended, a signal): rq_recorder_start(), steps
 * while poll() waits for data, rq_recorder_finish().  0, or -1 with one clear line in
 * err (errno-style cause).
 */
int rq_record_run(const struct rq_record_opts *opts, struct rq_record_stats *st, char *err,
		  size_t errlen);
/*
 * The same in steps, for a caller with its own loop (the live TUI): keys, a step of
 * the recording within a budget, drawing.  From start to finish every signal that
 * would end rqpath stops the recording instead (rq_recorder_step() returns 0), and the
 * tracefs instance is removed by finish whatever happens.
 */
struct rq_recorder;
struct pollfd;
struct rq_budget;

/* Set up the instance and start recording (and cmd).  NULL with one line in err. */
struct rq_recorder *rq_recorder_start(const struct rq_record_opts *opts,
				      struct rq_record_stats *st, char *err, size_t errlen);
/*
 * The pump of the recording (pump.h): its first sink is the recorder's own (statistics,
 * attribute capture); add yours before the first step.  rq_pump_available() and
 * rq_pump_cpus() describe what this kernel records.
 */
struct rq_pump *rq_recorder_pump(struct rq_recorder *r);
/*
 * While events flow, the ring buffers are read at most every RQ_RECORD_GAP_MS (whole
 * pages, few wakeups): rq_record_run() and the live TUI's loop both wait that long.
 */
#define RQ_RECORD_GAP_MS	10
/*
 * Between two steps that read everything (rq_recorder_step() returned 1): wait for data in
 * any ring buffer, at most 100 ms, and while events flow at least RQ_RECORD_GAP_MS.
 */
void rq_recorder_wait(struct rq_recorder *r);
/* The ring buffers' descriptors (POLLIN when a CPU has data) into fds; returns how many. */
int rq_recorder_pollfds(const struct rq_recorder *r, struct pollfd *fds, int max);
/*
 * Read what the ring buffers hold and pump it within budget b.  1: all read (wait for
 * more: rq_recorder_pollfds()), 2: the budget ran out first (more is waiting), 0 when the
 * recording should end (duration reached, command ended, a stop signal, a full disk),
 * -1 on error (err as given to start).
 */
int rq_recorder_step(struct rq_recorder *r, const struct rq_budget *b);
/*
 * Write the snapshot of every task's attributes and of the topology into the trace
 * again (as at the start), for an analysis that begins now.  0, or -1.
 */
int rq_recorder_snapshot(struct rq_recorder *r);
/*
 * Why no event can come (checked at most once a second): "tracing_on is 0", "its
 * tracefs instance is gone"; NULL while the instance records.
 */
const char *rq_recorder_stalled(struct rq_recorder *r);
/*
 * Stop, drain, write the file and remove the instance; frees r.  ret < 0 (an error
 * already in err) skips writing.  0, or -1 with one line in err.
 */
int rq_recorder_finish(struct rq_recorder *r, int ret);

/*
 * Fill opts->run_uid/run_gid/run_user: the user NAME (or numeric uid) when user is
 * given, else the invoking user of sudo (SUDO_UID/SUDO_GID, SUDO_USER) when rqpath runs
 * as root through sudo, else 0 (unchanged).  0, or -1 with one line in err.
 */
int rq_record_cmd_user(struct rq_record_opts *opts, const char *user, char *err, size_t errlen);

/*
 * After a run with a command: 1 and one line in msg ("CMD exited with status N",
 * "CMD was killed by SIGSEGV") when the command failed on its own, 0 when it succeeded
 * or was ended by rqpath itself.
 */
int rq_record_cmd_failed(const struct rq_record_opts *opts, const struct rq_record_stats *st,
			 char *msg, size_t size);

#endif
