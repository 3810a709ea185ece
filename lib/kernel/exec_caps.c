/* exec_caps.c - `capsh --drop=... --` on the kernel: an inner shell
 * without the capabilities, made with libcap. They leave the bounding set
 * and the effective, permitted and inheritable sets, as they would for a
 * shell that capsh(1) started; `exit` returns to the shell that had them. */
#include "kernel/exec.h"

#include <errno.h>
#include <sys/capability.h>

#include "commands/args.h"
#include "kernel/terminal.h"

static int drop_caps(const struct ns_capsh_args *a, struct ns_cmd_result *res)
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

int ns_kexec_capsh(struct ns_term *t, const void *args, struct ns_buf *out,
		   struct ns_cmd_result *res)
{
	int r;

	(void)out;
	r = ns_term_enter_shell(t, res);
	if (r <= 0)
		return r;
	/* the inner shell; on failure it reports and ends */
	t->closing = drop_caps(args, res) < 0;
	return t->closing ? -1 : 0;
}
