/* model.h - the model backend's picture of the world: superblocks with
 * their directory trees, mounts, peer groups and masters, namespaces, user
 * namespaces, and the operations of mount(2), umount2(2), unshare(2),
 * open_tree(2), move_mount(2) and mount_setattr(2) carried out on it by
 * the documented rules (Documentation/filesystems/sharedsubtree.rst,
 * propagate_umount.txt, mount_namespaces(7), the system calls' manual
 * pages). Where the documents are silent, the rule followed is the
 * kernel's, and its comment says so.
 *
 * Nothing here touches the machine: the model is plain data, freed with
 * its world at the end of a scenario. */
#ifndef NS_MODEL_H
#define NS_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"
#include "mounts/snapshot.h"

struct m_sb;
struct m_userns;

/* One line of a user namespace's uid_map or gid_map, as the kernel keeps
 * it: count ids from first up inside are the kernel ids (kuid, kgid, the
 * first namespace's) from lower up. */
struct m_idext {
	unsigned first, lower, count;
};

/* A map: up to five lines (the kernel's UID_GID_MAP_MAX_BASE_EXTENTS;
 * unshare(1) writes four at most). */
#define M_IDMAP_MAX 5

struct m_idmap {
	struct m_idext v[M_IDMAP_MAX];
	size_t n;
};

/* (uid_t)-1: no id; and the overflow ids that stand for an id with no
 * mapping (user_namespaces(7): /proc/sys/kernel/overflowuid, 65534). */
#define M_NO_ID 0xffffffffu
#define M_OVERFLOW_ID 65534u

/* A file, directory or symbolic link of a superblock. */
struct m_node {
	char *name;                 /* "" for the superblock's root */
	struct m_node *parent;      /* NULL for the root */
	struct m_node *kids, *next; /* children, in creation order */
	/* the rest of a directory's children, kept by world.c alone: the
	 * sibling before it, the last child (so that adding one does not
	 * walk the list), how many there are, and, once there are more than
	 * a few, an index of them by name (open addressing, at most half
	 * full), so that a lookup does not compare the name with every
	 * child's: a directory of 100000 files was quadratic (issue 28) */
	struct m_node *prev, *last;
	size_t nkids;
	struct m_node **index;
	size_t index_cap;
	bool dir;
	char *link;                 /* a symbolic link's target (dir is false) */
	char *data;                 /* a regular file's contents, or NULL */
	size_t len;
	struct m_sb *sb;
	unsigned long long ino;     /* inode number: tmpfs counts from 1 per
				     * superblock, in creation order */
	bool gone;                  /* removed (rmdir, or replaced by mv): out
				     * of its parent's kids, on sb->gone, since
				     * a shell or mount may still hold it */
	unsigned uid, gid;          /* owner, as kernel ids (a superblock's
				     * root: its opts' uid and gid instead) */
};

/* The options a filesystem mounted by type keeps (fsopts.c): tmpfs's
 * (mm/shmem.c's struct shmem_options) and ramfs's mode. A stand-in, made
 * without options, keeps the defaults, as the kernel's stand-in tmpfs. */
enum m_fskind { M_FS_OTHER, M_FS_TMPFS, M_FS_RAMFS };

struct m_fsopts {
	enum m_fskind kind;
	unsigned long long blocks;  /* tmpfs: size, in 4096-byte pages; 0: no limit */
	unsigned long long inodes;  /* tmpfs: nr_inodes; 0: no limit */
	unsigned mode;              /* the root directory's mode */
	unsigned uid, gid;          /* the root directory's owner, kernel
				     * ids: tmpfs's uid= and gid=, or whoever
				     * made the superblock (current_fsuid()) */
	bool inode64;               /* tmpfs: 64-bit inode numbers asked for */
	bool inums_shown;           /* tmpfs: inode64 or inode32 shown always
				     * (a kernel built with CONFIG_TMPFS_INODE64) */
};

