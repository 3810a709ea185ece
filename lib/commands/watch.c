/* watch.c - `watch`: the mount notifications of a mount namespace
 * (fanotify(7) with FAN_REPORT_MNT and FAN_MARK_MNTNS, Linux 6.15).
 * `watch start` begins to watch the shell's namespace, each `watch`
 * prints what was queued since, one event a line, `watch stop` ends it.
 * Its parser, and how the judge reads its lines. */
#include "commands/command.h"

#include "commands/args.h"

#include <string.h>

static int parse_watch(struct ns_stage *st, struct ns_parse_err *e)
{
	struct ns_watch_args *a = xcalloc(1, sizeof(*a));

	st->args = a;
	if (st->argc > 2)
		return ns_parse_fail(e, 2, "watch: extra operand '%s'", st->argv[2]);
	if (st->argc == 1)
		a->op = NS_WATCH_READ;
	else if (!strcmp(st->argv[1], "start"))
		a->op = NS_WATCH_START;
	else if (!strcmp(st->argv[1], "stop"))
		a->op = NS_WATCH_STOP;
	else
		return ns_parse_fail(e, 1, "watch: unknown operand '%s' (watch start, watch, watch stop)",
				     st->argv[1]);
	return 0;
}

static void free_watch(void *p)
{
	free(p);
}

/* "attach 1234", "detach 1234", "attach,detach 1234": the unique mount
 * ID renamed one to one, as statmount's unique_id. */
static bool watch_shape(const void *args, struct ns_match_shape *out)
{
	const struct ns_watch_args *a = args;

	memset(out, 0, sizeof(*out));
	out->form = NS_MATCH_FIELDS;
	out->ncols = 3;
	out->cols[0] = NS_MATCH_COL_TEXT;
	out->cols[1] = NS_MATCH_COL_TEXT;
	out->lit[1] = " ";
	out->litlen[1] = 1;
	out->cols[2] = NS_MATCH_COL_UNIQUE;
	return a->op == NS_WATCH_READ;
}

const struct ns_cmd_def ns_cmd_watch[] = {
	{ .name = "watch", .id = NS_CMD_WATCH, .parse = parse_watch, .free_args = free_watch,
	  .builtin = true, .shape = watch_shape },
};
const size_t ns_cmd_watch_count = NS_ARRAY_SIZE(ns_cmd_watch);
