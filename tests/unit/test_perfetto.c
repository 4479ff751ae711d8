// SPDX-License-Identifier: GPL-2.0
/*
 * test_perfetto.c - the Perfetto export with hostile task names: inside the protobuf
 * (inflated) a name's control bytes never appear raw, only escaped (escape.c), so a
 * viewer never gets a terminal escape or a byte that is not UTF-8 from rqpath.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <zlib.h>

#include "writer.h"
#include "synth.h"

static uint64_t varint(const uint8_t *b, size_t *i)
{
	uint64_t v = 0;
	int s = 0;

	while (b[*i] & 0x80) {
		v |= (uint64_t)(b[(*i)++] & 0x7f) << s;
		s += 7;
	}
	return v | (uint64_t)b[(*i)++] << s;
}

/* The inflated packets of every compressed chunk, one after the other. */
static uint8_t *inflate_all(const uint8_t *b, size_t len, size_t *out_len)
{
	uint8_t *out = NULL;
	size_t i = 0;

	*out_len = 0;
	while (i < len) {
		size_t n, j = 0, m;
		const uint8_t *pkt;
		uLongf zl = 1 << 22;

		assert_int_equal(varint(b, &i), 0x0a);	/* Trace.packet */
		n = varint(b, &i);
		pkt = b + i;
		i += n;
		assert_int_equal(varint(pkt, &j), 50 << 3 | 2);	/* compressed_packets */
		m = varint(pkt, &j);
		out = realloc(out, *out_len + zl);
		assert_non_null(out);
		assert_int_equal(uncompress(out + *out_len, &zl, pkt + j, m), Z_OK);
		*out_len += zl;
	}
	return out;
}

static void hostile_names_escaped(void **state)
{
	struct rq_analysis *an = synth_new(2, "6.18.44");
	struct rq_writer w;
	char *file = NULL;
	size_t len = 0, plen;
	uint8_t *pkts;
	FILE *f;

	assert_non_null(an);
	f = open_memstream(&file, &len);
	assert_non_null(f);
	assert_int_equal(rq_writer_begin(&w, rq_writer_find("perfetto"), f, an), 0);
	ev_switch(an, 100, 0, 0, 0, 10, "\033[31mred");
	ev_switch(an, 200, 1, 0, 0, 30, "bell\007\377x");
	ev_wakeup_new(an, 300, 0, 10, 20, 1);
	ev_switch(an, 900, 1, 30, 1, 20, "\033]0;title\007");
	rq_analysis_finish(an);
	assert_int_equal(rq_writer_end(&w), 0);
	fclose(f);
	pkts = inflate_all((uint8_t *)file, len, &plen);
	assert_non_null(pkts);
	assert_null(memmem(pkts, plen, "\033[31m", 5));
	assert_null(memmem(pkts, plen, "\033]0;", 4));
	assert_null(memmem(pkts, plen, "bell\007", 5));
	assert_non_null(memmem(pkts, plen, "\\x1b[31mred", 11));	/* there, escaped */
	assert_non_null(memmem(pkts, plen, "bell\\x07\\xffx", 13));
	free(pkts);
	free(file);
	rq_writer_free(&w);
	rq_analysis_free(an);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hostile_names_escaped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
