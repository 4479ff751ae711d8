// SPDX-License-Identifier: GPL-2.0
/*
 * test_decode.c - decode.c from literal format texts and hand-made records, in both
 * byte orders: every numeric width, sign extension, fixed and __data_loc strings, the
 * fast layouts and the generic path, and records too short for their format.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <event-parse.h>

#include "decode.h"

#define COMMON \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static const char switch_fmt[] =
	"name: sched_switch\nID: 300\nformat:\n" COMMON
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"prev_pid=%d\", REC->prev_pid\n";

/* v6.16+: comm as a __data_loc string, the string after the fixed part */
static const char migrate_fmt[] =
	"name: sched_migrate_task\nID: 301\nformat:\n" COMMON
	"\tfield:__data_loc char[] comm;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:int orig_cpu;\toffset:20;\tsize:4;\tsigned:1;\n"
	"\tfield:int dest_cpu;\toffset:24;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"pid=%d\", REC->pid\n";

static const char exec_fmt[] =
	"name: sched_process_exec\nID: 302\nformat:\n" COMMON
	"\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:pid_t old_pid;\toffset:16;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"pid=%d\", REC->pid\n";

/* odd widths: a 2-byte signed pid, a 1-byte signed prio, an unsigned 4-byte CPU */
static const char waking_fmt[] =
	"name: sched_waking\nID: 303\nformat:\n" COMMON
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:short pid;\toffset:24;\tsize:2;\tsigned:1;\n"
	"\tfield:signed char prio;\toffset:26;\tsize:1;\tsigned:1;\n"
	"\tfield:unsigned int target_cpu;\toffset:28;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"pid=%d\", REC->pid\n";

static const char setsched_fmt[] =
	"name: sys_enter_sched_setscheduler\nID: 304\nformat:\n" COMMON
	"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:pid_t pid;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:int policy;\toffset:24;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"pid=%d\", REC->pid\n";

static const char setsched_exit_fmt[] =
	"name: sys_exit_sched_setscheduler\nID: 305\nformat:\n" COMMON
	"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;\n\n"
	"print fmt: \"ret=%ld\", REC->ret\n";

/* comm as a __rel_loc string: its offset counts from the end of the field */
static const char wakeup_rel_fmt[] =
	"name: sched_wakeup\nID: 307\nformat:\n" COMMON
	"\tfield:__rel_loc char[] comm;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:int target_cpu;\toffset:20;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"pid=%d\", REC->pid\n";

static const char other_fmt[] =
	"name: sched_stat_runtime\nID: 306\nformat:\n" COMMON
	"\tfield:pid_t pid;\toffset:8;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"pid=%d\", REC->pid\n";

struct trace {
	struct tep_handle *tep;
	struct rq_decoder *d;
	bool big;		/* the "file" is big-endian */
};

static bool host_big(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one == 0;
}

static void parse(struct tep_handle *tep, const char *fmt, const char *sys)
{
	struct tep_event *ev = NULL;

	assert_int_equal(tep_parse_format(tep, &ev, fmt, strlen(fmt), sys), 0);
	assert_non_null(ev);
}

