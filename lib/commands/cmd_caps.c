/* cmd_caps.c - `capsh --drop=CAP[,CAP...] --`: a shell without some
 * capabilities, made with libcap. The capabilities leave the bounding set
 * and the effective, permitted and inheritable sets, as they would for a
 * shell that capsh(1) started; `exit` returns to the shell that had them. */
#include "scenario/command.h"

#include <errno.h>
#include <string.h>
#include <sys/capability.h>

#include "kernel/terminal.h"

#define MAX_DROP 64

struct capsh_args {
	cap_value_t drop[MAX_DROP];
	size_t n;
};

static void free_args(void *a)
{
	free(a);
}

static int parse_list(const char *list, struct capsh_args *a, struct ns_parse_err *e,
		      size_t word)
{
	char *copy = xstrdup(list), *save = NULL;
	int r = 0;

	for (char *name = strtok_r(copy, ",", &save); name && !r; name = strtok_r(NULL, ",", &save)) {
		cap_value_t v;
		if (cap_from_name(name, &v) < 0)
			r = ns_parse_fail(e, word, "capsh: unknown capability '%s'", name);
		else if (a->n == MAX_DROP)
			r = ns_parse_fail(e, word, "capsh: too many capabilities");
		else
			a->drop[a->n++] = v;
	}
	free(copy);
	return r;
}

static int parse_capsh(struct ns_stage *st, struct ns_parse_err *e)
{
	struct capsh_args *a = xcalloc(1, sizeof(*a));
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

static int drop_caps(const struct capsh_args *a, struct ns_cmd_result *res)
{
	cap_t caps;
	int r = 0;

	for (size_t i = 0; i < a->n; i++)
		if (cap_drop_bound(a->drop[i]) < 0)
			return ns_cmd_fail(res, "prctl(PR_CAPBSET_DROP)", errno);
	caps = cap_get_proc();
	if (!caps)
		return ns_cmd_fail(res, "capget", errno);
	if (cap_set_flag(caps, CAP_EFFECTIVE, (int)a->n, a->drop, CAP_CLEAR) < 0 ||
	    cap_set_flag(caps, CAP_PERMITTED, (int)a->n, a->drop, CAP_CLEAR) < 0 ||
	    cap_set_flag(caps, CAP_INHERITABLE, (int)a->n, a->drop, CAP_CLEAR) < 0 ||
	    cap_set_proc(caps) < 0)
		r = ns_cmd_fail(res, "capset", errno);
	cap_free(caps);
	return r;
}

/* Dropped capabilities stay dropped for the process. */
static bool capsh_one_way(const void *args)
{
	(void)args;
	return true;
}

static int exec_capsh(struct ns_term *t, const struct ns_stage *st,
		      const struct ns_buf *in, struct ns_buf *out,
		      struct ns_cmd_result *res)
{
	int r;

	(void)in, (void)out;
	r = ns_term_enter_shell(t, res);
	if (r <= 0)
		return r;
	/* the inner shell; on failure it reports and ends */
	t->closing = drop_caps(st->args, res) < 0;
	return t->closing ? -1 : 0;
}

const struct ns_cmd_def ns_cmd_caps[] = {
	{ .name = "capsh", .parse = parse_capsh, .exec = exec_capsh, .free_args = free_args,
	  .one_way = capsh_one_way },
};
const size_t ns_cmd_caps_count = NS_ARRAY_SIZE(ns_cmd_caps);
