// SPDX-License-Identifier: GPL-2.0
/*
 * opts.c - the option tables of the commands: getopt_long for parsing, the same
 * tables for the usage lines and --help.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "escape.h"
#include "opts.h"

static bool has_value(const struct cli_option *o)
{
	return o->type != CLI_FLAG;
}

int cli_parser_init(struct cli_parser *p, const struct cli_command *cmd, int argc,
		    char **argv)
{
	const struct cli_option *o;
	size_t n = 0, s = 0;

	memset(p, 0, sizeof(*p));
	p->cmd = cmd;
	p->argc = argc;
	p->argv = argv;
	if (cmd->flags & CLI_IN_ORDER)
		p->shortopts[s++] = '+';
	p->shortopts[s++] = ':';	/* a missing value is ':', not '?' */
	for (o = cmd->options; o && o->name; o++) {
		if (n == CLI_MAX_OPTIONS)
			return -1;
		p->longopts[n].name = o->name;
		p->longopts[n].has_arg = has_value(o) ? required_argument : no_argument;
		p->longopts[n].val = o->key;
		n++;
		if (o->key > 0 && o->key < 256) {
			p->shortopts[s++] = (char)o->key;
			if (has_value(o))
				p->shortopts[s++] = ':';
		}
	}
	p->longopts[n].name = "help";
	p->longopts[n].val = CLI_HELP;
	p->shortopts[s++] = CLI_HELP;
	p->shortopts[s] = '\0';
	return 0;
}

static const struct cli_option *find_key(const struct cli_command *c, int key)
{
	for (const struct cli_option *o = c->options; o && o->name; o++)
		if (o->key == key)
			return o;
	return NULL;
}

bool cli_choice_word(const char *list, int i, char *buf, size_t size)
{
	const char *w = list;

	for (; i > 0 && w; i--) {
		w = strchr(w, '|');
		if (w)
			w++;
	}
	if (!w || !size)
		return false;
	snprintf(buf, size, "%.*s", (int)strcspn(w, "|"), w);
	return true;
}

static int check_value(struct cli_parser *p, const struct cli_option *o, const char *v)
{
	char esc[256], word[64];
	char *end;

	errno = 0;
	switch (o->type) {
	case CLI_FLAG:
	case CLI_STRING:
		return 0;
	case CLI_INT:
		p->num = strtol(v, &end, 10);
		if (!errno && end != v && !*end && p->num >= o->min && p->num <= o->max)
			return 0;
		rq_escape_c(v, strlen(v), esc, sizeof(esc));
		snprintf(p->err, sizeof(p->err), "%s: --%s wants an integer in %ld..%ld, not '%s'",
			 p->cmd->name, o->name, o->min, o->max, esc);
		return -1;
	case CLI_MODE:
		p->num = strtol(v, &end, 8);
		if (!errno && end != v && !*end && *v != '-' && *v != '+' && p->num > 0 &&
		    p->num <= 0777)
			return 0;
		rq_escape_c(v, strlen(v), esc, sizeof(esc));
		snprintf(p->err, sizeof(p->err), "%s: --%s wants permission bits in octal "
			 "(0600, 0640, ..., not 0), not '%s'", p->cmd->name, o->name, esc);
		return -1;
	case CLI_SECONDS:
		p->secs = strtod(v, &end);
		if (!errno && end != v && !*end && isfinite(p->secs) && p->secs > 0 &&
		    (o->max <= 0 || p->secs <= o->max))
			return 0;
		rq_escape_c(v, strlen(v), esc, sizeof(esc));
		if (o->max > 0)
			snprintf(p->err, sizeof(p->err), "%s: --%s wants a number of seconds in "
				 "(0, %ld], not '%s'", p->cmd->name, o->name, o->max, esc);
		else
			snprintf(p->err, sizeof(p->err), "%s: --%s wants a number of seconds > 0, "
				 "not '%s'", p->cmd->name, o->name, esc);
		return -1;
	case CLI_CHOICE:
		for (int i = 0; cli_choice_word(o->arg, i, word, sizeof(word)); i++) {
			if (!strcmp(word, v)) {
				p->num = i;
				return 0;
			}
		}
		rq_escape_c(v, strlen(v), esc, sizeof(esc));
		snprintf(p->err, sizeof(p->err), "%s: --%s wants %s, not '%s'", p->cmd->name,
			 o->name, o->arg, esc);
		return -1;
	}
	return -1;
}

