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

void ns_step_out_free(struct ns_step_out *o)
{
	free(o->output);
	free(o->cwd);
	ns_alive_free(&o->alive);
	memset(o, 0, sizeof(*o));
}

void ns_run_free(struct ns_run *r)
{
	for (size_t i = 0; i < r->n; i++)
		ns_step_out_free(&r->obs[i].out);
	free(r->obs);
	free(r->aborted);
	memset(r, 0, sizeof(*r));
}
