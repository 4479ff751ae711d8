// SPDX-License-Identifier: GPL-2.0
/* test_events.c - events.def, the one tracepoint table, as every user of it sees it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "analysis.h"
#include "decode.h"
#include "event.h"

static void rows_are_the_enum_in_order(void **state)
{
	assert_int_equal(rq_event_table_len, RQ_EV_LOST - 1);
	for (int i = 0; i < rq_event_table_len; i++) {
		const struct rq_event_info *e = &rq_event_table[i];

		assert_int_equal(e->type, i + 1);
		assert_string_equal(rq_event_name(e->type), e->name);
		assert_true(e->loses && *e->loses);
		for (int j = 0; j < i; j++)
			assert_true(strcmp(e->name, rq_event_table[j].name) ||
				    strcmp(e->system, rq_event_table[j].system));
		/* the decoder reads every row of the table, and only those */
		assert_true(rq_decode_wants(e->system, e->name));
		assert_true(rq_decode_wants(e->system, NULL));
	}
	assert_string_equal(rq_event_name(RQ_EV_OTHER), "other");
	assert_string_equal(rq_event_name(RQ_EV_LOST), "lost");
	assert_string_equal(rq_event_name(RQ_EV__COUNT), "?");
	assert_string_equal(rq_event_name(RQ_EV_SWITCH), "sched_switch");
	assert_string_equal(rq_event_name(RQ_EV_SETATTR_EXIT), "sys_exit_sched_setattr");
	assert_string_equal(rq_event_name(RQ_EV_MARKER), "print");
	assert_false(rq_decode_wants("sched", "sched_stat_runtime"));
	assert_false(rq_decode_wants("irq", NULL));
}

static void the_recorder_enables_every_tracepoint_but_print(void **state)
{
	int recorded = 0;

	for (int i = 0; i < rq_event_table_len; i++) {
		const struct rq_event_info *e = &rq_event_table[i];

		/* rqpath:truth is no kernel tracepoint: the recorder's BPF side writes it */
		assert_int_equal(e->recorded, e->type != RQ_EV_MARKER && e->type != RQ_EV_TRUTH);
		recorded += e->recorded;
	}
	assert_int_equal(recorded, 19);
}

static void findings_name_the_first_missing_event(void **state)
{
	uint64_t counts[RQ_EV__COUNT] = { 0 };

	assert_int_equal(rq_finding_lacks(RQ_FIND_NEEDLESS_CALLBACK, counts), RQ_EV_EXEC);
	assert_int_equal(rq_finding_lacks(RQ_FIND_OFFCPU_FORK, counts), RQ_EV_WAKEUP_NEW);
	assert_int_equal(rq_finding_lacks(RQ_FIND_IDLE_STACKING, counts), RQ_EV_SWITCH);
	assert_int_equal(rq_finding_lacks(RQ_FIND_MISSED_IDLE, counts), RQ_EV_SWITCH);
	counts[RQ_EV_SWITCH] = 5;
	assert_int_equal(rq_finding_lacks(RQ_FIND_IDLE_STACKING, counts), RQ_EV_WAKEUP);
	counts[RQ_EV_WAKEUP] = 1;
	counts[RQ_EV_EXEC] = 1;
	counts[RQ_EV_WAKEUP_NEW] = 1;
	for (int f = 0; f < RQ_FIND__COUNT; f++)
		assert_int_equal(rq_finding_lacks(f, counts), RQ_EV_OTHER);
	/* events no finding depends on never make one unsupported */
	counts[RQ_EV_WAKING] = 0;
	counts[RQ_EV_MIGRATE] = 0;
	for (int f = 0; f < RQ_FIND__COUNT; f++)
		assert_int_equal(rq_finding_lacks(f, counts), RQ_EV_OTHER);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rows_are_the_enum_in_order),
		cmocka_unit_test(the_recorder_enables_every_tracepoint_but_print),
		cmocka_unit_test(findings_name_the_first_missing_event),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
