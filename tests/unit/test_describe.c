// SPDX-License-Identifier: GPL-2.0
/*
 * test_describe.c - the classifier keeps facts, describe.c words them: each remark
 * (enum rq_why) from its numbers, in its place in the sentence, and the remarks cut at
 * RQ_WHY_LEN together as when they were text.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "analysis.h"

static struct rq_placement placement(enum rq_path path, unsigned int why)
{
	struct rq_placement p;

	memset(&p, 0, sizeof(p));
	p.path = path;
	p.cpu = 3;
	p.from_cpu = 1;
	p.to_cpu = 2;
	p.writer_pid = 77;
	p.why = why;
	p.parent_cpu_idled = -1;
	p.child_lifetime_ns = -1;
	return p;
}

/* The text after the path's summary. */
static const char *remarks(const struct rq_placement *p, char *buf, size_t size)
{
	size_t n = strlen(rq_paths[p->path].summary);

	rq_placement_describe(p, buf, size);
	assert_memory_equal(buf, rq_paths[p->path].summary, n);
	return buf + n;
}

static void each_remark_from_its_numbers(void **state)
{
	static const struct {
		enum rq_why why;
		const char *text;
	} cases[] = {
		{ RQ_WHY_EXEC_AFTER_STOPPER, ": migration/3 moved it 1 -> 2 just before the exec" },
		{ RQ_WHY_STOPPER_RENAMED, "; migration/3 moved it, then its name changed to "
		  "\"newname\": an exec whose exec record is not in the trace" },
		{ RQ_WHY_STOPPER_AFFINITY, "; migration/3 moved it right after a "
		  "sched_setaffinity on it" },
		{ RQ_WHY_STOPPER_NO_EXEC, "; the trace lacks exec events: exec, affinity change "
		  "and active balance look the same" },
		{ RQ_WHY_STOPPER_NO_AFFINITY, "; the trace lacks the sched_setaffinity syscall "
		  "events: exec, affinity change and active balance look the same" },
		{ RQ_WHY_MIGRATE_UNKNOWN, " (writer pid 77, flags 0x10)" },
		{ RQ_WHY_IDLE_STACKED, "; CPU 2 ran only SCHED_IDLE work (pid 55) while allowed "
		  "CPU 5 of its LLC was idle" },
		{ RQ_WHY_BUSY_RUNNING, "; CPU 2 was busy (pid 55 running) while CPU 5 of its LLC "
		  "was idle" },
		{ RQ_WHY_BUSY_WAITING, "; CPU 2 was busy (a woken task waiting to run) while CPU 5 "
		  "of its LLC was idle" },
		{ RQ_WHY_BUSY_PENDING, "; CPU 2 was busy (a wakeup pending) while CPU 5 of its LLC "
		  "was idle" },
		{ RQ_WHY_NEEDLESS_RT, "; allowed on CPU 5 only, yet sched_exec() called the RT/DL "
		  "callback (cheap: returns the input CPU)" },
		{ RQ_WHY_NEEDLESS_MARKER, "; allowed on CPU 5 only (from the recorder's next "
		  "marker for it), yet sched_exec() called the class callback" },
	};
	char buf[1024];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rq_placement p = placement(RQ_PATH_UNKNOWN, 1u << cases[i].why);

		p.why_cpu = 5;
		p.why_pid = 55;
		p.why_n = 0x10;
		strcpy(p.why_comm, "newname");
		assert_string_equal(remarks(&p, buf, sizeof(buf)), cases[i].text);
	}
}

/* Remarks come after the notes and before the assumptions, in enum order. */
static void remarks_in_order(void **state)
{
	struct rq_placement p = placement(RQ_PATH_FORK_MOVED, 1u << RQ_WHY_FORK_UTIL |
					  1u << RQ_WHY_IDLE_STACKED |
					  1u << RQ_WHY_DELAYED_NOT_IDLE);
	char buf[2048];
	const char *r;

	p.why_cpu = 1;
	p.why_pid = 9;
	p.why_n = 2;
	p.notes = RQ_NOTE_PARENT_NOT_ALLOWED;
	p.assume = 1u << RQ_ASSUME_LLC;
	r = remarks(&p, buf, sizeof(buf));
	/* the three remarks are longer than RQ_WHY_LEN: cut there, as they always were */
	assert_string_equal(r, "; the parent's CPU is not allowed to the child"
			    "; v6.4-v6.13 autogroup kernel: stale utilization of exited tasks "
			    "makes the parent's group look busy (76f970ce51c8); CPU 2 ran only "
			    "SCHED_IDLE work (pid 9) while allowed CPU 1 of its LLC was i"
			    "; rests on: llc-assumed");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_remark_from_its_numbers),
		cmocka_unit_test(remarks_in_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
