// SPDX-License-Identifier: GPL-2.0
/*
 * layout.bpf.c - truth_read.h's reads (the ones truth.bpf.c makes) run against another
 * kernel's layout: tests/helpers/bpf_layout.c opens this object with btf_custom_path set
 * to one of tests/bpf/layout_*.c's BTF, so that CO-RE relocates every read against that
 * layout instead of the running kernel's, fills the map "mem" with the layout's objects
 * (the kernel memory read here), test-runs the program and checks what it read.
 *
 * The local types are the build host's (vmlinux.h), as in truth.bpf.c.  A raw_tp
 * program, never attached: raw tracepoints take BPF_PROG_TEST_RUN (tp_btf programs,
 * truth.bpf.c's, do not) and may use bpf_probe_read_kernel(), which the reads are.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "truth.h"
#include "core_read.h"
#include "truth_read.h"
#include "layout.h"

char LICENSE[] SEC("license") = "GPL";

/* The macro's own probe: a local type whose sizes no layout has. */
struct rqp_probe {
	short s;
	unsigned int u;
} __attribute__((preserve_access_index));

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct layout_mem);
} mem SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct layout_out);
} out SEC(".maps");

SEC("raw_tp")
int layout_read(void *ctx)
{
	__u32 zero = 0;
	struct layout_mem *m = bpf_map_lookup_elem(&mem, &zero);
	struct layout_out *o = bpf_map_lookup_elem(&out, &zero);
	struct task_struct *p;

	if (!m || !o)
		return 0;
	/* rq->curr is a kernel address, which only the program knows: it links it here */
	*(__u64 *)(m->rq + bpf_core_field_offset(struct rq, curr)) = (__u64)m->curr;
	p = (struct task_struct *)m->task;
	truth_read_task(&o->rec, p);
	truth_read_rq(&o->rec, &o->rec.cpus[0], (struct rq *)m->rq);
	o->plain_on_rq = BPF_CORE_READ(p, on_rq);
	o->probe_s = RQ_CORE_READ_INT((struct rqp_probe *)m->probe, s);
	o->probe_u = RQ_CORE_READ_INT((struct rqp_probe *)m->probe, u);
	o->ran = 1;
	return 0;
}
