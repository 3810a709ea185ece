/* host.h - the kernel backend's answers about this machine; see the host
 * part of struct ns_backend (run/backend.h) for what each means. */
#ifndef NS_HOST_H
#define NS_HOST_H

#include <stdbool.h>

#include "run/backend.h"

const char *ns_host_release(void);
char *ns_host_privilege_problem(void);
int ns_host_userns_allowed(void);
bool ns_host_loop_devices(void);
bool ns_host_tmpfs_remounts(void);
/* Does a fresh tmpfs show inode64 or inode32 (a kernel built with
 * CONFIG_TMPFS_INODE64)? Probed once, in a child's private namespace;
 * false when it cannot be asked. */
bool ns_host_tmpfs_inode64(void);
int ns_host_has_feature(unsigned bit);

#endif
