/* SPDX-License-Identifier: GPL-2.0 */
/*
 * describe.h - text helpers shared by the classifier's rarer remarks (why()) and the
 * explanations of describe.c.
 */
#ifndef RQPATH_DESCRIBE_H
#define RQPATH_DESCRIBE_H

#include <stdarg.h>
#include <stddef.h>

/* Append printf-style text to buf (size bytes, NUL-terminated); cut at the end. */
void rq_vappendf(char *buf, size_t size, const char *fmt, va_list ap);
void rq_appendf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
