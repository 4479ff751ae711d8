// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_layout.c - tests/live/t_truth_layout.sh: do the truth program's reads
 * (src/input/bpf/truth_read.h) read right on kernels whose fields have other sizes?
 *
 * Usage: bpf_layout LAYOUT.o...   (the BTF of tests/bpf/layout_*.c, built by the Makefile)
 *
 * For each layout: open tests/bpf/layout.bpf.c with btf_custom_path = LAYOUT.o (CO-RE
 * relocates against it instead of the running kernel), fill the objects of the map "mem"
 * at the offsets and sizes that the layout's BTF gives, every other byte 0xa5, test-run
 * the program and compare what it read with what was written.  Two cases a layout:
 * "blocked" (on_rq 0, is_blocked 1 where the layout has it, delayed and migration-
 * disabled) and "queued" (on_rq 1, the rest 0).  The program also reads on_rq with plain
 * BPF_CORE_READ, the read before the fix: where a layout's on_rq is narrower than the
 * build host's vmlinux.h, that read must say "on a runqueue" for the blocked task, or
 * this test could not tell the fix from its absence.
 *
 * Root and BPF (BPF_PROG_TEST_RUN of a raw_tp program, 5.10+), else exit 77 with the
 * reason as the last line; 1 on a wrong read.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef RQ_HAVE_BPF
int main(void)
{
	puts("skip: rqpath was built without BPF (clang/libbpf/bpftool missing)");
	return 77;
}
#else
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "layout.h"
#include "layout.skel.h"

#define JUNK 0xa5

static int fails;

/* Where TYPE.PATH (e.g. task_struct, thread_info.cpu) is in btf; false: not there. */
static bool field(const struct btf *btf, const char *type, const char *path, uint32_t *off,
		  uint32_t *size, bool *sign)
{
	char buf[64], *name, *save = NULL;
	const struct btf_type *t;
	__s32 id;

	id = btf__find_by_name_kind(btf, type, BTF_KIND_STRUCT);
	if (id < 0)
		return false;
	t = btf__type_by_id(btf, id);
	*off = 0;
	snprintf(buf, sizeof(buf), "%s", path);
	for (name = strtok_r(buf, ".", &save); name; name = strtok_r(NULL, ".", &save)) {
		const struct btf_member *m = btf_members(t);
		int i, n = btf_vlen(t);

		if (!btf_is_struct(t))
			return false;
		for (i = 0; i < n; i++, m++)
			if (!strcmp(btf__name_by_offset(btf, m->name_off), name))
				break;
		/* the layouts have no bitfields: the writer below stores whole bytes */
		if (i == n || btf_member_bitfield_size(t, i))
			return false;
		*off += btf_member_bit_offset(t, i) / 8;
		id = m->type;
		t = btf__type_by_id(btf, btf__resolve_type(btf, id));
	}
	*size = btf__resolve_size(btf, id);
	*sign = btf_is_int(t) && (btf_int_encoding(t) & BTF_INT_SIGNED);
	return true;
}

/* Store v at TYPE.PATH of obj, at the layout's size; false when the layout lacks it. */
static bool put(const struct btf *btf, uint8_t *obj, const char *type, const char *path,
		uint64_t v)
{
	uint32_t off, size;
	bool sign;

	if (!field(btf, type, path, &off, &size, &sign))
		return false;
	if (off + size > LAYOUT_OBJ) {
		printf("FAIL: %s.%s at %u+%u is past the test's %d bytes\n", type, path, off,
		       size, LAYOUT_OBJ);
		exit(1);
	}
	switch (size) {
	case 1: { uint8_t x = v; memcpy(obj + off, &x, 1); break; }
	case 2: { uint16_t x = v; memcpy(obj + off, &x, 2); break; }
	case 4: { uint32_t x = v; memcpy(obj + off, &x, 4); break; }
	case 8: memcpy(obj + off, &v, 8); break;
	default:
		printf("FAIL: %s.%s is %u bytes\n", type, path, size);
		exit(1);
	}
	return true;
}

static void check(const char *what, uint64_t got, uint64_t want)
{
	if (got == want)
		return;
	printf("    FAIL: %s read %#llx, want %#llx\n", what, (unsigned long long)got,
	       (unsigned long long)want);
	fails++;
}