/* A filesystem instance: a stand-in device, or a mount by type. */
struct m_sb {
	char *source;               /* "/dev/sdb1", as mountinfo shows it */
	char *fstype;
	unsigned minor;             /* st_dev is 0:minor */
	bool rdonly;                /* the superblock is read-only (SB_RDONLY) */
	unsigned long ms_flags;     /* MS_SYNCHRONOUS, MS_DIRSYNC, MS_LAZYTIME:
				     * the superblock's own, shown after ro/rw */
	struct m_fsopts opts;
	struct m_node *root;
	struct m_userns *owner;     /* who may reconfigure it (a remount);
				     * NULL: the scenario's first user namespace */
	unsigned long long next_ino;
	struct m_node *gone;        /* removed nodes, chained by next */
};

/* A peer group: the mounts with the same `group`. */
struct m_group {
	unsigned id;                /* shared:N */
	size_t members;
	struct m_group *master;     /* what its members are slaves of */
	bool fresh;                 /* made for a tree being attached, which is
				     * not shared yet while it propagates */
};

struct m_ns;

/* Per-mount flags, as mountinfo's fifth field shows them. */
enum {
	M_RDONLY = 1u << 0,
	M_NOSUID = 1u << 1,
	M_NODEV = 1u << 2,
	M_NOEXEC = 1u << 3,
	M_NOATIME = 1u << 4,
	M_NODIRATIME = 1u << 5,
	M_RELATIME = 1u << 6,
	M_ATIME_MASK = M_NOATIME | M_RELATIME, /* neither: strictatime */
	M_LOCK_ATIME = 1u << 7,     /* in locked_flags only: atime may not change */
	M_NOSYMFOLLOW = 1u << 8,    /* symbolic links on it are not followed */
	/* what "the atime setting" is for locks and remounts (the kernel's
	 * MNT_ATIME_MASK; mount_namespaces(7) [5] names MS_NODIRATIME too) */
	M_ATIME_ALL = M_NOATIME | M_NODIRATIME | M_RELATIME,
};

struct m_mount {
	unsigned id;                /* mount ID, the lowest free one */
	unsigned long long seq;     /* creation order: mountinfo's order */
	unsigned long long list_seq; /* when it entered its namespace's list:
				     * mountinfo's order before 6.8 (quirk
				     * mountinfo-attach-order) */
	struct m_sb *sb;
	struct m_node *root;        /* the directory the mount shows */
	struct m_mount *parent;     /* NULL: the top of its tree */
	struct m_node *mp;          /* where on parent it sits */
	struct m_mount *kids, *sib; /* mounts on this one, in attach order */
	struct m_ns *ns;            /* NULL once unmounted or never attached */
	struct m_group *group;      /* peer group, NULL unless shared */
	/* its place in the group's ring, the kernel's mnt_share list: a
	 * copy goes right after the mount it copies (clone_mnt()), and
	 * propagation visits the peers of a mount from the one after it
	 * (propagate_mnt()), which is the order its copies are made in */
	struct m_mount *peer_next, *peer_prev;
	/* the mount it is a slave of (the kernel's mnt_master; `master` is
	 * that mount's group), and its place in that mount's list of slaves
	 * (mnt_slave_list: a slave copy goes first, a copy of a slave right
	 * after it, a mount made a slave first and the slaves it had next,
	 * before 6.17 last: make_slave_lists() in tree.c):
	 * the order propagation visits slaves in (next_group()) */
	struct m_mount *master_mnt;
	double slave_key;
	struct m_group *master;     /* NULL unless a slave */
	bool unbindable;
	bool locked;                /* MNT_LOCKED: came with a less privileged copy */
	unsigned flags;             /* M_* */
	unsigned locked_flags;      /* M_* that a less privileged user may not clear */
	bool dead;                  /* unmounted */
	bool expiry_mark;           /* MNT_EXPIRE asked once; the mount's next
				     * use takes it back (the kernel's mntput()) */
	int refs;                   /* shells' roots and cwds, handles: busy */
	bool tucked;                /* put on top of a propagated copy in this
				     * step: a move no mount event reports */
	unsigned mark;              /* scratch for the algorithms */
	struct m_mount *copy;       /* scratch: its copy during m_copy_tree */
	char *why;                  /* how it came to be (tracing only) */
	struct m_userns *idmap;     /* MOUNT_ATTR_IDMAP: the maps of this user
				     * namespace (never written again once
				     * a step made it), or NULL */
};

