// SPDX-License-Identifier: GPL-2.0
/* test_cli_opts.c - the option parser and the usage lines of src/cli/opts.c. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "opts.h"

enum { K_BUF = 256, K_FMT, K_RULE, K_SECRET };

static const struct cli_option rec_opts[] = {
	{ "output", 'o', CLI_STRING, "FILE", 0, 0, CLI_REQUIRED | CLI_SHORT, "where" },
	{ "duration", 'd', CLI_SECONDS, "S", 0, 0, 0, "how long" },
	{ "buffer-kb", K_BUF, CLI_INT, "N", 1, 4096, 0, "size" },
	{ "force", 'f', CLI_FLAG, NULL, 0, 0, CLI_NESTED, "replace" },
	{ "format", K_FMT, CLI_CHOICE, "text|json|csv", 0, 0, 0, "format" },
	{ "rule", K_RULE, CLI_STRING, "R[=N]", 0, 0, CLI_REPEAT, "rules" },
	{ "quiet", 'q', CLI_FLAG, NULL, 0, 0, 0, "hush" },
	{ "secret", K_SECRET, CLI_INT, "N", 0, 9, CLI_HIDDEN, "never shown" },
	{ "live", 'l', CLI_FLAG, NULL, 0, 0, CLI_IN_LEAD, "in the lead" },
	{ NULL },
};

static const struct cli_command rec = {
	.name = "rec", .lead = "[X | --live]", .operands = "[-- CMD ARGS...]",
	.summary = "a test command", .options = rec_opts, .flags = CLI_IN_ORDER,
};

static const struct cli_command perm = {
	.name = "perm", .operands = "FILE", .summary = "options anywhere",
	.options = rec_opts, .flags = CLI_DEFAULT,
};

/* argv from a string of words (no quoting), kept until the next call */
static char **words(const char *line, int *argc)
{
	static char buf[1024];
	static char *argv[64];
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", line);
	for (char *w = strtok(buf, " "); w && n < 63; w = strtok(NULL, " "))
		argv[n++] = w;
	argv[n] = NULL;
	*argc = n;
	return argv;
}

static int parse_all(const struct cli_command *c, const char *line, struct cli_parser *p,
		     int *keys, int nkeys)
{
	int argc, k, n = 0;
	char **argv = words(line, &argc);

	assert_int_equal(cli_parser_init(p, c, argc, argv), 0);
	while ((k = cli_next(p)) != CLI_END) {
		if (k == CLI_ERROR)
			return -1;
		if (n < nkeys)
			keys[n++] = k;
	}
	return n;
}

static void values_are_parsed_and_checked(void **state)
{
	struct cli_parser p;
	int keys[16], argc;
	char **argv;

	argv = words("rec -o out.dat --duration 2.5 --buffer-kb=64 -qf --format json "
		     "-- sleep -q 1", &argc);
	cli_parser_init(&p, &rec, argc, argv);
	assert_int_equal(cli_next(&p), 'o');
	assert_string_equal(p.arg, "out.dat");
	assert_int_equal(cli_next(&p), 'd');
	assert_true(p.secs == 2.5);
	assert_int_equal(cli_next(&p), K_BUF);
	assert_int_equal(p.num, 64);
	assert_int_equal(cli_next(&p), 'q');
	assert_int_equal(cli_next(&p), 'f');
	assert_int_equal(cli_next(&p), K_FMT);
	assert_int_equal(p.num, 1);
	assert_int_equal(cli_next(&p), CLI_END);
	/* in order: everything after "--" is the command, its -q too */
	assert_true(p.dashdash);
	assert_string_equal(argv[p.optind], "sleep");
	assert_int_equal(argc - p.optind, 3);

	/* an unambiguous prefix is the option; help is always there */
	assert_int_equal(parse_all(&rec, "rec --dur 1 --buf 7", &p, keys, 16), 2);
	assert_int_equal(keys[1], K_BUF);
	assert_int_equal(parse_all(&rec, "rec --help", &p, keys, 16), 1);
	assert_int_equal(keys[0], CLI_HELP);
	assert_int_equal(parse_all(&rec, "rec -h", &p, keys, 16), 1);
	assert_int_equal(keys[0], CLI_HELP);
}

