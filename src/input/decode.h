/* SPDX-License-Identifier: GPL-2.0 */
/*
 * decode.h - tracepoint record -> struct rq_event, for any source that has a
 * tep_handle (trace.dat through libtracecmd, live pages through kbuffer).
 *
 * Fields are looked up by name in the source's own format files once, at
 * rq_decoder_new(); comm fields work both as char[16] (before v6.16) and as
 * __data_loc strings (v6.16+).
 */
#ifndef RQPATH_DECODE_H
#define RQPATH_DECODE_H

#include <stdbool.h>
#include <event-parse.h>

#include "event.h"

struct rq_decoder;

struct rq_decoder *rq_decoder_new(struct tep_handle *tep);
void rq_decoder_free(struct rq_decoder *d);
/*
 * Whether the decoder reads event system/name (name NULL: any event of system), so
 * that a reader can skip the formats of everything else.
 */
bool rq_decode_wants(const char *system, const char *name);
/* Which rq_event types this source's formats define (array of RQ_EV__COUNT). */
const bool *rq_decoder_available(const struct rq_decoder *d);
/* Decode one record written on cpu.  Always fills ev; returns ev->type. */
enum rq_event_type rq_decode(struct rq_decoder *d, struct tep_record *rec, int cpu,
			     struct rq_event *ev);
/* The same for a record given by its bytes, timestamp and CPU (no tep_record). */
enum rq_event_type rq_decode_raw(struct rq_decoder *d, const void *data, uint32_t size,
				 uint64_t ts, int cpu, struct rq_event *ev);

#endif
