// SPDX-License-Identifier: GPL-2.0
/* Placeholder until this subcommand lands; replaced wholesale by its implementation. */
#include "commands.h"

int cmd_record(int argc, char **argv)
{
	rq_error("record: not built yet");
	return RQ_EXIT_ERROR;
}

