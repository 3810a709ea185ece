/* ns.c - entering and leaving shells in new namespaces, parsing side:
 * `unshare [-m] [-U [-r]] [--propagation MODE] [sh]` and `exit`. */
#include "scenario/command.h"

#include <string.h>
#include <sys/mount.h>

#include "base/suggest.h"
#include "commands/args.h"

static const char *const prop_names[] = {
	[NS_UNSHARE_PRIVATE] = "private",
	[NS_UNSHARE_SHARED] = "shared",
	[NS_UNSHARE_SLAVE] = "slave",
	[NS_UNSHARE_UNCHANGED] = "unchanged",
};

unsigned long ns_unshare_propagation(enum ns_unshare_prop p)
{
	static const unsigned long flags[] = {
		[NS_UNSHARE_PRIVATE] = MS_REC | MS_PRIVATE,
		[NS_UNSHARE_SHARED] = MS_REC | MS_SHARED,
		[NS_UNSHARE_SLAVE] = MS_REC | MS_SLAVE,
		[NS_UNSHARE_UNCHANGED] = 0,
	};

	return flags[p];
}

static void free_args(void *a)
{
	free(a);
}

static int set_prop(struct ns_unshare_args *a, const char *v, struct ns_parse_err *e,
		    size_t word)
{
	for (size_t i = 0; i < NS_ARRAY_SIZE(prop_names); i++) {
		if (!strcmp(v, prop_names[i])) {
			a->prop = (enum ns_unshare_prop)i;
			return 0;
		}
	}
	return ns_parse_fail(e, word, "unshare: unsupported propagation '%s' (private, shared, slave or unchanged)", v);
}

/* A long option unshare does not know; "--propagaton=shared" is compared
 * without its value. */
static int unsupported_long(struct ns_parse_err *e, size_t word, const char *w)
{
	static const char *const long_options[] = {
		"--mount", "--user", "--map-root-user", "--propagation",
	};
	char *name = xstrndup(w, strcspn(w, "="));
	const char *near = ns_closest(name, long_options, NS_ARRAY_SIZE(long_options));
	int r;

	if (near)
		r = ns_parse_fail(e, word, "unshare: unsupported option %s (did you mean %s?)", w, near);
	else
		r = ns_parse_fail(e, word, "unshare: unsupported option %s (-m, -U, -r and --propagation)", w);
	free(name);
	return r;
}

/* One option word: long options, or bundled short ones such as -Urm. */
static int unshare_option(struct ns_stage *st, size_t *i, struct ns_unshare_args *a,
			  struct ns_parse_err *e)
{
	const char *w = st->argv[*i];

	if (!strcmp(w, "--mount"))
		a->mnt = true;
	else if (!strcmp(w, "--user"))
		a->user = true;
	else if (!strcmp(w, "--map-root-user"))
		a->user = a->map_root = true;
	else if (!strncmp(w, "--propagation=", 14))
		return set_prop(a, w + 14, e, *i);
	else if (!strcmp(w, "--propagation")) {
		if (*i + 1 >= st->argc)
			return ns_parse_fail(e, *i, "unshare: --propagation needs a value");
		++*i;
		return set_prop(a, st->argv[*i], e, *i);
	} else if (w[1] != '-') {
		for (const char *f = w + 1; *f; f++) {
			if (*f == 'm')
				a->mnt = true;
			else if (*f == 'U')
				a->user = true;
			else if (*f == 'r')
				a->user = a->map_root = true;
			else
				return ns_parse_fail(e, *i, "unshare: unsupported option -%c (-m, -U, -r and --propagation)", *f);
		}
	} else {
		return unsupported_long(e, *i, w);
	}
	return 0;
}

static int parse_unshare(struct ns_stage *st, struct ns_parse_err *e)
{
	/* unshare(1) makes the new namespace's mounts private unless told */
	struct ns_unshare_args *a = xcalloc(1, sizeof(*a));
	size_t i = 1;

	st->args = a;
	for (; i < st->argc && st->argv[i][0] == '-'; i++)
		if (unshare_option(st, &i, a, e) < 0)
			return -1;
	if (!a->mnt && !a->user)
		return ns_parse_fail(e, 0, "unshare: give -m (a mount namespace), -U (a user namespace) or both");
	if (i < st->argc && strcmp(st->argv[i], "sh") && strcmp(st->argv[i], "bash"))
		return ns_parse_fail(e, i, "unshare: can only start a shell (sh), not '%s'", st->argv[i]);
	if (i + 1 < st->argc)
		return ns_parse_fail(e, i + 1, "unshare: a shell takes no arguments here");
	a->propagation = ns_unshare_propagation(a->prop);
	return 0;
}

/* A process cannot go back to the user namespace it came from. */
static bool unshare_one_way(const void *args)
{
	const struct ns_unshare_args *a = args;

	return a->user;
}

static int parse_exit(struct ns_stage *st, struct ns_parse_err *e)
{
	if (st->argc > 1)
		return ns_parse_fail(e, 1, "exit: an exit status is not supported");
	return 0;
}

const struct ns_cmd_def ns_cmd_ns[] = {
	{ .name = "unshare", .id = NS_CMD_UNSHARE, .parse = parse_unshare,
	  .free_args = free_args, .one_way = unshare_one_way },
	{ .name = "exit", .id = NS_CMD_EXIT, .parse = parse_exit },
};
const size_t ns_cmd_ns_count = NS_ARRAY_SIZE(ns_cmd_ns);
