// SPDX-License-Identifier: GPL-2.0
/*
 * complete.c - `rqpath completion bash|zsh`: a shell completion script generated from
 * the commands' option tables (opts.h), so that it never lists an option the parser
 * does not know.  `make` writes both scripts and `make install` copies them.
 *
 * What a value completes to follows from the option's table entry: a choice its words,
 * a FILE or FILE.dat file names, a NAME user names, a RULE the finding ids (and for
 * diff the path ids and the delay rules); numbers complete to nothing.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "analysis.h"
#include "opts.h"

enum value_kind { V_NONE, V_WORDS, V_FILE, V_TRACE, V_USER, V_RULE };

static enum value_kind value_kind(const struct cli_option *o)
{
	if (o->type == CLI_FLAG)
		return V_NONE;
	if (o->type == CLI_CHOICE)
		return V_WORDS;
	if (o->type != CLI_STRING || !o->arg)
		return V_NONE;
	if (strstr(o->arg, "FILE.dat"))
		return V_TRACE;
	if (strstr(o->arg, "FILE"))
		return V_FILE;
	if (!strcmp(o->arg, "NAME"))
		return V_USER;
	if (!strncmp(o->arg, "RULE", 4))
		return V_RULE;
	return V_NONE;
}

static bool takes_traces(const struct cli_command *c)
{
	return !strcmp(c->name, "replay") || !strcmp(c->name, "audit") ||
	       !strcmp(c->name, "diff") || !strcmp(c->name, "explain");
}

/*
 * The words a --fail-on RULE of command c completes to, space-separated (colon: how a ':'
 * is written).  audit: finding ids and ID:possible; diff also path ids, kinds, all and
 * delay.p50:KEY, delay.p99:KEY (src/cli/diff.c).
 */
static void print_rules(FILE *f, const struct cli_command *c, const char *colon)
{
	static const char *const q[] = { "delay.p50", "delay.p99" };
	static const char *const delay_keys[] = { "flagged", "unflagged" };

	for (int i = 0; i < RQ_FIND__COUNT; i++)
		fprintf(f, "%s%s %s%spossible", i ? " " : "", rq_finding_ids[i], rq_finding_ids[i],
			colon);
	if (strcmp(c->name, "diff"))
		return;
	for (int i = 0; i < RQ_PATH__COUNT; i++)
		fprintf(f, " %s", rq_paths[i].id);
	for (int k = 0; k < RQ_KIND__COUNT; k++)
		fprintf(f, " %s", rq_kind_names[k]);
	fputs(" all", f);
	for (int j = 0; j < 2; j++) {
		for (int i = 0; i < RQ_FIND__COUNT; i++)
			fprintf(f, " %s%s%s", q[j], colon, rq_finding_ids[i]);
		for (int k = 0; k < RQ_KIND__COUNT; k++)
			fprintf(f, " %s%s%s", q[j], colon, rq_kind_names[k]);
		for (int i = 0; i < 2; i++)
			fprintf(f, " %s%s%s", q[j], colon, delay_keys[i]);
	}
}

static void print_choice_words(FILE *f, const char *list)
{
	char w[64];

	for (int i = 0; cli_choice_word(list, i, w, sizeof(w)); i++)
		fprintf(f, "%s%s", i ? " " : "", w);
}

/* ---- bash ------------------------------------------------------------------------- */

static void bash_option_names(FILE *f, const struct cli_option *o)
{
	if (o->key > 0 && o->key < 256)
		fprintf(f, "-%c|", o->key);
	fprintf(f, "--%s", o->name);
}

