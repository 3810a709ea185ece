/* privilege.c - say precisely what is missing before anything runs */
#include "harness.h"

#include <sys/capability.h>

/* Capabilities the kernel backend uses: new namespaces, mounts and
 * pivot_root (SYS_ADMIN), chroot into the stand-in node tree and back
 * (SYS_CHROOT), device nodes for loop stand-ins (MKNOD). */
static const struct {
	cap_value_t cap;
	const char *name;
} needed[] = {
	{ CAP_SYS_ADMIN, "CAP_SYS_ADMIN" },
	{ CAP_SYS_CHROOT, "CAP_SYS_CHROOT" },
	{ CAP_MKNOD, "CAP_MKNOD" },
};

char *privilege_problem(void)
{
	cap_t caps = cap_get_proc();
	struct ns_buf missing = NS_BUF_INIT;

	if (!caps)
		return xstrdup("cannot read this process's capabilities");
	for (size_t i = 0; i < NS_ARRAY_SIZE(needed); i++) {
		cap_flag_value_t v = CAP_CLEAR;
		if (cap_get_flag(caps, needed[i].cap, CAP_EFFECTIVE, &v) < 0 || v != CAP_SET)
			ns_buf_addf(&missing, "%s%s", missing.len ? ", " : "", needed[i].name);
	}
	cap_free(caps);
	if (!missing.len)
		return NULL;
	{
		char *msg = xasprintf("missing %s: nstest creates mount namespaces and mounts; run it as root (sudo nstest ...)",
				      ns_buf_str(&missing));
		ns_buf_free(&missing);
		return msg;
	}
}
