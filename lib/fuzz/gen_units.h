/* gen_units.h - inside the generator (fuzz/gen.h), shared by its two
 * files only: gen.c, which keeps what the generator knows while it
 * writes a case (each terminal's state, the places lately mounted on),
 * picks each operation by weight and draws places; and gen_units.c, which
 * writes the command lines of each kind of operation (gen_write_op).
 * Nothing outside lib/fuzz/gen*.c includes it. */
#ifndef NS_FUZZ_GEN_UNITS_H
#define NS_FUZZ_GEN_UNITS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"
#include "fuzz/gen.h"
#include "fuzz/rng.h"

/* The directories the usual opening makes, and the handles of the new
 * mount API a terminal may hold (bit k of term_state.handles). */
#define GEN_NDIRS 8
#define GEN_NHANDLES 2
extern const char *const gen_dirs[GEN_NDIRS];
extern const char *const gen_mount_handles[GEN_NHANDLES];

/* What the generator knows of one terminal while it writes. */
struct term_state {
	bool seen;              /* a line was typed at it */
	unsigned depth;         /* inner shells started (unshare, nsenter, chroot) */
	unsigned handles;       /* mount handles opened: bit k is gen_mount_handles[k] */
	bool fc;                /* a filesystem context @fc */
	bool ns;                /* a namespace @ns (open_tree --namespace) */
	bool held;              /* exec 3< holds a file */
	bool in_dir;            /* cd left the terminal below its root */
	unsigned userns;        /* bit d: inner shell d entered a user namespace */
	unsigned watch;         /* bit d: inner shell d started a watch */
};

struct gen {
	struct ns_rng rng;
	const struct ns_fuzz_gen_opts *o;
	struct ns_fuzz_case *c;
	struct term_state t[NS_FUZZ_MAX_TERMS + 1];
	unsigned nterm;
	struct ns_lines scratch;        /* words made up for the case's lines */
	/* the last places something was mounted on: what later operations
	 * aim at half the time, so that mounts get stacked, held, unmounted
	 * and changed where something happened (propagation's interesting
	 * cases need several operations on one place) */
	const char *recent[4];
	unsigned nrecent, next_recent;
	/* the last binds of a directory onto another: a mount made below a
	 * source later has a copy below its target, where a shell may
	 * work or hold a file (umount's busy copies) */
	struct { const char *src, *dst; } binds[2];
	unsigned nbinds;
	/* the last place made unbindable: what move_mount --set-group
	 * turns shared again (do_set_group() clears MNT_UNBINDABLE) */
	const char *unbindable;
	/* the last place mounted, remounted or set with mount flags: what a
	 * copy into a less privileged namespace locks, and what a remount
	 * there then aims at (it may not clear a locked flag) */
	const char *flagged;
};

/* The most operations add_stack() writes. */
#define STACK_OPS 6

enum op_kind {
	OP_MKDIR, OP_TOUCH, OP_LS, OP_MOUNT_DEV, OP_MOUNT_TMPFS, OP_BIND, OP_MOVE,
	OP_MAKE, OP_MAKE2, OP_REMOUNT, OP_UMOUNT, OP_UNSHARE, OP_UNSHARE_USER,
	OP_UNSHARE_CMD, OP_NSENTER, OP_CHROOT, OP_PIVOT, OP_EXIT, OP_CD, OP_HOLD,
	OP_FINDMNT, OP_STATMOUNT, OP_LISTMOUNT, OP_OPEN_TREE, OP_OPEN_TREE_ATTR,
	OP_MOVE_MOUNT, OP_BENEATH, OP_SET_GROUP, OP_SETATTR, OP_IDMAP, OP_CLOSE,
	OP_FSMOUNT, OP_FSPICK, OP_NAMESPACE, OP_UNDER_BIND, OP_MOUNTPOINT, OP_RMDIR, OP_MV,
	OP_STACK, OP_STAT, OP_PATHS, OP_CAPSH, OP_WATCH, OP_DF,
	OP__COUNT
};

/* gen.c: drawing words and places, and remembering them. */
const char *gen_pick(struct gen *g, const char *const *v, size_t n);
#define PICK(g, v) gen_pick(g, v, NS_ARRAY_SIZE(v))
/* Is feature bit feat (NS_FEAT_*) on both sides? */
bool gen_has(const struct gen *g, unsigned feat);
/* A directory, now and then a path that does not exist or "/" itself. */
const char *gen_dir(struct gen *g);
/* A word made up while writing, kept until the case is written. */
const char *gen_keep(struct gen *g, char *word);
/* Place p was mounted on: what later operations aim at. */
void gen_remember(struct gen *g, const char *p);
/* The same, and where a bind made before shows a copy of it. */
void gen_mounted_on(struct gen *g, const char *p);
/* A bind of directory src onto dst was written. */
void gen_bound(struct gen *g, const char *src, const char *dst);
/* A place mounted on lately half the time, else gen_dir(). */
const char *gen_busy_dir(struct gen *g);
/* A mount handle of this terminal, or NULL. */
const char *gen_own_handle(struct gen *g, unsigned term);
/* Where a command that takes handles points. */
const char *gen_place(struct gen *g, unsigned term);
/* A mount to move or open from (also TERM:@NAME). */
const char *gen_source(struct gen *g, unsigned term);
/* A terminal seen before, not term (0 when there is none). */
unsigned gen_other_term(struct gen *g, unsigned term);
/* Append an operation at terminal term, while the case has room. */
void gen_add(struct gen *g, unsigned term, const char *cmd);
void gen_addf(struct gen *g, unsigned term, const char *fmt, ...) NS_PRINTF(3, 4);
/* Inner shell d's bit in term_state.userns. */
unsigned gen_level_bit(unsigned d);
/* An inner shell started at term; it entered a user namespace. */
void gen_shell_starts(struct gen *g, unsigned term);
void gen_in_userns(struct gen *g, unsigned term);
/* A place mounted with flags, for a terminal in a user namespace. */
const char *gen_locked_dir(struct gen *g, unsigned term);

/* gen_units.c: write operation k at terminal term. */
void gen_write_op(struct gen *g, unsigned term, enum op_kind k);

#endif
