// SPDX-License-Identifier: GPL-2.0
/*
 * perfetto.c - `audit --format perfetto`: the Perfetto protobuf trace format (perfetto.h),
 * written by a small encoder of the few messages it needs.  The field numbers are those
 * of Perfetto's protos/perfetto/trace/ (trace.proto, trace_packet.proto,
 * track_event/track_event.proto, track_descriptor.proto, debug_annotation.proto,
 * interned_data/interned_data.proto, ftrace/, ps/process_tree.proto,
 * common/system_info.proto): tests/tools/perfetto_raw.py cites each one, and
 * tests/golden/t_perfetto.sh checks `protoc --decode_raw` of every fixture's export
 * against that table.
 *
 * The scheduler's own records go out as Perfetto's ftrace data, so that Perfetto fills its
 * CPU tracks and its sched, thread_state, thread and process tables as for a trace of
 * its own: per CPU a TracePacket.ftrace_events (FtraceEventBundle: cpu, event) of
 * FtraceEvent {timestamp, pid (the writer, common_pid), and one of sched_switch,
 * sched_waking, sched_wakeup, sched_wakeup_new, sched_migrate_task, sched_process_fork,
 * sched_process_exec, sched_process_exit, sched_process_free}, field numbers of
 * ftrace/ftrace_event_bundle.proto, ftrace/ftrace_event.proto and ftrace/sched.proto; a
 * bundle holds up to RQ_PF_BUNDLE bytes of one CPU's events in trace order, on sequence
 * FTRACE_SEQ_ID.  At the end a ProcessTree (ps/process_tree.proto) names every task
 * the analysis knew (tid, tgid, comm) and every process (pid, ppid).  rqpath's own data
 * are track events beside them:
 *
 * One packet sequence (trusted_packet_sequence_id 1): its first packet clears the
 * incremental state, and every string that repeats (event names, categories, argument
 * names, the task names, ids and explanations of the placements) is interned: sent
 * once as InternedData in the first packet that uses it, referred to by its iid after.
 * When the table reaches its bound the state is cleared again (constant memory).  The
 * packets are packed into chunks of at most RQ_PF_CHUNK bytes, each written deflated
 * (zlib) as one TracePacket.compressed_packets, the way Perfetto's own service
 * compresses a trace; with --perfetto-raw (rq_writer_perfetto_raw) they are written as
 * they are, for protoc --decode_raw.
 */
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "delay.h"
#include "escape.h"
#include "perfetto.h"
#include "writer.h"

/* ---- the wire format ------------------------------------------------------------ */

enum { WIRE_VARINT = 0, WIRE_LEN = 2 };

/* Trace */
#define F_TRACE_PACKET			1
/* TracePacket */
#define F_PKT_TIMESTAMP			8
#define F_PKT_SEQ_ID			10
#define F_PKT_TRACK_EVENT		11
#define F_PKT_INTERNED			12
#define F_PKT_SEQ_FLAGS			13
#define F_PKT_COMPRESSED		50
#define F_PKT_TRACK_DESC		60
#define F_PKT_FTRACE_EVENTS		1
#define F_PKT_PROCESS_TREE		2
/* FtraceEventBundle (ftrace/ftrace_event_bundle.proto) */
#define F_FB_CPU			1
#define F_FB_EVENT			2
#define F_FB_LOST_EVENTS		3
/* FtraceEvent (ftrace/ftrace_event.proto): the common fields, then the event oneof */
#define F_FE_TIMESTAMP			1
#define F_FE_PID			2
#define F_FE_SCHED_SWITCH		4
#define F_FE_SCHED_WAKEUP		17
#define F_FE_SCHED_WAKING		20
#define F_FE_SCHED_WAKEUP_NEW		114
#define F_FE_SCHED_PROCESS_EXEC		237
#define F_FE_SCHED_PROCESS_EXIT		238
#define F_FE_SCHED_PROCESS_FORK		239
#define F_FE_SCHED_PROCESS_FREE		240
#define F_FE_SCHED_MIGRATE_TASK		491
/* SchedSwitchFtraceEvent (ftrace/sched.proto) */
#define F_SW_PREV_COMM			1
#define F_SW_PREV_PID			2
#define F_SW_PREV_PRIO			3
#define F_SW_PREV_STATE			4
#define F_SW_NEXT_COMM			5
#define F_SW_NEXT_PID			6
#define F_SW_NEXT_PRIO			7
/* SchedWaking-, SchedWakeup-, SchedWakeupNewFtraceEvent: the same fields */
#define F_WK_COMM			1
#define F_WK_PID			2
#define F_WK_PRIO			3
#define F_WK_SUCCESS			4
#define F_WK_TARGET_CPU			5
/* SchedMigrateTaskFtraceEvent */
#define F_MG_COMM			1
#define F_MG_PID			2
#define F_MG_PRIO			3
#define F_MG_ORIG_CPU			4
#define F_MG_DEST_CPU			5
/* SchedProcessForkFtraceEvent */
#define F_FK_PARENT_COMM		1
#define F_FK_PARENT_PID			2
#define F_FK_CHILD_COMM			3
#define F_FK_CHILD_PID			4
/* SchedProcessExecFtraceEvent */
#define F_EX_FILENAME			1
#define F_EX_PID			2
#define F_EX_OLD_PID			3
/* SchedProcessExitFtraceEvent {comm 1, pid 2, tgid 3, prio 4}, SchedProcessFree {1, 2, 3} */
#define F_XT_COMM			1
#define F_XT_PID			2
#define F_XT_PRIO			4
#define F_FR_PRIO			3
/* ProcessTree (ps/process_tree.proto): processes {pid 1, ppid 2}, threads {tid 1, name 2,
 * tgid 3} */
