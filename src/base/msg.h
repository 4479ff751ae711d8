/* SPDX-License-Identifier: GPL-2.0 */
/*
 * msg.h - how the library says something that is not an error: a warning (the run goes
 * on, with less) or a progress line.  The library never writes to stdout or stderr
 * itself: it hands the text to the sink the program installed, or drops it.
 * Errors are not messages: they go back to the caller in its err buffer.
 */
#ifndef RQPATH_MSG_H
#define RQPATH_MSG_H

enum rq_msg_kind {
	RQ_MSG_WARNING,		/* one line, without a program name or a newline */
	RQ_MSG_PROGRESS,	/* a status line that replaces the previous one; NULL ends it */
};

typedef void (*rq_msg_sink)(enum rq_msg_kind kind, const char *text, void *data);

/* Install the sink (NULL: messages are dropped, the default). */
void rq_msg_set_sink(rq_msg_sink sink, void *data);

void rq_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* fmt NULL: the progress line is over (the sink clears it). */
void rq_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
