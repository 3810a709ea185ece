/* exec.c - the kernel backend's executor table (exec.h) */
#include "kernel/exec.h"

ns_kernel_exec_fn *const ns_kernel_exec[NS_CMD__COUNT] = {
	[NS_CMD_MKDIR] = ns_kexec_mkdir,
	[NS_CMD_TOUCH] = ns_kexec_touch,
	[NS_CMD_LS] = ns_kexec_ls,
	[NS_CMD_CD] = ns_kexec_cd,
	[NS_CMD_CAT] = ns_kexec_cat,
	[NS_CMD_CHROOT] = ns_kexec_chroot,
	[NS_CMD_MOUNT] = ns_kexec_mount,
	[NS_CMD_UMOUNT] = ns_kexec_umount,
	[NS_CMD_UNSHARE] = ns_kexec_unshare,
	[NS_CMD_EXIT] = ns_kexec_exit,
	[NS_CMD_SLEEP] = ns_kexec_sleep,
	[NS_CMD_CAPSH] = ns_kexec_capsh,
	[NS_CMD_OPEN_TREE] = ns_kexec_open_tree,
	[NS_CMD_MOVE_MOUNT] = ns_kexec_move_mount,
	[NS_CMD_MOUNT_SETATTR] = ns_kexec_mount_setattr,
	[NS_CMD_LISTMOUNT] = ns_kexec_listmount,
	[NS_CMD_FINDMNT] = ns_kexec_findmnt,
	[NS_CMD_NSENTER] = ns_kexec_nsenter,
	[NS_CMD_CLOSE] = ns_kexec_close,
	[NS_CMD_RMDIR] = ns_kexec_rmdir, [NS_CMD_MV] = ns_kexec_mv, [NS_CMD_LN] = ns_kexec_ln,
	[NS_CMD_PWD] = ns_kexec_pwd, [NS_CMD_ECHO] = ns_kexec_echo, [NS_CMD_STAT] = ns_kexec_stat,
	[NS_CMD_MOUNTPOINT] = ns_kexec_mountpoint, [NS_CMD_DIFF] = ns_kexec_diff,
	[NS_CMD_READLINK] = ns_kexec_readlink, [NS_CMD_REALPATH] = ns_kexec_realpath,
};