static void bash_command(FILE *f, const struct cli_command *c, const char *label)
{
	fprintf(f, "\t%s)\n\t\tcase $prev in\n", label);
	for (const struct cli_option *o = c->options; o && o->name; o++) {
		enum value_kind k = value_kind(o);

		if (o->flags & CLI_HIDDEN || o->type == CLI_FLAG)
			continue;
		fputs("\t\t", f);
		bash_option_names(f, o);
		switch (k) {
		case V_WORDS:
			fputs(") _rqpath_words '", f);
			print_choice_words(f, o->arg);
			fputs("'; return ;;\n", f);
			break;
		case V_RULE:
			fputs(") _rqpath_words '", f);
			print_rules(f, c, ":");
			fputs("'; return ;;\n", f);
			break;
		case V_TRACE:
			fputs(") _rqpath_traces; return ;;\n", f);
			break;
		case V_FILE:
			fputs(") _rqpath_files; return ;;\n", f);
			break;
		case V_USER:
			fputs(") COMPREPLY=($(compgen -u -- \"$cur\")); return ;;\n", f);
			break;
		default:
			fputs(") return ;;\n", f);
			break;
		}
	}
	fputs("\t\tesac\n\t\topts='", f);
	for (const struct cli_option *o = c->options; o && o->name; o++) {
		if (o->flags & CLI_HIDDEN)
			continue;
		if (o->key > 0 && o->key < 256)
			fprintf(f, "-%c ", o->key);
		fprintf(f, "--%s ", o->name);
	}
	fprintf(f, "-h --help'\n");
	if (c->subcommands) {
		fputs("\t\tsubs='", f);
		for (const struct cli_command *s = c->subcommands; s->name; s++) {
			const char *sp = strrchr(s->name, ' ');

			fprintf(f, "%s%s", s == c->subcommands ? "" : " ", sp ? sp + 1 : s->name);
		}
		fputs("'\n", f);
	}
	if (takes_traces(c))
		fputs("\t\toperands=traces\n", f);
	else if (!strcmp(c->name, "record"))
		fputs("\t\toperands=command\n", f);
	fputs("\t\t;;\n", f);
}

/*
 * The helpers (_rqpath_words, _files, _traces, _rqpath) and _rqpath_main up to the word
 * list of the first word, which the caller writes.
 */
static void bash_prelude(FILE *f)
{
	fputs("# bash completion for rqpath(1), generated from its option tables by\n"
	      "# `rqpath completion bash`: do not edit, regenerate.\n"
	      "_rqpath_words() {\n"
	      "\tCOMPREPLY=($(compgen -W \"$1\" -- \"$cur\"))\n"
	      "\t# bash replaces only what follows a ':' of the word (COMP_WORDBREAKS)\n"
	      "\tif [[ $cur == *:* && $COMP_WORDBREAKS == *:* ]]; then\n"
	      "\t\tlocal p=${cur%\"${cur##*:}\"}\n"
	      "\t\tCOMPREPLY=(\"${COMPREPLY[@]#\"$p\"}\")\n"
	      "\tfi\n"
	      "}\n"
	      "_rqpath_files() { compopt -o filenames 2>/dev/null; "
	      "COMPREPLY=($(compgen -f -- \"$cur\")); }\n"
	      "_rqpath_traces() {\n"
	      "\tcompopt -o filenames 2>/dev/null\n"
	      "\tCOMPREPLY=($(compgen -d -- \"$cur\") $(compgen -f -X '!*.dat' -- \"$cur\"))\n"
	      "}\n"
	      "_rqpath() {\n"
	      "\t# RULE:possible is one word here: split the line on blanks only\n"
	      "\tif [[ $COMP_WORDBREAKS == *:* && $COMP_LINE == *:* ]]; then\n"
	      "\t\tlocal line=${COMP_LINE:0:COMP_POINT} w\n"
	      "\t\tread -ra w <<<\"$line\"\n"
	      "\t\t[[ $line == *[[:space:]] ]] && w+=(\"\")\n"
	      "\t\tCOMP_WORDS=(\"${w[@]}\")\n"
	      "\t\tCOMP_CWORD=$((${#w[@]} - 1))\n"
	      "\tfi\n"
	      "\t_rqpath_main\n"
	      "}\n"
	      "_rqpath_main() {\n"
	      "\tlocal cur prev cmd opts subs operands i\n"
	      "\tCOMPREPLY=()\n"
	      "\tcur=${COMP_WORDS[COMP_CWORD]}\n"
	      "\tprev=${COMP_WORDS[COMP_CWORD - 1]}\n"
	      "\tcmd=${COMP_WORDS[1]}\n"
	      "\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n"
	      "\t\tcase $cur in\n"
	      "\t\t-*) _rqpath_words '-i --input -h --help -V --version';;\n"
	      "\t\t*) _rqpath_words '", f);
}