struct m_userns {
	struct m_userns *parent;    /* NULL: the first one, the initial */
	struct m_idmap uids, gids;  /* empty until written (the first: all) */
	unsigned owner, group;      /* its creator's euid and egid (kernel ids) */
};

struct m_ns {
	unsigned id;
	struct m_mount *root;       /* the namespace's own root mount */
	struct m_userns *owner;
	int refs;                   /* shells in it */
	bool anon;                  /* open_tree -c's tree */
	unsigned origin;            /* an anon one: the id of the namespace it
				     * was cloned from (the kernel's seq_origin) */
	unsigned mounts;            /* for ENOSPC (fs.mount-max) */
};

/* Known kernel deviations the model can be told to imitate (quirks.c). */
enum m_quirk {
	M_QUIRK_UMOUNT_SHIFTS,      /* pre-rewrite propagate_umount() */
	M_QUIRK_COPY_DROPS_UNBINDABLE, /* unshare's copy of unbindable is private */
	M_QUIRK_UNMOUNTED_TARGET_EINVAL, /* mounting on an unmounted tree: EINVAL */
	M_QUIRK_MOVE_TARGET_FIRST,  /* a move checks its target before its source */
	M_QUIRK_CHANGE_TYPE_OURS_ONLY, /* --make-* only on the caller's namespace */
	M_QUIRK_DETACHED_OURS_ONLY, /* no bind from, no attach onto a detached tree */
	M_QUIRK_UMOUNT_BUSY_SKIPS_CHAINS, /* umount's busy check: bare copies only */
	M_QUIRK_NAMESPACE_OF_A_FILE, /* open_tree --namespace takes a file */
	M_QUIRK_BENEATH_NOT_ROOT,   /* nothing beneath the root or onto the ns root */
	M_QUIRK_BENEATH_NOT_LOCKED, /* nothing beneath a locked mount */
	M_QUIRK_COPY_UNDER_LOCK_UNLOCKED, /* a copy put under a locked mount: unlocked */
	M_QUIRK_COPY_UNDER_LOCK_TAKES_LOCK, /* ... locked, and the mount on top not */
	M_QUIRK_MOUNTINFO_ATTACH_ORDER, /* mountinfo in the namespace list's order */
	M_QUIRK_MAKE_SLAVE_SAME_ROOT, /* do_make_slave() before 6.17: slave lists */
	M_QUIRK_BIND_ONTO_DETACHED, /* 6.17: mount --bind onto a detached tree */
	M_QUIRK_SET_GROUP_NOT_UNBINDABLE, /* 7.2.11 on: no --set-group to unbindable */
	M_QUIRK_TMPFS_INODE64,      /* CONFIG_TMPFS_INODE64: a build option */
	M_QUIRK__COUNT
};

/* The range of a quirk that is a build option, not a version range:
 * "build: CONFIG_...". --quirks=kernel never takes it from the release;
 * the harness asks the kernel (ns_backend's tmpfs_inode64). */
#define M_QUIRK_BUILD "build: "

struct m_quirk_def {
	const char *name;
	const char *range;          /* where it holds, xfail: syntax, or M_QUIRK_BUILD */
	const char *what;           /* the deviation, the rule, the evidence */
};
extern const struct m_quirk_def m_quirks[M_QUIRK__COUNT];

