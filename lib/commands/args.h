/* args.h - what each command's parser makes of its words: the arguments
 * every backend carries out, with nothing left to parse. A stage's args
 * (scenario.h) point to the struct named here for its command id
 * (commands/command.h). Strings point into the stage's argv, which lives
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

#include "base/util.h"

/* mkdir [-p] DIR..., touch FILE..., ls [-a] [-1] [DIR], cd [DIR],
 * cat FILE..., chroot DIR [sh], rmdir [-p] DIR..., mv [-T] SRC... DST,
 * ln -s TARGET... [LINK], pwd [-P]: options, then the operands. */
struct ns_fs_args {
	bool parents;               /* mkdir -p, rmdir -p */
	bool all;                   /* ls -a */
	bool one;                   /* ls -1 */
	bool longf;                 /* ls -l: the long listing */
	bool itself;                /* ls -d: a directory as itself */
	bool no_target;             /* mv -T: DST is replaced, never entered */
	bool canonical;             /* readlink -f: the name made canonical */
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
/* The MOUNT_ATTR_* of mount_setattr(2) for the MS_* flags of -o, as a
 * stand-in mount applies them (the kernel backend, exported programs). */
unsigned long long ns_mount_attrs(unsigned long flags);

/* umount [-l] [-R] TARGET... */
struct ns_umount_args {
	bool lazy;                  /* -l: MNT_DETACH */
	bool force;                 /* -f: MNT_FORCE */
	bool nofollow;              /* --no-follow: UMOUNT_NOFOLLOW (nstest's) */
	bool expire;                /* --expire: MNT_EXPIRE (nstest's) */
	bool recursive;             /* -R: the target's submounts first, deepest
				     * first, then the target (util-linux's
				     * umount_do_recurse()) */
	const char **targets;       /* heap array of argv words */
	size_t ntargets;
};

struct ns_stage;

/* unshare [-m] [-U] [-r|-c] [--map-user=UID] [--map-group=GID]
 * [--map-users=OUTER,INNER,COUNT] [--map-groups=OUTER,INNER,COUNT]
 * [--propagation MODE] [sh | CMD ARGS...] */
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
	bool mnt, user;
	/* util-linux 2.38's id maps, each option's last occurrence: the
	 * caller's effective uid mapped to map_uid inside (--map-user, -r:
	 * 0, -c: itself, map_uid unused), the effective gid likewise; and
	 * the ranges --map-users and --map-groups */
	bool map_user, map_user_self, map_group, map_group_self;
	unsigned map_uid, map_gid;
	bool map_users, map_groups;
	struct ns_id_range {
		unsigned outer, inner, count;
	} users, groups;
	struct ns_stage *cmd;       /* the command to run (heap), or NULL: a shell */
};

/* One line of a uid_map or gid_map: count ids from inner up inside the
 * new user namespace are the ids from outer up in its parent. */
struct ns_id_extent {
	unsigned inner, outer, count;
};

/* What unshare(1) writes into one map file of the new namespace: nothing
 * (n 0), or n lines. helper: written from the parent namespace, as
 * util-linux 2.38 has newuidmap(1) or newgidmap(1) write a range (which
 * needs CAP_SETUID or CAP_SETGID there unless it maps only the caller's
 * own id); otherwise by unshare itself once in the new namespace, its
 * one id (for gids after setgroups is denied), as its map_id() does. */
struct ns_id_map {
	struct ns_id_extent v[4];
	size_t n;
	bool helper;
};

/* The uid and gid maps of an unshare, for a caller whose effective ids
 * (as its own user namespace shows them) are euid and egid: a range and
 * the single id together leave the single id out of the range as
 * unshare(1)'s map_ids() does (a "hole"). */
void ns_unshare_id_maps(const struct ns_unshare_args *a, unsigned euid, unsigned egid,
			struct ns_id_map *uids, struct ns_id_map *gids);

