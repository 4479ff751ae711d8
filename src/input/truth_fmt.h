/* SPDX-License-Identifier: GPL-2.0 */
/*
 * truth_fmt.h - the event rqpath:truth as it is stored in a trace.dat: a
 * format text like any ftrace event's (common fields, then typed fields, a print fmt
 * that trace-cmd report prints) and the bytes of one record, which the recorder writes
 * into a buffer of its own in the file (RQ_TRUTH_BUFFER); decode.c reads them back into
 * a struct rq_truth_rec (truth.h).
 *
 * Record layout after the common fields (at offset H, 8 on every kernel so far), packed
 * tighter than struct rq_truth_rec (a recording holds two records per wakeup):
 *   u32 pid; u16 nr_cpus_allowed, task_cpu, cpu, nr_cpus; u8 policy, point, flags, pad;
 *   __data_loc u64[] mask (the words the machine's CPUs need, at most 16);
 *   __data_loc u8[] cpus (nr_cpus entries of RQ_TRUTH_FILE_CPU bytes: u32 curr_pid,
 *   u8 state (RQ_TRUTH_RQ_KNOWN in bit 0, ttwu_pending in bit 1), u8 curr_policy,
 *   u8 nr_running, u8 h_nr_idle);
 *   __data_loc u16[] ids (the CPU of each entry; files of rqpath before the LLC-sized
 *   records have no such field, and their entry i is CPU i).
 * 64 bytes on a 2-CPU machine (its two CPUs), against 160 + 12 x 64 for the struct.
 * The record's timestamp is the record's own (bpf_ktime_get_ns(), CLOCK_MONOTONIC: the
 * trace clock "mono" the recorder uses).
 */
#ifndef RQPATH_TRUTH_FMT_H
#define RQPATH_TRUTH_FMT_H

#include <stddef.h>
#include <stdint.h>

#include "truth.h"

/* The name of the file's buffer (instance) that holds the truth records. */
#define RQ_TRUTH_BUFFER "rqpath-truth"
#define RQ_TRUTH_SYSTEM "rqpath"
#define RQ_TRUTH_EVENT "truth"

/* Bytes of one CPU's entry in the file, and its state bits. */
#define RQ_TRUTH_FILE_CPU	8
#define RQ_TRUTH_FILE_KNOWN	0x01
#define RQ_TRUTH_FILE_PENDING	0x02

/* Largest record: common fields (at most 64 bytes) and every field at its largest. */
#define RQ_TRUTH_EVENT_MAX (64 + 28 + 8 * RQ_TRUTH_MASK_WORDS + \
			    (RQ_TRUTH_FILE_CPU + 2) * RQ_TRUTH_MAX_CPUS)

/*
 * The format text with event id id.  The common fields are copied from kernel_format
 * (any event's format text of the traced kernel, so that every record of the file has
 * the same header; NULL: the usual four).  malloc'd; *len its length; *hdr gets where
 * the fields after the common ones start (for rq_truth_encode()).  NULL on failure.
 */
char *rq_truth_format(int id, const char *kernel_format, size_t *len, int *hdr);
/*
 * The bytes of record r as event id id, with the common fields hdr bytes long, into buf
 * (RQ_TRUTH_EVENT_MAX bytes); mask words for machine_cpus CPUs.  Returns the length.
 */
uint32_t rq_truth_encode(const struct rq_truth_rec *r, int id, int hdr, int machine_cpus,
			 void *buf);

#endif
