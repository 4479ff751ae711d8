/* SPDX-License-Identifier: GPL-2.0 */
/*
 * recorder.h - live recording through a private tracefs instance into a trace.dat
 * (tracefs.c, tracedat_write.c).  The recorder starts no process and catches no signal:
 * a program that runs a command or stops on signals hands it hooks and a flag (rqpath's
 * are in src/cli/child.c).
 */
#ifndef RQPATH_RECORDER_H
#define RQPATH_RECORDER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "event.h"
#include "truth_bpf.h"

/*
 * The command a recording is for: started once tracing is on (its first fork and exec
 * are recorded), asked at each step whether it has ended (the recording then ends),
 * stopped when the recording ends first (duration, the stop flag, an error).
 */
struct rq_record_cmd {
	/* 0, or -1 with one line in err (nothing left running) */
	int (*start)(void *ctx, char *err, size_t errlen);
	bool (*ended)(void *ctx);
	/* end it if it still runs, and let go of what start took; called once after start */
	void (*stop)(void *ctx);
	void *ctx;
};

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
	const struct rq_record_cmd *cmd;	/* a command to run, or NULL */
	/*
	 * Set (non-zero) by the program, typically from a signal handler: the recording
	 * ends at the next step as if its duration were reached.  NULL: never.  A program
	 * that wants no instance left behind on SIGINT/SIGTERM sets one from every signal
	 * that would end it (and ignores SIGXFSZ: a full file ends the recording cleanly).
	 */
	const volatile sig_atomic_t *stop;
	bool force;		/* overwrite an existing output file */
	/* the output's permission bits, 0: RQ_TRACE_FILE_MODE (0600, outfile.h) */
	mode_t mode;
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
	 * No kernel truth (truth_bpf.h): without it the recorder loads the BPF programs
	 * where it can and stores their records as rqpath:truth in a buffer of the file's
	 * own (truth_fmt.h); where they cannot load, one line says why and it records on.
	 */
	bool no_bpf;
	/* The BPF ring buffer in KB, 0: the default (truth_bpf.c). */
	unsigned int bpf_ring_kb;
	/* Turn the kernel's BPF run-time statistics on while recording: truth_costs. */
	bool bpf_stats;
};

/* room for the BPF programs of the truth side (truth.bpf.c has 5) */
#define RQ_TRUTH_MAX_PROGS 8

struct rq_record_stats {
	uint64_t events;
	uint64_t lost_events;
	uint64_t bytes;
	/* Records per decoded type (RQ_EV_OTHER: everything else, e.g. non-rqpath prints). */
	uint64_t by_type[RQ_EV__COUNT];
	/*
	 * Kernel truth: whether the BPF programs recorded ("bpf") or not ("none": truth_why
	 * says why), the records stored in the file, those the BPF ring buffer had no room
	 * for.
	 */
	bool truth_on;
	char truth_why[200];
	uint64_t truth_records;
	uint64_t truth_drops;
	uint64_t truth_misses;	/* tracepoint hits the programs did not run for */
	uint64_t truth_bytes;	/* of bytes, the truth buffer's pages */
	/* each program's runs and time, where run-time statistics were on (--bpf-stats) */
	struct rq_truth_prog_cost truth_costs[RQ_TRUTH_MAX_PROGS];
	int nr_truth_costs;
	/* events the pump handed out earlier than one it handed out before (0 with mono) */
	uint64_t out_of_order;
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
 * the recording within a budget, drawing.  The stop flag ends the recording
 * (rq_recorder_step() returns 0), and the tracefs instance is removed by finish
 * whatever happens.
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

#endif
