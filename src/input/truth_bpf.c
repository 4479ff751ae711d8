// SPDX-License-Identifier: GPL-2.0
/*
 * truth_bpf.c - loads src/input/bpf/truth.bpf.c (its skeleton, generated at build time
 * by bpftool into $(BUILD)/bpf) and drains its ring buffer into a callback; or, built
 * without BPF (RQ_HAVE_BPF unset: no clang, bpftool or libbpf, or make BPF=0), a stub
 * whose open says so.
 *
 * libbpf's own messages are not printed (the library prints only through its sinks):
 * the last warning it gave is kept as the reason a load failed.  libbpf >= 1.0 does not
 * raise RLIMIT_MEMLOCK where the kernel accounts BPF memory to the memory cgroup (5.11+),
 * so an unraisable `ulimit -l` does not matter there.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "truth_bpf.h"

#ifndef RQ_HAVE_BPF

bool rq_truth_bpf_built(void)
{
	return false;
}

struct rq_truth_bpf *rq_truth_bpf_open(int nr_cpus, unsigned int ring_kb, rq_truth_fn fn,
				       void *data, char *err, size_t errlen)
{
	snprintf(err, errlen, "built without BPF (clang/libbpf/bpftool missing)");
	return NULL;
}

int rq_truth_bpf_fd(const struct rq_truth_bpf *t) { return -1; }
int rq_truth_bpf_drain(struct rq_truth_bpf *t) { return 0; }
void rq_truth_bpf_detach(struct rq_truth_bpf *t) { }
uint64_t rq_truth_bpf_drops(const struct rq_truth_bpf *t) { return 0; }
uint64_t rq_truth_bpf_written(const struct rq_truth_bpf *t) { return 0; }
uint64_t rq_truth_bpf_misses(const struct rq_truth_bpf *t) { return 0; }
int rq_truth_bpf_costs(const struct rq_truth_bpf *t, struct rq_truth_prog_cost *out, int max)
{
	return 0;
}
int rq_truth_bpf_enable_stats(char *err, size_t errlen)
{
	snprintf(err, errlen, "this rqpath was built without BPF");
	return -1;
}
void rq_truth_bpf_close(struct rq_truth_bpf *t) { }

#else

#include <stdarg.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "snapshot.h"
#include "truth.skel.h"

/*
 * 16 MB: a record is 112 bytes on a machine of up to 4 CPUs; hackbench on 2 CPUs makes
 * ~2 records per wake-up, and the recorder may be kept off the CPUs for a second.
 */
#define DEFAULT_RING_KB	16384

struct rq_truth_bpf {
	struct truth_bpf *skel;
	struct ring_buffer *rb;
	rq_truth_fn fn;
	void *data;
	int ncpus_possible;
	bool attached;
};

/* The last warning libbpf gave (the reason of a failed load). */
static char last_warning[256];

static int quiet_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char line[sizeof(last_warning)];
	size_t n;

	if (level != LIBBPF_WARN)
		return 0;
	vsnprintf(line, sizeof(line), fmt, ap);
	n = strlen(line);
	while (n && (line[n - 1] == '\n' || line[n - 1] == ' '))
		line[--n] = '\0';
	if (n)
		memcpy(last_warning, line, n + 1);
	return 0;
}

bool rq_truth_bpf_built(void)
{
	return true;
}

static int on_record(void *ctx, void *data, size_t size)
{
	struct rq_truth_bpf *t = ctx;
	struct rq_truth_rec rec;

	/* a prefix of the struct (truth.bpf.c): the CPUs past it are zero */
	memset(&rec, 0, sizeof(rec));
	memcpy(&rec, data, size < sizeof(rec) ? size : sizeof(rec));
	if (rec.nr_cpus > RQ_TRUTH_MAX_CPUS)
		rec.nr_cpus = RQ_TRUTH_MAX_CPUS;
	t->fn(t->data, &rec);
	return 0;
}

static void why(int e, char *err, size_t errlen, const char *step)
{
	if (e == EPERM || e == EACCES)
		snprintf(err, errlen, "BPF %s not permitted (%s): needs root or CAP_BPF and "
			 "CAP_PERFMON", step, strerror(e));
	else if (last_warning[0])
		snprintf(err, errlen, "BPF %s failed: %s", step, last_warning);
	else
		snprintf(err, errlen, "BPF %s failed: %s", step, strerror(e));
}

/*
 * The program's view of the machine (truth.bpf.c): each CPU's LLC as a run of
 * llc_members (the CPUs of one LLC, in order, one LLC after the other) that llc_span
 * gives as start | length << 16, from the same sysfs reading as the recorder's cpu
 * markers (rq_snapshot_cpu()); the entries a record holds, the larger of the LLC pairs a
 * waking can read, rounded up to the reserve sizes 4, 16 or 64; and the mask words.
 */
