// SPDX-License-Identifier: GPL-2.0
/* Placeholder until this subcommand lands; replaced wholesale by its implementation. */
#include "commands.h"

int cmd_live(int argc, char **argv)
{
	rq_error("live: not built yet");
	return RQ_EXIT_ERROR;
}

int cmd_replay(int argc, char **argv)
{
	rq_error("replay: not built yet");
	return RQ_EXIT_ERROR;
}

