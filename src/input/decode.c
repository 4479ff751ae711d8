// SPDX-License-Identifier: GPL-2.0
/*
 * decode.c - tracepoint records to struct rq_event.
 *
 * Every field is found by name in the source's own format files once; the per-record
 * work is a table lookup on the event id and a few tep_read_number_field() calls.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <bsd/string.h>

#include "decode.h"
#include "markers.h"
#include "truth_fmt.h"

enum slot {
	/* the number of fields a decoded event can need, named per type below */
	S_PID, S_PID2, S_PRIO, S_PRIO2, S_CPU_A, S_CPU_B, S_STATE, S_ARG, S_COMM, S_COMM2, S_STR,
	S__COUNT
};

struct event_spec {
	const char *system;
	const char *name;
	enum rq_event_type type;
	const char *field[S__COUNT];
};

/* Which format field fills which rq_event member, per tracepoint: events.def. */
static const struct event_spec specs[] = {
#define F(slot, field) [S_##slot] = field
#define RQ_EVENT(id, system, name, recorded, loses, ...) \
	{ system, name, RQ_EV_##id, { __VA_ARGS__ } },
#include "events.def"
#undef RQ_EVENT
#undef F
};

#define NR_SPECS (sizeof(specs) / sizeof(specs[0]))
#define ID_TABLE 65536	/* common_type is 16 bits wide */

/* What a field read needs, taken from its format once (the per-record path is hot). */
struct field_desc {
	struct tep_format_field *f;	/* NULL: the event has no such field */
	int offset, size;
	bool is_signed;
};

/* A numeric field that is present, and where it goes in struct rq_event. */
struct num_slot {
	struct field_desc fd;
	size_t member;		/* offsetof() in struct rq_event */
	bool wide;		/* long long member, else int */
};

struct decoded_event {
	enum rq_event_type type;
	struct field_desc field[S__COUNT];
	int nnum;
	struct num_slot num[S__COUNT];	/* only the present numeric fields */
	/*
	 * Verified once from the format: every numeric field is a plain host-order load
	 * of 1, 2, 4 or 8 bytes that ends before min_size; a record at least that long
	 * is then read without a check per field.
	 */
	bool fast;
	int min_size;
	bool comm_fixed[2];	/* comm, comm2: char[16] inside the record's fixed part */
	/*
	 * The hot events, when their fields have the kernel's usual types (pid_t and
	 * int: signed 32-bit; prev_state: a signed long) and fixed comms: one straight
	 * line of loads each, no loop.  comm may also be a string after the fixed part
	 * (__data_loc, or __rel_loc from comm_rel on): sched_migrate_task's since Linux
	 * 6.16 (155fd6c3e2f0), the event that grows with the CPUs.
	 */
	enum { K_GENERIC, K_SWITCH, K_WAKE, K_MIGRATE } kind;
	uint16_t o_pid, o_pid2, o_prio, o_prio2, o_cpu_a, o_cpu_b, o_state, o_comm, o_comm2;
	bool state8;
	bool comm_loc;		/* comm is a 4-byte __data_loc / __rel_loc at o_comm */
	uint16_t comm_rel;	/* what a __rel_loc's offset counts from, 0 for __data_loc */
};

static const struct {
	size_t member;
	bool wide;
} slot_member[S__COUNT] = {
	[S_PID] = { offsetof(struct rq_event, pid), false },
	[S_PID2] = { offsetof(struct rq_event, pid2), false },
	[S_PRIO] = { offsetof(struct rq_event, prio), false },
	[S_PRIO2] = { offsetof(struct rq_event, prio2), false },
	[S_CPU_A] = { offsetof(struct rq_event, cpu_a), false },
	[S_CPU_B] = { offsetof(struct rq_event, cpu_b), false },
	[S_STATE] = { offsetof(struct rq_event, state), true },
	[S_ARG] = { offsetof(struct rq_event, arg), true },
};

/* The fields of rqpath:truth (truth_fmt.h), found by name. */
enum truth_field {
	T_PID, T_POLICY, T_ALLOWED, T_TASK_CPU, T_CPU, T_POINT, T_FLAGS, T_NR_CPUS, T_MASK, T_CPUS,
	T_IDS,	/* optional: older files' records hold CPUs 0..nr_cpus-1 */
	T__COUNT
};

static const char *const truth_names[T__COUNT] = {
	"pid", "policy", "nr_cpus_allowed", "task_cpu", "cpu", "point", "flags", "nr_cpus",
	"mask", "cpus", "ids",
};

struct rq_decoder {
	struct tep_handle *tep;
	struct field_desc truth_f[T__COUNT];
	struct rq_truth_rec truth;	/* the last truth record decoded: ev->truth */
	bool swap;		/* the file's byte order is not the host's */
	struct field_desc common_type, common_flags, common_preempt, common_pid;
	/*
	 * Event id -> 1 + index in events[] (0: not analysed), for the ids below
	 * nr_ids (at most ID_TABLE entries whatever ids the file's formats claim); the
	 * few analysed events with a larger id are found by a search of events[].
	 */
	int nr_ids;
	uint8_t *by_id;
	int big_id[NR_SPECS], big_idx[NR_SPECS];
	int nr_big;
	bool common_fast;	/* common_type u16 @0, flags u8 @2, preempt u8 @3, pid s32 @4 */
	struct decoded_event events[NR_SPECS];
	bool available[RQ_EV__COUNT];
};

static void describe_field(struct field_desc *fd, struct tep_format_field *f)
{
	/*
	 * The format text comes from the file: an offset or size no record can have
	 * (records fit in a page) is a corrupt field, treated as absent, so that
	 * offset + size cannot overflow and a numeric size is never 0 or negative.
	 */
	if (f && (f->offset < 0 || f->offset > 65535 || f->size < 0 || f->size > 65535))
		f = NULL;
	fd->f = f;
	fd->offset = f ? f->offset : 0;
	fd->size = f ? f->size : 0;
	fd->is_signed = f && (f->flags & TEP_FIELD_IS_SIGNED);
}

bool rq_decode_wants(const char *system, const char *name)
{
	for (size_t i = 0; i < NR_SPECS; i++)
		if (!strcmp(specs[i].system, system) && (!name || !strcmp(specs[i].name, name)))
			return true;
	return false;
}

/* comm as a 4-byte __data_loc / __rel_loc the hot path can follow (hot_comm()). */
static void verify_comm_loc(struct decoded_event *de)
{
	const struct field_desc *fd = &de->field[S_COMM];

	de->comm_loc = fd->f && (fd->f->flags & TEP_FIELD_IS_DYNAMIC) && fd->size == 4 &&
		       fd->offset >= 0 && fd->offset + 4 <= UINT16_MAX;
	de->comm_rel = 0;
	if (!de->comm_loc)
		return;
	if (fd->f->flags & TEP_FIELD_IS_RELATIVE)
		de->comm_rel = (uint16_t)(fd->offset + 4);
	if (fd->offset + 4 > de->min_size)
		de->min_size = fd->offset + 4;
}

/* Check once what lets rq_decode() read an event's fields without a check each. */
static void verify_layout(struct decoded_event *de, bool swap)
{
	de->fast = !swap;
	de->min_size = 8;
	for (int i = 0; i < de->nnum; i++) {
		const struct field_desc *fd = &de->num[i].fd;

		if (fd->size != 1 && fd->size != 2 && fd->size != 4 && fd->size != 8)
			de->fast = false;
		if (fd->offset + fd->size > de->min_size)
			de->min_size = fd->offset + fd->size;
	}
	for (int k = 0; k < 2; k++) {
		const struct field_desc *fd = &de->field[k ? S_COMM2 : S_COMM];

		de->comm_fixed[k] = fd->f && fd->size == RQ_COMM_LEN &&
				    !(fd->f->flags & TEP_FIELD_IS_DYNAMIC);
		if (de->comm_fixed[k] && fd->offset + RQ_COMM_LEN > de->min_size)
			de->min_size = fd->offset + RQ_COMM_LEN;
	}
	verify_comm_loc(de);
}

static bool s32(const struct field_desc *fd)
{
	return fd->f && fd->size == 4 && fd->is_signed;
}

/* Pick the straight-line decoder of a hot event when its layout allows it. */
static void pick_kind(struct decoded_event *de)
{
	const struct field_desc *f = de->field;

	de->kind = K_GENERIC;
	if (!de->fast || (!de->comm_fixed[0] && !de->comm_loc))
		return;
	de->o_pid = (uint16_t)f[S_PID].offset;
	de->o_pid2 = (uint16_t)f[S_PID2].offset;
	de->o_prio = (uint16_t)f[S_PRIO].offset;
	de->o_prio2 = (uint16_t)f[S_PRIO2].offset;
	de->o_cpu_a = (uint16_t)f[S_CPU_A].offset;
	de->o_cpu_b = (uint16_t)f[S_CPU_B].offset;
	de->o_state = (uint16_t)f[S_STATE].offset;
	de->o_comm = (uint16_t)f[S_COMM].offset;
	de->o_comm2 = (uint16_t)f[S_COMM2].offset;
	de->state8 = f[S_STATE].size == 8;
	switch (de->type) {
	case RQ_EV_SWITCH:
		if (s32(&f[S_PID]) && s32(&f[S_PID2]) && s32(&f[S_PRIO]) && s32(&f[S_PRIO2]) &&
		    f[S_STATE].f && f[S_STATE].is_signed &&
		    (f[S_STATE].size == 8 || f[S_STATE].size == 4) && de->comm_fixed[0] &&
		    de->comm_fixed[1] && de->nnum == 5)
			de->kind = K_SWITCH;
		break;
	case RQ_EV_WAKING:
	case RQ_EV_WAKEUP:
	case RQ_EV_WAKEUP_NEW:
		if (s32(&f[S_PID]) && s32(&f[S_PRIO]) && s32(&f[S_CPU_A]) && de->nnum == 3)
			de->kind = K_WAKE;
		break;
	case RQ_EV_MIGRATE:
		if (s32(&f[S_PID]) && s32(&f[S_PRIO]) && s32(&f[S_CPU_A]) && s32(&f[S_CPU_B]) &&
		    de->nnum == 4)
			de->kind = K_MIGRATE;
		break;
	default:
		break;
	}
}

static bool is_at(const struct field_desc *fd, int offset, int size)
{
	return fd->f && fd->offset == offset && fd->size == size;
}

/*
 * The fields of an rqpath:truth format: every one present, the numbers 1 to 4 bytes
 * wide, mask and cpus dynamic arrays.  false: not a format this decoder reads.
 */
static bool truth_fields(struct rq_decoder *d, struct tep_event *ev)
{
	for (int i = 0; i < T__COUNT; i++) {
		struct field_desc *fd = &d->truth_f[i];

		describe_field(fd, tep_find_field(ev, truth_names[i]));
		if (!fd->f && i == T_IDS)
			continue;
		if (!fd->f)
			return false;
		if (i >= T_MASK ? !(fd->f->flags & TEP_FIELD_IS_DYNAMIC) || fd->size != 4 ||
				  (fd->f->flags & TEP_FIELD_IS_RELATIVE) :
				  fd->size < 1 || fd->size > 4 || (fd->f->flags & TEP_FIELD_IS_DYNAMIC))
			return false;
	}
	return true;
}

struct rq_decoder *rq_decoder_new(struct tep_handle *tep)
{
	struct rq_decoder *d = calloc(1, sizeof(*d));
	struct tep_event *any = NULL;
	int ids[NR_SPECS];
	int max_id = -1;

	if (!d)
		return NULL;
	d->tep = tep;
	d->swap = tep_is_file_bigendian(tep) != tep_is_local_bigendian(tep);
	for (size_t i = 0; i < NR_SPECS; i++) {
		struct tep_event *ev = tep_find_event_by_name(tep, specs[i].system, specs[i].name);

		ids[i] = -1;
		d->events[i].type = specs[i].type;
		if (!ev)
			continue;
		any = ev;
		if (specs[i].type == RQ_EV_TRUTH && !truth_fields(d, ev))
			continue;
		for (int s = 0; s < S__COUNT; s++)
			if (specs[i].field[s])
				describe_field(&d->events[i].field[s],
					       tep_find_field(ev, specs[i].field[s]));
		/* an event whose key field is missing cannot be analysed: treat it as absent */
		if (!d->events[i].field[S_PID].f && !d->events[i].field[S_ARG].f &&
		    !d->events[i].field[S_STR].f && specs[i].type != RQ_EV_TRUTH)
			continue;
		for (int s = S_PID; s <= S_ARG; s++) {
			struct num_slot *ns = &d->events[i].num[d->events[i].nnum];

			if (!d->events[i].field[s].f)
				continue;
			ns->fd = d->events[i].field[s];
			ns->member = slot_member[s].member;
			ns->wide = slot_member[s].wide;
			d->events[i].nnum++;
		}
		verify_layout(&d->events[i], d->swap);
		pick_kind(&d->events[i]);
		d->available[specs[i].type] = true;
		if (ev->id < 0)
			continue;
		ids[i] = ev->id;
		if (ev->id >= ID_TABLE) {
			d->big_id[d->nr_big] = ev->id;
			d->big_idx[d->nr_big++] = (int)i;
		}
		else if (ev->id > max_id)
			max_id = ev->id;
	}
	/* the table is as long as the largest id below ID_TABLE: never sized by the file */
	if (max_id >= 0) {
		d->nr_ids = max_id + 1;
		d->by_id = calloc((size_t)d->nr_ids, sizeof(*d->by_id));
		if (!d->by_id) {
			free(d);
			return NULL;
		}
		for (size_t i = 0; i < NR_SPECS; i++)
			if (ids[i] >= 0 && ids[i] < ID_TABLE)
				d->by_id[ids[i]] = (uint8_t)(i + 1);
	}
	if (!any && tep_get_events_count(tep) > 0)
		any = tep_get_event(tep, 0);
	if (any) {
		describe_field(&d->common_type, tep_find_common_field(any, "common_type"));
		describe_field(&d->common_flags, tep_find_common_field(any, "common_flags"));
		describe_field(&d->common_preempt,
			       tep_find_common_field(any, "common_preempt_count"));
		describe_field(&d->common_pid, tep_find_common_field(any, "common_pid"));
	}
	/* the layout every kernel since 2.6 has */
	d->common_fast = !d->swap && is_at(&d->common_type, 0, 2) &&
			 is_at(&d->common_flags, 2, 1) && is_at(&d->common_preempt, 3, 1) &&
			 is_at(&d->common_pid, 4, 4) && d->common_pid.is_signed;
	return d;
}

void rq_decoder_free(struct rq_decoder *d)
{
	if (!d)
		return;
	free(d->by_id);
	free(d);
}

const bool *rq_decoder_available(const struct rq_decoder *d)
{
	return d->available;
}

static inline long long read_num(const struct rq_decoder *d, const struct field_desc *fd,
				 const struct tep_record *rec)
{
	const unsigned char *p = (const unsigned char *)rec->data + fd->offset;
	unsigned long long v;

	if (!fd->f || fd->offset < 0 || fd->offset + fd->size > rec->size)
		return 0;
	if (d->swap) {
		if (fd->size != 1 && fd->size != 2 && fd->size != 4 && fd->size != 8)
			return 0;	/* and no sign extension by 64 bits or more */
		v = tep_read_number(d->tep, p, fd->size);
	} else {
		/* host byte order: a plain load of the right width */
		switch (fd->size) {
		case 1: v = p[0]; break;
		case 2: { uint16_t x; memcpy(&x, p, 2); v = x; break; }
		case 4: { uint32_t x; memcpy(&x, p, 4); v = x; break; }
		case 8: { uint64_t x; memcpy(&x, p, 8); v = x; break; }
		default: return 0;
		}
	}
	/* sign-extend what the format says is signed and narrower than 64 bits */
	if (fd->is_signed && fd->size < 8)
		return (long long)(v << (64 - 8 * fd->size)) >> (64 - 8 * fd->size);
	return (long long)v;
}

/* Locate a string field: fixed char[N], __data_loc/__rel_loc, or a trailing char[]. */
static const char *field_str(struct rq_decoder *d, struct tep_format_field *f,
			     struct tep_record *rec, int *len)
{
	const char *data = rec->data;
	unsigned int off, n;

	if (f->offset < 0 || f->size < 0 || f->offset > rec->size)
		return NULL;
	off = (unsigned int)f->offset;
	n = (unsigned int)f->size;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		unsigned long long loc;

		if (f->offset + 4 > rec->size)
			return NULL;
		loc = tep_read_number(d->tep, data + f->offset, 4);
		off = (unsigned int)(loc & 0xffff);
		n = (unsigned int)(loc >> 16);
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += (unsigned int)(f->offset + f->size);
	} else if (!n) {
		n = (unsigned int)rec->size - off;
	}
	if (off > (unsigned int)rec->size)
		return NULL;
	if (n > (unsigned int)rec->size - off)
		n = (unsigned int)rec->size - off;
	*len = (int)strnlen(data + off, n);
	return data + off;
}

