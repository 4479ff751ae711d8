// SPDX-License-Identifier: GPL-2.0
/*
 * truth_fmt.c - the format text and the bytes of an rqpath:truth record (truth_fmt.h).
 * The format is written like the kernel's own format files, so libtraceevent (rqpath's
 * decoder, trace-cmd report) parses it as any other event.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "truth_fmt.h"

static const char usual_common[] =
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n";

/*
 * The common field lines of a kernel format text (from "format:" to the first blank
 * line) into out, and their end (the largest offset + size); 0 when there are none or
 * they do not look like the kernel's (common_type a u16 at 0).
 */
static int common_lines(const char *fmt, char *out, size_t size)
{
	const char *p = fmt ? strstr(fmt, "format:\n") : NULL;
	size_t used = 0;
	int end = 0;
	bool type_ok = false;

	if (!p)
		return 0;
	p += 8;
	while (*p && *p != '\n') {
		const char *nl = strchr(p, '\n'), *o, *s;
		size_t n = nl ? (size_t)(nl - p + 1) : strlen(p);
		int off, sz;

		o = strstr(p, "offset:");
		s = strstr(p, "size:");
		if (!strstr(p, " common_") || !o || !s || (nl && (o > nl || s > nl)) ||
		    used + n + 1 > size)
			return 0;
		off = atoi(o + 7);
		sz = atoi(s + 5);
		if (off < 0 || sz <= 0 || off + sz > 64)
			return 0;
		if (strstr(p, " common_type;") && off == 0 && sz == 2)
			type_ok = true;
		if (off + sz > end)
			end = off + sz;
		memcpy(out + used, p, n);
		used += n;
		out[used] = '\0';
		p += n;
	}
	return type_ok ? end : 0;
}

char *rq_truth_format(int id, const char *kernel_format, size_t *len, int *hdr)
{
	char common[2048];
	int h = common_lines(kernel_format, common, sizeof(common));
	char *text;
	int n;

	if (!h || h % 4) {
		snprintf(common, sizeof(common), "%s", usual_common);
		h = 8;
	}
	n = asprintf(&text,
		"name: " RQ_TRUTH_EVENT "\n"
		"ID: %d\n"
		"format:\n"
		"%s\n"
		"\tfield:u32 pid;\toffset:%d;\tsize:4;\tsigned:0;\n"
		"\tfield:u16 nr_cpus_allowed;\toffset:%d;\tsize:2;\tsigned:0;\n"
		"\tfield:u16 task_cpu;\toffset:%d;\tsize:2;\tsigned:0;\n"
		"\tfield:u16 cpu;\toffset:%d;\tsize:2;\tsigned:0;\n"
		"\tfield:u16 nr_cpus;\toffset:%d;\tsize:2;\tsigned:0;\n"
		"\tfield:u8 policy;\toffset:%d;\tsize:1;\tsigned:0;\n"
		"\tfield:u8 point;\toffset:%d;\tsize:1;\tsigned:0;\n"
		"\tfield:u8 flags;\toffset:%d;\tsize:1;\tsigned:0;\n"
		"\tfield:u8 pad;\toffset:%d;\tsize:1;\tsigned:0;\n"
		"\tfield:__data_loc u64[] mask;\toffset:%d;\tsize:4;\tsigned:0;\n"
		"\tfield:__data_loc u8[] cpus;\toffset:%d;\tsize:4;\tsigned:0;\n"
		"\tfield:__data_loc u16[] ids;\toffset:%d;\tsize:4;\tsigned:0;\n"
		"\n"
		"print fmt: \"%%s pid=%%u policy=%%u nr_cpus_allowed=%%u task_cpu=%%u flags=0x%%x "
		"cpu=%%u nr_cpus=%%u mask=%%s cpus=%%s ids=%%s\", "
		"__print_symbolic(REC->point, { 1, \"waking\" }, { 2, \"wakeup\" }, "
		"{ 3, \"fork\" }, { 4, \"wakeup_new\" }, { 5, \"exec\" }), "
		"REC->pid, REC->policy, REC->nr_cpus_allowed, REC->task_cpu, REC->flags, "
		"REC->cpu, REC->nr_cpus, "
		"__print_hex(__get_dynamic_array(mask), __get_dynamic_array_len(mask)), "
		"__print_hex(__get_dynamic_array(cpus), __get_dynamic_array_len(cpus)), "
		"__print_hex(__get_dynamic_array(ids), __get_dynamic_array_len(ids))\n",
		id, common, h, h + 4, h + 6, h + 8, h + 10, h + 12, h + 13, h + 14, h + 15,
		h + 16, h + 20, h + 24);
	if (n < 0)
		return NULL;
	*len = (size_t)n;
	*hdr = h;
	return text;
}

