/* mountpoint.c - see mountpoint.h. */
#include "mounts/mountpoint.h"

#include <string.h>

int ns_mountpoint_answer(const struct ns_mountpoint_args *a, const struct ns_mount_entry *v,
			 size_t n, const char *canon, struct ns_buf *out)
{
	const struct ns_mount_entry *hit = NULL;

	for (size_t i = n; i-- > 0 && !hit;)
		if (!strcmp(v[i].target, canon))
			hit = &v[i];
	if (!hit) {
		if (!a->quiet)
			ns_buf_addf(out, "%s is not a mountpoint\n", a->path);
		return NS_MOUNTPOINT_NOT;
	}
	/* -d prints the device even with -q, as util-linux does */
	if (a->devno)
		ns_buf_addf(out, "%u:%u\n", hit->major, hit->minor);
	else if (!a->quiet)
		ns_buf_addf(out, "%s is a mountpoint\n", a->path);
	return 0;
}
