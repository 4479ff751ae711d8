/* SPDX-License-Identifier: GPL-2.0 */
/*
 * delay.h - what a placement cost: the queue delay, from the placement until the task
 * next runs (sched_switch in), kept per path, per finding and per kind (flagged or
 * not) in bounded-memory quantile sketches.
 *
 * A sketch keeps its first RQ_SKETCH_EXACT values as they are (quantiles exact to the
 * nanosecond), then folds them into log-scale buckets: values below RQ_SKETCH_LINEAR ns
 * exactly, above that buckets RQ_SKETCH_GAMMA apart, each answered by its geometric
 * middle, so a quantile is within 1 % of the true one.  Count, total, min and max are
 * always exact.  Memory: 4 KB exact buffer, then about 12 KB of buckets, per sketch.
 *
 * The engine calls rqe_delay_placed() when a placement is recorded, and tells it when the
 * model's running task of a CPU changes (rqe_curr_changed(): the model alone says who
 * runs, repaired from the records' common_pid).  Pending placements are kept until their
 * task runs; then they are settled (struct rq_observer's on_settled) with their delay, or
 * -1 at the end of the trace.
 */
#ifndef RQPATH_DELAY_H
#define RQPATH_DELAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RQ_SKETCH_EXACT 512
#define RQ_SKETCH_LINEAR 64
#define RQ_SKETCH_GAMMA 1.02
#define RQ_SKETCH_BUCKETS 1600	/* up to 64 * 1.02^1536 ns: ~ 10^14 ns, a day */

struct rq_sketch {
	uint64_t n, total, min, max;
	uint32_t nexact;
	bool sorted;
	uint64_t *exact;	/* RQ_SKETCH_EXACT values, NULL until the first */
	uint64_t *buckets;	/* RQ_SKETCH_BUCKETS counts, NULL until the exact buffer fills */
};

/* Returns 0, or -1 on allocation failure (the value is still in n/total/min/max). */
int rq_sketch_add(struct rq_sketch *s, uint64_t v);
/* Add every value of src to dst; 0 or -1 on allocation failure. */
int rq_sketch_merge(struct rq_sketch *dst, const struct rq_sketch *src);
/* Nearest-rank quantile (q in (0, 1]): the value of rank ceil(q * n); 0 when empty. */
uint64_t rq_sketch_quantile(struct rq_sketch *s, double q);
/* Whether the quantiles are exact (n <= RQ_SKETCH_EXACT). */
bool rq_sketch_is_exact(const struct rq_sketch *s);
void rq_sketch_free(struct rq_sketch *s);
/* For the tests: whether the bucket of v is floor(log_GAMMA(v / LINEAR)) (clamped). */
bool rq_sketch_bucket_check(uint64_t v);
/*
 * Counts per bin of a log-scale histogram: bin i holds values in [10^(lo + i/per),
 * 10^(lo + (i+1)/per)) ns, the first also everything below, the last everything above.
 */
void rq_sketch_histogram(const struct rq_sketch *s, int lo, int per, int nbins,
			 uint64_t *counts);

/*
 * A placement waiting for its task to run: what the statistics need (tens of bytes).
 * The whole placement is kept apart (delay.c's full[], same index) while a sink wants it.
 */
struct rq_delay_pending {
	uint64_t ts, seq;
	uint32_t next;		/* next of the same task (or of the free list): index + 1 */
	unsigned int findings;
	int pid, to_cpu;
	uint8_t path;
	bool used;
	bool tainted;		/* events were lost on its CPU meanwhile */
	bool full;		/* full[] holds the placement */
	bool wait;		/* an exec waiting for its verdict (on the task's wait list) */
};

/*
 * Per task, inside struct rq_task: zero means never ran (task_init memsets it).  The
 * last RQ_DELAY_RUNS switch-in times, as the latest and the gaps back from it, 32 bits
 * each (20 bytes, not 32: every task holds them, and a live task stays within 200
 * bytes); a gap that does not fit (over 4.29 s, or a clock going back) moves the ring
 * into the task's cold part for good (spilled).
 */
#define RQ_DELAY_RUNS 4
struct rq_delay_task {
	uint64_t last_run;	/* the newest switch-in (nruns > 0, not spilled) */
	uint32_t gap[RQ_DELAY_RUNS - 1];	/* gap[k]: run newest-k minus run newest-k-1 */
	uint8_t nruns;		/* runs kept, up to RQ_DELAY_RUNS */
	bool running;		/* switched in (or seen writing a record), not out since */
	bool spilled;		/* the runs are the cold part's ring */
};

struct rq_analysis;
struct rq_summary;
struct rq_placement;
struct rq_task;

struct rq_event;

/* The store of an analysis (rq_analysis_delay()); private to the engine (delay_store.h). */
struct rq_delay;


/*
 * The sketches, NULL if out of range: one kind's placements, flagged or not; one path's;
 * one finding's; every placement, flagged or not.  They live as long as the analysis and
 * change as it is fed; a reader only sorts one in place (rq_sketch_quantile()).
 */
struct rq_sketch *rq_delay_kind(const struct rq_delay *d, int kind, bool flagged);
struct rq_sketch *rq_delay_path(const struct rq_delay *d, int path);
struct rq_sketch *rq_delay_finding(const struct rq_delay *d, int finding);
struct rq_sketch *rq_delay_all(const struct rq_delay *d, bool flagged);
/*
 * The comparison group of a finding: the unflagged placements of the kinds it judges
 * (wakeups for missed-idle, forks for offcpu-fork, ...), merged into out (freed by caller).
 */
int rq_delay_others(const struct rq_delay *d, int finding, struct rq_sketch *out);
/*
 * The placements whose delay is not known: their task had not run again when the trace
 * ended (not_run), or its switch-in may be missing (unmeasured), of which after events
 * lost on the CPU (lost), a move classified late whose first run the ring of recent
 * switch-ins no longer reaches (late), a task no longer known or no memory (other).
 */
struct rq_delay_counts {
	uint64_t not_run, unmeasured;
	uint64_t lost, late, other;
};
void rq_delay_counts(const struct rq_delay *d, struct rq_delay_counts *out);

#endif