/* After the first word's list: rqpath FILE.dat, the command after --, then "case $cmd". */
static void bash_dispatch(FILE *f)
{
	fputs("'\n"
	      "\t\t   local w=(\"${COMPREPLY[@]}\"); _rqpath_traces; "
	      "COMPREPLY=(\"${w[@]}\" \"${COMPREPLY[@]}\");;\n"
	      "\t\tesac\n"
	      "\t\treturn\n"
	      "\tfi\n"
	      "\t# rqpath FILE.dat and rqpath -i FILE.dat are replay, other options live's\n"
	      "\tcase $cmd in\n"
	      "\t-i|--input*) cmd=replay;;\n"
	      "\t-*) cmd=live;;\n"
	      "\t*.dat) cmd=replay;;\n"
	      "\tesac\n"
	      "\t# after -- (audit --live, record) a command and its arguments\n"
	      "\tfor ((i = 2; i < COMP_CWORD; i++)); do\n"
	      "\t\tif [ \"${COMP_WORDS[i]}\" = -- ] && [ \"$cmd\" != diff ]; then\n"
	      "\t\t\tif [ $((i + 1)) -eq \"$COMP_CWORD\" ]; then\n"
	      "\t\t\t\tCOMPREPLY=($(compgen -c -- \"$cur\"))\n"
	      "\t\t\telse\n"
	      "\t\t\t\t_rqpath_files\n"
	      "\t\t\tfi\n"
	      "\t\t\treturn\n"
	      "\t\tfi\n"
	      "\tdone\n"
	      "\tcase $cmd in\n"
	      "\thelp)\n"
	      "\t\t[ \"$COMP_CWORD\" -eq 2 ] && _rqpath_words '", f);
}

/* Each command's (and subcommand's) case of "case $cmd". */
static void bash_cases(FILE *f, const struct cli_command *const *cmds, size_t n)
{
	fputs("'\n\t\treturn;;\n", f);
	for (size_t i = 0; i < n; i++) {
		const struct cli_command *c = cmds[i];

		if (!strcmp(c->name, "help") || c->name[0] == '-')
			continue;
		bash_command(f, c, c->name);
		/* a subcommand's options: "workload spawn" is the words 1 and 2 */
		for (const struct cli_command *s = c->subcommands; s && s->name; s++) {
			char label[64];
			const char *sp = strrchr(s->name, ' ');

			snprintf(label, sizeof(label), "%s/%s", c->name, sp ? sp + 1 : s->name);
			bash_command(f, s, label);
		}
	}
}

/* The end of _rqpath_main (subcommands, then options or traces), and _rqpath_sub. */
static void bash_epilogue(FILE *f)
{
	/* a command with subcommands: the subcommand first, then its options */
	fputs("\tif [ -n \"$subs\" ]; then\n"
	      "\t\tif [ \"$COMP_CWORD\" -eq 2 ]; then\n"
	      "\t\t\t_rqpath_words \"$subs\"\n"
	      "\t\t\treturn\n"
	      "\t\tfi\n"
	      "\t\tcmd=$cmd/${COMP_WORDS[2]}\n"
	      "\t\tsubs=\n"
	      "\t\tCOMP_WORDS[1]=$cmd\n"
	      "\t\t_rqpath_sub\n"
	      "\t\treturn\n"
	      "\tfi\n"
	      "\tcase $cur in\n"
	      "\t-*) _rqpath_words \"$opts\";;\n"
	      "\t*) [ \"$operands\" = traces ] && _rqpath_traces;;\n"
	      "\tesac\n"
	      "}\n"
	      "# words 1 and 2 named a subcommand (workload spawn): complete from its table\n"
	      "_rqpath_sub() {\n"
	      "\tlocal save=(\"${COMP_WORDS[@]}\") cword=$COMP_CWORD\n"
	      "\tCOMP_WORDS=(\"${save[0]}\" \"${save[1]}\" \"${save[@]:3}\")\n"
	      "\tCOMP_CWORD=$((cword - 1))\n"
	      "\t_rqpath_main\n"
	      "\tCOMP_WORDS=(\"${save[@]}\")\n"
	      "\tCOMP_CWORD=$cword\n"
	      "}\n"
	      "complete -F _rqpath rqpath\n", f);
}