static bool has_long(const struct cli_command *c, const char *name)
{
	for (const struct cli_option *o = c->options; o && o->name; o++)
		if (!strcmp(o->name, name))
			return true;
	return false;
}

int cli_next(struct cli_parser *p)
{
	const struct cli_option *o;
	char esc[256], given[8];
	const char *what;
	int c;

	if (p->optind == 0)
		optind = 0;	/* glibc: start over (another argv, another optstring) */
	else
		optind = p->optind;
	opterr = 0;
	p->opt = NULL;
	p->arg = NULL;
	c = getopt_long(p->argc, p->argv, p->shortopts, p->longopts, NULL);
	p->optind = optind;
	if (c == -1) {
		p->dashdash = optind > 1 && optind <= p->argc && !strcmp(p->argv[optind - 1], "--");
		return CLI_END;
	}
	if (c == CLI_HELP)
		return CLI_HELP;
	if (c == '?' || c == ':') {
		what = optind > 0 && optind <= p->argc ? p->argv[optind - 1] : "?";
		if (strncmp(what, "--", 2) && optopt > 0 && optopt < 256) {
			snprintf(given, sizeof(given), "-%c", optopt);
			what = given;
		}
		rq_escape_c(what, strlen(what), esc, sizeof(esc));
		if (c == ':')
			snprintf(p->err, sizeof(p->err), "%s: %s needs a value; see 'rqpath %s "
				 "--help'", p->cmd->name, esc, p->cmd->name);
		else if (!strcmp(what, "-f") && has_long(p->cmd, "force"))
			/* -f was --force here before it meant --format everywhere */
			snprintf(p->err, sizeof(p->err), "%s: unknown option '-f' (-f is --format "
				 "where there is one; write --force)", p->cmd->name);
		else
			snprintf(p->err, sizeof(p->err), "%s: unknown option '%s'; see 'rqpath %s "
				 "--help'", p->cmd->name, esc, p->cmd->name);
		return CLI_ERROR;
	}
	o = find_key(p->cmd, c);
	if (!o) {
		snprintf(p->err, sizeof(p->err), "%s: option table has no key %d", p->cmd->name, c);
		return CLI_ERROR;
	}
	p->opt = o;
	p->arg = optarg;
	if (has_value(o) && check_value(p, o, optarg))
		return CLI_ERROR;
	return c;
}

/* ---- usage lines and --help ---- */

struct buf {
	char *s;
	size_t size, len;
};

