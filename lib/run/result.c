/* result.c - see result.h */
#include "run/result.h"

#include <stdlib.h>
#include <string.h>

int ns_cmd_fail(struct ns_cmd_result *res, const char *syscall, int err)
{
	res->err = err;
	res->syscall = syscall;
	return -1;
}

void ns_run_free(struct ns_run *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->obs[i].out.output);
	free(r->obs);
	free(r->aborted);
	memset(r, 0, sizeof(*r));
}