#define F_PT_PROCESSES			1
#define F_PT_THREADS			2
#define F_PTP_PID			1
#define F_PTP_PPID			2
#define F_PTT_TID			1
#define F_PTT_NAME			2
#define F_PTT_TGID			3
#define SEQ_INCREMENTAL_STATE_CLEARED	1
#define SEQ_NEEDS_INCREMENTAL_STATE	2
/* TrackDescriptor */
#define F_TD_UUID			1
#define F_TD_NAME			2
#define F_TD_PARENT			5
/* TrackEvent */
#define F_TE_CATEGORY_IIDS		3
#define F_TE_DEBUG			4
#define F_TE_TYPE			9
#define F_TE_NAME_IID			10
#define F_TE_TRACK_UUID			11
#define TYPE_SLICE_BEGIN		1
#define TYPE_SLICE_END			2
#define TYPE_INSTANT			3
/* DebugAnnotation */
#define F_DA_NAME_IID			1
#define F_DA_INT			4
#define F_DA_ARRAY			12
#define F_DA_STRING_IID			17
/* InternedData: the tables, indexed by enum pf_table; each entry is {iid = 1, name = 2} */
static const unsigned int interned_field[] = { 1, 2, 3, 29 };
enum pf_table { T_CATEGORY, T_EVENT_NAME, T_ARG_NAME, T_STRING, T__COUNT };

#define SEQ_ID		1
#define FTRACE_SEQ_ID	2	/* the ftrace bundles and the process tree: no interning */
#define ROOT_UUID	1
#define VERDICT_UUID	0x7271766572ull	/* the findings' verdicts: one instant at the end */
#define CPU_UUID(cpu)	(2 + (uint64_t)(cpu))

static void pb_grow(struct rq_pb *b, size_t n)
{
	size_t cap;
	uint8_t *p;

	if (b->oom || b->len + n <= b->cap)
		return;
	cap = b->cap ? b->cap : 4096;
	while (cap < b->len + n)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p) {
		b->oom = true;
		return;
	}
	b->p = p;
	b->cap = cap;
}

static void pb_raw(struct rq_pb *b, const void *d, size_t n)
{
	if (!n)
		return;
	pb_grow(b, n);
	if (b->oom)
		return;
	memcpy(b->p + b->len, d, n);
	b->len += n;
}

