/* cmd_ns.c - entering and leaving shells in new mount namespaces:
 * `unshare -m [--propagation MODE] [sh]` and `exit`. */
#include "command.h"

#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/mount.h>

#include "terminal.h"

enum prop_mode { PROP_PRIVATE, PROP_SHARED, PROP_SLAVE, PROP_UNCHANGED };

struct unshare_args {
	enum prop_mode prop;
};

static const char *const prop_names[] = {
	[PROP_PRIVATE] = "private",
	[PROP_SHARED] = "shared",
	[PROP_SLAVE] = "slave",
	[PROP_UNCHANGED] = "unchanged",
};

static void free_args(void *a)
{
	free(a);
}

static int set_prop(struct unshare_args *a, const char *v, struct ns_parse_err *e,
		    size_t word)
{
	for (size_t i = 0; i < NS_ARRAY_SIZE(prop_names); i++) {
		if (!strcmp(v, prop_names[i])) {
			a->prop = (enum prop_mode)i;
			return 0;
		}
	}
	return ns_parse_fail(e, word, "unshare: unsupported propagation '%s' (private, shared, slave or unchanged)", v);
}

static int parse_unshare(struct ns_stage *st, struct ns_parse_err *e)
{
	/* unshare(1) makes the new namespace's mounts private unless told */
	struct unshare_args *a = xcalloc(1, sizeof(*a));
	bool mnt = false;
	size_t i = 1;

	st->args = a;
	for (; i < st->argc && st->argv[i][0] == '-'; i++) {
		const char *w = st->argv[i];
		if (!strcmp(w, "-m") || !strcmp(w, "--mount"))
			mnt = true;
		else if (!strcmp(w, "--propagation") && i + 1 < st->argc) {
			if (set_prop(a, st->argv[i + 1], e, i + 1) < 0)
				return -1;
			i++;
		} else if (!strncmp(w, "--propagation=", 14)) {
			if (set_prop(a, w + 14, e, i) < 0)
				return -1;
		} else if (!strcmp(w, "--propagation"))
			return ns_parse_fail(e, i, "unshare: --propagation needs a value");
		else
			return ns_parse_fail(e, i, "unshare: unsupported option %s (only -m and --propagation)", w);
	}
	if (!mnt)
		return ns_parse_fail(e, 0, "unshare: only mount namespaces are supported: give -m");
	if (i < st->argc && strcmp(st->argv[i], "sh") && strcmp(st->argv[i], "bash"))
		return ns_parse_fail(e, i, "unshare: can only start a shell (sh), not '%s'", st->argv[i]);
	if (i + 1 < st->argc)
		return ns_parse_fail(e, i + 1, "unshare: a shell takes no arguments here");
	return 0;
}

static int exec_unshare(struct ns_term *t, const struct ns_stage *st,
			const struct ns_buf *in, struct ns_buf *out,
			struct ns_cmd_result *res)
{
	static const unsigned long flags[] = {
		[PROP_PRIVATE] = MS_REC | MS_PRIVATE,
		[PROP_SHARED] = MS_REC | MS_SHARED,
		[PROP_SLAVE] = MS_REC | MS_SLAVE,
		[PROP_UNCHANGED] = 0,
	};
	const struct unshare_args *a = st->args;
	int r;

	(void)in, (void)out;
	r = ns_term_enter_shell(t, res);
	if (r <= 0)
		return r;
	/* the inner shell: if anything fails it reports and ends, and the
	 * outer shell carries on as unshare(1) would never have started it */
	if (unshare(CLONE_NEWNS) < 0) {
		t->closing = true;
		return ns_cmd_fail(res, "unshare", errno);
	}
	if (flags[a->prop] && mount("none", "/", NULL, flags[a->prop], NULL) < 0) {
		t->closing = true;
		return ns_cmd_fail(res, "mount", errno);
	}
	return 0;
}

static int parse_exit(struct ns_stage *st, struct ns_parse_err *e)
{
	if (st->argc > 1)
		return ns_parse_fail(e, 1, "exit: an exit status is not supported");
	return 0;
}

static int exec_exit(struct ns_term *t, const struct ns_stage *st,
		     const struct ns_buf *in, struct ns_buf *out,
		     struct ns_cmd_result *res)
{
	(void)st, (void)in, (void)out;
	(void)res;
	/* An inner shell ends and its outer one carries on; the terminal's
	 * first shell ending closes the terminal, and its next command
	 * starts a new one in the scenario's first namespace. */
	t->closing = true;
	return 0;
}

const struct ns_cmd_def ns_cmd_ns[] = {
	{ .name = "unshare", .parse = parse_unshare, .exec = exec_unshare, .free_args = free_args },
	{ .name = "exit", .parse = parse_exit, .exec = exec_exit },
};
const size_t ns_cmd_ns_count = NS_ARRAY_SIZE(ns_cmd_ns);
