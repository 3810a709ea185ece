/* shell.h - a terminal of the model: a stack of shell levels, each with
 * its namespaces, root, working directory, capabilities and open_tree
 * handles, as a shell and the shells it started would have them. */
#ifndef NS_MODEL_SHELL_H
#define NS_MODEL_SHELL_H

#include "commands/args.h"
#include "mounts/snapshot.h"
#include "model/model.h"
#include "run/result.h"
#include "commands/command.h"
#include "scenario/scenario.h"

/* Where a filesystem context is (fs/fs_context.c's phases). */
enum m_fc_phase {
	M_FC_CREATE_PARAMS,         /* fsopen: parameters, then create */
	M_FC_AWAITING_MOUNT,        /* created: fsmount next */
	M_FC_AWAITING_RECONF,       /* mounted or reconfigured: the next
				     * fsconfig starts a reconfiguration */
	M_FC_RECONF_PARAMS,         /* fspick: parameters, then reconfigure */
	M_FC_FAILED,                /* a create or reconfigure failed */
};

/* A filesystem context made by fsopen or fspick, held by its handles. */
struct m_fsctx {
	int refs;
	enum m_fc_phase phase;
	char *type;
	char *source;               /* fsconfig's "source", or NULL */
	struct ns_buf data;         /* the filesystem's own parameters, as
				     * mount(2)'s data would give them */
	unsigned long sb_set, sb_mask; /* MS_RDONLY, MS_SYNCHRONOUS, MS_DIRSYNC,
				     * MS_LAZYTIME asked for, and which */
	struct m_sb *sb;            /* created, or the one picked (fc->root) */
	struct m_userns *user;      /* the opener's (fc->user_ns) */
};

/* A handle kept as @NAME: a mount open_tree or fsmount gave, which it
 * holds busy, or a filesystem context (ctx set, at unused); or, named
 * "&N", a file or directory exec N< FILE holds open (file set), which
 * holds its mount busy and nothing else. */
struct m_handle {
	char name[NS_HANDLE_NAME_MAX];
	struct m_path at;
	struct m_fsctx *ctx;
	bool file;
	struct m_ns *ns;              /* a mount namespace open_tree --namespace
				       * made (at unused): it keeps it alive */
	struct m_ns *anon;            /* the detached tree's namespace it keeps
				       * alive: the one its mount was in when
				       * it was opened, wherever the mount
				       * went since */
};

/* `watch start`: what the shell last saw of the namespace it watches
 * (each mount's place, by creation number), and the events not yet read. */
struct m_watch_ent {
	unsigned long long seq, parent;     /* parent: its seq, 0 for none */
	const struct m_node *mp;
	bool tucked;                        /* moved in a way no event reports */
};

struct m_watch {
	struct m_ns *ns;
	struct m_watch_ent *v;
	size_t n;
	struct ns_buf queue;
};

struct m_level {
	struct m_ns *ns;
	struct m_path root, cwd;
	struct m_userns *user;
	unsigned uid, gid;            /* its credentials (the fsuid and fsgid
				       * too), as kernel ids */
	bool sys_admin, sys_chroot;   /* CAP_SYS_ADMIN, CAP_SYS_CHROOT */
	struct m_handle *handles;     /* as many as it opens */
	size_t nhandles, handles_cap;
	struct m_watch *watch;        /* its own; the shells it starts have none */
};

/* What every terminal of one scenario shares. */
struct m_sandbox {
	struct m_world w;
	const struct ns_scenario *sc;
	struct m_ns *first;           /* the scenario's first namespace */
	struct m_userns *user0;
	struct m_path top;            /* the root stand-in: where shells start */
	struct m_sb **devs;           /* per sc->devnames, made on first mount */
	/* the running terminal called name, or NULL (for nsenter); the i-th
	 * running terminal, or NULL past the last (for pivot_root) */
	struct m_shell *(*peer)(void *ctx, const char *name);
	struct m_shell *(*shell_at)(void *ctx, size_t i);
	void *peer_ctx;
};

struct m_shell {
	struct m_sandbox *sb;
	struct m_level *lv;           /* levels, innermost last */
	size_t n, cap;
	bool closing;                 /* the innermost level ends after the step */
};