static void pb_varint(struct rq_pb *b, uint64_t v)
{
	uint8_t t[10];
	size_t n = 0;

	do {
		t[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	pb_raw(b, t, n);
}

static void pb_key(struct rq_pb *b, unsigned int field, unsigned int wire)
{
	pb_varint(b, (uint64_t)field << 3 | wire);
}

static void pb_uint(struct rq_pb *b, unsigned int field, uint64_t v)
{
	pb_key(b, field, WIRE_VARINT);
	pb_varint(b, v);
}

/* int32/int64: a negative value is its two's complement, ten bytes */
static void pb_int(struct rq_pb *b, unsigned int field, int64_t v)
{
	pb_uint(b, field, (uint64_t)v);
}

static void pb_bytes(struct rq_pb *b, unsigned int field, const void *d, size_t n)
{
	pb_key(b, field, WIRE_LEN);
	pb_varint(b, n);
	pb_raw(b, d, n);
}

/* A nested message: open returns where its body starts, close writes its length. */
static size_t pb_open(struct rq_pb *b, unsigned int field)
{
	pb_key(b, field, WIRE_LEN);
	pb_raw(b, "", 1);	/* room for a length below 128 */
	return b->len;
}

static void pb_close(struct rq_pb *b, size_t start)
{
	uint8_t t[10];
	size_t len, n = 0;
	uint64_t v;

	if (b->oom)
		return;
	len = b->len - start;
	v = len;
	do {
		t[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	if (n > 1) {
		pb_grow(b, n - 1);
		if (b->oom)
			return;
		memmove(b->p + start + n - 1, b->p + start, len);
		b->len += n - 1;
	}
	memcpy(b->p + start - 1, t, n);
}

/* ---- interning ------------------------------------------------------------------ */

static uint64_t hash(unsigned int table, const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull ^ table;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 1099511628211ull;
	return h ? h : 1;
}

static void intern_clear(struct rq_perfetto *p)
{
	if (p->slots)
		memset(p->slots, 0, RQ_PF_SLOTS * sizeof(*p->slots));
	p->nentries = 0;
	p->arena_len = 0;
	for (int t = 0; t < T__COUNT; t++)
		p->next_iid[t] = 1;
	p->cleared = true;
}

/*
 * The iid of s in table t; a string seen first is added to the packet's InternedData
 * (p->interned).  0 when memory ran out (the caller leaves the field out).
 */
static uint64_t intern_string(struct rq_perfetto *p, unsigned int t, const char *s, size_t n)
{
	uint64_t h = hash(t, s, n);
	size_t i = (size_t)(h % RQ_PF_SLOTS);
	struct rq_pf_entry *e;
	size_t start;

	for (;; i = (i + 1) % RQ_PF_SLOTS) {
		uint32_t k = p->slots[i];

		if (!k)
			break;
		e = &p->entries[k - 1];
		if (e->hash == h && e->table == t && e->len == n &&
		    !memcmp(p->arena + e->off, s, n))
			return e->iid;
	}
	if (p->arena_len + n > p->arena_cap) {
		size_t cap = p->arena_cap ? p->arena_cap : 65536;
		char *a;

		while (cap < p->arena_len + n)
			cap *= 2;
		a = realloc(p->arena, cap);
		if (!a)
			return 0;
		p->arena = a;
		p->arena_cap = cap;
	}
	memcpy(p->arena + p->arena_len, s, n);
	e = &p->entries[p->nentries];
	e->hash = h;
	e->table = t;
	e->off = (uint32_t)p->arena_len;
	e->len = (uint32_t)n;
	e->iid = p->next_iid[t]++;
	p->arena_len += n;
	p->slots[i] = (uint32_t)++p->nentries;
	start = pb_open(&p->interned[t], interned_field[t]);
	pb_uint(&p->interned[t], 1, e->iid);
	pb_bytes(&p->interned[t], 2, s, n);
	pb_close(&p->interned[t], start);
	return e->iid;
}

static uint64_t intern_str(struct rq_perfetto *p, unsigned int t, const char *s)
{
	return intern_string(p, t, s, strlen(s));
}

/* A task name or other untrusted text: valid UTF-8 without controls (escape.c). */
static uint64_t intern_untrusted(struct rq_perfetto *p, unsigned int t, const char *s,
				 size_t n)
{
	char raw[RQ_PF_TEXT], esc[4 * RQ_PF_TEXT + 16];

	n = n < sizeof(raw) - 1 ? n : sizeof(raw) - 1;
	memcpy(raw, s, n);
	raw[n] = '\0';
	rq_escape_controls(raw, esc, sizeof(esc));
	return intern_str(p, t, esc);
}

/* ---- packets -------------------------------------------------------------------- */

/* Write the chunk: deflated, as one TracePacket of the file's Trace. */
static void flush_chunk(struct rq_perfetto *p)
{
	struct rq_pb *c = &p->chunk;
	uLongf zlen;
	uint8_t *z;

	if (!c->len || p->write_failed)
		return;
	if (c->oom) {
		p->write_failed = true;
		return;
	}
	if (p->raw) {
		if (fwrite(c->p, 1, c->len, p->f) != c->len)
			p->write_failed = true;
		p->bytes_in += c->len;
		c->len = 0;
		return;
	}
	zlen = compressBound((uLong)c->len);
	z = malloc(zlen);
	if (!z || compress2(z, &zlen, c->p, (uLong)c->len, RQ_PF_ZLEVEL) != Z_OK) {
		free(z);
		p->write_failed = true;
		return;
	}
	p->zpkt.len = 0;
	pb_bytes(&p->zpkt, F_PKT_COMPRESSED, z, zlen);
	free(z);
	/* the outer Trace.packet */
	p->out.len = 0;
	pb_key(&p->out, F_TRACE_PACKET, WIRE_LEN);
	pb_varint(&p->out, p->zpkt.len);
	if (p->out.oom || p->zpkt.oom || fwrite(p->out.p, 1, p->out.len, p->f) != p->out.len ||
	    fwrite(p->zpkt.p, 1, p->zpkt.len, p->f) != p->zpkt.len)
		p->write_failed = true;
	p->bytes_in += c->len;
	c->len = 0;
}

/* Start a packet in p->pkt: its sequence, and the flags the interning needs. */
static void pkt_begin(struct rq_perfetto *p, uint64_t ts, bool has_ts)
{
	p->pkt.len = 0;
	for (int t = 0; t < T__COUNT; t++)
		p->interned[t].len = 0;
	if (has_ts)
		pb_uint(&p->pkt, F_PKT_TIMESTAMP, ts);
	pb_uint(&p->pkt, F_PKT_SEQ_ID, SEQ_ID);
	if (p->cleared)
		pb_uint(&p->pkt, F_PKT_SEQ_FLAGS,
			SEQ_INCREMENTAL_STATE_CLEARED | SEQ_NEEDS_INCREMENTAL_STATE);
	else
		pb_uint(&p->pkt, F_PKT_SEQ_FLAGS, SEQ_NEEDS_INCREMENTAL_STATE);
	p->cleared = false;
}

/* End the packet: its new interned strings, then into the chunk as Trace.packet. */
static void pkt_end(struct rq_perfetto *p)
{
	size_t any = 0;

	for (int t = 0; t < T__COUNT; t++)
		any += p->interned[t].len;
	if (any) {
		size_t start = pb_open(&p->pkt, F_PKT_INTERNED);

		for (int t = 0; t < T__COUNT; t++)
			pb_raw(&p->pkt, p->interned[t].p, p->interned[t].len);
		pb_close(&p->pkt, start);
	}
	for (int t = 0; t < T__COUNT; t++)
		if (p->interned[t].oom)
			p->pkt.oom = true;
	if (p->pkt.oom) {
		p->write_failed = true;
		return;
	}
	if (p->chunk.len + p->pkt.len + 16 > RQ_PF_CHUNK)
		flush_chunk(p);
	pb_key(&p->chunk, F_TRACE_PACKET, WIRE_LEN);
	pb_varint(&p->chunk, p->pkt.len);
	pb_raw(&p->chunk, p->pkt.p, p->pkt.len);
	p->packets++;
	/* the table's bound: start again, the next packet says so */
	if (p->nentries >= RQ_PF_ENTRIES || p->arena_len >= RQ_PF_ARENA)
		intern_clear(p);
}

/* A packet built in b without interning: into the chunk as Trace.packet. */
static void pkt_put(struct rq_perfetto *p, struct rq_pb *b)
{
	if (b->oom) {
		p->write_failed = true;
		return;
	}
	if (p->chunk.len + b->len + 16 > RQ_PF_CHUNK)
		flush_chunk(p);
	pb_key(&p->chunk, F_TRACE_PACKET, WIRE_LEN);
	pb_varint(&p->chunk, b->len);
	pb_raw(&p->chunk, b->p, b->len);
	p->packets++;
}

/* ---- the scheduler's records as Perfetto's ftrace data -------------------------- */

/* An untrusted string (a task or file name) as a string field: escaped (escape.c). */
static void pb_text(struct rq_pb *b, unsigned int field, const char *s, size_t n)
{
	char raw[RQ_PF_TEXT], esc[4 * RQ_PF_TEXT + 16];

	n = n < sizeof(raw) - 1 ? n : sizeof(raw) - 1;
	memcpy(raw, s, n);
	raw[n] = '\0';
	rq_escape_controls(raw, esc, sizeof(esc));
	pb_bytes(b, field, esc, strlen(esc));
}

static void pb_comm(struct rq_pb *b, unsigned int field, const char comm[RQ_COMM_LEN])
{
	pb_text(b, field, comm, strnlen(comm, RQ_COMM_LEN));
}

/*
 * SystemInfo.utsname (common/system_info.proto: SystemInfo.utsname 1, Utsname.sysname 1,
 * release 3), TracePacket.system_info 45: Perfetto reads sched_switch's prev_state by the
 * kernel's release.  Once, before the first bundle (Perfetto reads it before sorting).
 */
#define F_PKT_SYSTEM_INFO	45
static void pf_system_info(struct rq_perfetto *p)
{
	const char *rel = rq_analysis_summary(p->an)->profile.release;
	struct rq_pb *b = &p->bpkt;
	size_t si, u;

	p->sent_system_info = true;
	if (!rel[0])
		return;
	b->len = 0;
	pb_uint(b, F_PKT_SEQ_ID, FTRACE_SEQ_ID);
	si = pb_open(b, F_PKT_SYSTEM_INFO);
	u = pb_open(b, 1);
	pb_bytes(b, 1, "Linux", 5);
	pb_text(b, 3, rel, strlen(rel));
	pb_close(b, u);
	pb_close(b, si);
	pkt_put(p, b);
}

/* CPU cpu's events so far as one FtraceEventBundle packet. */
static void bundle_flush(struct rq_perfetto *p, int cpu)
{
	struct rq_pf_cpu *c = &p->cpus[cpu];
	struct rq_pb *b = &p->bpkt;
	size_t fb;

	if (!c->ev.len && !c->lost)
		return;
	if (!p->sent_system_info)
		pf_system_info(p);
	if (c->ev.oom) {
		p->write_failed = true;
		return;
	}
	b->len = 0;
	pb_uint(b, F_PKT_SEQ_ID, FTRACE_SEQ_ID);
	fb = pb_open(b, F_PKT_FTRACE_EVENTS);
	pb_uint(b, F_FB_CPU, (uint64_t)cpu);
	if (c->lost)
		pb_uint(b, F_FB_LOST_EVENTS, 1);
	pb_raw(b, c->ev.p, c->ev.len);
	pb_close(b, fb);
	pkt_put(p, b);
	c->ev.len = 0;
	c->lost = false;
	p->bundles++;
}

static struct rq_pf_cpu *pf_cpu(struct rq_perfetto *p, int cpu)
{
	struct rq_pf_cpu *c;

	if (cpu < 0 || cpu >= RQ_PF_MAX_CPUS)
		return NULL;
	if (cpu >= p->ncpus) {
		int n = cpu + 1 > 2 * p->ncpus ? cpu + 1 : 2 * p->ncpus;

		c = realloc(p->cpus, (size_t)n * sizeof(*c));
		if (!c) {
			p->write_failed = true;
			return NULL;
		}
		memset(c + p->ncpus, 0, (size_t)(n - p->ncpus) * sizeof(*c));
		p->cpus = c;
		p->ncpus = n;
	}
	return &p->cpus[cpu];
}

/* One of the wakeup events: SchedWaking-, SchedWakeup- and SchedWakeupNewFtraceEvent. */
static void fe_wake(struct rq_pb *b, unsigned int field, const struct rq_event *ev)
{
	size_t m = pb_open(b, field);

	pb_comm(b, F_WK_COMM, ev->comm);
	pb_int(b, F_WK_PID, ev->pid);
	pb_int(b, F_WK_PRIO, ev->prio);
	pb_int(b, F_WK_SUCCESS, 1);	/* the kernel's format has it 1 since Linux 4.15 */
	pb_int(b, F_WK_TARGET_CPU, ev->cpu_a);
	pb_close(b, m);
}

/* A scheduler record as an FtraceEvent in its CPU's bundle; other records are left out. */
static void pf_event(struct rq_writer *w, const struct rq_event *ev)
{
	struct rq_perfetto *p = w->priv;
	struct rq_pf_cpu *c;
	struct rq_pb *b;
	size_t e, m;

	switch (ev->type) {
	case RQ_EV_SWITCH: case RQ_EV_WAKING: case RQ_EV_WAKEUP: case RQ_EV_WAKEUP_NEW:
	case RQ_EV_MIGRATE: case RQ_EV_FORK: case RQ_EV_EXEC: case RQ_EV_EXIT: case RQ_EV_FREE:
	case RQ_EV_LOST:
		break;
	default:
		return;
	}
	c = pf_cpu(p, ev->cpu);
	if (!c)
		return;
	if (ev->type == RQ_EV_LOST) {
		/* FtraceEventBundle.lost_events: on the bundle of the events after the gap */
		bundle_flush(p, ev->cpu);
		c->lost = true;
		return;
	}
	b = &c->ev;
	e = pb_open(b, F_FB_EVENT);
	pb_uint(b, F_FE_TIMESTAMP, ev->ts);
	pb_uint(b, F_FE_PID, (uint32_t)(ev->common_pid < 0 ? 0 : ev->common_pid));
	switch (ev->type) {
	case RQ_EV_SWITCH:
		m = pb_open(b, F_FE_SCHED_SWITCH);
		pb_comm(b, F_SW_PREV_COMM, ev->comm);
		pb_int(b, F_SW_PREV_PID, ev->pid);
		pb_int(b, F_SW_PREV_PRIO, ev->prio);
		pb_int(b, F_SW_PREV_STATE, ev->state);
		pb_comm(b, F_SW_NEXT_COMM, ev->comm2);
		pb_int(b, F_SW_NEXT_PID, ev->pid2);
		pb_int(b, F_SW_NEXT_PRIO, ev->prio2);
		pb_close(b, m);
		p->switches++;
		break;
	case RQ_EV_WAKING:
		fe_wake(b, F_FE_SCHED_WAKING, ev);
		break;
	case RQ_EV_WAKEUP:
		fe_wake(b, F_FE_SCHED_WAKEUP, ev);
		break;
	case RQ_EV_WAKEUP_NEW:
		fe_wake(b, F_FE_SCHED_WAKEUP_NEW, ev);
		break;
	case RQ_EV_MIGRATE:
		m = pb_open(b, F_FE_SCHED_MIGRATE_TASK);
		pb_comm(b, F_MG_COMM, ev->comm);
		pb_int(b, F_MG_PID, ev->pid);
		pb_int(b, F_MG_PRIO, ev->prio);
		pb_int(b, F_MG_ORIG_CPU, ev->cpu_a);
		pb_int(b, F_MG_DEST_CPU, ev->cpu_b);
		pb_close(b, m);
		break;
	case RQ_EV_FORK:
		m = pb_open(b, F_FE_SCHED_PROCESS_FORK);
		pb_comm(b, F_FK_PARENT_COMM, ev->comm);
		pb_int(b, F_FK_PARENT_PID, ev->pid);
		pb_comm(b, F_FK_CHILD_COMM, ev->comm2);
		pb_int(b, F_FK_CHILD_PID, ev->pid2);
		pb_close(b, m);
		break;
	case RQ_EV_EXEC:
		m = pb_open(b, F_FE_SCHED_PROCESS_EXEC);
		if (ev->str)
			pb_text(b, F_EX_FILENAME, ev->str, ev->str_len > 0 ? (size_t)ev->str_len : 0);
		pb_int(b, F_EX_PID, ev->pid);
		pb_int(b, F_EX_OLD_PID, ev->pid2);
		pb_close(b, m);
		break;
	case RQ_EV_EXIT:
		m = pb_open(b, F_FE_SCHED_PROCESS_EXIT);
		pb_comm(b, F_XT_COMM, ev->comm);
		pb_int(b, F_XT_PID, ev->pid);
		pb_int(b, F_XT_PRIO, ev->prio);
		pb_close(b, m);
		break;
	default:	/* RQ_EV_FREE */
		m = pb_open(b, F_FE_SCHED_PROCESS_FREE);
		pb_comm(b, F_XT_COMM, ev->comm);
		pb_int(b, F_XT_PID, ev->pid);
		pb_int(b, F_FR_PRIO, ev->prio);
		pb_close(b, m);
		break;
	}
	pb_close(b, e);
	p->ftrace_events++;
	if (b->len >= RQ_PF_BUNDLE)
		bundle_flush(p, ev->cpu);
}

/*
 * The tasks' names: ProcessTree.threads {tid, tgid, name} for every task, .processes
 * {pid, ppid} for every thread group leader, in packets of at most 1000 entries.
 */
struct pt_state {
	struct rq_perfetto *p;
	size_t tree;
	int n;
};

static void pt_begin(struct pt_state *st)
{
	struct rq_pb *b = &st->p->bpkt;

	b->len = 0;
	pb_uint(b, F_PKT_TIMESTAMP, rq_analysis_summary(st->p->an)->first_ts);
	pb_uint(b, F_PKT_SEQ_ID, FTRACE_SEQ_ID);
	st->tree = pb_open(b, F_PKT_PROCESS_TREE);
	st->n = 0;
}

static void pt_end(struct pt_state *st)
{
	if (!st->n)
		return;
	pb_close(&st->p->bpkt, st->tree);
	pkt_put(st->p, &st->p->bpkt);
}

static int pt_task(const struct rq_task_info *ti, void *data)
{
	struct pt_state *st = data;
	struct rq_pb *b = &st->p->bpkt;
	size_t m;

	if (ti->pid <= 0)
		return 0;
	if (ti->tgid == ti->pid) {
		m = pb_open(b, F_PT_PROCESSES);
		pb_int(b, F_PTP_PID, ti->pid);
		if (ti->ppid > 0)
			pb_int(b, F_PTP_PPID, ti->ppid);
		pb_close(b, m);
	}
	m = pb_open(b, F_PT_THREADS);
	pb_int(b, F_PTT_TID, ti->pid);
	pb_comm(b, F_PTT_NAME, ti->comm);
	if (ti->tgid > 0)
		pb_int(b, F_PTT_TGID, ti->tgid);
	pb_close(b, m);
	if (++st->n >= 1000) {
		pt_end(st);
		pt_begin(st);
	}
	return 0;
}

static void pf_process_tree(struct rq_perfetto *p)
{
	struct pt_state st = { .p = p };

	pt_begin(&st);
	rq_task_info_foreach(p->an, pt_task, &st);
	pt_end(&st);
}

/* A debug annotation: an integer, or an interned string. */
static void arg_int(struct rq_perfetto *p, const char *name, int64_t v)
{
	size_t a = pb_open(&p->pkt, F_TE_DEBUG);

	pb_uint(&p->pkt, F_DA_NAME_IID, intern_str(p, T_ARG_NAME, name));
	pb_int(&p->pkt, F_DA_INT, v);
	pb_close(&p->pkt, a);
}

static void arg_iid(struct rq_perfetto *p, const char *name, uint64_t iid)
{
	size_t a = pb_open(&p->pkt, F_TE_DEBUG);

	pb_uint(&p->pkt, F_DA_NAME_IID, intern_str(p, T_ARG_NAME, name));
	pb_uint(&p->pkt, F_DA_STRING_IID, iid);
	pb_close(&p->pkt, a);
}

/* findings, possible, no_selection: arrays of finding ids as in the JSONL export; none if empty */
static void arg_findings(struct rq_perfetto *p, const char *name, unsigned int bits)
{
	size_t a;

	if (!bits)
		return;
	a = pb_open(&p->pkt, F_TE_DEBUG);
	pb_uint(&p->pkt, F_DA_NAME_IID, intern_str(p, T_ARG_NAME, name));
	for (int f = 0; f < RQ_FIND__COUNT; f++) {
		size_t v;

		if (!(bits & (1u << f)))
			continue;
		v = pb_open(&p->pkt, F_DA_ARRAY);
		pb_uint(&p->pkt, F_DA_STRING_IID, intern_str(p, T_STRING, rq_finding_ids[f]));
		pb_close(&p->pkt, v);
	}
	pb_close(&p->pkt, a);
}

static void pf_run(struct rq_runs *r, int cpu, int pid, const char *comm, uint64_t start,
		   uint64_t end);

/* The tracks: one per CPU (its uuid CPU_UUID), under one named "rqpath". */
static void pf_tracks(struct rq_perfetto *p)
{
	char name[32];
	size_t d;

	if (p->runs.cpu)
		return;
	if (rq_runs_init(&p->runs, p->an, rq_analysis_summary(p->an)->nr_cpus)) {
		p->write_failed = true;
		return;
	}
	p->runs.run = pf_run;
	pkt_begin(p, 0, false);
	d = pb_open(&p->pkt, F_PKT_TRACK_DESC);
	pb_uint(&p->pkt, F_TD_UUID, ROOT_UUID);
	pb_bytes(&p->pkt, F_TD_NAME, "CPUs (rqpath)", strlen("CPUs (rqpath)"));
	pb_close(&p->pkt, d);
	pkt_end(p);
	for (int cpu = 0; cpu < p->runs.nr_cpus; cpu++) {
		pkt_begin(p, 0, false);
		d = pb_open(&p->pkt, F_PKT_TRACK_DESC);
		pb_uint(&p->pkt, F_TD_UUID, CPU_UUID(cpu));
		pb_uint(&p->pkt, F_TD_PARENT, ROOT_UUID);
		snprintf(name, sizeof(name), "CPU %d", cpu);
		pb_bytes(&p->pkt, F_TD_NAME, name, strlen(name));
		pb_close(&p->pkt, d);
		pkt_end(p);
	}
}

/* A run of pid on cpu: a slice named "comm pid" from start to end. */
static void pf_run(struct rq_runs *r, int cpu, int pid, const char *comm, uint64_t start,
		   uint64_t end)
{
	struct rq_perfetto *p = (struct rq_perfetto *)r;
	char name[RQ_COMM_LEN + 16];
	uint64_t iid;
	size_t te;

	snprintf(name, sizeof(name), "%s %d", comm, pid);
	pkt_begin(p, start, true);
	iid = intern_untrusted(p, T_EVENT_NAME, name, strlen(name));
	te = pb_open(&p->pkt, F_PKT_TRACK_EVENT);
	pb_uint(&p->pkt, F_TE_TYPE, TYPE_SLICE_BEGIN);
	pb_uint(&p->pkt, F_TE_TRACK_UUID, CPU_UUID(cpu));
	pb_uint(&p->pkt, F_TE_CATEGORY_IIDS, intern_str(p, T_CATEGORY, "sched"));
	if (iid)
		pb_uint(&p->pkt, F_TE_NAME_IID, iid);
	arg_int(p, "pid", pid);
	pb_close(&p->pkt, te);
	pkt_end(p);
	pkt_begin(p, end, true);
	te = pb_open(&p->pkt, F_PKT_TRACK_EVENT);
	pb_uint(&p->pkt, F_TE_TYPE, TYPE_SLICE_END);
	pb_uint(&p->pkt, F_TE_TRACK_UUID, CPU_UUID(cpu));
	pb_close(&p->pkt, te);
	pkt_end(p);
	p->slices++;
}

static void pf_on_run(struct rq_writer *w, int cpu, int pid, uint64_t ts)
{
	struct rq_perfetto *p = w->priv;

	pf_tracks(p);
	if (p->runs.cpu)
		rq_runs_run(&p->runs, cpu, pid, ts);
}

static int tgid_of(const struct rq_analysis *an, int pid)
{
	struct rq_task_info t;

	return rq_task_info_get(an, pid, &t) ? t.tgid : 0;
}

/*
 * A placement: an instant event on the CPU it was put on, named by its path and
 * findings, in the category of its kind, with the arguments of the JSONL export.
 */
static void pf_placement(struct rq_writer *w, const struct rq_placement *pl)
{
	struct rq_perfetto *p = w->priv;
	int cpu = pl->to_cpu >= 0 ? pl->to_cpu : pl->cpu;
	char why[512], name[128];
	size_t te, len;

	pf_tracks(p);
	if (!p->runs.cpu)
		return;
	len = (size_t)snprintf(name, sizeof(name), "%s", rq_paths[pl->path].id);
	for (int f = 0; f < RQ_FIND__COUNT && len < sizeof(name); f++)
		if (pl->findings & (1u << f))
			len += (size_t)snprintf(name + len, sizeof(name) - len, "%s%s",
						len > strlen(rq_paths[pl->path].id) ? " " : ": ",
						rq_finding_ids[f]);
	rq_placement_describe(pl, why, sizeof(why));
	pkt_begin(p, pl->ts, true);
	te = pb_open(&p->pkt, F_PKT_TRACK_EVENT);
	pb_uint(&p->pkt, F_TE_TYPE, TYPE_INSTANT);
	pb_uint(&p->pkt, F_TE_TRACK_UUID, CPU_UUID(cpu < 0 ? 0 : cpu));
	pb_uint(&p->pkt, F_TE_CATEGORY_IIDS,
		intern_str(p, T_CATEGORY, rq_kind_names[rq_paths[pl->path].kind]));
	pb_uint(&p->pkt, F_TE_NAME_IID, intern_str(p, T_EVENT_NAME, name));
	arg_int(p, "seq", (int64_t)pl->seq);
	arg_int(p, "cpu", pl->cpu);
	arg_int(p, "pid", pl->pid);
	arg_int(p, "tgid", tgid_of(p->an, pl->pid));
	arg_iid(p, "comm", intern_untrusted(p, T_STRING, pl->comm,
					    strnlen(pl->comm, sizeof(pl->comm))));
	arg_iid(p, "kind", intern_str(p, T_STRING, rq_kind_names[rq_paths[pl->path].kind]));
	arg_iid(p, "path", intern_str(p, T_STRING, rq_paths[pl->path].id));
	arg_iid(p, "confidence", intern_str(p, T_STRING, rq_confidence_names[pl->conf]));
	arg_int(p, "from_cpu", pl->from_cpu);
	arg_int(p, "to_cpu", pl->to_cpu);
	arg_int(p, "waker", pl->writer_pid);
	if (pl->delay_ns >= 0)
		arg_int(p, "delay_ns", pl->delay_ns);
	arg_findings(p, "findings", pl->findings);
	arg_findings(p, "possible", pl->possible);
	arg_findings(p, "no_selection", pl->no_selection);
	arg_iid(p, "why", intern_untrusted(p, T_STRING, why, strlen(why)));
	pb_close(&p->pkt, te);
	pkt_end(p);
	p->instants++;
}

static int pf_begin(struct rq_writer *w)
{
	struct rq_perfetto *p = w->priv;

	p->f = w->f;
	p->an = w->an;
	p->slots = calloc(RQ_PF_SLOTS, sizeof(*p->slots));
	p->entries = calloc(RQ_PF_ENTRIES + 1, sizeof(*p->entries));
	if (!p->slots || !p->entries || !rq_analysis_delay(w->an))
		return -1;
	intern_clear(p);
	return 0;
}

/*
 * The verdict of each finding, as the reports give it: an instant at the end of the
 * trace on a track of its own, "<id>.verdict" its count or "not judged", and its count,
 * possible, no_selection, not_judged and judged.
 */
static void pf_verdicts(struct rq_perfetto *p, const struct rq_summary *sum)
{
	static const char track[] = "rqpath findings (verdicts)";
	char name[64], count[24];
	size_t d, te;

	pkt_begin(p, 0, false);
	d = pb_open(&p->pkt, F_PKT_TRACK_DESC);
	pb_uint(&p->pkt, F_TD_UUID, VERDICT_UUID);
	pb_bytes(&p->pkt, F_TD_NAME, track, strlen(track));
	pb_close(&p->pkt, d);
	pkt_end(p);
	pkt_begin(p, sum->last_ts, true);
	te = pb_open(&p->pkt, F_PKT_TRACK_EVENT);
	pb_uint(&p->pkt, F_TE_TYPE, TYPE_INSTANT);
	pb_uint(&p->pkt, F_TE_TRACK_UUID, VERDICT_UUID);
	pb_uint(&p->pkt, F_TE_CATEGORY_IIDS, intern_str(p, T_CATEGORY, "verdict"));
	pb_uint(&p->pkt, F_TE_NAME_IID, intern_str(p, T_EVENT_NAME, "verdicts"));
	for (int f = 0; f < RQ_FIND__COUNT; f++) {
		const struct rq_finding_store *st = &sum->findings[f];

		if (rq_finding_not_judged(st))
			snprintf(count, sizeof(count), "not judged");
		else
			snprintf(count, sizeof(count), "%llu", (unsigned long long)st->count);
		snprintf(name, sizeof(name), "%s.verdict", rq_finding_ids[f]);
		arg_iid(p, name, intern_str(p, T_STRING, count));
		snprintf(name, sizeof(name), "%s.count", rq_finding_ids[f]);
		arg_int(p, name, (int64_t)st->count);
		snprintf(name, sizeof(name), "%s.possible", rq_finding_ids[f]);
		arg_int(p, name, (int64_t)st->possible);
		snprintf(name, sizeof(name), "%s.no_selection", rq_finding_ids[f]);
		arg_int(p, name, (int64_t)st->no_selection);
		snprintf(name, sizeof(name), "%s.not_judged", rq_finding_ids[f]);
		arg_int(p, name, (int64_t)st->not_judged);
		snprintf(name, sizeof(name), "%s.judged", rq_finding_ids[f]);
		arg_int(p, name, (int64_t)st->judged);
	}
	pb_close(&p->pkt, te);
	pkt_end(p);
}

static int pf_end(struct rq_writer *w, const struct rq_summary *sum)
{
	struct rq_perfetto *p = w->priv;

	pf_tracks(p);
	if (p->runs.cpu)
		pf_verdicts(p, sum);
	for (int cpu = 0; cpu < p->ncpus; cpu++)
		bundle_flush(p, cpu);
	pf_process_tree(p);
	flush_chunk(p);
	return p->write_failed ? -1 : 0;
}

static void pf_done(struct rq_writer *w)
{
	struct rq_perfetto *p = w->priv;

	rq_runs_free(&p->runs);
	free(p->slots);
	free(p->entries);
	free(p->arena);
	free(p->pkt.p);
	free(p->out.p);
	free(p->zpkt.p);
	free(p->chunk.p);
	free(p->bpkt.p);
	for (int cpu = 0; cpu < p->ncpus; cpu++)
		free(p->cpus[cpu].ev.p);
	free(p->cpus);
	for (int t = 0; t < T__COUNT; t++)
		free(p->interned[t].p);
}

static int pf_begin_raw(struct rq_writer *w)
{
	struct rq_perfetto *p = w->priv;

	p->raw = true;
	return pf_begin(w);
}

const struct rq_writer_ops rq_writer_perfetto = {
	.name = "perfetto",
	.flags = RQ_WRITER_STREAM,
	.private_size = sizeof(struct rq_perfetto),
	.begin = pf_begin,
	.placement = pf_placement,
	.run = pf_on_run,
	.event = pf_event,
	.end = pf_end,
	.done = pf_done,
};

/* --perfetto-raw: the same packets, not deflated */
const struct rq_writer_ops rq_writer_perfetto_raw = {
	.name = "perfetto-raw",
	.flags = RQ_WRITER_STREAM,
	.private_size = sizeof(struct rq_perfetto),
	.begin = pf_begin_raw,
	.placement = pf_placement,
	.run = pf_on_run,
	.event = pf_event,
	.end = pf_end,
	.done = pf_done,
};