static void copy_comm(struct rq_decoder *d, const struct field_desc *fd, struct tep_record *rec,
		      char *out)
{
	const char *s;
	int len = 0;

	out[0] = '\0';
	if (!fd->f)
		return;
	/* the common case, a fixed char[16] inside the record: one copy */
	if (fd->size == RQ_COMM_LEN && !(fd->f->flags & TEP_FIELD_IS_DYNAMIC) &&
	    fd->offset >= 0 && fd->offset + RQ_COMM_LEN <= rec->size) {
		memcpy(out, (const char *)rec->data + fd->offset, RQ_COMM_LEN);
		out[RQ_COMM_LEN - 1] = '\0';
		return;
	}
	memset(out, 0, RQ_COMM_LEN);
	s = field_str(d, fd->f, rec, &len);
	if (!s)
		return;
	if (len >= RQ_COMM_LEN)
		len = RQ_COMM_LEN - 1;
	memcpy(out, s, (size_t)len);
	out[len] = '\0';
}

static inline long long load(const unsigned char *p, const struct field_desc *fd)
{
	uint16_t x2;
	uint32_t x4;
	uint64_t x8;

	switch (fd->size) {
	case 1:
		return fd->is_signed ? (long long)(int8_t)p[fd->offset] : (long long)p[fd->offset];
	case 2:
		memcpy(&x2, p + fd->offset, 2);
		return fd->is_signed ? (long long)(int16_t)x2 : (long long)x2;
	case 4:
		memcpy(&x4, p + fd->offset, 4);
		return fd->is_signed ? (long long)(int32_t)x4 : (long long)x4;
	default:
		memcpy(&x8, p + fd->offset, 8);
		return (long long)x8;
	}
}

