/* caps.c - `capsh --drop=CAP[,CAP...] --`, parsing side: a shell without
 * some capabilities. Names are looked up with libcap's cap_from_name. */
#include "commands/command.h"

#include <string.h>
#include <sys/capability.h>

#include "commands/args.h"

static void free_args(void *a)
{
	free(a);
}

static int parse_list(const char *list, struct ns_capsh_args *a, struct ns_parse_err *e,
		      size_t word)
{
	char *copy = xstrdup(list), *save = NULL;
	int r = 0;

	for (char *name = strtok_r(copy, ",", &save); name && !r; name = strtok_r(NULL, ",", &save)) {
		cap_value_t v;
		if (cap_from_name(name, &v) < 0)
			r = ns_parse_fail(e, word, "capsh: unknown capability '%s'", name);
		else if (a->n == NS_CAPSH_MAX_DROP)
			r = ns_parse_fail(e, word, "capsh: too many capabilities");
		else
			a->drop[a->n++] = v;
	}
	free(copy);
	return r;
}

static int parse_capsh(struct ns_stage *st, struct ns_parse_err *e)
{
	struct ns_capsh_args *a = xcalloc(1, sizeof(*a));
	bool shell = false;

	st->args = a;
	for (size_t i = 1; i < st->argc; i++) {
		if (!strncmp(st->argv[i], "--drop=", 7)) {
			if (parse_list(st->argv[i] + 7, a, e, i) < 0)
				return -1;
		} else if (!strcmp(st->argv[i], "--") && i + 1 == st->argc) {
			shell = true;
		} else {
			return ns_parse_fail(e, i, "capsh: only 'capsh --drop=CAP[,CAP...] --' is supported");
		}
	}
	if (!a->n || !shell)
		return ns_parse_fail(e, 0, "capsh: only 'capsh --drop=CAP[,CAP...] --' is supported");
	return 0;
}

/* Dropped capabilities stay dropped for the process. */
static bool capsh_one_way(const void *args)
{
	(void)args;
	return true;
}

const struct ns_cmd_def ns_cmd_caps[] = {
	{ .name = "capsh", .id = NS_CMD_CAPSH, .parse = parse_capsh, .free_args = free_args,
	  .one_way = capsh_one_way, .shell = NS_SHELL_STARTS },
};
const size_t ns_cmd_caps_count = NS_ARRAY_SIZE(ns_cmd_caps);
