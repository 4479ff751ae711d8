/* SPDX-License-Identifier: GPL-2.0 */
/*
 * layout.h - the maps that tests/helpers/bpf_layout.c and tests/bpf/layout.bpf.c share:
 * the bytes of a target kernel's objects (filled by user space at the offsets and sizes
 * that layout's BTF gives) and what the program read from them.
 */
#ifndef RQPATH_TEST_LAYOUT_H
#define RQPATH_TEST_LAYOUT_H

#include <stdint.h>
#include "truth.h"

/* Room for each object of every layout in tests/bpf/layout_*.c. */
#define LAYOUT_OBJ 256

/* The value of the map "mem": kernel memory the program reads as the target's types. */
struct layout_mem {
	uint8_t task[LAYOUT_OBJ];	/* struct task_struct: the task woken */
	uint8_t curr[LAYOUT_OBJ];	/* struct task_struct: rq->curr (the program links it) */
	uint8_t rq[LAYOUT_OBJ];		/* struct rq */
	uint8_t probe[LAYOUT_OBJ];	/* struct rqp_probe: the macro's sign extension */
};

/* The value of the map "out". */
struct layout_out {
	struct rq_truth_rec rec;	/* truth_read_task() and truth_read_rq() into cpus[0] */
	uint64_t plain_on_rq;		/* BPF_CORE_READ(p, on_rq): the read before the fix */
	uint64_t probe_s;		/* RQ_CORE_READ_INT(probe, s), signed in every layout */
	uint64_t probe_u;		/* RQ_CORE_READ_INT(probe, u), unsigned in every layout */
	uint64_t ran;			/* 1: the program got both maps' values */
};

#endif