static void write_bash(FILE *f)
{
	const struct cli_command *const *cmds;
	size_t n;

	cmds = cli_commands(&n);
	bash_prelude(f);
	for (size_t i = 0; i < n; i++)
		if (cmds[i]->name[0] != '-')
			fprintf(f, "%s%s", i ? " " : "", cmds[i]->name);
	bash_dispatch(f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? " " : "", cmds[i]->name);
	bash_cases(f, cmds, n);
	fputs("\tesac\n", f);
	bash_epilogue(f);
}

/* ---- zsh -------------------------------------------------------------------------- */

/* Text inside a single-quoted _arguments spec's [description]. */
static void zsh_desc(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else if (*s == '[' || *s == ']' || *s == ':' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else
			fputc(*s, f);
	}
}

static void zsh_command(FILE *f, const struct cli_command *c, const char *label)
{
	fprintf(f, "\t%s)\n\t\t_arguments -s -S \\\n", label);
	for (const struct cli_option *o = c->options; o && o->name; o++) {
		bool repeat = o->flags & CLI_REPEAT;
		bool has_short = o->key > 0 && o->key < 256;

		if (o->flags & CLI_HIDDEN)
			continue;
		fputs("\t\t\t", f);
		/* a repeatable option excludes nothing, another one itself in either form */
		if (has_short && repeat)
			fprintf(f, "'*'{-%c,--%s}'", o->key, o->name);
		else if (has_short)
			fprintf(f, "'(-%c --%s)'{-%c,--%s}'", o->key, o->name, o->key, o->name);
		else
			fprintf(f, "'%s--%s", repeat ? "*" : "", o->name);
		fputc('[', f);
		zsh_desc(f, o->help);
		fputc(']', f);
		switch (value_kind(o)) {
		case V_NONE:
			if (o->type != CLI_FLAG)
				fprintf(f, ":%s: ", o->arg);
			break;
		case V_WORDS:
			fprintf(f, ":%s:(", o->name);
			print_choice_words(f, o->arg);
			fputc(')', f);
			break;
		case V_RULE:
			fputs(":rule:(", f);
			print_rules(f, c, "\\:");
			fputc(')', f);
			break;
		case V_TRACE:
			fputs(":trace:_files -g \"*.dat(-.)\"", f);
			break;
		case V_FILE:
			fputs(":file:_files", f);
			break;
		case V_USER:
			fputs(":user:_users", f);
			break;
		}
		fputs("' \\\n", f);
	}
	fputs("\t\t\t'(- *)'{-h,--help}'[this command'\\''s usage and options]'", f);
	if (takes_traces(c))
		fputs(" \\\n\t\t\t'*:trace:_files -g \"*.dat(-.)\"'", f);
	else if (!strcmp(c->name, "record") || !strcmp(c->name, "audit"))
		fputs(" \\\n\t\t\t'*::command:_normal'", f);
	fputs("\n\t\t;;\n", f);
}