/* The innermost level. */
static inline struct m_level *m_cur(struct m_shell *sh)
{
	return &sh->lv[sh->n - 1];
}

/* Build the scenario's world: its first namespace with one mount, the
 * root stand-in, on a base no shell can reach. */
void m_sandbox_init(struct m_sandbox *sb, const struct ns_scenario *sc, unsigned quirks,
		    enum m_break broken, bool trace);
void m_sandbox_free(struct m_sandbox *sb);
/* A terminal's first shell, at the top of the first namespace. */
void m_shell_init(struct m_shell *sh, struct m_sandbox *sb);
/* A new innermost level like the current one (unshare, chroot, capsh). */
struct m_level *m_shell_push(struct m_shell *sh);
/* The innermost level ends: its references go, and a namespace nobody is
 * in any more goes with them. */
void m_shell_pop(struct m_shell *sh);
void m_shell_free(struct m_shell *sh);
/* Move a level's root or cwd (references follow). */
void m_level_set(struct m_world *w, struct m_path *slot, struct m_path to);

/* The handle of lv called name[0..len), or NULL. */
struct m_handle *m_handle_find(struct m_level *lv, const char *name, size_t len);
/* A handle is opened (or inherited), or closed: it holds its mount busy,
 * and a detached tree lives as long as a handle on it. */
void m_handle_hold(struct m_handle *h);
void m_handle_release(struct m_world *w, struct m_handle *h);
/* Keep h as the level's handle of its name, in place of an old one of
 * that name (released once h is held, as dup2(2) closes the old fd). */
void m_handle_keep(struct m_world *w, struct m_level *lv, struct m_handle h);
/* Take h off lv's list and release it (close(2) on the descriptor). */
void m_handle_close(struct m_world *w, struct m_level *lv, struct m_handle *h);
/* The per-mount flags of MOUNT_ATTR_* bits (mount_setattr, fsmount). */
unsigned m_attr_flags(unsigned long long attr);

/* Look a path up as the current level sees it, symbolic links followed
 * (ELOOP past 40 of them). 0 or -errno. A path may start at a handle:
 * @NAME is the very place its fd holds (what is mounted on top is not
 * crossed, as the kernel's jump through /proc/PID/fd/N does not cross
 * it), @NAME/PATH walks PATH from there; -EBADF for a handle not open. */
int m_lookup(struct m_shell *sh, const char *path, struct m_path *out);
/* The same, but a symbolic link at the end is the result (lstat(2)),
 * unless the path ends with '/'. */
int m_lookup_nofollow(struct m_shell *sh, const char *path, struct m_path *out);
/* A lookup uses the mount it ends on, which takes back an expiry mark
 * (umount --expire); umount's own lookup does not (the kernel's
 * path_umount() drops its reference without mntput()): this one. */
int m_lookup_umount(struct m_shell *sh, const char *path, bool follow, struct m_path *out);
/* Look up all but the last component: *parent and the last name (copied
 * into last; "" for "/"), for creating files. 0 or -errno. */
int m_lookup_parent(struct m_shell *sh, const char *path, struct m_path *parent,
		    char *last, size_t lastsz);
/* The same from start instead of the working directory (a relative
 * path); an absolute path starts at the shell's root. */
int m_lookup_parent_at(struct m_shell *sh, struct m_path start, const char *path,
		       struct m_path *parent, char *last, size_t lastsz);
/* ".." from p: out of mount roots to where they are mounted, then one
 * directory up, never above root; what is mounted on the result is
 * crossed. */
void m_dotdot(struct m_path *p, struct m_path root);

/* Files (exec_fs.c). A new directory or file in parent, owned by the
 * current level's fsuid and fsgid as the mount maps them: ENOENT in a
 * removed directory, EROFS on a read-only mount, EOVERFLOW for an owner
 * the mount or the filesystem cannot name (m_owner_new()). */
int m_node_create(struct m_shell *sh, struct m_path parent, const char *name, bool dir,
		  struct m_node **made);
bool m_read_only(struct m_path at);
/* open(2) with O_WRONLY | O_CREAT: the file at path, made if missing
 * (through a dangling symbolic link too, as open(2) does). */
int m_open_create(struct m_shell *sh, const char *path, struct m_node **file);