static inline int rd_s32(const unsigned char *p)
{
	int32_t v;

	memcpy(&v, p, 4);
	return v;
}

static inline long long rd_s64(const unsigned char *p)
{
	int64_t v;

	memcpy(&v, p, 8);
	return v;
}

static inline void store(struct rq_event *ev, const struct num_slot *ns, long long v)
{
	char *member = (char *)ev + ns->member;

	if (ns->wide)
		memcpy(member, &v, sizeof(long long));
	else
		*(int *)member = (int)v;
}

/* A dynamic array field of rec: its bytes and length, bounds-checked; NULL if none. */
static const unsigned char *dyn_array(struct rq_decoder *d, const struct field_desc *fd,
				      const struct tep_record *rec, uint32_t *len)
{
	long long loc = read_num(d, fd, rec);
	uint32_t off = (uint32_t)loc & 0xffff, n = ((uint32_t)loc >> 16) & 0xffff;

	if (fd->offset + 4 > rec->size || off > (uint32_t)rec->size ||
	    n > (uint32_t)rec->size - off)
		return NULL;
	*len = n;
	return (const unsigned char *)rec->data + off;
}

static uint64_t rd_u(struct rq_decoder *d, const unsigned char *p, int size)
{
	uint64_t v = 0;

	if (d->swap)
		return tep_read_number(d->tep, p, size);
	memcpy(&v, p, (size_t)size);	/* little-endian host: the low bytes */
	if (tep_is_local_bigendian(d->tep) && size < 8)
		v >>= 64 - 8 * size;
	return v;
}

