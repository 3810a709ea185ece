/* statmount.h - what both backends share of `statmount`: the values
 * statmount(2) gives for one mount, and the one line they are printed as,
 * the fields in the order -o asked for them. A backend only finds the
 * values. */
#ifndef NS_STATMOUNT_H
#define NS_STATMOUNT_H

#include "base/util.h"
#include "commands/args.h"

struct ns_statmount_vals {
	unsigned long long id, parent;      /* the old 32-bit IDs, mountinfo's */
	unsigned major, minor;
	const char *root, *point, *fstype;
	unsigned long long attr;            /* MOUNT_ATTR_* */
	unsigned long long propagation;     /* MS_SHARED, MS_SLAVE, MS_PRIVATE,
					     * MS_UNBINDABLE */
	unsigned long long peer_group, master, propagate_from; /* 0: none */
	unsigned long long ns_id;
	unsigned long long unique_id;       /* never given out twice */
};

/* Append the fields a asks for, separated by one blank, and a newline.
 * Paths escape blanks, tabs, newlines and backslashes as mountinfo does
 * (\040), so a field never holds a blank; a group that is not there is
 * "-". */
void ns_statmount_format(const struct ns_statmount_args *a,
			 const struct ns_statmount_vals *v, struct ns_buf *out);

#endif