static void write_zsh(FILE *f)
{
	const struct cli_command *const *cmds;
	size_t n;

	cmds = cli_commands(&n);
	fputs("#compdef rqpath\n"
	      "# zsh completion for rqpath(1), generated from its option tables by\n"
	      "# `rqpath completion zsh`: do not edit, regenerate.\n"
	      "_rqpath() {\n"
	      "\tlocal curcontext=$curcontext state line ret=1\n"
	      "\tlocal -a commands\n"
	      "\tcommands=(\n", f);
	for (size_t i = 0; i < n; i++) {
		if (cmds[i]->name[0] == '-')
			continue;
		fprintf(f, "\t\t'%s:", cmds[i]->name);
		for (const char *s = cmds[i]->summary; *s; s++) {
			if (*s == '\'')
				fputs("'\\''", f);
			else if (*s == ':')
				fputs("\\:", f);
			else
				fputc(*s, f);
		}
		fputs("'\n", f);
	}
	fputs("\t)\n"
	      "\t_arguments -C \\\n"
	      "\t\t'(- *)'{-V,--version}'[print the version]' \\\n"
	      "\t\t'(- *)'{-h,--help}'[the commands]' \\\n"
	      "\t\t'1: :->command' \\\n"
	      "\t\t'*:: :->args' && ret=0\n"
	      "\tcase $state in\n"
	      "\tcommand)\n"
	      "\t\t_describe -t commands 'rqpath command' commands && ret=0\n"
	      "\t\t_files -g '*.dat(-.)' && ret=0\n"
	      "\t\t;;\n"
	      "\targs)\n"
	      "\t\tlocal cmd=$words[1]\n"
	      "\t\tcase $cmd in\n"
	      "\t\t*.dat) cmd=replay;;\n"
	      "\t\tesac\n"
	      "\t\tif [[ $cmd == workload ]]; then\n"
	      "\t\t\tif (( CURRENT == 2 )); then\n"
	      "\t\t\t\t_values 'workload' ", f);
	for (size_t i = 0; i < n; i++)
		for (const struct cli_command *s = cmds[i]->subcommands; s && s->name; s++) {
			const char *sp = strrchr(s->name, ' ');

			fprintf(f, "'%s' ", sp ? sp + 1 : s->name);
		}
	fputs("&& ret=0\n"
	      "\t\t\t\treturn ret\n"
	      "\t\t\tfi\n"
	      "\t\t\tcmd=workload/$words[2]\n"
	      "\t\t\tshift words\n"
	      "\t\t\t(( CURRENT-- ))\n"
	      "\t\tfi\n"
	      "\t\tcurcontext=${curcontext%:*:*}:rqpath-$cmd:\n"
	      /* after -- (audit --live, record; not diff's BASE -- NEW) a command line */
	      "\t\tlocal dd=${words[(i)--]}\n"
	      "\t\tif [[ $cmd != diff ]] && (( dd > 1 && dd < CURRENT )); then\n"
	      "\t\t\tshift $dd words\n"
	      "\t\t\t(( CURRENT -= dd ))\n"
	      "\t\t\t_normal && ret=0\n"
	      "\t\t\treturn ret\n"
	      "\t\tfi\n"
	      "\t\tcase $cmd in\n"
	      "\t\thelp)\n"
	      "\t\t\t_describe -t commands 'rqpath command' commands && ret=0\n"
	      "\t\t\t;;\n", f);
	for (size_t i = 0; i < n; i++) {
		const struct cli_command *c = cmds[i];

		if (!strcmp(c->name, "help") || c->name[0] == '-' || c->subcommands) {
			for (const struct cli_command *s = c->subcommands; s && s->name; s++) {
				char label[64];
				const char *sp = strrchr(s->name, ' ');

				snprintf(label, sizeof(label), "%s/%s", c->name,
					 sp ? sp + 1 : s->name);
				zsh_command(f, s, label);
			}
			continue;
		}
		zsh_command(f, c, c->name);
	}
	fputs("\t\tesac\n"
	      "\t\t;;\n"
	      "\tesac\n"
	      "\treturn ret\n"
	      "}\n"
	      "if [ \"$funcstack[1]\" = _rqpath ]; then\n"
	      "\t_rqpath \"$@\"\n"
	      "else\n"
	      "\tcompdef _rqpath rqpath\n"
	      "fi\n", f);
}

static int cmd_completion(int argc, char **argv);

const struct cli_command cli_completion = {
	.name = "completion",
	.fn = cmd_completion,
	.operands = "bash|zsh",
	.summary = "a shell completion script, from the option tables (make install puts both)",
	.description =
		"Print the completion script of bash or zsh for rqpath, generated from the\n"
		"commands' option tables:\n"
		"    source <(rqpath completion bash)\n"
		"    rqpath completion zsh > ~/.zfunc/_rqpath     (a directory in $fpath)\n"
		"make install puts both where the shells look for them.",
};

static int cmd_completion(int argc, char **argv)
{
	struct cli_parser p;
	int opt;

	cli_parser_init(&p, &cli_completion, argc, argv);
	while ((opt = cli_next(&p)) != CLI_END)
		return cli_stop(&p, opt);
	if (argc - p.optind != 1 ||
	    (strcmp(argv[p.optind], "bash") && strcmp(argv[p.optind], "zsh"))) {
		rq_error("completion: give bash or zsh; try 'rqpath help completion'");
		return RQ_EXIT_ERROR;
	}
	if (!strcmp(argv[p.optind], "bash"))
		write_bash(stdout);
	else
		write_zsh(stdout);
	return RQ_EXIT_OK;
}