/* May the current level change its mount namespace (CAP_SYS_ADMIN in the
 * user namespace that owns it)? */
bool m_may_mount(struct m_shell *sh);
/* May the current level change m's propagation (the kernel's
 * may_change_propagation(), for --make-* and MOVE_MOUNT_SET_GROUP): m
 * must be mounted in some namespace (EINVAL), one whose owner the level
 * has CAP_SYS_ADMIN in (EPERM). 0 or the errno. */
int m_may_change_propagation(struct m_shell *sh, const struct m_mount *m);
/* Does level lv have a capability in user namespace u, holding it in its
 * own namespace when has is true (the kernel's ns_capable())? */
bool m_capable(const struct m_level *lv, const struct m_userns *u, bool has);
/* May level lv open the /proc/PID/ns files (and root, cwd) of a shell
 * at level target: ptrace read access (ptrace(2), "Ptrace access mode
 * checking"; the kernel's cap_ptrace_access_check()): in the target's
 * user namespace, or with CAP_SYS_PTRACE over it, which the model takes
 * every shell to hold in its own namespace. EACCES otherwise. */
bool m_may_read_ns(const struct m_level *lv, const struct m_level *target);
/* The superblock of a stand-in device, made on its first mount. */
struct m_sb *m_device(struct m_shell *sh, const char *name);

/* --make-[r]TYPE on target (the operation of mount(2) with a propagation
 * flag, and of mount_setattr's propagation); sys names the call in
 * errors. 0, or -1 with *res filled. */
int m_change_propagation(struct m_shell *sh, const char *target, unsigned long type,
			 struct ns_cmd_result *res, const char *sys);
/* Move the mount whose root is at from to the place to (mount --move,
 * move_mount); anon_ok lets an open_tree -c tree be attached. */
int m_move(struct m_shell *sh, struct m_path from, struct m_path to, bool anon_ok,
	   struct ns_cmd_result *res, const char *sys);

/* The executors, one per command id (exec_*.c). */
typedef int m_exec_fn(struct m_shell *sh, const void *args, struct ns_buf *out,
		      struct ns_cmd_result *res);
extern m_exec_fn *const m_exec[NS_CMD__COUNT];
m_exec_fn m_exec_mkdir, m_exec_touch, m_exec_ls, m_exec_cd, m_exec_cat, m_exec_chroot;
m_exec_fn m_exec_mount, m_exec_umount;
m_exec_fn m_exec_unshare, m_exec_exit, m_exec_capsh, m_exec_sleep, m_exec_variable;
m_exec_fn m_exec_open_tree, m_exec_move_mount, m_exec_mount_setattr, m_exec_close;
m_exec_fn m_exec_fsopen, m_exec_fsconfig, m_exec_fsmount, m_exec_fspick;
m_exec_fn m_exec_listmount, m_exec_statmount, m_exec_findmnt, m_exec_watch;
/* watch.c: after a step, queue what changed in each watched namespace
 * (every terminal's shells); then forget which mounts the step tucked;
 * free a level's watch. */
void m_watch_after_step(struct m_shell *sh);
void m_watch_step_done(struct m_world *w);
void m_watch_free(struct m_watch *wt);
m_exec_fn m_exec_nsenter;
m_exec_fn m_exec_rmdir, m_exec_mv, m_exec_ln, m_exec_pwd, m_exec_echo, m_exec_exec;
m_exec_fn m_exec_readlink, m_exec_realpath, m_exec_pivot_root;
m_exec_fn m_exec_stat, m_exec_mountpoint, m_exec_diff;
/* What statvfs(2) says of sb (exec_list.c): a tmpfs's size and the
 * pages its files fill; no blocks for any other filesystem (ramfs). */
void m_sb_usage(const struct m_sb *sb, struct ns_fs_usage *u);
m_exec_fn m_exec_df;
/* What stat(2) shows of d as tmpfs would (exec_inspect.c), its owner as
 * kernel ids: stat -c and ls -l. */
void m_node_stat(const struct m_node *d, struct ns_stat_info *in);
/* The shell's table, as `how` renders it. */
int m_list_mounts(struct m_shell *sh, enum ns_render how, struct ns_buf *out,
		  struct ns_cmd_result *res);

#endif
