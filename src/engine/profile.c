// SPDX-License-Identifier: GPL-2.0
/*
 * profile.c - what the traced kernel does (docs/kernel.md §7): from its release number,
 * overridden by --profile.  Which fixes a kernel carries decides which findings can
 * occur at all; a kernel with delayed dequeue (v6.12+) is one where a wakeup may make no
 * selection, which the verdicts must prove apart.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <bsd/string.h>

#include "analysis.h"

/* A stable release of the v6.4..v6.13 range that carries the revert of eff6c8ce8d4d. */
static bool fork_util_backported(int v, int sub)
{
	return (v == 6012 && sub >= 21) || (v == 6013 && sub >= 9);
}

void rq_profile_from_release(struct rq_profile *p, const char *release)
{
	int v, sub = 0;

	memset(p, 0, sizeof(*p));
	if (release)
		strlcpy(p->release, release, sizeof(p->release));
	if (release && sscanf(release, "%d.%d.%d", &p->major, &p->minor, &sub) < 2)
		p->major = p->minor = 0;
	v = p->major * 1000 + p->minor;
	/* No kernel is known to carry the sched_exec() fix yet (docs/kernel.md §7). */
	p->exec_callback_unconditional = true;
	/* Loehle's fd54d81c2c0e (v7.1) stops preferring SCHED_IDLE-only rqs for IDLE tasks. */
	p->idle_stack_allowed = !v || v < 7001;
	/*
	 * eff6c8ce8d4d (v6.4) until its revert 76f970ce51c8 (v6.14), which the stable
	 * series took too: 6.12.21 (Debian's changelog of its 6.12 kernels lists it there)
	 * and 6.13.9 (the 6.13 series' last releases; not checked in a package).
	 */
	p->fork_util_regression = v >= 6004 && v < 6014 && !fork_util_backported(v, sub);
	/* DELAY_DEQUEUE on by default since v6.12; an unknown kernel may have it */
	p->delayed_dequeue = !v || v >= 6012;
	snprintf(p->note, sizeof(p->note), "%s",
		 v ? "from the kernel release in the trace" : "kernel release unknown: defaults");
}

/*
 * The release unknown (no UNAME option, no kernel marker): the events the trace defines
 * tell something of the kernel's age, in a trace that carries the formats of every
 * scheduler event the kernel has (trace-cmd's and rqpath's do).  sched_prepare_exec
 * came in v6.10, delayed dequeue in v6.12: a trace without sched_prepare_exec is of a
 * kernel before v6.10, without delayed dequeue, and every wakeup in it selected.  Which
 * the formats are of every event is what sched_waking (v4.3) shows: a kernel since
 * v4.3 defines it, and a trace that defines neither is older still (before v4.3).
 */
void rq_profile_from_events(struct rq_profile *p, const bool *has_event)
{
	if (p->major || has_event[RQ_EV_PREPARE_EXEC])
		return;
	p->delayed_dequeue = false;
	snprintf(p->note, sizeof(p->note), has_event[RQ_EV_WAKING] ?
		 "kernel release unknown; no sched_prepare_exec event (v6.10): before v6.10" :
		 "kernel release unknown; no sched_waking or sched_prepare_exec event: "
		 "before v6.12");
}

static int parse_fixed(const char *val, bool *affected)
{
	if (!strcmp(val, "fixed") || !strcmp(val, "no") || !strcmp(val, "0") ||
	    !strcmp(val, "off"))
		*affected = false;
	else if (!strcmp(val, "affected") || !strcmp(val, "yes") || !strcmp(val, "1") ||
		 !strcmp(val, "on"))
		*affected = true;
	else
		return -1;
	return 0;
}

int rq_profile_override(struct rq_profile *p, const char *spec, char *err, size_t errlen)
{
	char buf[256];
	char *save = NULL;

	if (!spec || !*spec)
		return 0;
	strlcpy(buf, spec, sizeof(buf));
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		bool *field = NULL;

		if (!eq)
			goto bad;
		*eq = '\0';
		if (!strcmp(tok, "exec-callback"))
			field = &p->exec_callback_unconditional;
		else if (!strcmp(tok, "idle-stack"))
			field = &p->idle_stack_allowed;
		else if (!strcmp(tok, "fork-util"))
			field = &p->fork_util_regression;
		else if (!strcmp(tok, "delay-dequeue"))
			field = &p->delayed_dequeue;
		if (!field || parse_fixed(eq + 1, field))
			goto bad;
		p->overridden = true;
	}
	if (p->overridden)
		snprintf(p->note, sizeof(p->note), "overridden with --profile %s", spec);
	return 0;
bad:
	snprintf(err, errlen, "bad --profile '%s': use KEY=fixed|affected with KEY one of "
		 "exec-callback, idle-stack, fork-util, or delay-dequeue=on|off", spec);
	return -1;
}