static void bad_values_are_one_clear_line(void **state)
{
	static const struct {
		const char *line, *err;
	} bad[] = {
		{ "rec --buffer-kb 10x", "rec: --buffer-kb wants an integer in 1..4096, not '10x'" },
		{ "rec --buffer-kb 0", "rec: --buffer-kb wants an integer in 1..4096, not '0'" },
		{ "rec --buffer-kb 4097", "rec: --buffer-kb wants an integer in 1..4096" },
		{ "rec --buffer-kb= ", "rec: --buffer-kb wants an integer in 1..4096, not ''" },
		{ "rec --buffer-kb 99999999999999999999999", "wants an integer in 1..4096" },
		{ "rec --buffer-kb -5", "wants an integer in 1..4096, not '-5'" },
		{ "rec -d nan", "rec: --duration wants a number of seconds > 0, not 'nan'" },
		{ "rec -d inf", "not 'inf'" },
		{ "rec -d 0", "not '0'" },
		{ "rec -d 1e999", "not '1e999'" },
		{ "rec -d 1s", "not '1s'" },
		{ "rec --format xml", "rec: --format wants text|json|csv, not 'xml'" },
		{ "rec --format js", "not 'js'" },
		{ "rec --bogus", "rec: unknown option '--bogus'; see 'rqpath rec --help'" },
		{ "rec -qz", "rec: unknown option '-z'" },
		{ "rec -o", "rec: -o needs a value" },
		{ "rec --output", "rec: --output needs a value" },
		{ "rec --quiet=yes", "rec: unknown option '--quiet=yes'" },
		{ "rec --secret 10", "rec: --secret wants an integer in 0..9" },
	};
	struct cli_parser p;
	int keys[16];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (parse_all(&rec, bad[i].line, &p, keys, 16) != -1)
			fail_msg("'%s' was accepted", bad[i].line);
		if (!strstr(p.err, bad[i].err))
			fail_msg("'%s': got \"%s\", want \"%s\"", bad[i].line, p.err, bad[i].err);
		assert_null(strchr(p.err, '\n'));
	}
}

static void hostile_arguments_come_back_escaped(void **state)
{
	char *argv[] = { "rec", "--buffer-kb", "\033]0;x\007", NULL };
	struct cli_parser p;

	cli_parser_init(&p, &rec, 3, argv);
	assert_int_equal(cli_next(&p), CLI_ERROR);
	assert_non_null(strstr(p.err, "not '\\x1b]0;x\\x07'"));
	for (const char *c = p.err; *c; c++)
		assert_true(*c >= 0x20 && *c < 0x7f);
}

static void operands_anywhere_unless_in_order(void **state)
{
	struct cli_parser p;
	int keys[16], argc;
	char **argv;

	/* permuting: FILE first, options after it */
	argv = words("perm f.dat --format csv -q", &argc);
	cli_parser_init(&p, &perm, argc, argv);
	assert_int_equal(cli_next(&p), K_FMT);
	assert_int_equal(p.num, 2);
	assert_int_equal(cli_next(&p), 'q');
	assert_int_equal(cli_next(&p), CLI_END);
	assert_int_equal(argc - p.optind, 1);
	assert_string_equal(argv[p.optind], "f.dat");
	/* in order: the first operand ends the options, without "--" */
	argv = words("rec -q cmd -o x", &argc);
	assert_int_equal(parse_all(&rec, "rec -q cmd -o x", &p, keys, 16), 1);
	assert_false(p.dashdash);
	assert_int_equal(p.optind, 2);
	/* a second parse starts over */
	assert_int_equal(parse_all(&rec, "rec -d 1", &p, keys, 16), 1);
	assert_int_equal(keys[0], 'd');
	assert_int_equal(p.optind, 3);
	(void)argv;
}

static void usage_lines_come_from_the_table(void **state)
{
	char line[512];

	cli_synopsis(&rec, line, sizeof(line));
	assert_string_equal(line, "rec [X | --live] -o FILE [--duration S] "
			    "[--buffer-kb N [--force]] [--format text|json|csv] [--rule R[=N]]... "
			    "[--quiet] [-- CMD ARGS...]");
	cli_synopsis(&perm, line, sizeof(line));
	assert_true(!strncmp(line, "[perm] -o FILE", 14));
	/* a short buffer is cut, never overrun */
	cli_synopsis(&rec, line, 10);
	assert_int_equal(strlen(line), 9);
}

static void help_lists_every_visible_option(void **state)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	cli_print_help(f, &rec);
	fclose(f);
	assert_true(!strncmp(buf, "usage: rqpath rec [X | --live] -o FILE", 38));
	assert_non_null(strstr(buf, "\na test command\n"));
	assert_non_null(strstr(buf, "  -o, --output FILE"));
	assert_non_null(strstr(buf, "      --buffer-kb N"));
	assert_non_null(strstr(buf, "  -h, --help"));
	assert_non_null(strstr(buf, "in the lead"));
	assert_null(strstr(buf, "secret"));
	free(buf);
}

static void choice_words(void **state)
{
	char w[8];

	assert_true(cli_choice_word("a|bb|ccc", 0, w, sizeof(w)));
	assert_string_equal(w, "a");
	assert_true(cli_choice_word("a|bb|ccc", 2, w, sizeof(w)));
	assert_string_equal(w, "ccc");
	assert_false(cli_choice_word("a|bb|ccc", 3, w, sizeof(w)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(values_are_parsed_and_checked),
		cmocka_unit_test(bad_values_are_one_clear_line),
		cmocka_unit_test(hostile_arguments_come_back_escaped),
		cmocka_unit_test(operands_anywhere_unless_in_order),
		cmocka_unit_test(usage_lines_come_from_the_table),
		cmocka_unit_test(help_lists_every_visible_option),
		cmocka_unit_test(choice_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
