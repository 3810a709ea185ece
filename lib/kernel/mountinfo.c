/* mountinfo.c - see mountinfo.h */
#include "kernel/mountinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

/* The largest mountinfo we accept; a scenario has a few dozen mounts. */
#define MOUNTINFO_MAX (64u << 20)

int ns_mountinfo_text(int procfd, char **text, size_t *len)
{
	_cleanup_close_ int fd = -1;

	*text = NULL;
	*len = 0;
	fd = openat(procfd, "self/mountinfo", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	return ns_read_fd(fd, MOUNTINFO_MAX, text, len);
}

int ns_snapshot_read(int procfd, struct ns_snapshot **out)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	int rc;

	*out = NULL;
	/* One read of the whole file into memory: the /dev/root check of the
	 * parse needs the text as well as libmount. */
	rc = ns_mountinfo_text(procfd, &text, &len);
	if (rc < 0)
		return rc;
	return ns_snapshot_parse(text, len, out);
}