/* A rule broken on purpose, for the tests that prove the fuzzer finds a
 * wrong model (struct ns_backend_config's broken; the harness takes it
 * from NSTEST_MODEL_BREAK, by the names in quirks.c). Each is tested by
 * the scenarios it fails (tests/bats/model.bats). */
enum m_break {
	M_BREAK_NONE = 0,
	M_BREAK_SLAVES_RECEIVE_NOTHING, /* slaves get no mount events (tree.c) */
	M_BREAK_USERNS_RECEIPT_UNLOCKED, /* what a less privileged namespace
				     * gets, copied or propagated, is not
				     * MNT_LOCKED (its flags still are) */
	M_BREAK_REMOUNT_IGNORES_LOCKS, /* a remount or mount_setattr
				     * clears locked flags (no EPERM) */
	M_BREAK_SET_GROUP_KEEPS_UNBINDABLE, /* move_mount --set-group
				     * leaves a target that joins a peer
				     * group unbindable */
	M_BREAK_BUSY_CANDIDATE_NOT_EBUSY, /* umount: a propagated copy
				     * that would go while held is not
				     * EBUSY */
};

struct m_world {
	struct m_mount **mounts;    /* every mount ever made */
	size_t nmounts, mounts_cap;
	struct m_sb **sbs;
	size_t nsbs, sbs_cap;
	struct m_group **groups;
	size_t ngroups, groups_cap;
	struct m_ns **nss;
	size_t nnss, nss_cap;
	struct m_userns **users;
	size_t nusers, users_cap;
	unsigned char *id_used;     /* mount IDs in use */
	size_t id_cap;
	unsigned char *gid_used;    /* peer group IDs in use */
	size_t gid_cap;
	unsigned long long seq, list_seq;
	unsigned long long ram_pages; /* the machine's RAM, for tmpfs sizes */
	unsigned next_minor, next_ns;
	unsigned quirks;            /* 1 << enum m_quirk */
	enum m_break broken;
	bool trace;                 /* keep causes (show, --explain) */
	struct ns_lines events;     /* causes of this step's removals */
	struct m_mount **tucked;    /* the mounts tucked this step */
	size_t ntucked, tucked_cap;
	unsigned mark_gen;
	/* the last tables m_render_text printed, by what they were made of
	 * (none kept with fresh_tables) */
	struct m_table_memo {
		char *key, *text;
		size_t klen, tlen;
	} tables[4];
	unsigned next_table;
	bool fresh_tables;
};

/* A place: a mount and a directory or file of its superblock. */
struct m_path {
	struct m_mount *mnt;
	struct m_node *d;
};

/* ---- world.c: allocation, names, nodes ---- */
void m_world_init(struct m_world *w);
void m_world_free(struct m_world *w);
struct m_sb *m_sb_new(struct m_world *w, const char *source, const char *fstype);
struct m_mount *m_mount_new(struct m_world *w, struct m_sb *sb, struct m_node *root);
struct m_group *m_group_new(struct m_world *w, struct m_group *master);
struct m_ns *m_ns_new(struct m_world *w, struct m_userns *owner);
struct m_userns *m_userns_new(struct m_world *w, struct m_userns *parent);
struct m_node *m_node_child(struct m_node *d, const char *name);
struct m_node *m_node_add(struct m_node *d, const char *name, bool dir);
/* Take n out of its directory (its parent stays, for ".."); it is freed
 * with the world. */
void m_node_remove(struct m_node *n);
/* Move n into directory to under name. */
void m_node_move(struct m_node *n, struct m_node *to, const char *name);
/* Is d at or below top in their superblock? */
bool m_node_under(const struct m_node *d, const struct m_node *top);
/* The path of d from its superblock's root ("/", "/dir1"), with
 * "//deleted" after it once removed, as mountinfo shows a removed root. */