static const char *base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* One case of one layout; returns the plain BPF_CORE_READ(p, on_rq). */
static uint64_t run(struct layout_bpf *skel, const struct btf *btf, bool blocked)
{
	LIBBPF_OPTS(bpf_test_run_opts, topts);
	struct layout_mem m;
	struct layout_out o;
	uint32_t zero = 0;
	uint8_t want_flags = 0;
	bool has_delayed, has_idle;
	int err;

	memset(&m, JUNK, sizeof(m));
	put(btf, m.task, "task_struct", "pid", 4242);
	put(btf, m.task, "task_struct", "policy", 5);	/* SCHED_IDLE */
	put(btf, m.task, "task_struct", "nr_cpus_allowed", 3);
	put(btf, m.task, "task_struct", "thread_info.cpu", 1);
	put(btf, m.task, "task_struct", "on_rq", !blocked);
	put(btf, m.task, "task_struct", "is_blocked", blocked);
	has_delayed = put(btf, m.task, "task_struct", "se.sched_delayed", blocked);
	put(btf, m.task, "task_struct", "migration_disabled", blocked);
	put(btf, m.curr, "task_struct", "pid", 7);
	put(btf, m.curr, "task_struct", "policy", 3);	/* SCHED_BATCH */
	put(btf, m.rq, "rq", "nr_running", 2);
	put(btf, m.rq, "rq", "ttwu_pending", 1);
	has_idle = put(btf, m.rq, "rq", "cfs.h_nr_idle", 1) ||
		   put(btf, m.rq, "rq", "cfs.idle_h_nr_running", 1);
	put(btf, m.probe, "rqp_probe", "s", (uint64_t)-2);
	put(btf, m.probe, "rqp_probe", "u", 200);
	memset(&o, 0, sizeof(o));
	if (bpf_map_update_elem(bpf_map__fd(skel->maps.mem), &zero, &m, 0) ||
	    bpf_map_update_elem(bpf_map__fd(skel->maps.out), &zero, &o, 0)) {
		printf("FAIL: map update: %s\n", strerror(errno));
		exit(1);
	}
	err = bpf_prog_test_run_opts(bpf_program__fd(skel->progs.layout_read), &topts);
	if (err) {
		/* ENOTSUPP (524) or EINVAL: a kernel before 5.10 runs no raw_tp program */
		printf("skip: BPF_PROG_TEST_RUN of a raw_tp program: %s (kernel 5.10+)\n",
		       strerror(-err));
		exit(77);
	}
	if (bpf_map_lookup_elem(bpf_map__fd(skel->maps.out), &zero, &o)) {
		printf("FAIL: map lookup: %s\n", strerror(errno));
		exit(1);
	}
	check("ran", o.ran, 1);
	if (!blocked)
		want_flags |= RQ_TRUTH_ON_RQ;
	if (!has_delayed)
		want_flags |= RQ_TRUTH_NO_DELAYED;
	else if (blocked)
		want_flags |= RQ_TRUTH_DELAYED;
	if (blocked)
		want_flags |= RQ_TRUTH_MIGRATE_OFF;
	if (!has_idle)
		want_flags |= RQ_TRUTH_NO_IDLE_COUNT;
	check("flags (on_rq, sched_delayed, migration_disabled)", o.rec.flags, want_flags);
	check("pid", o.rec.pid, 4242);
	check("policy", o.rec.policy, 5);
	check("nr_cpus_allowed", o.rec.nr_cpus_allowed, 3);
	check("thread_info.cpu", o.rec.task_cpu, 1);
	check("cpu 0 known", o.rec.cpus[0].known, RQ_TRUTH_RQ_KNOWN);
	check("rq->nr_running", o.rec.cpus[0].nr_running, 2);
	check("rq->ttwu_pending", o.rec.cpus[0].ttwu_pending, 1);
	check("rq->cfs SCHED_IDLE count", o.rec.cpus[0].h_nr_idle, has_idle ? 1 : 0);
	check("rq->curr->pid", o.rec.cpus[0].curr_pid, 7);
	check("rq->curr->policy", o.rec.cpus[0].curr_policy, 3);
	check("probe s (signed)", o.probe_s, (uint64_t)-2);
	check("probe u (unsigned)", o.probe_u, 200);
	printf("  %-7s flags %#04x pid %u policy %u nr_cpus_allowed %u task_cpu %u | cpu0 "
	       "nr_running %u ttwu_pending %u h_nr_idle %u curr %u/%u | probe s %lld u %llu\n",
	       blocked ? "blocked" : "queued", o.rec.flags, o.rec.pid, o.rec.policy,
	       o.rec.nr_cpus_allowed, o.rec.task_cpu, o.rec.cpus[0].nr_running,
	       o.rec.cpus[0].ttwu_pending, o.rec.cpus[0].h_nr_idle, o.rec.cpus[0].curr_pid,
	       o.rec.cpus[0].curr_policy, (long long)o.probe_s, (unsigned long long)o.probe_u);
	printf("          on_rq: truth_read_task() says %s; plain BPF_CORE_READ read %#llx\n",
	       o.rec.flags & RQ_TRUTH_ON_RQ ? "on a runqueue" : "not queued",
	       (unsigned long long)o.plain_on_rq);
	return o.plain_on_rq;
}

