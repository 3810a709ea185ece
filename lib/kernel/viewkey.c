/* viewkey.c - see viewkey.h */
#include "kernel/viewkey.h"

#include <fcntl.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "kernel/mountinfo.h"

void ns_kernel_view_key(int procfd, struct ns_view *v)
{
	struct stat ns;
	struct statx root;

	memset(v->key, 0, sizeof(v->key));
	if (fstatat(procfd, "self/ns/mnt", &ns, 0) < 0)
		return;
	if (statx(AT_FDCWD, "/", 0, STATX_INO | STATX_MNT_ID, &root) < 0)
		return;
	v->key[0] = ns.st_ino;
	/* before Linux 5.8 no mount ID: the root's device stands in for it */
	v->key[1] = root.stx_mask & STATX_MNT_ID ? root.stx_mnt_id
						  : (uint64_t)root.stx_dev_major << 32 | root.stx_dev_minor;
	v->key[2] = root.stx_ino;
}

void ns_kernel_alive(int procfd, struct ns_alive *a)
{
	char *text;
	size_t len;

	ns_alive_free(a);
	if (ns_mountinfo_text(procfd, &text, &len) < 0)
		return; /* not known */
	ns_alive_from_mountinfo(text, len, a);
	free(text);
}
