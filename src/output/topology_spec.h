/* SPDX-License-Identifier: GPL-2.0 */
/*
 * topology_spec.h - this machine's topology (rq_topology_host(), from sysfs) written in
 * the format --topology reads, for `rqpath topology`.
 */
#ifndef RQPATH_TOPOLOGY_SPEC_H
#define RQPATH_TOPOLOGY_SPEC_H

#include <stddef.h>
#include <stdio.h>

/* The spec of this machine on f; returns 0, or -1 with a message in err. */
int rq_topology_describe_host(FILE *f, char *err, size_t errlen);

#endif