/*
 * An rqpath:truth record into the decoder's host-order struct rq_truth_rec: the numbers
 * as the format says, the mask words and CPU entries the arrays hold (no more than the
 * struct has, no more than nr_cpus), everything else 0.
 */
static void decode_truth(struct rq_decoder *d, struct tep_record *rec, struct rq_event *ev)
{
	struct rq_truth_rec *t = &d->truth;
	const unsigned char *a, *ids;
	uint32_t len, n, nids = 0;

	memset(t, 0, sizeof(*t));
	t->ts = rec->ts;
	t->pid = (uint32_t)read_num(d, &d->truth_f[T_PID], rec);
	t->policy = (uint32_t)read_num(d, &d->truth_f[T_POLICY], rec);
	t->nr_cpus_allowed = (uint32_t)read_num(d, &d->truth_f[T_ALLOWED], rec);
	t->task_cpu = (uint32_t)read_num(d, &d->truth_f[T_TASK_CPU], rec);
	t->cpu = (uint16_t)read_num(d, &d->truth_f[T_CPU], rec);
	t->point = (uint8_t)read_num(d, &d->truth_f[T_POINT], rec);
	t->flags = (uint8_t)read_num(d, &d->truth_f[T_FLAGS], rec);
	n = (uint32_t)read_num(d, &d->truth_f[T_NR_CPUS], rec);
	a = dyn_array(d, &d->truth_f[T_MASK], rec, &len);
	for (uint32_t i = 0; a && i < len / 8 && i < RQ_TRUTH_MASK_WORDS; i++) {
		t->mask[i] = rd_u(d, a + 8 * i, 8);
		t->mask_words = (uint8_t)(i + 1);
	}
	ids = d->truth_f[T_IDS].f ? dyn_array(d, &d->truth_f[T_IDS], rec, &nids) : NULL;
	nids = ids ? nids / 2 : 0;
	a = dyn_array(d, &d->truth_f[T_CPUS], rec, &len);
	len = a ? len / RQ_TRUTH_FILE_CPU : 0;
	if (n > len)
		n = len;
	if (n > RQ_TRUTH_MAX_CPUS)
		n = RQ_TRUTH_MAX_CPUS;
	for (uint32_t i = 0; i < n; i++) {
		const unsigned char *c = a + i * RQ_TRUTH_FILE_CPU;

		t->cpus[i].curr_pid = (uint32_t)rd_u(d, c, 4);
		t->cpus[i].known = c[4] & RQ_TRUTH_FILE_KNOWN ? RQ_TRUTH_RQ_KNOWN :
							      RQ_TRUTH_RQ_UNKNOWN;
		t->cpus[i].ttwu_pending = !!(c[4] & RQ_TRUTH_FILE_PENDING);
		t->cpus[i].curr_policy = c[5];
		t->cpus[i].nr_running = c[6];
		t->cpus[i].h_nr_idle = c[7];
		/* an entry without its id is of no CPU: unknown, not another CPU's state */
		if (!d->truth_f[T_IDS].f) {
			t->cpus[i].cpu = (uint16_t)i;
		} else if (i < nids) {
			t->cpus[i].cpu = (uint16_t)rd_u(d, ids + 2 * i, 2);
		} else {
			t->cpus[i].cpu = UINT16_MAX;
			t->cpus[i].known = RQ_TRUTH_RQ_UNKNOWN;
		}
	}
	t->nr_cpus = (uint16_t)n;
	ev->truth = t;
	ev->pid = (int)t->pid;
	ev->cpu = t->cpu;
	/* no task's context: the record shows nobody running (rq_event_shows_runner()) */
	ev->common_pid = -1;
}