void m_node_path(const struct m_node *d, struct ns_buf *out);
/* A cause for tracing: stored on the mount, or added to w->events. */
void m_why(struct m_world *w, struct m_mount *m, const char *fmt, ...) NS_PRINTF(3, 4);
void m_event(struct m_world *w, const char *fmt, ...) NS_PRINTF(2, 3);
unsigned m_new_mark(struct m_world *w);
/* Give back a mount ID or a peer-group ID for reuse. */
void m_id_release(struct m_world *w, unsigned id);
void m_gid_release(struct m_world *w, unsigned id);
/* Is sb active: does a mount of it live anywhere (attached in any
 * namespace, in a detached tree, or unmounted but still held)? */
bool m_sb_active(const struct m_world *w, const struct m_sb *sb);

/* ---- fsopts.c: a filesystem's own options ---- */
/* The machine's RAM in 4096-byte pages (sysinfo(2)), 0 if unknown. */
unsigned long long m_ram_pages(void);
/* Is the kernel imitated built with CONFIG_TMPFS_INODE64 (quirk
 * tmpfs-inode64)? */
static inline bool m_inode64_built(const struct m_world *w)
{
	return (w->quirks & (1u << M_QUIRK_TMPFS_INODE64)) != 0;
}
/* The defaults of a new filesystem of type fstype. */
void m_fsopts_init(struct m_fsopts *o, const char *fstype, unsigned long long ram_pages,
		   bool inode64_built);
/* Apply mount(2)'s data (comma-separated filesystem options), as the
 * mounter in user namespace user gives them, all or nothing. Returns 0,
 * -EINVAL as the kernel says it, or -EOPNOTSUPP for a tmpfs parameter
 * the model does not model. */
int m_fsopts_parse(struct m_fsopts *o, const char *data, unsigned long long ram_pages,
		   const struct m_userns *user);
/* Append what the filesystem's show_options() prints after "ro"/"rw". */
void m_fsopts_show(const struct m_fsopts *o, unsigned long long ram_pages, struct ns_buf *out);

/* ---- tree.c: the mount tree, peer groups, propagation ---- */
/* The mount sitting directly on (m, d), or NULL. */
struct m_mount *m_child_at(const struct m_mount *m, const struct m_node *d);
/* Follow mounts down from p to what is on top. */
void m_follow(struct m_path *p);
/* Preorder walk of the tree under top (top included), kids in attach
 * order: the next mount after m, or NULL. */
struct m_mount *m_next(struct m_mount *m, const struct m_mount *top);
/* Every peer of m, m excluded, calls fn. */
void m_set_shared(struct m_world *w, struct m_mount *m);
/* m joins the group of `after` right after it in its ring, as
 * do_set_group() adds a mount to a group (m has none). */
void m_join_after(struct m_mount *m, struct m_mount *after);
/* c becomes a slave of the mount `old` is a slave of, right after old in
 * its list, as do_set_group() makes it (nothing when old is no slave). */
void m_slave_after(const struct m_world *w, struct m_mount *c, struct m_mount *old);
/* MS_SHARED, MS_PRIVATE, MS_SLAVE, MS_UNBINDABLE for one mount. */
void m_change_type(struct m_world *w, struct m_mount *m, unsigned long type);
/* Take m out of its peer group and master (as it goes away). */
void m_leave_propagation(struct m_world *w, struct m_mount *m);

enum m_clone {
	M_CL_KEEP = 0,              /* peers with the original, same master */
	M_CL_SLAVE = 1u << 0,       /* a slave of the original's group */
	M_CL_MAKE_SHARED = 1u << 1, /* a peer of the original (or new group with SLAVE) */
	M_CL_PRIVATE = 1u << 2,     /* no propagation at all */
	M_CL_SHARED_TO_SLAVE = 1u << 3, /* a less privileged copy */
	M_CL_COPY_UNBINDABLE = 1u << 4, /* unbindable mounts are copied too */
	M_CL_LOCK = 1u << 5,        /* MNT_LOCKED, flags locked */
};
/* Copy the tree under src, from the directory root of src's superblock
 * down (submounts outside root are left), as copy_tree() does. With
 * recursive false, src alone. Returns the copy's top (not attached) or
 * NULL with *err set (EINVAL: a mount that cannot be copied). */
