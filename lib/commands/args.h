/* args.h - what each command's parser makes of its words: the arguments
 * every backend carries out, with nothing left to parse. A stage's args
 * (scenario.h) point to the struct named here for its command id
 * (scenario/command.h). Strings point into the stage's argv, which lives
 * as long as the scenario.
 *
 * Flags use the kernel's ABI values (MS_*, MOUNT_ATTR_*), which name the
 * documented operations exactly; a backend other than the kernel reads
 * them as plain numbers. */
#ifndef NS_ARGS_H
#define NS_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

/* mkdir [-p] DIR..., touch FILE..., ls [-a] [-1] [DIR], cd [DIR],
 * cat FILE..., chroot DIR [sh]: options, then the operands. */
struct ns_fs_args {
	bool parents;               /* mkdir -p */
	bool all;                   /* ls -a */
	bool one;                   /* ls -1 */
	char *const *ops;           /* the operands */
	size_t nops;
};

/* What cat reads: the mount table as mountinfo or as /proc/mounts (each
 * backend renders it from its own table), or a file. */
enum { NS_CAT_FILE, NS_CAT_MOUNTINFO, NS_CAT_PROC_MOUNTS };
int ns_cat_mounts_file(const char *path);

/* mount(8) in util-linux syntax. */
enum ns_mount_op {
	NS_MOUNT_LIST,              /* `mount`: print the table */
	NS_MOUNT_NEW,               /* mount a device or a filesystem by type */
	NS_MOUNT_BIND,              /* --bind, --rbind */
	NS_MOUNT_MOVE,              /* --move */
	NS_MOUNT_PROPAGATION,       /* --make-* TARGET alone */
	NS_MOUNT_REMOUNT,           /* -o remount[,bind] TARGET */
};

#define NS_MOUNT_MAX_PROP 4

struct ns_mount_args {
	enum ns_mount_op op;
	bool recursive;             /* --rbind (or -o rbind) */
	unsigned long prop[NS_MOUNT_MAX_PROP]; /* MS_SHARED... (| MS_REC), in order */
	size_t nprop;
	const char *type;           /* -t, or NULL */
	const char *options;        /* -o as typed, or NULL */
	unsigned long flags;        /* MS_* per-mount flags from -o */
	char *data;                 /* filesystem options from -o (heap), or NULL */
	const char *src, *dst;
	bool standin;               /* src names a stand-in device (/dev/NAME) */
	/* where -t and -o are in argv, for errors */
	size_t type_word, options_word;
	/* -o remount: flags holds MS_REMOUNT (| MS_BIND) and the flags -o
	 * sets, clear those it clears (rw, suid, ...: the last word about a
	 * flag wins). merge: as mount(8) does with one operand, the call
	 * starts from the mount's current options (ns_remount_flags) */
	unsigned long clear;
	bool merge;
	bool make_option;           /* a --make-* option word was given */
};

/* The flags of a remount's mount(2) call, as mount(8) makes them:
 * current (the MS_* flags of the target's options, its per-mount and
 * superblock ones merged, as libmount reads them) with -o's words applied
 * in order; only -o's when there is nothing to merge. */
unsigned long ns_remount_flags(const struct ns_mount_args *a, unsigned long current);

/* umount [-l] [-R] TARGET... */
struct ns_umount_args {
	bool lazy;                  /* -l: MNT_DETACH */
	bool recursive;             /* -R: the target's submounts first, deepest
				     * first, then the target (util-linux's
				     * umount_do_recurse()) */
	const char **targets;       /* heap array of argv words */
	size_t ntargets;
};

struct ns_stage;

/* unshare [-m] [-U [-r]] [--propagation MODE] [sh | CMD ARGS...] */
enum ns_unshare_prop {
	NS_UNSHARE_PRIVATE,         /* unshare(1)'s default */
	NS_UNSHARE_SHARED,
	NS_UNSHARE_SLAVE,
	NS_UNSHARE_UNCHANGED,
};