static void set_llcs(struct truth_bpf *skel, int nr_cpus)
{
	static int leader[RQ_TRUTH_CPUS_LIMIT];
	int n = nr_cpus > RQ_TRUTH_CPUS_LIMIT ? RQ_TRUTH_CPUS_LIMIT : nr_cpus;
	unsigned int at = 0, largest = 1, entries;
	struct rq_marker m;

	for (int c = 0; c < n; c++) {
		rq_snapshot_cpu(c, &m);
		leader[c] = m.llc >= 0 && m.llc < n ? m.llc : c;
	}
	for (int l = 0; l < n; l++) {
		unsigned int start = at;

		for (int c = 0; c < n; c++)
			if (leader[c] == l)
				skel->rodata->llc_members[at++] = (uint16_t)c;
		if (at - start > largest)
			largest = at - start;
		for (unsigned int i = start; i < at; i++)
			skel->rodata->llc_span[skel->rodata->llc_members[i]] =
				start | (at - start) << 16;
	}
	entries = 2 * largest;
	skel->rodata->rec_entries = entries <= 4 ? 4 : entries <= 16 ? 16 : RQ_TRUTH_MAX_CPUS;
	skel->rodata->nr_cpus = (uint32_t)n;
	skel->rodata->mask_words = (uint32_t)(n + 63) / 64;
	skel->rodata->cut = nr_cpus > RQ_TRUTH_CPUS_LIMIT;
}

struct rq_truth_bpf *rq_truth_bpf_open(int nr_cpus, unsigned int ring_kb, rq_truth_fn fn,
				       void *data, char *err, size_t errlen)
{
	struct rq_truth_bpf *t;
	unsigned long long ring;
	int e;

	if (access("/sys/kernel/btf/vmlinux", R_OK) < 0) {
		snprintf(err, errlen, "this kernel has no BTF (/sys/kernel/btf/vmlinux: %s)",
			 strerror(errno));
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	last_warning[0] = '\0';
	libbpf_set_print(quiet_print);
	t->fn = fn;
	t->data = data;
	t->skel = truth_bpf__open();
	if (!t->skel) {
		why(errno, err, errlen, "open");
		goto fail;
	}
	if (nr_cpus < 1)
		nr_cpus = 1;
	set_llcs(t->skel, nr_cpus);
	/* a power of two pages */
	ring = 4096;
	while (ring < (unsigned long long)(ring_kb ? ring_kb : DEFAULT_RING_KB) * 1024)
		ring *= 2;
	bpf_map__set_max_entries(t->skel->maps.truth_rb, (unsigned int)ring);
	e = truth_bpf__load(t->skel);
	if (e) {
		why(-e, err, errlen, "load");
		goto fail;
	}
	e = truth_bpf__attach(t->skel);
	if (e) {
		why(-e, err, errlen, "attach (tp_btf)");
		goto fail;
	}
	t->attached = true;
	t->rb = ring_buffer__new(bpf_map__fd(t->skel->maps.truth_rb), on_record, t, NULL);
	if (!t->rb) {
		why(errno, err, errlen, "ring buffer");
		goto fail;
	}
	t->ncpus_possible = libbpf_num_possible_cpus();
	return t;
fail:
	rq_truth_bpf_close(t);
	return NULL;
}

int rq_truth_bpf_fd(const struct rq_truth_bpf *t)
{
	return t && t->rb ? ring_buffer__epoll_fd(t->rb) : -1;
}

int rq_truth_bpf_drain(struct rq_truth_bpf *t)
{
	int n;

	if (!t || !t->rb)
		return 0;
	n = ring_buffer__consume(t->rb);
	if (n < 0) {
		errno = -n;
		return -1;
	}
	return n;
}

void rq_truth_bpf_detach(struct rq_truth_bpf *t)
{
	if (t && t->skel && t->attached) {
		truth_bpf__detach(t->skel);
		t->attached = false;
	}
}

/* The sum over the CPUs of the programs' per-CPU counter which. */
static uint64_t sum_count(const struct rq_truth_bpf *t, uint32_t which)
{
	uint64_t v[512], sum = 0;
	int n = t ? t->ncpus_possible : 0;

	if (!t || !t->skel || n <= 0 || n > 512)
		return 0;
	if (bpf_map_lookup_elem(bpf_map__fd(t->skel->maps.counts), &which, v) < 0)
		return 0;
	for (int i = 0; i < n; i++)
		sum += v[i];
	return sum;
}

uint64_t rq_truth_bpf_drops(const struct rq_truth_bpf *t)
{
	return sum_count(t, 0);
}

uint64_t rq_truth_bpf_written(const struct rq_truth_bpf *t)
{
	return sum_count(t, 1);
}

uint64_t rq_truth_bpf_misses(const struct rq_truth_bpf *t)
{
	struct bpf_program *prog;
	uint64_t sum = 0;

	if (!t || !t->skel)
		return 0;
	bpf_object__for_each_program(prog, t->skel->obj) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);

		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len) == 0)
			sum += info.recursion_misses;
	}
	return sum;
}

int rq_truth_bpf_costs(const struct rq_truth_bpf *t, struct rq_truth_prog_cost *out, int max)
{
	struct bpf_program *prog;
	int n = 0;

	if (!t || !t->skel)
		return 0;
	bpf_object__for_each_program(prog, t->skel->obj) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);

		if (n >= max)
			break;
		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len) < 0 ||
		    !info.run_cnt)
			continue;
		snprintf(out[n].name, sizeof(out[n].name), "%s", bpf_program__name(prog));
		out[n].runs = info.run_cnt;
		out[n].ns = info.run_time_ns;
		n++;
	}
	return n;
}

int rq_truth_bpf_enable_stats(char *err, size_t errlen)
{
	int fd = bpf_enable_stats(BPF_STATS_RUN_TIME);

	if (fd < 0)
		why(-fd, err, errlen, "enable run-time statistics");
	return fd < 0 ? -1 : fd;
}

void rq_truth_bpf_close(struct rq_truth_bpf *t)
{
	if (!t)
		return;
	ring_buffer__free(t->rb);
	if (t->skel)
		truth_bpf__destroy(t->skel);
	free(t);
}

#endif