struct m_mount *m_copy_tree(struct m_world *w, struct m_mount *src, struct m_node *root,
			    unsigned flags, bool recursive, int *err);
/* Attach the tree under t at (p, d): propagate it to every mount that
 * receives from p when p is shared (sharedsubtree.rst 5b-5e), and give
 * the tree's mounts p's namespace. Returns 0 or -errno (ENOSPC). */
int m_attach(struct m_world *w, struct m_mount *t, struct m_path at, bool moving,
	     const char *what);
/* A tree that was never attached, or is to go: every mount leaves its
 * peer group and master, is dead, and gives its ID back unless busy. */
void m_discard(struct m_world *w, struct m_mount *t);
/* Every mount on directory or file d, in any namespace, goes with its
 * tree, without umount propagation, as when d is removed (the kernel's
 * detach_mounts()). Callers first refuse a d that is a mount point in
 * the caller's own namespace (EBUSY). */
void m_detach_mounts_on(struct m_world *w, const struct m_node *d);
/* Whether a mount of namespace ns sits on d. */
bool m_is_local_mountpoint(const struct m_world *w, const struct m_ns *ns, const struct m_node *d);
/* Detach t from its parent, keeping its tree (for a move). */
void m_detach(struct m_mount *t);
/* t's tree entered a namespace's list, at its end in tree order (the
 * kernel's commit_tree() before 6.8). */
void m_list_append(struct m_world *w, struct m_mount *t);
/* pivot_root(2)'s exchange, all in one namespace and without
 * propagation: new_root leaves its parent, the old root goes on old_at,
 * and new_root takes the old root's place (and its MNT_LOCKED). */
void m_pivot(struct m_world *w, struct m_mount *new_root, struct m_mount *old_root,
	     struct m_path old_at);
/* Unmount m (lazy: with everything under it), with umount propagation
 * (propagate_umount.txt). Returns 0 or -errno (EBUSY). */
int m_umount(struct m_world *w, struct m_mount *m, bool lazy);
/* Drop a whole namespace's mounts (its last shell has gone): no umount
 * propagation, as when a namespace ends. */
void m_ns_drop(struct m_world *w, struct m_ns *ns);
/* Copy a namespace for unshare(CLONE_NEWNS) into one owned by owner;
 * each old mount's `copy` then names its copy. */
struct m_ns *m_ns_copy(struct m_world *w, struct m_ns *old, struct m_userns *owner);

/* ---- render.c: what a shell sees ---- */
struct ns_snapshot;
/* The mounts of ns seen from root, in mountinfo order; returns 0 or -errno. */
int m_render(struct m_world *w, struct m_ns *ns, struct m_path root, struct ns_snapshot **out);
/* m_render's table printed as `how` does (mounts/snapshot.h), appended
 * to out; 0 or -errno. A table made of the same entries as one of the
 * last few it printed in this world takes that one's text: the snapshot
 * and its rendering are a function of the entries. */
int m_render_text(struct m_world *w, struct m_ns *ns, struct m_path root, enum ns_render how,
		  struct ns_buf *out);
/* Every number the table m_render makes would show (match/view.h), read
 * from the world without making it. */
struct ns_alive;
void m_alive(struct m_world *w, struct m_ns *ns, struct m_path root, struct ns_alive *a);

/* What statmount(2) says of mount m to a reader whose root is root: *v,
 * its strings in root_s and point_s (the mount point empty when m is not
 * under root, as the kernel leaves it). */
