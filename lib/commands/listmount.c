/* listmount.c - `listmount --check`, parsing side: it takes no arguments
 * but the one that names what it does. */
#include "commands/command.h"

#include <string.h>

static int parse_listmount(struct ns_stage *st, struct ns_parse_err *e)
{
	if (st->argc != 2 || strcmp(st->argv[1], "--check"))
		return ns_parse_fail(e, 0, "listmount: only 'listmount --check' is supported");
	return 0;
}

const struct ns_cmd_def ns_cmd_listmount[] = {
	{ .name = "listmount", .id = NS_CMD_LISTMOUNT, .parse = parse_listmount },
};
const size_t ns_cmd_listmount_count = NS_ARRAY_SIZE(ns_cmd_listmount);
