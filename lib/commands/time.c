/* time.c - `sleep SECONDS`, parsing side: a wait, so that scenarios (and
 * the tests of nstest's watchdog) can hold a terminal busy. */
#include "commands/command.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "commands/args.h"

static void free_args(void *a)
{
	free(a);
}

static int parse_sleep(struct ns_stage *st, struct ns_parse_err *e)
{
	struct ns_sleep_args *a = xcalloc(1, sizeof(*a));
	char *end;
	double s;

	st->args = a;
	if (st->argc != 2)
		return ns_parse_fail(e, 0, "sleep: expected one number of seconds");
	errno = 0;
	s = strtod(st->argv[1], &end);
	if (errno || *end || end == st->argv[1] || !(s >= 0 && s <= 86400))
		return ns_parse_fail(e, 1, "sleep: '%s' is not a number of seconds from 0 to 86400", st->argv[1]);
	a->ts.tv_sec = (time_t)s;
	a->ts.tv_nsec = (long)((s - (double)a->ts.tv_sec) * 1e9);
	return 0;
}

const struct ns_cmd_def ns_cmd_time[] = {
	{ .name = "sleep", .id = NS_CMD_SLEEP, .parse = parse_sleep, .free_args = free_args },
};
const size_t ns_cmd_time_count = NS_ARRAY_SIZE(ns_cmd_time);
