/* SPDX-License-Identifier: GPL-2.0 */
/*
 * child.h - what `record -- CMD` (and `audit --live -- CMD`) do around the recorder:
 * run the command (fork, exec, --user), give it the terminal, and turn the signals that
 * would end rqpath into the recorder's stop flag (child.c).
 */
#ifndef RQPATH_CHILD_H
#define RQPATH_CHILD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "recorder.h"

/*
 * Set by every signal whose default action ends the process, while cli_catch_stop_signals()
 * is in force: the recorder's stop flag (rq_record_opts.stop).
 */
extern volatile sig_atomic_t cli_stop_signal;
/* Catch those signals (and ignore SIGXFSZ: a full file ends a recording cleanly). */
void cli_catch_stop_signals(void);
/* Put back what cli_catch_stop_signals() found. */
void cli_restore_signals(void);

struct cli_child {
	char **argv;		/* NULL-terminated: the command and its arguments */
	/*
	 * Who runs it: run_uid > 0 drops root to that uid and run_gid before exec (uid, gid
	 * and groups; run_user, when set, names the user for initgroups()); 0 keeps rqpath's.
	 * A command run as another user never shares rqpath's terminal: it gets a session
	 * of its own on a pseudo-terminal that rqpath relays (child.c).
	 */
	long run_uid, run_gid;
	const char *run_user;
	/* the environment CMD gets (NULL: rqpath's own, as --preserve-env keeps it) */
	char **envp;
	pid_t parent;		/* rqpath, as the command's parent at the fork */
	bool foreground;	/* on rqpath's terminal: its process group in the foreground */

	/* filled as it runs */
	int status;		/* wait status, -1 none */
	bool stopped;		/* rqpath ended it (duration, signal, error) */
	pid_t pid;
	bool done;
	bool tty_given;		/* the terminal's foreground group is the command's */
	bool had_tty;		/* it was at some time: a ^C there reached the command alone */
	struct cli_relay *relay;	/* the pseudo-terminal of a command run as another user */
	struct rq_record_cmd hooks;
};

/*
 * Fill c->run_uid/run_gid/run_user: the user NAME (or numeric uid, with or without a
 * passwd entry) when user is given, else the invoking user of sudo (SUDO_UID/SUDO_GID,
 * SUDO_USER) when rqpath runs as root through sudo, else 0 (unchanged).  A command run
 * as a user so chosen gets that user's environment (c->envp: HOME, SHELL, USER,
 * LOGNAME, PATH, TERM kept), as `su -` gives it, unless preserve_env.  0, or -1 with one
 * line in err.
 */
int cli_child_user(struct cli_child *c, const char *user, bool preserve_env, char *err,
		   size_t errlen);
/* argv to run (NULL: none): the hooks for rq_record_opts.cmd, or NULL without a command. */
const struct rq_record_cmd *cli_child_init(struct cli_child *c, char **argv);
/*
 * After a run: 1 and one line in msg ("CMD exited with status N", "CMD was killed by
 * SIGSEGV") when the command failed on its own, 0 when it succeeded or rqpath ended it.
 */
int cli_child_failed(const struct cli_child *c, char *msg, size_t size);

#endif
