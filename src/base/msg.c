// SPDX-License-Identifier: GPL-2.0
/*
 * msg.c - the library's warnings and progress lines, through the program's sink.
 */
#include <stdarg.h>
#include <stdio.h>

#include "msg.h"

static rq_msg_sink msg_sink;
static void *msg_data;

void rq_msg_set_sink(rq_msg_sink sink, void *data)
{
	msg_sink = sink;
	msg_data = data;
}

static void msg_emit(enum rq_msg_kind kind, const char *fmt, va_list ap)
{
	char text[2048];

	if (!msg_sink)
		return;
	if (!fmt) {
		msg_sink(kind, NULL, msg_data);
		return;
	}
	vsnprintf(text, sizeof(text), fmt, ap);
	msg_sink(kind, text, msg_data);
}

void rq_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	msg_emit(RQ_MSG_WARNING, fmt, ap);
	va_end(ap);
}

void rq_progress(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	msg_emit(RQ_MSG_PROGRESS, fmt, ap);
	va_end(ap);
}
