// SPDX-License-Identifier: GPL-2.0
/* Placeholder until this subcommand lands; replaced wholesale by its implementation. */
#include "commands.h"

int cmd_workload(int argc, char **argv)
{
	rq_error("workload: not built yet");
	return RQ_EXIT_ERROR;
}