/* nsenter -t TERMINAL [-m] [-U] [-r] [-w] [sh | CMD ARGS...]: the
 * namespaces (and root, working directory) of another terminal's
 * innermost shell. */
struct ns_nsenter_args {
	const char *target;         /* a terminal's prompt name, or NULL */
	const char *mount_ns;       /* --mount=@NS: a namespace handle made
				     * by open_tree --namespace, or NULL */
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

/* mount_setattr [-R] [--propagation TYPE] [-o FLAGS] [--idmap TERMINAL] TARGET */
struct ns_mount_setattr_args {
	bool recursive;             /* AT_RECURSIVE */
	unsigned long long set, clr; /* MOUNT_ATTR_* */
	unsigned long propagation;  /* MS_SHARED, ... or 0 */
	const char *target;         /* a path or @NAME */
	/* MOUNT_ATTR_IDMAP (in set) with the user namespace of this
	 * terminal's innermost shell (a prompt's name), or NULL */
	const char *idmap;
};

/* open_tree [-c] [-R] PATH @NAME, and open_tree_attr, which takes
 * mount_setattr's --propagation, -o and --idmap too */
struct ns_open_tree_args {
	bool clone;                 /* OPEN_TREE_CLONE */
	bool namespace;             /* OPEN_TREE_NAMESPACE (Linux 7.0): a new
				     * mount namespace holding the copy */
	bool recursive;             /* AT_RECURSIVE (with a clone or a
				     * namespace only) */
	const char *path;
	const char *handle;         /* "@NAME" */
	bool with_attr;             /* open_tree_attr(2) */
	struct ns_mount_setattr_args attr; /* its attributes (target unused) */
};

/* close @NAME...: the handles to drop, in order (pointers into argv). */
struct ns_close_args {
	const char *const *handles;
	size_t n;
};

/* move_mount [--beneath|--set-group] FROM TO; FROM and TO are paths or
 * @NAME handles. */
struct ns_move_mount_args {
	bool beneath;               /* MOVE_MOUNT_BENEATH */
	bool set_group;             /* MOVE_MOUNT_SET_GROUP */
	const char *from, *to;
};


/* fsopen TYPE @FC: a new filesystem context of TYPE (tmpfs or ramfs, as
 * for mount -t), kept as @FC. */
struct ns_fsopen_args {
	const char *type;
	const char *handle;
};

/* fsconfig @FC set-flag KEY | set-string KEY VALUE | create | reconfigure */
enum ns_fsconfig_cmd {
	NS_FSCONFIG_SET_FLAG,       /* FSCONFIG_SET_FLAG */
	NS_FSCONFIG_SET_STRING,     /* FSCONFIG_SET_STRING */
	NS_FSCONFIG_CREATE,         /* FSCONFIG_CMD_CREATE */
	NS_FSCONFIG_RECONFIGURE,    /* FSCONFIG_CMD_RECONFIGURE */
};

struct ns_fsconfig_args {
	const char *handle;         /* "@FC" */
	enum ns_fsconfig_cmd cmd;
	const char *key, *value;    /* or NULL */
};

/* fsmount @FC [-o FLAGS] @MNT: the created superblock mounted, detached,
 * kept as @MNT. */
struct ns_fsmount_args {
	const char *context;        /* "@FC" */
	const char *handle;         /* "@MNT" */
	unsigned long long attr;    /* MOUNT_ATTR_* */
};

/* exec N< FILE ... / exec N<&- ...: descriptors the shell opens (a file
 * or directory, read-only) or closes, in order; they stay open in the
 * shell and the shells it starts, and hold their mounts busy. */
struct ns_fd_redir {
	int fd;                     /* 3 to 99 */
	const char *file;           /* NULL: close it */
};

struct ns_exec_args {
	struct ns_fd_redir *v;
	size_t n;
};

/* watch start | watch | watch stop: the mount notifications of the
 * shell's mount namespace (fanotify(7), FAN_MARK_MNTNS). */
enum ns_watch_op {
	NS_WATCH_READ,              /* print the events queued since */
	NS_WATCH_START,
	NS_WATCH_STOP,
};

struct ns_watch_args {
	enum ns_watch_op op;
};

/* statmount [-o FIELD,...] PATH|@NAME[/PATH]: what statmount(2) says of
 * the mount a path is on (commands/statmount.h lists the fields). */
enum ns_sm_field {
	NS_SM_ID,                   /* mnt_id_old: mountinfo's first field */
	NS_SM_PARENT,               /* mnt_parent_id_old */
	NS_SM_DEV,                  /* sb_dev_major:sb_dev_minor */
	NS_SM_ROOT,                 /* mnt_root */
	NS_SM_POINT,                /* mnt_point */
	NS_SM_FSTYPE,               /* fs_type */
	NS_SM_ATTR,                 /* mnt_attr, as mountinfo's mount options */
	NS_SM_PROPAGATION,          /* mnt_propagation, as words */
	NS_SM_PEER_GROUP,           /* mnt_peer_group, or - */
	NS_SM_MASTER,               /* mnt_master, or - */
	NS_SM_PROPAGATE_FROM,       /* propagate_from, or - */
	NS_SM_NS,                   /* mnt_ns_id */
	NS_SM_UNIQUE,               /* mnt_id: the unique 64-bit ID */
	NS_SM__COUNT
};

#define NS_SM_FIELDS_MAX 32

struct ns_statmount_args {
	const char *path;
	enum ns_sm_field fields[NS_SM_FIELDS_MAX];
	size_t nfields;
};

/* fspick PATH @FC: a context to reconfigure the superblock of the mount
 * whose root PATH is. */
struct ns_fspick_args {
	const char *path;
	const char *handle;
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
	/* statvfs(2) of the target, as -D shows them (free in the judge) */
	NS_FINDMNT_SIZE,
	NS_FINDMNT_USED,
	NS_FINDMNT_AVAIL,
	NS_FINDMNT_USEPERC,
	NS_FINDMNT__NCOLS
};

/* Which mounts: all of them, or those a path or source selects. */
enum ns_findmnt_select {
	NS_FINDMNT_ALL,             /* no argument */
	NS_FINDMNT_SPEC,            /* a bare argument: a source, else a target */
	NS_FINDMNT_TARGET_PATH,     /* -T: a mount point, else the mount holding it */
	NS_FINDMNT_MOUNTPOINT,      /* -M: exactly a mount point */
	NS_FINDMNT_BY_SOURCE,       /* -S: exactly a source */
};

#define NS_FINDMNT_MAX_COLS 64

struct ns_findmnt_args {
	bool list, raw, json, noheadings, submounts;
	bool tree;                  /* --tree: a tree even with -l */
	bool real;                  /* --real: no pseudo filesystems */
	bool df;                    /* -D, --df: df's columns, a list, tmpfs and
				     * no other pseudo filesystem */
	const char *types;          /* -t LIST, libmount's pattern, or NULL */
	bool piped;                 /* its output goes into filters (the judge's
				     * business only: findmnt prints the same) */
	enum ns_findmnt_col cols[NS_FINDMNT_MAX_COLS]; /* as -o listed them */
	size_t ncols;
	enum ns_findmnt_select select;
	const char *path;           /* for every select but ALL */
};

/* Does findmnt draw a tree for a (the renderer's rule and the judge's)?
 * Unless it lists (-l, -r), or --tree asks for one with -l, when it
 * prints every mount or a selection's submounts (-R). */
bool ns_findmnt_is_tree(const struct ns_findmnt_args *a);

/* Whether a shows a column of statvfs(2) (SIZE, USED, AVAIL, USE%): the
 * backend then asks it of each mount's target. */
bool ns_findmnt_wants_usage(const struct ns_findmnt_args *a);

/* A column's name as findmnt prints it in its heading ("MAJ:MIN"). */
const char *ns_findmnt_col_name(enum ns_findmnt_col c);

/* What statvfs(2) says of a filesystem, as df and findmnt -D show it. */
struct ns_fs_usage {
	bool ok;                    /* statvfs(2) answered */
	unsigned long long frsize;  /* f_frsize: the unit of the three below */
	unsigned long long blocks, bfree, bavail;
};

/* df [-h] [-T] [FILE...] (coreutils). */
struct ns_df_args {
	bool human;                 /* -h: powers of 1024, "7.8G" */
	bool type;                  /* -T: the Type column */
	const char **files;         /* heap array of argv words */
	size_t nfiles;
};

/* One mount of the terminal's table as df reads it (commands/df.c): its
 * mountinfo fields, and what stat(2) and statvfs(2) of its mount point
 * say there (the top of what is mounted on it). */
struct ns_df_mount {
	const char *source, *target, *fstype, *root;
	unsigned long long dev;     /* mountinfo's MAJ:MIN, as a dev_t */
	bool reached;               /* stat(2) of target worked */
	unsigned long long st_dev;  /* its st_dev */
	struct ns_fs_usage use;     /* statvfs(2) of target */
};

/* A FILE operand: stat(2), realpath(3) and statvfs(2) of it. */
struct ns_df_file {
	const char *name;
	unsigned long long st_dev;
	const char *canon;          /* NULL when it does not resolve */
	struct ns_fs_usage use;
};

/* Append df's table for the mounts v[0..n) (in mountinfo order) and the
 * operands f[0..nf) (none: every filesystem), as coreutils 9.1's df
 * picks and prints them (commands/df.c). */
void ns_df_render(const struct ns_df_args *a, const struct ns_df_mount *v, size_t n,
		  const struct ns_df_file *f, size_t nf, struct ns_buf *out);

/* findmnt's SIZE, USED, AVAIL and USE% cells of u (util-linux 2.38's
 * get_vfs_attr(): sizes as size_to_human_string() writes them, "0" for
 * none, USE% "-" without blocks), on the heap; NULL when u is unknown. */
char *ns_findmnt_size_cell(enum ns_findmnt_col c, const struct ns_fs_usage *u);

/* For rmdir -p: cut path (in place) to the parent rmdir -p removes next,
 * as coreutils does ("a/b/c" to "a/b" to "a"; "/a" has none). False when
 * there is none. */
bool ns_rmdir_parent(char *path);
/* The last component of a path ("b" of "a/b/"), for mv and ln into a
 * directory; a pointer into path, up to *len bytes. */
const char *ns_path_last(const char *path, size_t *len);

/* The directory that holds path, as coreutils' dir_name() gives it ("a"
 * for "a/b", "." for "b", "/" for "/b"). Heap. */
char *ns_path_dir(const char *path);

/* echo [-n] [-E] [WORD...] [> FILE | >> FILE], as bash's builtin echo
 * (no escapes: -e is refused). */
struct ns_echo_args {
	bool newline;               /* no -n */
	char *const *words;
	size_t nwords;
	const char *file;           /* the redirection's file, or NULL */
	bool append;                /* >> */
};

/* Append what echo writes: the words joined by single spaces, and the
 * line feed unless -n. The same for both backends and both destinations. */
void ns_echo_text(const struct ns_echo_args *a, struct ns_buf *out);

/* stat [-L] -c FORMAT FILE...: the format cut into literal text and the
 * directives nstest knows (coreutils' stat(1) names them). */
enum ns_stat_dir {
	NS_STAT_TEXT,               /* literal text */
	NS_STAT_NAME,               /* %n */
	NS_STAT_INO,                /* %i */
	NS_STAT_DEV,                /* %d: st_dev in decimal */
	NS_STAT_DEV_HEX,            /* %D: st_dev in hex */
	NS_STAT_RDEV_MAJOR,         /* %t: major of st_rdev, hex */
	NS_STAT_RDEV_MINOR,         /* %T: minor of st_rdev, hex */
	NS_STAT_MOUNT,              /* %m: the mount point (find_mount_point) */
	NS_STAT_UID,                /* %u */
	NS_STAT_GID,                /* %g */
	NS_STAT_MODE_OCT,           /* %a */
	NS_STAT_MODE_STR,           /* %A */
	NS_STAT_TYPE,               /* %F */
	NS_STAT_SIZE,               /* %s */
	NS_STAT_NLINK,              /* %h */
};

#define NS_STAT_MAX_PIECES 64

struct ns_stat_piece {
	enum ns_stat_dir dir;
	const char *text;           /* NS_STAT_TEXT: into the format word */
	size_t len;
};

struct ns_stat_args {
	bool deref;                 /* -L: follow a symbolic link operand */
	struct ns_stat_piece pieces[NS_STAT_MAX_PIECES];
	size_t npieces;
	const char **files;         /* heap array of argv words */
	size_t nfiles;
};

/* What stat shows of one file; each backend fills it. */
struct ns_stat_info {
	unsigned major, minor;      /* st_dev */
	unsigned long long ino;
	unsigned mode;              /* st_mode: type and permissions */
	unsigned long long nlink, size;
	unsigned uid, gid;
	unsigned rdev_major, rdev_minor;
	const char *mountpoint;     /* %m, when the format asks for it */
};

/* Whether the format has directive d (%m costs a walk). */
bool ns_stat_wants(const struct ns_stat_args *a, enum ns_stat_dir d);
/* One file's line, as stat -c prints it (with its '\n'). */
void ns_stat_format(const struct ns_stat_args *a, const char *name,
		    const struct ns_stat_info *in, struct ns_buf *out);
/* ls -l's ten characters of st_mode ("drwxr-xr-x"), as stat's %A. */
void ns_stat_mode_string(unsigned mode, struct ns_buf *out);
/* The name %F gives a file of this st_mode ("regular empty file" needs
 * the size). */
const char *ns_stat_type_name(unsigned mode, unsigned long long size);

/* mountpoint [-q] [-d] PATH */
struct ns_mountpoint_args {
	bool quiet, devno;
	const char *path;
};

/* mountpoint's exit status for "not a mountpoint" (util-linux's
 * MOUNTPOINT_EXIT_NOMNT). */
#define NS_MOUNTPOINT_NOT 32

/* diff [-r] A B: two directories (or files) compared as GNU diff does,
 * but descending into a directory even when both sides are the same. */
struct ns_diff_args {
	const char *opt;            /* "-r" or "--recursive" as typed, or NULL */
	const char *a, *b;
};

/* The longest @NAME handle, '@' and NUL included, and the longest
 * TERM:@NAME that names one of another terminal. */
#define NS_HANDLE_NAME_MAX 32
#define NS_HANDLE_REF_MAX 96

/* True for "@NAME": a tree opened or cloned by open_tree. */
bool ns_is_handle(const char *s);

/* True for a word that names a place through a handle: "@NAME" or
 * "@NAME/PATH" (PATH walked from the handle's mount, as openat(2) walks it
 * from the descriptor), each of them also as "TERM:@NAME..." for a
 * handle of the terminal whose prompt is TERM. *namelen, when not NULL,
 * gets the length of what names the handle: "@NAME" or "TERM:@NAME". */
bool ns_is_handle_path(const char *s, size_t *namelen);

/* Such a word in its parts. */
struct ns_handle_ref {
	const char *term;           /* the terminal's name, or NULL: the shell's own */
	size_t term_len;
	const char *name;           /* "@NAME" */
	size_t name_len;
	const char *rest;           /* "" or "/PATH" */
};
bool ns_handle_ref(const char *s, struct ns_handle_ref *r);

#endif