static void buf_put(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void buf_put(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->len >= b->size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->s + b->len, b->size - b->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->len += (size_t)n;
}

static void put_option(struct buf *b, const struct cli_option *o)
{
	if (o->flags & CLI_SHORT)
		buf_put(b, "-%c", o->key);
	else
		buf_put(b, "--%s", o->name);
	if (o->arg)
		buf_put(b, " %s", o->arg);
}

void cli_synopsis(const struct cli_command *c, char *s, size_t size)
{
	struct buf b = { s, size, 0 };
	const struct cli_option *o;

	if (!size)
		return;
	s[0] = '\0';
	buf_put(&b, (c->flags & (CLI_DEFAULT | CLI_FILE_FIRST)) ? "[%s]" : "%s", c->name);
	if (c->lead)
		buf_put(&b, " %s", c->lead);
	for (o = c->options; o && o->name; o++) {
		if (o->flags & (CLI_HIDDEN | CLI_IN_LEAD | CLI_NESTED))
			continue;
		buf_put(&b, (o->flags & CLI_REQUIRED) ? " " : " [");
		put_option(&b, o);
		for (const struct cli_option *n = o + 1; n->name && (n->flags & CLI_NESTED); n++) {
			buf_put(&b, " [");
			put_option(&b, n);
			buf_put(&b, "]");
		}
		if (!(o->flags & CLI_REQUIRED))
			buf_put(&b, "]");
		if (o->flags & CLI_REPEAT)
			buf_put(&b, "...");
	}
	if (c->operands)
		buf_put(&b, " %s", c->operands);
}

const struct cli_command *cli_find_sub(const struct cli_command *c, const char *name)
{
	for (const struct cli_command *s = c->subcommands; s && s->name; s++) {
		const char *sp = strrchr(s->name, ' ');

		if (!strcmp(sp ? sp + 1 : s->name, name))
			return s;
	}
	return NULL;
}

/* Options longer than this get their help on a line of its own. */
#define HELP_COLUMN 22

void cli_print_help(FILE *f, const struct cli_command *c)
{
	char line[1024];
	const struct cli_option *o;
	int width = 12;

	cli_synopsis(c, line, sizeof(line));
	fprintf(f, "usage: rqpath %s\n", line);
	for (const struct cli_command *s = c->subcommands; s && s->name; s++) {
		cli_synopsis(s, line, sizeof(line));
		fprintf(f, "       rqpath %s\n", line);
	}
	fprintf(f, "\n%s\n", c->description ? c->description : c->summary);
	for (o = c->options; o && o->name; o++) {
		struct buf b = { line, sizeof(line), 0 };

		if (o->flags & CLI_HIDDEN)
			continue;
		buf_put(&b, "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
		if ((int)b.len > width && b.len <= HELP_COLUMN)
			width = (int)b.len;
	}
	fprintf(f, "\noptions:\n");
	for (o = c->options; o && o->name; o++) {
		struct buf b = { line, sizeof(line), 0 };

		if (o->flags & CLI_HIDDEN)
			continue;
		buf_put(&b, "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
		if (o->key > 0 && o->key < 256)
			fprintf(f, "  -%c, %-*s", o->key, width, line);
		else
			fprintf(f, "      %-*s", width, line);
		/* a long option and value: its help on the next line */
		if ((int)b.len > width)
			fprintf(f, "\n      %-*s", width, "");
		fprintf(f, "  %s\n", o->help);
	}
	fprintf(f, "  -h, %-*s  %s\n", width, "--help", "this text");
	if (c->subcommands) {
		fprintf(f, "\n");
		for (const struct cli_command *s = c->subcommands; s && s->name; s++) {
			const char *sp = strrchr(s->name, ' ');

			fprintf(f, "  %-12s %s\n", sp ? sp + 1 : s->name, s->summary);
		}
		fprintf(f, "\n'rqpath %s NAME --help' describes one of them.\n", c->name);
	}
}

/* ---- the placement filters ---- */

static int filter_seconds(struct cli_parser *p, const char *v, double *out)
{
	char esc[256], *end;

	errno = 0;
	*out = strtod(v, &end);
	if (!errno && end != v && !*end && isfinite(*out) && *out >= 0)
		return 0;
	rq_escape_c(v, strlen(v), esc, sizeof(esc));
	snprintf(p->err, sizeof(p->err), "%s: --%s wants seconds >= 0 from the trace's first "
		 "record, not '%s'", p->cmd->name, p->opt->name, esc);
	return -1;
}

int cli_filter_option(struct cli_parser *p, int key, struct rq_filter *f)
{
	char esc[256], err[256];
	const char *v = p->arg;

	switch (key) {
	case 'p':
		for (const char *s = v; ; ) {
			char *end;
			long pid;

			errno = 0;
			pid = strtol(s, &end, 10);
			if (errno || end == s || pid < 0 || pid > 0x7fffffff ||
			    (*end && *end != ',') || f->npids == RQ_FILTER_PIDS) {
				rq_escape_c(v, strlen(v), esc, sizeof(esc));
				snprintf(p->err, sizeof(p->err), "%s: --pid wants pids, "
					 "comma-separated (at most %d), not '%s'", p->cmd->name,
					 RQ_FILTER_PIDS, esc);
				return -1;
			}
			f->pids[f->npids++] = (int)pid;
			if (!*end)
				break;
			s = end + 1;
		}
		return 1;
	case CLI_OPT_COMM:
		f->comm = v;
		return 1;
	case 'C':
		f->cpus = v;
		if (rq_filter_check(f, err, sizeof(err))) {
			snprintf(p->err, sizeof(p->err), "%s: %s", p->cmd->name, err);
			return -1;
		}
		return 1;
	case CLI_OPT_FROM:
		if (filter_seconds(p, v, &f->from))
			return -1;
		f->has_from = true;
		break;
	case CLI_OPT_TO:
		if (filter_seconds(p, v, &f->to))
			return -1;
		f->has_to = true;
		break;
	default:
		return 0;
	}
	if (rq_filter_check(f, err, sizeof(err))) {
		snprintf(p->err, sizeof(p->err), "%s: %s", p->cmd->name, err);
		return -1;
	}
	return 1;
}

/* ---- the options several commands share ---- */

/* A shared option into t: 1 taken, 0 not a shared key, -1 a bad value (p->err). */
static int trace_option(struct cli_parser *p, int key, struct cli_trace_opts *t)
{
	switch (key) {
	case CLI_OPT_PROFILE:
		t->profile = p->arg;
		return 1;
	case CLI_OPT_TOPOLOGY:
		t->topology = p->arg;
		return 1;
	case CLI_OPT_NO_TRUTH:
		t->no_truth = true;
		return 1;
	case CLI_OPT_OUTPUT:
		t->output = p->arg;
		return 1;
	case CLI_OPT_FORCE:
		t->force = true;
		return 1;
	case CLI_OPT_DURATION:
		t->duration = p->secs;
		return 1;
	case CLI_OPT_USER:
		t->user = p->arg;
		return 1;
	case CLI_OPT_PRESERVE_ENV:
		t->preserve_env = true;
		return 1;
	case CLI_OPT_SYSCALLS:
		t->syscalls = true;
		return 1;
	case CLI_OPT_NO_BPF:
		t->no_bpf = true;
		return 1;
	default:
		return cli_filter_option(p, key, &t->filter);
	}
}

int cli_parse_options(struct cli_parser *p, struct cli_trace_opts *t, cli_option_fn *fn,
		      void *ctx)
{
	int key, shared, own;

	while ((key = cli_next(p)) != CLI_END) {
		if (key == CLI_HELP || key == CLI_ERROR)
			return key;
		shared = trace_option(p, key, t);
		if (shared < 0)
			return CLI_ERROR;
		own = fn ? fn(p, key, ctx) : 0;
		if (own < 0)
			return CLI_SAID;
		if (!shared && !own) {
			snprintf(p->err, sizeof(p->err), "%s: option table has no handler for --%s",
				 p->cmd->name, p->opt ? p->opt->name : "?");
			return CLI_ERROR;
		}
	}
	return CLI_END;
}

void cli_trace_analysis(const struct cli_trace_opts *t, struct rq_analysis_opts *o)
{
	o->profile_override = t->profile;
	o->topology = t->topology;
	o->no_truth = t->no_truth;
	o->filter = rq_filter_active(&t->filter) ? &t->filter : NULL;
}

int cli_trace_check(const struct cli_trace_opts *t, char *err, size_t errlen)
{
	struct rq_profile probe;

	if (!t->profile)
		return 0;
	rq_profile_from_release(&probe, NULL);
	return rq_profile_override(&probe, t->profile, err, errlen) ? -1 : 0;
}