/*
 * A hot event's comm into out (RQ_COMM_LEN bytes): the fixed char[16], or the string its
 * __data_loc points to, as copy_comm() would (cut to 15 bytes, zeros after it; none if it
 * lies outside the record).  size is at least de->min_size.
 */
static inline void hot_comm(const struct decoded_event *de, const unsigned char *p,
			    uint32_t size, char *out)
{
	uint32_t loc, off, n;

	if (__builtin_expect(!de->comm_loc, 1)) {
		memcpy(out, p + de->o_comm, RQ_COMM_LEN);
		out[RQ_COMM_LEN - 1] = '\0';
		return;
	}
	memset(out, 0, RQ_COMM_LEN);
	memcpy(&loc, p + de->o_comm, 4);
	off = (loc & 0xffff) + de->comm_rel;
	n = loc >> 16;
	if (off > size)
		return;
	if (n > size - off)
		n = size - off;
	if (n > RQ_COMM_LEN - 1)
		n = RQ_COMM_LEN - 1;
	for (uint32_t i = 0; i < n && p[off + i]; i++)
		out[i] = (char)p[off + i];
}

/* Every case: any layout, any id, short records; every member of ev set. */
static enum rq_event_type __attribute__((noinline))
decode_slow(struct rq_decoder *d, struct tep_record *rec, int cpu, struct rq_event *ev)
{
	const unsigned char *p = rec->data;
	const struct decoded_event *de = NULL;
	int id, idx;

	/* every member set below: no memset of the whole event per record */
	ev->ts = rec->ts;
	ev->cpu = cpu;
	ev->type = RQ_EV_OTHER;
	ev->pid = ev->pid2 = ev->prio = ev->prio2 = ev->cpu_a = ev->cpu_b = 0;
	ev->state = ev->arg = 0;
	ev->comm[0] = ev->comm2[0] = '\0';
	ev->str = NULL;
	ev->str_len = 0;
	ev->truth = NULL;
	if (rec->size < 8) {
		ev->common_pid = 0;
		ev->flags = ev->preempt_count = 0;
		return ev->type;
	}
	if (d->common_fast) {
		uint16_t t;
		int32_t pid;

		memcpy(&t, p, 2);
		memcpy(&pid, p + 4, 4);
		id = t;
		ev->flags = p[2];
		ev->preempt_count = p[3];
		ev->common_pid = pid;
	} else {
		/* not tep_data_type(): it reads common_type wherever the format says, unchecked */
		id = d->common_type.f ? (int)read_num(d, &d->common_type, rec) : -1;
		ev->common_pid = (int)read_num(d, &d->common_pid, rec);
		ev->flags = (uint8_t)read_num(d, &d->common_flags, rec);
		ev->preempt_count = (uint8_t)read_num(d, &d->common_preempt, rec);
	}
	if (id >= 0 && id < d->nr_ids) {
		idx = d->by_id[id];
		if (idx)
			de = &d->events[idx - 1];
	} else if (d->nr_big && id >= ID_TABLE) {
		for (int i = 0; i < d->nr_big; i++)
			if (d->big_id[i] == id)
				de = &d->events[d->big_idx[i]];
	}
	if (!de)
		return ev->type;

	ev->type = de->type;
	if (__builtin_expect(de->type == RQ_EV_TRUTH, 0)) {
		decode_truth(d, rec, ev);
		return ev->type;
	}
	if (de->kind != K_GENERIC && rec->size >= de->min_size) {
		ev->pid = rd_s32(p + de->o_pid);
		ev->prio = rd_s32(p + de->o_prio);
		hot_comm(de, p, (uint32_t)rec->size, ev->comm);
		switch (de->kind) {
		case K_SWITCH:
			ev->pid2 = rd_s32(p + de->o_pid2);
			ev->prio2 = rd_s32(p + de->o_prio2);
			ev->state = de->state8 ? rd_s64(p + de->o_state) : rd_s32(p + de->o_state);
			memcpy(ev->comm2, p + de->o_comm2, RQ_COMM_LEN);
			ev->comm2[RQ_COMM_LEN - 1] = '\0';
			break;
		case K_MIGRATE:
			ev->cpu_b = rd_s32(p + de->o_cpu_b);
			/* fall through */
		default:
			ev->cpu_a = rd_s32(p + de->o_cpu_a);
			break;
		}
		return ev->type;
	}
	if (de->fast && rec->size >= de->min_size) {
		/* the layout was verified once: plain loads */
		for (int i = 0; i < de->nnum; i++)
			store(ev, &de->num[i], load(p, &de->num[i].fd));
		if (de->comm_fixed[0]) {
			memcpy(ev->comm, p + de->field[S_COMM].offset, RQ_COMM_LEN);
			ev->comm[RQ_COMM_LEN - 1] = '\0';
		} else {
			copy_comm(d, &de->field[S_COMM], rec, ev->comm);
		}
		if (de->comm_fixed[1]) {
			memcpy(ev->comm2, p + de->field[S_COMM2].offset, RQ_COMM_LEN);
			ev->comm2[RQ_COMM_LEN - 1] = '\0';
		} else {
			copy_comm(d, &de->field[S_COMM2], rec, ev->comm2);
		}
	} else {
		for (int i = 0; i < de->nnum; i++)
			store(ev, &de->num[i], read_num(d, &de->num[i].fd, rec));
		copy_comm(d, &de->field[S_COMM], rec, ev->comm);
		copy_comm(d, &de->field[S_COMM2], rec, ev->comm2);
	}
	if (de->field[S_STR].f)
		ev->str = field_str(d, de->field[S_STR].f, rec, &ev->str_len);
	if (ev->type == RQ_EV_MARKER) {
		size_t plen = strlen(RQ_MARKER_PREFIX);

		/* only rqpath's own lines are markers; other prints are ordinary records */
		if (!ev->str || (size_t)ev->str_len < plen ||
		    strncmp(ev->str, RQ_MARKER_PREFIX, plen)) {
			ev->type = RQ_EV_OTHER;
			ev->str = NULL;
			ev->str_len = 0;
			return ev->type;
		}
		ev->str += plen;
		ev->str_len -= (int)plen;
	}
	return ev->type;
}

