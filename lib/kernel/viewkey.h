/* viewkey.h - the kernel backend's name for where a terminal looks at
 * mounts from (struct ns_view's key, match/view.h). */
#ifndef NS_KERNEL_VIEWKEY_H
#define NS_KERNEL_VIEWKEY_H

#include "match/view.h"

/* Fill v->key for the calling process: the inode of its mount namespace
 * (self/ns/mnt under procfd, a procfs kept from the host), and the mount
 * ID and inode of its root. Two terminals get the same key when they see
 * the same mounts: one namespace, one root. Left all zero (unknown) when
 * any of it cannot be read. */
void ns_kernel_view_key(int procfd, struct ns_view *v);

/* Fill a with the numbers of the calling process's mount table, as
 * its mountinfo shows them (not known when it cannot be read). */
void ns_kernel_alive(int procfd, struct ns_alive *a);

#endif
