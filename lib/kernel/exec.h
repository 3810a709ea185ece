/* exec.h - the kernel backend's executors: one per command id
 * (commands/command.h), each carrying out the parsed arguments of
 * commands/args.h with real system calls in the terminal t. */
#ifndef NS_EXEC_H
#define NS_EXEC_H

#include "base/util.h"
#include "run/result.h"
#include "commands/command.h"

struct ns_term;

/* Run the command with these arguments; output goes to out. Return 0, or
 * -1 with *res filled (ns_cmd_fail). */
typedef int ns_kernel_exec_fn(struct ns_term *t, const void *args,
			      struct ns_buf *out, struct ns_cmd_result *res);

/* Indexed by ns_cmd_id; NS_CMD_FILTER has none (filters are shared). */
extern ns_kernel_exec_fn *const ns_kernel_exec[NS_CMD__COUNT];

/* The executors, by module (exec_*.c). */
ns_kernel_exec_fn ns_kexec_mkdir, ns_kexec_touch, ns_kexec_ls, ns_kexec_cd,
	ns_kexec_cat, ns_kexec_chroot;
ns_kernel_exec_fn ns_kexec_mount, ns_kexec_umount;
ns_kernel_exec_fn ns_kexec_unshare, ns_kexec_exit, ns_kexec_variable;
ns_kernel_exec_fn ns_kexec_sleep, ns_kexec_capsh;
ns_kernel_exec_fn ns_kexec_open_tree, ns_kexec_move_mount, ns_kexec_mount_setattr, ns_kexec_close;
ns_kernel_exec_fn ns_kexec_listmount, ns_kexec_statmount, ns_kexec_findmnt, ns_kexec_watch;

/* Whether fanotify reports mount events (FAN_REPORT_MNT, Linux 6.15): 1
 * or 0, or -1 with errno when there was no descriptor or memory to ask
 * with (run/trouble.h): no answer about the kernel. */
int ns_watch_supported(void);
ns_kernel_exec_fn ns_kexec_nsenter;
ns_kernel_exec_fn ns_kexec_readlink, ns_kexec_realpath, ns_kexec_pivot_root;
ns_kernel_exec_fn ns_kexec_fsopen, ns_kexec_fsconfig, ns_kexec_fsmount, ns_kexec_fspick;
ns_kernel_exec_fn ns_kexec_rmdir, ns_kexec_mv, ns_kexec_ln, ns_kexec_pwd, ns_kexec_echo, ns_kexec_exec,
	ns_kexec_stat, ns_kexec_mountpoint, ns_kexec_diff;
ns_kernel_exec_fn ns_kexec_df;

struct ns_fs_usage;
/* statvfs(2) of path into *u (u->ok false when it fails): exec_findmnt.c,
 * for findmnt -D and df. */
void ns_kernel_usage(const char *path, struct ns_fs_usage *u);

#endif