struct ns_statmount_vals;
void m_statmount(struct m_world *w, struct m_mount *m, struct m_path root,
		 struct ns_statmount_vals *v, struct ns_buf *root_s, struct ns_buf *point_s);
/* Where m is mounted, as a path from the top of its namespace (the mount
 * on the namespace's base), for causes; "?" for a detached mount. */
void m_mount_where(const struct m_mount *m, struct ns_buf *out);
/* The path of p as seen from root, or false when root cannot reach it. */
bool m_path_string(struct m_path p, struct m_path root, struct ns_buf *out);

/* ---- ids.c: user namespaces' maps, owners, idmapped mounts ---- */
/* The initial namespace's maps: every id is itself. */
void m_idmap_all(struct m_idmap *m);
/* make_kuid(): the kernel id of id inside (map_id_down()), or M_NO_ID. */
unsigned m_id_down(const struct m_idmap *m, unsigned id);
/* from_kuid(): the id inside of kernel id kid (map_id_up()), or M_NO_ID. */
unsigned m_id_up(const struct m_idmap *m, unsigned kid);
/* from_kuid_munged(): as m_id_up(), the overflow id for none. */
unsigned m_id_shown(const struct m_idmap *m, unsigned kid);
/* Write the map of new namespace u (gid: its gid_map) with lines v[0..n)
 * whose outer ids are ids of u's parent, as the kernel's map_write()
 * judges it: a second write (EPERM), malformed, empty or overlapping
 * lines (EINVAL), a writer without the right (EPERM: unless a single
 * line maps the writer's own id, for gids with setgroups denied, the
 * writer must have CAP_SETUID or CAP_SETGID over the parent, which a
 * process that has left for u does not), outer ids the parent does not
 * map (EPERM). in_parent: the writer is in the parent (newuidmap's
 * place); writer_admin: it holds its capabilities there; kid: its euid
 * or egid. 0 or -errno. */
struct ns_id_extent;
int m_map_write(struct m_userns *u, bool gid, const struct ns_id_extent *v, size_t n,
		bool in_parent, bool writer_admin, unsigned kid);
/* A file's owner as kernel ids (a superblock's root: its options'). */
void m_node_owner(const struct m_node *d, unsigned *uid, unsigned *gid);
/* The owner seen through mount mnt (make_vfsuid(): down through its
 * idmap, M_NO_ID where that has no line for it), then named in user
 * namespace u (from_kuid_munged()): what stat(2) says there. */
void m_owner_seen(const struct m_mount *mnt, const struct m_node *d, const struct m_userns *u,
		  unsigned *uid, unsigned *gid);
/* Whether the owner seen through mnt is an id at all (may_delete():
 * removing or renaming a file whose owner the idmap does not map is
 * EOVERFLOW). */
bool m_owner_mapped(const struct m_mount *mnt, const struct m_node *d);
/* The owner a file made through mnt by a caller with fsuid and fsgid
 * gets on disk (inode_init_owner(): mapped_fsuid(), up through the
 * idmap); false when it has none there, or the superblock's user
 * namespace cannot name it: creating is then EOVERFLOW (the kernel's
 * fsuidgid_has_mapping()). */
bool m_owner_new(const struct m_mount *mnt, unsigned fsuid, unsigned fsgid, unsigned *uid,
		 unsigned *gid);
/* The user namespace a superblock belongs to (s_user_ns). */
struct m_userns *m_sb_userns(const struct m_sb *sb, struct m_userns *user0);

/* ---- quirks.c ---- */
/* Parse "NAME[,NAME...]" or "kernel" (with release: every quirk whose
 * range holds there). Returns 0 with *mask, or -1 with a message. */
int m_quirks_parse(const char *spec, const char *release, unsigned *mask, struct ns_buf *err);
/* Parse the name of a rule to break (NULL or "": none). Returns 0 with
 * *out, or -1 with a message naming the known ones. */
int m_break_parse(const char *name, enum m_break *out, struct ns_buf *err);

#endif