static void open_trace(struct trace *t, bool big)
{
	t->big = big;
	t->tep = tep_alloc();
	assert_non_null(t->tep);
	tep_set_file_bigendian(t->tep, big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(t->tep, host_big() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(t->tep, 8);
	parse(t->tep, switch_fmt, "sched");
	parse(t->tep, migrate_fmt, "sched");
	parse(t->tep, exec_fmt, "sched");
	parse(t->tep, waking_fmt, "sched");
	parse(t->tep, setsched_fmt, "syscalls");
	parse(t->tep, setsched_exit_fmt, "syscalls");
	parse(t->tep, other_fmt, "sched");
	parse(t->tep, wakeup_rel_fmt, "sched");
	t->d = rq_decoder_new(t->tep);
	assert_non_null(t->d);
}

static void close_trace(struct trace *t)
{
	rq_decoder_free(t->d);
	tep_free(t->tep);
}

/* Store v as an n-byte number in the trace's byte order. */
static void put(const struct trace *t, unsigned char *p, int n, unsigned long long v)
{
	for (int i = 0; i < n; i++)
		p[t->big ? n - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

static void common(const struct trace *t, unsigned char *p, int id, int pid)
{
	put(t, p, 2, (unsigned int)id);
	p[2] = 0x09;		/* irqs off, hardirq */
	p[3] = 0x21;
	put(t, p + 4, 4, (unsigned int)pid);
}

static enum rq_event_type decode(struct trace *t, unsigned char *data, int size,
				 struct rq_event *ev)
{
	struct tep_record rec = { 0 };

	rec.ts = 1234567;
	rec.data = data;
	rec.size = size;
	return rq_decode(t->d, &rec, 1, ev);
}

static void a_switch(struct trace *t)
{
	unsigned char r[64] = { 0 };
	struct rq_event ev;

	common(t, r, 300, 4242);
	memcpy(r + 8, "prev-task", 10);
	put(t, r + 24, 4, 4242);
	put(t, r + 28, 4, (unsigned int)-1);		/* a deadline task: prio -1 */
	put(t, r + 32, 8, 0x100);			/* preempted */
	memcpy(r + 40, "0123456789abcdefXX", 16);	/* 16 bytes, no NUL */
	put(t, r + 56, 4, 7);
	put(t, r + 60, 4, 120);
	assert_int_equal(decode(t, r, sizeof(r), &ev), RQ_EV_SWITCH);
	assert_int_equal(ev.ts, 1234567);
	assert_int_equal(ev.cpu, 1);
	assert_int_equal(ev.common_pid, 4242);
	assert_int_equal(ev.flags, 0x09);
	assert_int_equal(ev.preempt_count, 0x21);
	assert_int_equal(ev.pid, 4242);
	assert_int_equal(ev.prio, -1);
	assert_int_equal(ev.state, 0x100);
	assert_string_equal(ev.comm, "prev-task");
	assert_string_equal(ev.comm2, "0123456789abcde");	/* cut, terminated */
	assert_int_equal(ev.pid2, 7);
	assert_int_equal(ev.prio2, 120);
	/* a negative 8-byte state comes back negative */
	put(t, r + 32, 8, (unsigned long long)-2);
	decode(t, r, sizeof(r), &ev);
	assert_int_equal(ev.state, -2);
}

static void a_migrate_with_data_loc_comm(struct trace *t)
{
	unsigned char r[48] = { 0 };
	struct rq_event ev;

	common(t, r, 301, 0);
	put(t, r + 8, 4, (6u << 16) | 28);	/* __data_loc: length 6 at offset 28 */
	put(t, r + 12, 4, 99);
	put(t, r + 16, 4, 139);
	put(t, r + 20, 4, 0);
	put(t, r + 24, 4, 1);
	memcpy(r + 28, "k\033x:1", 6);	/* bytes pass as they are: escaping is output's job */
	assert_int_equal(decode(t, r, 34, &ev), RQ_EV_MIGRATE);
	assert_int_equal(ev.pid, 99);
	assert_int_equal(ev.prio, 139);
	assert_int_equal(ev.cpu_a, 0);
	assert_int_equal(ev.cpu_b, 1);
	assert_string_equal(ev.comm, "k\033x:1");
	/* a long string is cut to RQ_COMM_LEN - 1 */
	memcpy(r + 28, "a-very-long-task-name", 20);
	put(t, r + 8, 4, (20u << 16) | 28);
	decode(t, r, 48, &ev);
	assert_string_equal(ev.comm, "a-very-long-tas");
	/* a location beyond the record: no string, no read outside it */
	put(t, r + 8, 4, (8u << 16) | 200);
	decode(t, r, 34, &ev);
	assert_string_equal(ev.comm, "");
	/* a length beyond the record is cut at its end */
	put(t, r + 8, 4, (60000u << 16) | 28);
	memcpy(r + 28, "abcdef", 6);
	decode(t, r, 34, &ev);
	assert_string_equal(ev.comm, "abcdef");
	/* zeros after the name, whatever the event before left (the engine compares 16 bytes) */
	memcpy(r + 28, "ab\0zzzzzzzzzzzzz", 16);
	put(t, r + 8, 4, (16u << 16) | 28);
	decode(t, r, 44, &ev);
	assert_memory_equal(ev.comm, "ab\0\0\0\0\0\0\0\0\0\0\0\0\0", 16);
	/* a record cut inside its numbers: what it has, the rest 0 */
	put(t, r + 8, 4, (3u << 16) | 28);
	assert_int_equal(decode(t, r, 20, &ev), RQ_EV_MIGRATE);
	assert_int_equal(ev.pid, 99);
	assert_int_equal(ev.prio, 139);
	assert_int_equal(ev.cpu_b, 0);
	assert_string_equal(ev.comm, "");
}

static void a_wakeup_with_rel_loc_comm(struct trace *t)
{
	unsigned char r[40] = { 0 };
	struct rq_event ev;

	common(t, r, 307, 0);
	put(t, r + 8, 4, (5u << 16) | 12);	/* __rel_loc: 12 past the field's end, 24 */
	put(t, r + 12, 4, 31);
	put(t, r + 16, 4, 120);
	put(t, r + 20, 4, 1);
	memcpy(r + 24, "relx", 5);
	assert_int_equal(decode(t, r, 29, &ev), RQ_EV_WAKEUP);
	assert_int_equal(ev.pid, 31);
	assert_int_equal(ev.prio, 120);
	assert_int_equal(ev.cpu_a, 1);
	assert_string_equal(ev.comm, "relx");
	put(t, r + 8, 4, (5u << 16) | 20);	/* 32: past the record's 29 bytes */
	decode(t, r, 29, &ev);
	assert_string_equal(ev.comm, "");
}

static void an_exec_with_data_loc_filename(struct trace *t)
{
	unsigned char r[40] = { 0 };
	struct rq_event ev;

	common(t, r, 302, 77);
	put(t, r + 8, 4, (10u << 16) | 20);
	put(t, r + 12, 4, 77);
	put(t, r + 16, 4, 76);
	memcpy(r + 20, "/bin/true", 10);
	assert_int_equal(decode(t, r, 30, &ev), RQ_EV_EXEC);
	assert_int_equal(ev.pid, 77);
	assert_int_equal(ev.pid2, 76);
	assert_non_null(ev.str);
	assert_int_equal(ev.str_len, 9);
	assert_memory_equal(ev.str, "/bin/true", 9);
}

static void narrow_and_unsigned_fields(struct trace *t)
{
	unsigned char r[32] = { 0 };
	struct rq_event ev;

	common(t, r, 303, 5);
	memcpy(r + 8, "w", 2);
	put(t, r + 24, 2, 0xfffe);		/* short -2 */
	r[26] = 0x80;				/* signed char -128 */
	put(t, r + 28, 4, 0xffffffffu);		/* unsigned: stays positive */
	assert_int_equal(decode(t, r, sizeof(r), &ev), RQ_EV_WAKING);
	assert_int_equal(ev.pid, -2);
	assert_int_equal(ev.prio, -128);
	assert_int_equal((unsigned int)ev.cpu_a, 0xffffffffu);
	assert_string_equal(ev.comm, "w");
}

static void syscall_arguments(struct trace *t)
{
	unsigned char r[32] = { 0 };
	struct rq_event ev;

	common(t, r, 304, 10);
	put(t, r + 16, 8, 0);		/* pid 0: the caller itself */
	put(t, r + 24, 8, 5);		/* SCHED_IDLE */
	assert_int_equal(decode(t, r, sizeof(r), &ev), RQ_EV_SETSCHED_ENTER);
	assert_int_equal(ev.pid, 0);
	assert_int_equal(ev.arg, 5);
	common(t, r, 305, 10);
	put(t, r + 16, 8, (unsigned long long)-22);	/* -EINVAL */
	assert_int_equal(decode(t, r, 24, &ev), RQ_EV_SETSCHED_EXIT);
	assert_int_equal(ev.arg, -22);
}

static void unknown_and_short_records(struct trace *t)
{
	unsigned char r[64] = { 0 };
	struct rq_event ev;

	common(t, r, 306, 3);		/* an event rqpath does not analyse */
	assert_int_equal(decode(t, r, 12, &ev), RQ_EV_OTHER);
	assert_int_equal(ev.common_pid, 3);
	common(t, r, 999, 3);		/* an id no format has */
	assert_int_equal(decode(t, r, 12, &ev), RQ_EV_OTHER);
	assert_int_equal(decode(t, r, 4, &ev), RQ_EV_OTHER);	/* not even a header */
	/* a switch cut after the header: its type, and no field read beyond the record */
	common(t, r, 300, 8);
	memset(r + 8, 'x', 56);
	assert_int_equal(decode(t, r, 12, &ev), RQ_EV_SWITCH);
	assert_int_equal(ev.pid2, 0);
	assert_int_equal(ev.comm2[0], '\0');
	assert_true(rq_decoder_available(t->d)[RQ_EV_SWITCH]);
	assert_false(rq_decoder_available(t->d)[RQ_EV_FORK]);
}

static void run_all(bool big)
{
	struct trace t;

	open_trace(&t, big);
	a_switch(&t);
	a_migrate_with_data_loc_comm(&t);
	a_wakeup_with_rel_loc_comm(&t);
	an_exec_with_data_loc_filename(&t);
	narrow_and_unsigned_fields(&t);
	syscall_arguments(&t);
	unknown_and_short_records(&t);
	close_trace(&t);
}

static void host_byte_order(void **state)
{
	run_all(host_big());
}

static void swapped_byte_order(void **state)
{
	run_all(!host_big());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(host_byte_order),
		cmocka_unit_test(swapped_byte_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
