/* errname.c - symbolic errno names for error lines and reports */
#include "base/util.h"

#include <string.h>

const char *ns_errname(int err)
{
	static __thread char unknown[24];
	const char *n = strerrorname_np(err);

	if (n)
		return n;
	snprintf(unknown, sizeof(unknown), "E%d", err);
	return unknown;
}
