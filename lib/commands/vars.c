/* vars.c - shell variables as a typed session sets them: `NAME=VALUE`
 * (one or more, alone on the line), `export NAME[=VALUE]...` and `unset
 * NAME...`. Their meaning is the parser's (scenario/vars.c keeps each
 * terminal's variables and expands $NAME in later lines, as bash would,
 * before any command runs); when they run they do nothing and print
 * nothing, as the builtins do. */
#include "commands/command.h"

#include <string.h>

#include "base/util.h"

bool ns_var_name_len(const char *s, size_t *len)
{
	size_t k = 0;

	if (!((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z') || s[0] == '_'))
		return false;
	while ((s[k] >= 'A' && s[k] <= 'Z') || (s[k] >= 'a' && s[k] <= 'z') || s[k] == '_' ||
	       (s[k] >= '0' && s[k] <= '9'))
		k++;
	*len = k;
	return true;
}

bool ns_var_assignment(const char *word)
{
	size_t n;

	return ns_var_name_len(word, &n) && word[n] == '=';
}

/* The parse keeps nothing: the args are a marker that the stage parsed. */
static int parsed(struct ns_stage *st)
{
	st->args = xcalloc(1, sizeof(int));
	return 0;
}

static int parse_assign(struct ns_stage *st, struct ns_parse_err *e)
{
	for (size_t i = 1; i < st->argc; i++)
		if (!ns_var_assignment(st->argv[i]))
			return ns_parse_fail(e, i, "a variable set for one command ('%s %s') is not supported: set it on a line of its own",
					     st->argv[0], st->argv[i]);
	return parsed(st);
}

static int parse_export(struct ns_stage *st, struct ns_parse_err *e)
{
	size_t n;

	for (size_t i = 1; i < st->argc; i++) {
		if (st->argv[i][0] == '-')
			return ns_parse_fail(e, i, "export: option '%s' is not supported", st->argv[i]);
		if (!ns_var_name_len(st->argv[i], &n) || (st->argv[i][n] && st->argv[i][n] != '='))
			return ns_parse_fail(e, i, "export: '%s' is not a valid identifier", st->argv[i]);
	}
	if (st->argc < 2)
		return ns_parse_fail(e, 0, "export: give NAME or NAME=VALUE (listing the exported variables is not supported)");
	return parsed(st);
}

static int parse_unset(struct ns_stage *st, struct ns_parse_err *e)
{
	size_t n;

	for (size_t i = 1; i < st->argc; i++) {
		if (st->argv[i][0] == '-')
			return ns_parse_fail(e, i, "unset: option '%s' is not supported", st->argv[i]);
		if (!ns_var_name_len(st->argv[i], &n) || st->argv[i][n])
			return ns_parse_fail(e, i, "unset: '%s': not a valid identifier", st->argv[i]);
	}
	return parsed(st);
}

static void free_marker(void *args)
{
	free(args);
}

const struct ns_cmd_def ns_cmd_assign = {
	.name = "NAME=VALUE", .id = NS_CMD_VARIABLE, .parse = parse_assign,
	.free_args = free_marker, .builtin = true, .text_words = true,
};

const struct ns_cmd_def ns_cmd_vars[] = {
	{ .name = "export", .id = NS_CMD_VARIABLE, .parse = parse_export,
	  .free_args = free_marker, .builtin = true, .text_words = true },
	{ .name = "unset", .id = NS_CMD_VARIABLE, .parse = parse_unset,
	  .free_args = free_marker, .builtin = true },
};
const size_t ns_cmd_vars_count = NS_ARRAY_SIZE(ns_cmd_vars);

bool ns_shell_pid(const char *s, size_t len)
{
	unsigned long v = 0;

	if (len < 7 || len > 8 || s[0] == '0')
		return false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (unsigned long)(s[i] - '0');
	}
	return v >= NS_SHELL_PID_BASE && v < NS_SHELL_PID_BASE + NS_SHELL_PID_COUNT;
}
