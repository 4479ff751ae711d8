/* SPDX-License-Identifier: GPL-2.0 */
/*
 * truth_bpf.h - the BPF side of the recorder (kernel truth): loads the tp_btf programs of
 * src/input/bpf/truth.bpf.c, which write a struct rq_truth_rec (truth.h) at every
 * placement tracepoint into a BPF ring buffer, and hands the records to a callback.
 *
 * Optional twice: built only where clang, bpftool and libbpf are (else every call says
 * "built without BPF"), and loaded only where the kernel allows (BTF, bpf() permitted,
 * tp_btf); either way the recorder goes on with the tracepoints alone.  Whatever ends the
 * process, the programs go with it: their links are file descriptors of this process.
 */
#ifndef RQPATH_TRUTH_BPF_H
#define RQPATH_TRUTH_BPF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "truth.h"

struct rq_truth_bpf;

/* A record, host order, all RQ_TRUTH_MAX_CPUS entries present (those past nr_cpus 0). */
typedef void (*rq_truth_fn)(void *data, const struct rq_truth_rec *rec);

/* Whether this build has the BPF side at all. */
bool rq_truth_bpf_built(void);

/*
 * Load and attach the programs for a machine of nr_cpus CPUs, with a ring buffer of
 * ring_kb KB (0: the default); records go to fn.  NULL with one line in err saying why
 * (built without BPF; no BTF; not permitted; the verifier's refusal).
 */
struct rq_truth_bpf *rq_truth_bpf_open(int nr_cpus, unsigned int ring_kb, rq_truth_fn fn,
				       void *data, char *err, size_t errlen);
/* A descriptor that polls readable when records wait (for the recorder's poll()). */
int rq_truth_bpf_fd(const struct rq_truth_bpf *t);
/* Hand every record waiting to the callback: how many, or -1 (errno). */
int rq_truth_bpf_drain(struct rq_truth_bpf *t);
/* Detach the programs (records already in the ring buffer can still be drained). */
void rq_truth_bpf_detach(struct rq_truth_bpf *t);
/* Records the ring buffer had no room for (the programs' own count), and written. */
uint64_t rq_truth_bpf_drops(const struct rq_truth_bpf *t);
uint64_t rq_truth_bpf_written(const struct rq_truth_bpf *t);
/*
 * Tracepoint hits the programs did not run for: the kernel runs no BPF program of this
 * kind inside another on the same CPU (an interrupt's wake-up while one runs), and
 * counts each such miss (bpf_prog_info.recursion_misses).  A placement then has no truth.
 */
uint64_t rq_truth_bpf_misses(const struct rq_truth_bpf *t);
/*
 * The programs' own cost, as the kernel measures it (bpf_prog_info run_cnt and
 * run_time_ns): counted only while run-time statistics are on, either by the sysctl
 * kernel.bpf_stats_enabled or by rq_truth_bpf_enable_stats().  Fills up to max entries,
 * returns how many (0: none ran, or no statistics).
 */
struct rq_truth_prog_cost {
	char name[32];
	uint64_t runs;
	uint64_t ns;
};
int rq_truth_bpf_costs(const struct rq_truth_bpf *t, struct rq_truth_prog_cost *out, int max);
/*
 * Turn the kernel's BPF run-time statistics on for as long as the returned descriptor
 * stays open (BPF_ENABLE_STATS; they cost every BPF program of the machine a clock read
 * per run), or -1 with err saying why.
 */
int rq_truth_bpf_enable_stats(char *err, size_t errlen);
/* Detach and free everything (NULL is fine). */
void rq_truth_bpf_close(struct rq_truth_bpf *t);

#endif
