/* mountapi.h - the new mount API system calls, which glibc 2.36 does not
 * wrap in every build; thin syscall(2) wrappers. */
#ifndef NS_MOUNTAPI_H
#define NS_MOUNTAPI_H

#include <linux/mount.h>
#include <sys/syscall.h>
#include <unistd.h>

/* move_mount(2) flags newer than the kernel headers of Debian 12 */
#ifndef MOVE_MOUNT_SET_GROUP
#define MOVE_MOUNT_SET_GROUP 0x00000100
#endif
#ifndef MOVE_MOUNT_BENEATH
#define MOVE_MOUNT_BENEATH 0x00000200
#endif
/* open_tree(2) flag of Linux 7.0: the copy in a new mount namespace, and a
 * descriptor of that namespace */
#define NS_OPEN_TREE_NAMESPACE (1u << 1)

static inline int ns_fsopen(const char *fs, unsigned int flags)
{
	return (int)syscall(SYS_fsopen, fs, flags);
}

static inline int ns_fsconfig(int fd, unsigned int cmd, const char *key,
			      const void *value, int aux)
{
	return (int)syscall(SYS_fsconfig, fd, cmd, key, value, aux);
}

static inline int ns_fsmount(int fd, unsigned int flags, unsigned int attr)
{
	return (int)syscall(SYS_fsmount, fd, flags, attr);
}

static inline int ns_fspick(int dfd, const char *path, unsigned int flags)
{
	return (int)syscall(SYS_fspick, dfd, path, flags);
}

static inline int ns_open_tree(int dfd, const char *path, unsigned int flags)
{
	return (int)syscall(SYS_open_tree, dfd, path, flags);
}

/* open_tree_attr(2), Linux 6.15: the same number on every architecture
 * (the generic syscall table), which older headers lack. */
#define NS_SYS_open_tree_attr 467

static inline int ns_open_tree_attr(int dfd, const char *path, unsigned int flags,
				    struct mount_attr *attr, size_t size)
{
	return (int)syscall(NS_SYS_open_tree_attr, dfd, path, flags, attr, size);
}

static inline int ns_move_mount(int from_dfd, const char *from, int to_dfd,
				const char *to, unsigned int flags)
{
	return (int)syscall(SYS_move_mount, from_dfd, from, to_dfd, to, flags);
}

static inline int ns_mount_setattr(int dfd, const char *path, unsigned int flags,
				   struct mount_attr *attr, size_t size)
{
	return (int)syscall(SYS_mount_setattr, dfd, path, flags, attr, size);
}

#endif