struct ns_unshare_args {
	enum ns_unshare_prop prop;
	/* what unshare(1) then does to / of the new namespace, as mount(2)
	 * flags: MS_REC | MS_PRIVATE (its default), | MS_SHARED, | MS_SLAVE,
	 * or 0 for unchanged (ns_unshare_propagation) */
	unsigned long propagation;
	bool mnt, user, map_root;
	struct ns_stage *cmd;       /* the command to run (heap), or NULL: a shell */
};

/* nsenter -t TERMINAL [-m] [-U] [-r] [-w] [sh | CMD ARGS...]: the
 * namespaces (and root, working directory) of another terminal's
 * innermost shell. */
struct ns_nsenter_args {
	const char *target;         /* a terminal's prompt name */
	bool mnt, user;             /* -m, -U */
	bool root, wd;              /* -r, -w: the target's root, directory */
	struct ns_stage *cmd;       /* the command to run (heap), or NULL: a shell */
};

/* The mount(2) flags of an unshare --propagation mode. */
unsigned long ns_unshare_propagation(enum ns_unshare_prop p);

/* capsh --drop=CAP[,CAP...] -- */
#define NS_CAPSH_MAX_DROP 64

struct ns_capsh_args {
	int drop[NS_CAPSH_MAX_DROP]; /* capability numbers (CAP_*) */
	size_t n;
};

/* sleep SECONDS */
struct ns_sleep_args {
	struct timespec ts;
};

/* open_tree [-c] [-R] PATH @NAME */
struct ns_open_tree_args {
	bool clone;                 /* OPEN_TREE_CLONE */
	bool recursive;             /* AT_RECURSIVE (with clone only) */
	const char *path;
	const char *handle;         /* "@NAME" */
};

/* move_mount [--beneath|--set-group] FROM TO; FROM and TO are paths or
 * @NAME handles. */
struct ns_move_mount_args {
	bool beneath;               /* MOVE_MOUNT_BENEATH */
	bool set_group;             /* MOVE_MOUNT_SET_GROUP */
	const char *from, *to;
};

/* mount_setattr [-R] [--propagation TYPE] [-o FLAGS] TARGET */
struct ns_mount_setattr_args {
	bool recursive;             /* AT_RECURSIVE */
	unsigned long long set, clr; /* MOUNT_ATTR_* */
	unsigned long propagation;  /* MS_SHARED, ... or 0 */
	const char *target;         /* a path or @NAME */
};

/* findmnt [-l|-r|-J] [-n] [-R] [-o LIST] [-T PATH | -M PATH | PATH]:
 * the columns findmnt(8) knows that a scenario can use, in its order. */
enum ns_findmnt_col {
	NS_FINDMNT_TARGET,
	NS_FINDMNT_SOURCE,
	NS_FINDMNT_FSTYPE,
	NS_FINDMNT_OPTIONS,
	NS_FINDMNT_VFS_OPTIONS,
	NS_FINDMNT_FS_OPTIONS,
	NS_FINDMNT_PROPAGATION,
	NS_FINDMNT_ID,
	NS_FINDMNT_PARENT,
	NS_FINDMNT_MAJMIN,
	NS_FINDMNT_FSROOT,
	NS_FINDMNT__NCOLS
};

/* Which mounts: all of them, or those a path or source selects. */
enum ns_findmnt_select {
	NS_FINDMNT_ALL,             /* no argument */
	NS_FINDMNT_SPEC,            /* a bare argument: a source, else a target */
	NS_FINDMNT_TARGET_PATH,     /* -T: a mount point, else the mount holding it */
	NS_FINDMNT_MOUNTPOINT,      /* -M: exactly a mount point */
};

#define NS_FINDMNT_MAX_COLS 64

struct ns_findmnt_args {
	bool list, raw, json, noheadings, submounts;
	enum ns_findmnt_col cols[NS_FINDMNT_MAX_COLS]; /* as -o listed them */
	size_t ncols;
	enum ns_findmnt_select select;
	const char *path;           /* for every select but ALL */
};

/* A column's name as findmnt prints it in its heading ("MAJ:MIN"). */
const char *ns_findmnt_col_name(enum ns_findmnt_col c);

/* The longest @NAME handle, '@' and NUL included. */
#define NS_HANDLE_NAME_MAX 32

/* True for "@NAME": a tree opened or cloned by open_tree. */
bool ns_is_handle(const char *s);

#endif
