/* mountcheck.h - compare what mountinfo says about each mount with what
 * statmount(2) says, field by field (used by `listmount --check`). */
#ifndef NS_MOUNTCHECK_H
#define NS_MOUNTCHECK_H

#include <stddef.h>

#include "base/util.h"

/* statmount's answer for one mount, reduced to what mountinfo shows. */
struct ns_sm_view {
	unsigned long long id_old, parent_old;
	unsigned long long major, minor;
	unsigned long long peer_group;     /* 0 unless shared */
	unsigned long long master;         /* 0 unless a slave */
	unsigned long long propagate_from; /* as statmount gives it */
	const char *root, *mount_point;
};

/* Append one line per disagreement to out: a field that differs, a
 * mount mountinfo lists and listmount does not, one listmount lists and
 * mountinfo does not, or a mountinfo record given twice. */
void ns_mountcheck(const char *mountinfo, const struct ns_sm_view *v, size_t n,
		   struct ns_buf *out);

#endif
