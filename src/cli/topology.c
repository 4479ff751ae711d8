// SPDX-License-Identifier: GPL-2.0
/*
 * topology.c - `rqpath topology`: this machine's topology in the --topology format, so
 * that a trace recorded with plain trace-cmd can be audited with its LLC groups.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "analysis.h"
#include "commands.h"
#include "topology_spec.h"

static int cmd_topology(int argc, char **argv);

const struct cli_command cli_topology = {
	.name = "topology",
	.fn = cmd_topology,
	.summary = "this machine's LLC/SMT/node groups and capacities, for --topology",
	.description =
		"Print this machine's LLC, SMT and NUMA groups (and CPU capacities where\n"
		"sysfs has them) in the format --topology reads:\n"
		"    rqpath topology > host.topo\n"
		"    rqpath audit trace.dat --topology host.topo",
};

static int cmd_topology(int argc, char **argv)
{
	struct cli_parser p;
	char err[256] = "";
	int opt;

	cli_parser_init(&p, &cli_topology, argc, argv);
	while ((opt = cli_next(&p)) != CLI_END)
		return cli_stop(&p, opt);	/* --help, or a bad option */
	if (p.optind < argc) {
		rq_error("topology: takes no arguments; try 'rqpath topology --help'");
		return RQ_EXIT_ERROR;
	}
	if (rq_topology_describe_host(stdout, err, sizeof(err))) {
		rq_error("topology: %s", err[0] ? err : strerror(errno));
		return RQ_EXIT_ERROR;
	}
	return RQ_EXIT_OK;
}