/*
 * The hot events (switch, waking/wakeup, migrate) of a file with the usual layout: the
 * offsets were verified once (pick_kind()), so a record at least min_size long is read
 * with plain loads, and only the members the type does not fill are cleared.
 */
enum rq_event_type rq_decode_raw(struct rq_decoder *d, const void *data, uint32_t size,
				 uint64_t ts, int cpu, struct rq_event *ev)
{
	const unsigned char *p = data;
	const struct decoded_event *de;
	struct tep_record rec;
	uint16_t id;
	int32_t pid;
	int idx;

	if (d->common_fast && size >= 8) {
		memcpy(&id, p, 2);
		if (id < d->nr_ids && (idx = d->by_id[id]) != 0) {
			de = &d->events[idx - 1];
			if (de->kind != K_GENERIC && size >= (uint32_t)de->min_size) {
				memcpy(&pid, p + 4, 4);
				ev->ts = ts;
				ev->cpu = cpu;
				ev->type = de->type;
				ev->flags = p[2];
				ev->preempt_count = p[3];
				ev->common_pid = pid;
				ev->pid = rd_s32(p + de->o_pid);
				ev->prio = rd_s32(p + de->o_prio);
				hot_comm(de, p, size, ev->comm);
				ev->arg = 0;
				ev->str = NULL;
				ev->str_len = 0;
				ev->truth = NULL;
				if (de->kind == K_SWITCH) {
					ev->pid2 = rd_s32(p + de->o_pid2);
					ev->prio2 = rd_s32(p + de->o_prio2);
					ev->state = de->state8 ? rd_s64(p + de->o_state) :
								 rd_s32(p + de->o_state);
					memcpy(ev->comm2, p + de->o_comm2, RQ_COMM_LEN);
					ev->comm2[RQ_COMM_LEN - 1] = '\0';
					ev->cpu_a = ev->cpu_b = 0;
					return ev->type;
				}
				ev->pid2 = ev->prio2 = 0;
				ev->state = 0;
				ev->comm2[0] = '\0';
				ev->cpu_a = rd_s32(p + de->o_cpu_a);
				ev->cpu_b = de->kind == K_MIGRATE ? rd_s32(p + de->o_cpu_b) : 0;
				return ev->type;
			}
		}
	}
	memset(&rec, 0, sizeof(rec));
	rec.ts = ts;
	rec.cpu = cpu;
	rec.data = (void *)data;
	rec.size = (int)size;
	return decode_slow(d, &rec, cpu, ev);
}

enum rq_event_type rq_decode(struct rq_decoder *d, struct tep_record *rec, int cpu,
			     struct rq_event *ev)
{
	if (rec->size < 0) {
		struct tep_record r = *rec;

		r.size = 0;
		return decode_slow(d, &r, cpu, ev);
	}
	return rq_decode_raw(d, rec->data, (uint32_t)rec->size, rec->ts, cpu, ev);
}
