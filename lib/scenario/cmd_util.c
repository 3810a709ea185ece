/* cmd_util.c - small helpers shared by the command modules */
#include "scenario/command.h"

#include <stdarg.h>

int ns_parse_fail(struct ns_parse_err *e, size_t word, const char *fmt, ...)
{
	struct ns_buf b = NS_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	ns_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	free(e->msg);
	e->msg = ns_buf_detach(&b);
	e->word = word;
	return -1;
}

int ns_cmd_fail(struct ns_cmd_result *res, const char *syscall, int err)
{
	res->err = err;
	res->syscall = syscall;
	return -1;
}