static int print_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return level == LIBBPF_DEBUG ? 0 : vfprintf(stdout, fmt, ap);
}

int main(int argc, char **argv)
{
	uint32_t local_off, local_size = 0, off, size;
	int told = 0, narrower = 0;
	bool sign;

	if (argc < 2) {
		fprintf(stderr, "usage: %s LAYOUT.o...\n", argv[0]);
		return 2;
	}
	if (geteuid() != 0) {
		puts("skip: loading BPF programs needs root");
		return 77;
	}
	libbpf_set_print(print_libbpf);
	for (int i = 1; i < argc; i++) {
		LIBBPF_OPTS(bpf_object_open_opts, oopts, .btf_custom_path = argv[i]);
		struct layout_bpf *skel;
		struct btf *btf;
		uint32_t boff = 0, bsize = 0;
		bool blocked_field;
		uint64_t plain;
		int err;

		btf = btf__parse(argv[i], NULL);
		if (!btf) {
			printf("FAIL: %s: no BTF (%s)\n", argv[i], strerror(errno));
			return 1;
		}
		skel = layout_bpf__open_opts(&oopts);
		if (!skel) {
			printf("FAIL: open of the test program: %s\n", strerror(errno));
			return 1;
		}
		if (!local_size && !field(bpf_object__btf(skel->obj), "task_struct", "on_rq",
					  &local_off, &local_size, &sign)) {
			printf("FAIL: the test program's own BTF has no task_struct.on_rq\n");
			return 1;
		}
		err = layout_bpf__load(skel);
		if (err == -EPERM) {
			puts("skip: the kernel does not let this process load BPF programs (EPERM)");
			return 77;
		}
		if (err) {
			/* the verifier's or CO-RE's refusal: the reads are wrong, no skip */
			printf("FAIL: %s: the program does not load: %s\n", base(argv[i]),
			       strerror(-err));
			return 1;
		}
		if (!field(btf, "task_struct", "on_rq", &off, &size, &sign)) {
			printf("FAIL: %s has no task_struct.on_rq\n", argv[i]);
			return 1;
		}
		blocked_field = field(btf, "task_struct", "is_blocked", &boff, &bsize, &sign);
		printf("%s: task_struct.on_rq %u byte(s) at +%u", base(argv[i]), size, off);
		if (blocked_field)
			printf(", is_blocked %u at +%u", bsize, boff);
		printf(" (build host's vmlinux.h: %u bytes)\n", local_size);
		plain = run(skel, btf, true);
		if (size < local_size) {
			/* the old read must misread the blocked task here, or this proves nothing */
			narrower++;
			if (plain == 0) {
				printf("    FAIL: plain BPF_CORE_READ read on_rq right on a narrower "
				       "on_rq: this layout cannot show the bug\n");
				fails++;
			} else {
				printf("          (the read before the fix: a blocked task \"on a "
				       "runqueue\")\n");
				told++;
			}
		}
		run(skel, btf, false);
		layout_bpf__destroy(skel);
		btf__free(btf);
	}
	if (!narrower)
		printf("note: no layout's on_rq is narrower than this build host's (%u bytes):"
		       " the plain read is right on all, nothing to tell apart\n", local_size);
	printf("%d layout(s): %s; the read before the fix misread %d of them\n", argc - 1,
	       fails ? "WRONG reads" : "every field read right", told);
	return fails ? 1 : 0;
}
#endif