static void put_bytes(unsigned char *b, uint32_t *at, const void *v, uint32_t n)
{
	memcpy(b + *at, v, n);
	*at += n;
}

uint32_t rq_truth_encode(const struct rq_truth_rec *r, int id, int hdr, int machine_cpus,
			 void *buf)
{
	unsigned char *b = buf;
	uint16_t type = (uint16_t)id, ncpu = r->nr_cpus;
	uint16_t allowed = r->nr_cpus_allowed > 0xffff ? 0xffff : (uint16_t)r->nr_cpus_allowed;
	uint16_t task_cpu = r->task_cpu > 0xffff ? 0xffff : (uint16_t)r->task_cpu;
	uint8_t policy = r->policy > 0xff ? 0xff : (uint8_t)r->policy;
	uint32_t at = (uint32_t)hdr, words, loc, fixed_end;

	if (ncpu > RQ_TRUTH_MAX_CPUS)
		ncpu = RQ_TRUTH_MAX_CPUS;
	words = machine_cpus > 0 ? ((uint32_t)machine_cpus + 63) / 64 : 1;
	if (words > RQ_TRUTH_MASK_WORDS)
		words = RQ_TRUTH_MASK_WORDS;
	memset(b, 0, (size_t)hdr);
	memcpy(b, &type, 2);
	put_bytes(b, &at, &r->pid, 4);
	put_bytes(b, &at, &allowed, 2);
	put_bytes(b, &at, &task_cpu, 2);
	put_bytes(b, &at, &r->cpu, 2);
	put_bytes(b, &at, &ncpu, 2);
	put_bytes(b, &at, &policy, 1);
	put_bytes(b, &at, &r->point, 1);
	put_bytes(b, &at, &r->flags, 1);
	put_bytes(b, &at, &(uint8_t){ 0 }, 1);
	fixed_end = at + 12;
	/* __data_loc: offset in the low 16 bits, length in the high ones */
	loc = fixed_end | (words * 8) << 16;
	put_bytes(b, &at, &loc, 4);
	loc = (fixed_end + words * 8) | ((uint32_t)ncpu * RQ_TRUTH_FILE_CPU) << 16;
	put_bytes(b, &at, &loc, 4);
	loc = (fixed_end + words * 8 + (uint32_t)ncpu * RQ_TRUTH_FILE_CPU) | ((uint32_t)ncpu * 2) << 16;
	put_bytes(b, &at, &loc, 4);
	put_bytes(b, &at, r->mask, words * 8);
	for (int i = 0; i < ncpu; i++) {
		const struct rq_truth_cpu *c = &r->cpus[i];
		uint8_t e[4] = {
			(uint8_t)((c->known == RQ_TRUTH_RQ_KNOWN ? RQ_TRUTH_FILE_KNOWN : 0) |
				  (c->ttwu_pending ? RQ_TRUTH_FILE_PENDING : 0)),
			c->curr_policy, c->nr_running, c->h_nr_idle,
		};

		put_bytes(b, &at, &c->curr_pid, 4);
		put_bytes(b, &at, e, 4);
	}
	for (int i = 0; i < ncpu; i++)
		put_bytes(b, &at, &r->cpus[i].cpu, 2);
	return at;
}
