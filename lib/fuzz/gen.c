/* gen.c - see gen.h. Each operation is picked by weight from the table
 * below; what a terminal's shell state allows (an inner shell to exit, a
 * tree held under @t) changes the odds, never determinism: the only
 * input is the seed's stream. Commands are written the way the parsers
 * of lib/commands/ accept them, so every case parses. */
#include "fuzz/gen.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/rng.h"
#include "scenario/scenario.h"

static const char *const dirs[] = {
	"/a", "/b", "/c", "/a/x", "/b/x", "/c/x", "/a/x/y", "/b/x/y",
};
static const char *const devs[] = { "/dev/d1", "/dev/d2", "/dev/d3", "/dev/d4" };
static const char *const makes[] = {
	"shared", "private", "slave", "unbindable",
	"rshared", "rprivate", "rslave", "runbindable",
};
static const char *const unshare_props[] = { "shared", "slave", "private", "unchanged" };
static const char *const setattr_props[] = { "shared", "slave", "private", "unbindable" };
/* mount -o and mount_setattr -o words (the atime words are one setting) */
static const char *const flags[] = {
	"ro", "rw", "nosuid", "suid", "nodev", "dev", "noexec", "exec", "noatime",
	"strictatime", "nosymfollow",
};
static const char *const mount_handles[] = { "@t", "@u" };

/* What the generator knows of one terminal while it writes. */
struct term_state {
	bool seen;              /* a line was typed at it */
	unsigned depth;         /* inner shells started (unshare, nsenter, chroot) */
	unsigned handles;       /* mount handles opened: bit k is mount_handles[k] */
	bool fc;                /* a filesystem context @fc */
	bool ns;                /* a namespace @ns (open_tree --namespace) */
	bool held;              /* exec 3< holds a file */
	bool in_dir;            /* cd left the terminal below its root */
	unsigned userns;        /* bit d: inner shell d entered a user namespace */
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

static const char *pick(struct gen *g, const char *const *v, size_t n)
{
	return v[ns_rng_below(&g->rng, (unsigned)n)];
}

#define PICK(g, v) pick(g, v, NS_ARRAY_SIZE(v))

static bool has(const struct gen *g, unsigned feat)
{
	return (g->o->features & feat) != 0;
}

/* A directory, now and then a path that does not exist or "/" itself. */
static const char *dir(struct gen *g)
{
	unsigned r = ns_rng_below(&g->rng, 100);

	if (r < 4)
		return "/";
	if (r < 7)
		return "/nonexistent";
	return PICK(g, dirs);
}

static const char *keep(struct gen *g, char *word);

static void remember(struct gen *g, const char *p)
{
	g->recent[g->next_recent++ % NS_ARRAY_SIZE(g->recent)] = p;
	if (g->nrecent < NS_ARRAY_SIZE(g->recent))
		g->nrecent++;
}

/* Remember place p (a directory path, not a handle) as mounted on, and
 * where a bind made before would show a copy of what is mounted there. */
static void mounted_on(struct gen *g, const char *p)
{
	if (p[0] != '/' || !strcmp(p, "/nonexistent"))
		return;
	remember(g, p);
	for (unsigned i = 0; i < g->nbinds; i++) {
		size_t n = strlen(g->binds[i].src);
		if (!strncmp(p, g->binds[i].src, n) && p[n] == '/')
			remember(g, keep(g, xasprintf("%s%s", g->binds[i].dst, p + n)));
	}
}

/* A bind of directory src onto dst was written. */
static void bound(struct gen *g, const char *src, const char *dst)
{
	if (src[0] != '/' || dst[0] != '/' || !strcmp(src, "/") || !strcmp(dst, "/"))
		return;
	g->binds[g->nbinds % NS_ARRAY_SIZE(g->binds)].src = src;
	g->binds[g->nbinds % NS_ARRAY_SIZE(g->binds)].dst = dst;
	g->nbinds++;
	if (g->nbinds > NS_ARRAY_SIZE(g->binds))
		g->nbinds = NS_ARRAY_SIZE(g->binds);
}

/* A place something was mounted on lately half the time, else dir(). */
static const char *busy_dir(struct gen *g)
{
	if (g->nrecent && ns_rng_pct(&g->rng, 50))
		return g->recent[ns_rng_below(&g->rng, g->nrecent)];
	return dir(g);
}

/* A mount handle of this terminal, or NULL. */
static const char *own_handle(struct gen *g, unsigned term)
{
	unsigned h = g->t[term].handles;

	if (!h)
		return NULL;
	for (;;) {
		unsigned k = ns_rng_below(&g->rng, NS_ARRAY_SIZE(mount_handles));
		if (h & (1u << k))
			return mount_handles[k];
	}
}

/* A word made up here, kept until the case is written. */
static const char *keep(struct gen *g, char *word)
{
	ns_lines_push(&g->scratch, word);
	free(word);
	return g->scratch.v[g->scratch.n - 1];
}

/* Where a command that takes handles points: mostly a directory, now and
 * then a handle of this terminal or a place in the tree it holds. */
static const char *place(struct gen *g, unsigned term)
{
	const char *h = own_handle(g, term);

	if (h && ns_rng_pct(&g->rng, 30))
		return ns_rng_pct(&g->rng, 50) ? h : keep(g, xasprintf("%s/x", h));
	return busy_dir(g);
}

/* A mount to move or open from: a place, or another running terminal's
 * handle (TERM:@NAME). */
static const char *source(struct gen *g, unsigned term)
{
	if (ns_rng_pct(&g->rng, 20))
		for (unsigned k = 1; k <= g->nterm; k++)
			if (k != term && g->t[k].seen && g->t[k].handles)
				return keep(g, xasprintf("sh%u:%s", k, own_handle(g, k)));
	return place(g, term);
}

/* "ro", "nosuid,nodev", ...: one to three flags. */
static void add_flags(struct gen *g, struct ns_buf *b)
{
	unsigned n = 1 + ns_rng_below(&g->rng, 3);
	bool atime = false;

	for (unsigned i = 0; i < n; i++) {
		const char *f = PICK(g, flags);
		bool is_atime = !strcmp(f, "noatime") || !strcmp(f, "strictatime");
		if (is_atime && atime)
			continue;
		atime |= is_atime;
		ns_buf_addf(b, "%s%s", i ? "," : "", f);
	}
}

/* A terminal seen before, not term (0 when there is none). */
static unsigned other_term(struct gen *g, unsigned term)
{
	unsigned k = 1 + ns_rng_below(&g->rng, g->nterm);

	return k != term && g->t[k].seen ? k : 0;
}

/* The most operations add_stack() writes. */
#define STACK_OPS 6

enum op_kind {
	OP_MKDIR, OP_TOUCH, OP_LS, OP_MOUNT_DEV, OP_MOUNT_TMPFS, OP_BIND, OP_MOVE,
	OP_MAKE, OP_MAKE2, OP_REMOUNT, OP_UMOUNT, OP_UNSHARE, OP_UNSHARE_USER,
	OP_UNSHARE_CMD, OP_NSENTER, OP_CHROOT, OP_PIVOT, OP_EXIT, OP_CD, OP_HOLD,
	OP_FINDMNT, OP_STATMOUNT, OP_LISTMOUNT, OP_OPEN_TREE, OP_OPEN_TREE_ATTR,
	OP_MOVE_MOUNT, OP_BENEATH, OP_SET_GROUP, OP_SETATTR, OP_IDMAP, OP_CLOSE,
	OP_FSMOUNT, OP_FSPICK, OP_NAMESPACE, OP_UNDER_BIND, OP_MOUNTPOINT, OP_RMDIR, OP_MV,
	OP_STACK, OP_STAT, OP_PATHS, OP_CAPSH,
	OP__COUNT
};

/* Weights out of their sum, measured by coverage (nstest(1), FUZZING); the
 * new mount API only where both sides have it (gen_opts.features). What a
 * terminal holds raises the odds of what uses it. */
static unsigned weight(const struct gen *g, unsigned term, enum op_kind k)
{
	const struct term_state *t = &g->t[term];

	switch (k) {
	case OP_MKDIR: return 5;
	case OP_TOUCH: return 2;
	case OP_LS: return 1;
	case OP_MOUNT_DEV: return 12;
	case OP_MOUNT_TMPFS: return 3;
	case OP_BIND: return 12;
	case OP_MOVE: return 4;
	case OP_MAKE: return 12;
	case OP_MAKE2: return 2;
	case OP_REMOUNT: return t->userns && g->flagged ? 8 : 3;
	case OP_UMOUNT: return 9;
	case OP_UNSHARE: return 5;
	case OP_UNSHARE_USER: return 3;
	case OP_UNSHARE_CMD: return 1;
	case OP_NSENTER: return g->nterm > 1 ? 2 : 0;
	case OP_CHROOT: return 1;
	case OP_PIVOT: return t->depth ? 1 : 0;
	case OP_EXIT: return t->depth ? 5 : 1;
	case OP_CD: return t->in_dir ? 3 : 2;
	case OP_HOLD: return t->held ? 3 : 4;
	case OP_FINDMNT: return 1;
	case OP_STATMOUNT: return has(g, NS_FEAT_STATMOUNT) ? 1 : 0;
	case OP_LISTMOUNT: return has(g, NS_FEAT_LISTMOUNT) ? 1 : 0;
	case OP_OPEN_TREE: return has(g, NS_FEAT_OPEN_TREE) ? 4 : 0;
	case OP_OPEN_TREE_ATTR: return has(g, NS_FEAT_OPEN_TREE_ATTR) ? 1 : 0;
	case OP_MOVE_MOUNT:
		return has(g, NS_FEAT_MOVE_MOUNT) ? (t->handles ? 6 : 1) : 0;
	case OP_BENEATH:
		return has(g, NS_FEAT_MOVE_MOUNT_BENEATH) ? (t->handles ? 3 : 1) : 0;
	case OP_SET_GROUP:
		return has(g, NS_FEAT_MOVE_MOUNT_SET_GROUP) ? (g->unbindable ? 6 : 2) : 0;
	case OP_SETATTR: return has(g, NS_FEAT_MOUNT_SETATTR) ? 3 : 0;
	case OP_IDMAP:
		return has(g, NS_FEAT_MOUNT_SETATTR) && g->nterm > 1 ? 1 : 0;
	case OP_CLOSE: return t->handles || t->fc ? 2 : 0;
	case OP_FSMOUNT: return has(g, NS_FEAT_FSMOUNT) ? 2 : 0;
	case OP_FSPICK: return has(g, NS_FEAT_FSMOUNT) ? 1 : 0;
	case OP_NAMESPACE: return has(g, NS_FEAT_OPEN_TREE_NAMESPACE) ? 1 : 0;
	case OP_UNDER_BIND: return g->nbinds ? 4 : 0;
	case OP_MOUNTPOINT: return 1;
	case OP_RMDIR: return 1;
	case OP_MV: return 1;
	case OP_STACK: return g->c->n + STACK_OPS <= g->o->steps ? 3 : 0;
	case OP_STAT: return 2;
	case OP_PATHS: return 3;
	case OP_CAPSH: return 1;
	case OP__COUNT:
		break;
	}
	return 0;
}

static enum op_kind pick_kind(struct gen *g, unsigned term)
{
	unsigned total = 0, r;

	for (int k = 0; k < OP__COUNT; k++)
		total += weight(g, term, (enum op_kind)k);
	r = ns_rng_below(&g->rng, total);
	for (int k = 0; k < OP__COUNT; k++) {
		unsigned w = weight(g, term, (enum op_kind)k);
		if (r < w)
			return (enum op_kind)k;
		r -= w;
	}
	return OP_MKDIR;
}

static void add(struct gen *g, unsigned term, const char *cmd)
{
	if (g->c->n < g->o->steps)
		ns_fuzz_case_add(g->c, term, cmd);
}

static void addf(struct gen *g, unsigned term, const char *fmt, ...) NS_PRINTF(3, 4);
static void addf(struct gen *g, unsigned term, const char *fmt, ...)
{
	struct ns_buf b = NS_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	ns_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	add(g, term, ns_buf_str(&b));
	ns_buf_free(&b);
}

/* Inner shell d's bit in term_state.userns; shells past the 31st (up
 * to --steps 200 may start) share the last bit. */
static unsigned level_bit(unsigned d)
{
	return 1u << (d < 31 ? d : 31);
}

static void shell_starts(struct gen *g, unsigned term)
{
	g->t[term].depth++;
	g->t[term].userns &= ~level_bit(g->t[term].depth);
}

/* The inner shell just started entered a user namespace. */
static void in_userns(struct gen *g, unsigned term)
{
	g->t[term].userns |= level_bit(g->t[term].depth);
}

/* A place mounted with flags half the time in a terminal that is in a
 * less privileged user namespace, else busy_dir(). */
static const char *locked_dir(struct gen *g, unsigned term)
{
	if (g->t[term].userns && g->flagged && ns_rng_pct(&g->rng, 60))
		return g->flagged;
	return busy_dir(g);
}

/* A mount operation on its own: what `unshare -m CMD` runs. */
static void mount_op(struct gen *g, unsigned term, struct ns_buf *b)
{
	switch (ns_rng_below(&g->rng, 4)) {
	case 0:
		ns_buf_addf(b, "mount --bind %s %s", dir(g), dir(g));
		break;
	case 1:
		ns_buf_addf(b, "mount --make-%s %s", PICK(g, makes), dir(g));
		break;
	case 2:
		ns_buf_addf(b, "umount %s", dir(g));
		break;
	default:
		ns_buf_addf(b, "mount %s %s", PICK(g, devs), dir(g));
		break;
	}
	(void)term;
}

static void add_unshare(struct gen *g, unsigned term, bool user)
{
	unsigned r = ns_rng_below(&g->rng, 5);
	const char *u = user ? "-U -r " : "";

	if (r == 4)
		addf(g, term, "unshare %s-m sh", u);
	else
		addf(g, term, "unshare %s-m --propagation %s sh", u, unshare_props[r]);
	shell_starts(g, term);
	if (user)
		in_userns(g, term);
}

static void add_umount(struct gen *g, unsigned term)
{
	static const char *const opts[] = { "", "", "", "-l ", "-R ", "-R -l ", "--no-follow ",
					    "--expire ", "-f " };
	const char *o = PICK(g, opts);

	/* umount -R finds the mount by its path: no handles */
	addf(g, term, "umount %s%s", o, !strncmp(o, "-R", 2) ? busy_dir(g) : place(g, term));
}

/* The entry below directory d that the usual opening makes (what a mount
 * of d can have a submount on), or NULL. */
static const char *child_of(const char *d)
{
	static const struct { const char *dir, *child; } tree[] = {
		{ "/", "a" }, { "/a", "x" }, { "/b", "x" }, { "/c", "x" },
		{ "/a/x", "y" }, { "/b/x", "y" },
	};

	for (size_t i = 0; i < NS_ARRAY_SIZE(tree); i++)
		if (!strcmp(tree[i].dir, d))
			return tree[i].child;
	return NULL;
}

static const char *join(struct gen *g, const char *d, const char *name)
{
	return keep(g, xasprintf("%s/%s", strcmp(d, "/") ? d : "", name));
}

/* The receiver of add_stack(): a place P where a mount gets a copy at
 * P2, as terminal *other sees it. Another terminal's namespace (a copy
 * made here, slave or peer, or whatever namespace it is in), or a bind
 * of P's directory, written before or here. Returns whether the copies
 * there are slaves already. */
static bool stack_receiver(struct gen *g, unsigned term, unsigned *other,
			   const char **p, const char **p2)
{
	static const char *const tops[] = { "/a", "/b", "/c" };
	static const char *const places[] = { "/a", "/b", "/c", "/a/x", "/b/x" };
	const char *src = NULL, *dst = NULL;

	if (g->nterm > 1 && ns_rng_pct(&g->rng, 50)) {
		unsigned k = 1 + ns_rng_below(&g->rng, g->nterm - 1);
		bool slave = false;

		*other = k >= term ? k + 1 : k;
		if (!g->t[*other].depth || ns_rng_pct(&g->rng, 70)) {
			slave = ns_rng_pct(&g->rng, 70);
			addf(g, *other, "unshare -m --propagation %s sh", slave ? "slave" : "unchanged");
			g->t[*other].seen = true;
			shell_starts(g, *other);
		}
		*p = *p2 = PICK(g, places);
		return slave;
	}
	*other = term;
	if (g->nbinds && ns_rng_pct(&g->rng, 50)) {
		unsigned i = ns_rng_below(&g->rng, g->nbinds);
		src = g->binds[i].src;
		dst = g->binds[i].dst;
	}
	if (!src || !child_of(src) || !strcmp(src, dst)) {
		src = PICK(g, tops);
		do
			dst = PICK(g, tops);
		while (dst == src);
		addf(g, term, "mount --bind %s %s", src, dst);
		mounted_on(g, dst);
		bound(g, src, dst);
	}
	*p = join(g, src, child_of(src));
	*p2 = join(g, dst, child_of(src));
	return false;
}

/* propagate_umount.txt's "Maximal non-shifting subsets", built on
 * purpose: a mount T at P whose parent has a receiver that shows P at P2
 * (stack_receiver), a mount C inside T (its copy C2 inside T's copy T2),
 * C2 kept from handing mounts back to C (made private or a slave, unless
 * it is a slave already; now and then not), D stacked on C2, and T
 * unmounted, lazily most of the time. T2 must stay, with D moved down
 * onto it where C2 was; 6.1 to 6.16 took T2 as well and D shifted down
 * out of its place (quirk umount-shifts-stacks). Weights cannot reach
 * that chain: each link is one place among many. Now and then C2 is in
 * use instead of stacked on, and T's plain umount must be EBUSY. At most
 * STACK_OPS operations. */
static void add_stack(struct gen *g, unsigned term)
{
	static const char *const with_child[] = { "/", "/a", "/b", "/c", "/a/x", "/b/x" };
	static const char *const isolate[] = { "private", "private", "private", "slave", "slave", NULL };
	const char *p, *p2, *r, *name, *c2, *how;
	unsigned other, d1, d2;
	bool slave = stack_receiver(g, term, &other, &p, &p2);

	/* T: a bind onto P of a directory with an entry below it: P's own
	 * (or its copy's) when it has one */
	r = child_of(p) ? (child_of(p2) && ns_rng_pct(&g->rng, 50) ? p2 : p) : PICK(g, with_child);
	addf(g, term, "mount --bind %s %s", r, p);
	mounted_on(g, p);
	name = child_of(r);
	d1 = ns_rng_below(&g->rng, NS_ARRAY_SIZE(devs));
	d2 = (d1 + 1 + ns_rng_below(&g->rng, NS_ARRAY_SIZE(devs) - 1)) % NS_ARRAY_SIZE(devs);
	addf(g, term, "mount %s %s", devs[d1], join(g, p, name));
	mounted_on(g, join(g, p, name));
	c2 = join(g, p2, name);
	if (ns_rng_pct(&g->rng, 30)) {
		/* or the copy in use (a shell's directory, or a file held
		 * there) and a plain umount: EBUSY, since the copy is a
		 * candidate too (propagate_mount_busy()) */
		if (ns_rng_pct(&g->rng, 50)) {
			addf(g, other, "cd %s", c2);
			g->t[other].in_dir = true;
		} else {
			addf(g, other, "touch %s/f", c2);
			addf(g, other, "exec 3< %s/f", c2);
			g->t[other].held = true;
		}
		addf(g, term, "umount %s", p);
		return;
	}
	how = slave && ns_rng_pct(&g->rng, 80) ? NULL : PICK(g, isolate);
	if (how)
		addf(g, other, "mount --make-%s %s", how, c2);
	addf(g, other, "mount %s %s", devs[d2], c2);
	remember(g, c2);
	addf(g, term, "umount %s%s", ns_rng_pct(&g->rng, 80) ? "-l " : "", p);
}

/* Paths read and written across mounts: a symbolic link (absolute, or
 * relative and so resolved from where it is), realpath and readlink of
 * it or of a place, pwd (ENOENT once the directory's mount is gone),
 * and a file written in one place and read in another. */
static void add_paths(struct gen *g, unsigned term)
{
	static const char *const targets[] = { "/a/x", "/b", "../b", "../../a", "x", "/nonexistent" };
	static const char *const links[] = { "/c/l", "/a/x/l", "/b/l", "/c/x/l" };

	switch (ns_rng_below(&g->rng, 6)) {
	case 0:
		addf(g, term, "ln -s %s %s", PICK(g, targets), PICK(g, links));
		break;
	case 1:
		addf(g, term, "realpath %s", ns_rng_pct(&g->rng, 40) ? PICK(g, links) : busy_dir(g));
		break;
	case 2:
		addf(g, term, "readlink %s", PICK(g, links));
		break;
	case 3:
		add(g, term, ns_rng_pct(&g->rng, 70) ? "pwd" : "realpath .");
		break;
	case 4: {
		const char *d = busy_dir(g);
		addf(g, term, "echo %s %s %s/f", ns_rng_pct(&g->rng, 50) ? "hi" : "more",
		     ns_rng_pct(&g->rng, 60) ? ">" : ">>", strcmp(d, "/") ? d : "");
		break;
	}
	default: {
		const char *d = busy_dir(g);
		addf(g, term, "cat %s/f", strcmp(d, "/") ? d : "");
		break;
	}
	}
}

/* tmpfs's own options (mm/shmem.c), one to three; now and then a value
 * its parser refuses. No size=N%: it is of the RAM, which a VM side does
 * not share with the host. */
static void add_tmpfs_opts(struct gen *g, struct ns_buf *b)
{
	static const char *const opts[] = {
		"size=1m", "size=17k", "size=4096", "size=2g", "size=0", "nr_inodes=1k",
		"nr_inodes=100", "nr_inodes=0", "nr_blocks=64", "mode=700", "mode=1777",
		"mode=0755", "uid=0", "gid=0", "inode64", "inode32",
		"size=3q", "mode=9", "nr_inodes=-1",
	};
	unsigned n = 1 + ns_rng_below(&g->rng, 3);

	for (unsigned i = 0; i < n; i++)
		ns_buf_addf(b, "%s%s", i ? "," : "", PICK(g, opts));
}

/* fsconfig's form of the same: set-string KEY VALUE, one or two. */
static void add_fsconfig_opts(struct gen *g, unsigned term, bool ramfs)
{
	static const char *const kv[] = {
		"size 1m", "size 17k", "nr_inodes 1k", "nr_inodes 0", "mode 700", "mode 0755",
		"uid 0", "size 3q", "mode 9",
	};
	unsigned n = 1 + ns_rng_below(&g->rng, 2);

	for (unsigned i = 0; i < n; i++)
		addf(g, term, "fsconfig @fc set-string %s", ramfs ? "mode 711" : PICK(g, kv));
}

static void add_new_api(struct gen *g, unsigned term, enum op_kind k)
{
	struct term_state *t = &g->t[term];
	unsigned hk = ns_rng_below(&g->rng, NS_ARRAY_SIZE(mount_handles));
	const char *h = mount_handles[hk];
	struct ns_buf b = NS_BUF_INIT;

	switch (k) {
	case OP_OPEN_TREE: {
		unsigned r = ns_rng_below(&g->rng, 3);
		const char *src = source(g, term);
		/* -R only with -c: AT_RECURSIVE applies to a copy */
		addf(g, term, "open_tree %s%s %s", r == 0 ? "-c " : r == 1 ? "-c -R " : "", src, h);
		t->handles |= 1u << hk;
		break;
	}
	case OP_OPEN_TREE_ATTR:
		ns_buf_addf(&b, "open_tree_attr -c %s", ns_rng_pct(&g->rng, 50) ? "-R " : "");
		if (ns_rng_pct(&g->rng, 60))
			ns_buf_addf(&b, "--propagation %s ", PICK(g, setattr_props));
		if (ns_rng_pct(&g->rng, 50)) {
			ns_buf_adds(&b, "-o ");
			add_flags(g, &b);
			ns_buf_addc(&b, ' ');
		}
		ns_buf_addf(&b, "%s %s", source(g, term), h);
		add(g, term, ns_buf_str(&b));
		t->handles |= 1u << hk;
		break;
	case OP_MOVE_MOUNT: {
		const char *from = source(g, term);
		addf(g, term, "move_mount %s %s", from, place(g, term));
		break;
	}
	case OP_BENEATH: {
		const char *from = source(g, term);
		addf(g, term, "move_mount --beneath %s %s", from, place(g, term));
		break;
	}
	case OP_SET_GROUP: {
		/* FROM must be the root of a shared or slave mount: "/" (made
		 * shared by the usual opening) half the time. TO must be a
		 * private mount of FROM's filesystem below FROM's root: a
		 * bind made earlier half the time, when there is one (a
		 * private or unbindable bind joining /'s group is the case
		 * the kernel's do_set_group() changes most) */
		const char *from = ns_rng_pct(&g->rng, 50) ? "/" : place(g, term);
		const char *to = g->unbindable && ns_rng_pct(&g->rng, 50) ? g->unbindable
			: g->nbinds && ns_rng_pct(&g->rng, 50)
			? g->binds[ns_rng_below(&g->rng, g->nbinds)].dst : place(g, term);
		addf(g, term, "move_mount --set-group %s %s", from, to);
		break;
	}
	case OP_SETATTR:
		ns_buf_addf(&b, "mount_setattr %s", ns_rng_pct(&g->rng, 40) ? "-R " : "");
		if (ns_rng_pct(&g->rng, 60))
			ns_buf_addf(&b, "--propagation %s ", PICK(g, setattr_props));
		if (!ns_rng_pct(&g->rng, 60) || b.len < 20) {
			ns_buf_adds(&b, "-o ");
			add_flags(g, &b);
			ns_buf_addc(&b, ' ');
		}
		ns_buf_adds(&b, place(g, term));
		add(g, term, ns_buf_str(&b));
		break;
	case OP_IDMAP: {
		unsigned k2 = other_term(g, term);
		if (!k2)
			k2 = term;
		if (ns_rng_pct(&g->rng, 50) && has(g, NS_FEAT_OPEN_TREE_ATTR)) {
			addf(g, term, "open_tree_attr -c --idmap sh%u %s %s", k2, dir(g), h);
			t->handles |= 1u << hk;
		} else {
			addf(g, term, "mount_setattr %s--idmap sh%u %s", ns_rng_pct(&g->rng, 30) ? "-R " : "",
			     k2, place(g, term));
		}
		break;
	}
	case OP_CLOSE:
		if (t->fc && (!t->handles || ns_rng_pct(&g->rng, 30))) {
			add(g, term, "close @fc");
			t->fc = false;
		} else if (t->handles) {
			h = own_handle(g, term);
			addf(g, term, "close %s", h);
			for (size_t i = 0; i < NS_ARRAY_SIZE(mount_handles); i++)
				if (!strcmp(mount_handles[i], h))
					t->handles &= ~(1u << i);
		}
		break;
	case OP_FSMOUNT: {
		bool ramfs = !ns_rng_pct(&g->rng, 80);
		addf(g, term, "fsopen %s @fc", ramfs ? "ramfs" : "tmpfs");
		if (ns_rng_pct(&g->rng, 40))
			add_fsconfig_opts(g, term, ramfs);
		if (ns_rng_pct(&g->rng, 30))
			add(g, term, "fsconfig @fc set-flag ro");
		add(g, term, "fsconfig @fc create");
		if (ns_rng_pct(&g->rng, 30))
			addf(g, term, "fsmount @fc -o %s %s", PICK(g, flags), h);
		else
			addf(g, term, "fsmount @fc %s", h);
		t->fc = true;
		t->handles |= 1u << hk;
		break;
	}
	case OP_FSPICK:
		addf(g, term, "fspick %s @fc", dir(g));
		addf(g, term, "fsconfig @fc set-flag %s", ns_rng_pct(&g->rng, 50) ? "ro" : "rw");
		add(g, term, "fsconfig @fc reconfigure");
		t->fc = true;
		break;
	case OP_NAMESPACE:
		addf(g, term, "open_tree --namespace %s%s @ns", ns_rng_pct(&g->rng, 50) ? "-R " : "", dir(g));
		t->ns = true;
		if (ns_rng_pct(&g->rng, 70)) {
			add(g, term, "nsenter --mount=@ns sh");
			shell_starts(g, term);
		}
		break;
	default:
		break;
	}
	ns_buf_free(&b);
}

static void add_op(struct gen *g, unsigned term)
{
	struct term_state *t = &g->t[term];
	enum op_kind k = pick_kind(g, term);
	struct ns_buf b = NS_BUF_INIT;

	t->seen = true;
	switch (k) {
	case OP_MKDIR:
		addf(g, term, "mkdir -p %s", PICK(g, dirs));
		break;
	case OP_TOUCH:
		addf(g, term, "touch %s/f", PICK(g, dirs));
		break;
	case OP_LS:
		addf(g, term, "ls %s", place(g, term));
		break;
	case OP_MOUNT_DEV: {
		const char *dev = PICK(g, devs);
		if (ns_rng_pct(&g->rng, 20)) {
			ns_buf_adds(&b, "-o ");
			add_flags(g, &b);
			ns_buf_addc(&b, ' ');
		}
		const char *at = place(g, term);
		addf(g, term, "mount %s%s %s", ns_buf_str(&b), dev, at);
		mounted_on(g, at);
		if (b.len && at[0] == '/')
			g->flagged = at;
		break;
	}
	case OP_MOUNT_TMPFS: {
		const char *at = place(g, term);
		unsigned r = ns_rng_below(&g->rng, 10);
		if (r < 5) {
			ns_buf_adds(&b, "-o ");
			if (r == 0)
				ns_buf_adds(&b, "ro,");
			add_tmpfs_opts(g, &b);
			ns_buf_addc(&b, ' ');
		} else if (r < 7) {
			ns_buf_adds(&b, "-o ro ");
		}
		if (r == 9)
			addf(g, term, "mount -t ramfs -o mode=%s ramfs %s", ns_rng_pct(&g->rng, 50) ? "711" : "9", at);
		else
			addf(g, term, "mount -t tmpfs %stmpfs %s", ns_buf_str(&b), at);
		mounted_on(g, at);
		break;
	}
	case OP_BIND: {
		const char *src = place(g, term), *dst = place(g, term);
		addf(g, term, "mount --%s %s %s", ns_rng_below(&g->rng, 3) ? "bind" : "rbind", src, dst);
		mounted_on(g, dst);
		bound(g, src, dst);
		break;
	}
	case OP_MOVE: {
		const char *src = place(g, term), *dst = place(g, term);
		addf(g, term, "mount --move %s %s", src, dst);
		mounted_on(g, dst);
		break;
	}
	case OP_MAKE: {
		const char *how = PICK(g, makes), *at = place(g, term);
		addf(g, term, "mount --make-%s %s", how, at);
		if (strstr(how, "unbindable"))
			g->unbindable = at;
		break;
	}
	case OP_MAKE2: {
		const char *a = PICK(g, makes), *c = PICK(g, makes);
		addf(g, term, "mount --make-%s --make-%s %s", a, c, dir(g));
		break;
	}
	case OP_REMOUNT: {
		const char *at = locked_dir(g, term);
		add_flags(g, &b);
		addf(g, term, "mount -o remount,%s%s %s", ns_rng_pct(&g->rng, 60) ? "bind," : "",
		     ns_buf_str(&b), at);
		if (!t->userns)
			g->flagged = at;
		break;
	}
	case OP_UMOUNT:
		add_umount(g, term);
		break;
	case OP_UNSHARE:
		add_unshare(g, term, false);
		break;
	case OP_UNSHARE_USER:
		add_unshare(g, term, true);
		break;
	case OP_UNSHARE_CMD: {
		unsigned r = ns_rng_below(&g->rng, 5);
		ns_buf_adds(&b, "unshare -m ");
		if (r < 4)
			ns_buf_addf(&b, "--propagation %s ", unshare_props[r]);
		mount_op(g, term, &b);
		add(g, term, ns_buf_str(&b));
		break;
	}
	case OP_NSENTER: {
		unsigned k2 = other_term(g, term);
		if (!k2)
			k2 = term;
		bool user = ns_rng_pct(&g->rng, 30);
		addf(g, term, "nsenter -t sh%u -m%s sh", k2, user ? " -U" : "");
		shell_starts(g, term);
		if (user)
			in_userns(g, term);
		break;
	}
	case OP_CHROOT:
		addf(g, term, "chroot %s sh", PICK(g, dirs));
		shell_starts(g, term);
		break;
	case OP_PIVOT: {
		static const char *const tops[] = { "/a", "/b", "/c" };
		const char *top = PICK(g, tops);
		addf(g, term, "pivot_root %s %s/x", top, top);
		break;
	}
	case OP_EXIT:
		add(g, term, "exit");
		if (t->depth) {
			t->userns &= ~level_bit(t->depth);
			t->depth--;
		} else {
			/* the terminal ends: its handles and files with it */
			t->handles = t->userns = 0;
			t->fc = t->ns = t->held = t->in_dir = false;
		}
		break;
	case OP_CD:
		if (t->in_dir && ns_rng_pct(&g->rng, 50)) {
			add(g, term, "cd");
			t->in_dir = false;
		} else {
			addf(g, term, "cd %s", place(g, term));
			t->in_dir = true;
		}
		break;
	case OP_HOLD:
		if (t->held && ns_rng_pct(&g->rng, 50)) {
			add(g, term, "exec 3<&-");
			t->held = false;
		} else {
			const char *d = busy_dir(g);
			if (!strcmp(d, "/"))
				d = "";
			if (ns_rng_pct(&g->rng, 60))
				addf(g, term, "touch %s/f", d);
			addf(g, term, "exec 3< %s/f", d);
			t->held = true;
		}
		break;
	case OP_FINDMNT:
		/* no FSTYPE: a stand-in's is the run's (tmpfs or loop) */
		addf(g, term, "findmnt -n -r -o TARGET,SOURCE,PROPAGATION %s", dir(g));
		break;
	case OP_STATMOUNT:
		/* no fstype: a stand-in's is the run's (tmpfs or loop), not the mount's */
		addf(g, term, "statmount -o point,root,attr,propagation %s", place(g, term));
		break;
	case OP_LISTMOUNT:
		add(g, term, "listmount --check");
		break;
	case OP_MOUNTPOINT:
		addf(g, term, "mountpoint %s", busy_dir(g));
		break;
	case OP_STAT: {
		/* no %i, %d, %D, %t or %T: inode and device numbers differ
		 * between the sides and are not renamed in an output; no %s,
		 * %h, %a or %A: a stand-in's directory sizes, link counts and
		 * root mode are its filesystem's, ext4's with loop stand-ins
		 * (a VM side's, or a case that needs them) */
		static const char *const formats[] = {
			"%n:%m", "%m:%F", "%u:%g:%F", "%n:%m:%u:%g",
		};
		const char *a = busy_dir(g), *c = busy_dir(g);
		addf(g, term, "stat %s-c %s %s%s%s", ns_rng_pct(&g->rng, 20) ? "-L " : "",
		     PICK(g, formats), a, c != a ? " " : "", c != a ? c : "");
		break;
	}
	case OP_RMDIR:
		/* a mount point in use is EBUSY, in this namespace or not */
		addf(g, term, "rmdir %s", busy_dir(g));
		break;
	case OP_MV: {
		const char *from = busy_dir(g), *to = dir(g);
		addf(g, term, "mv %s %s", from, to);
		break;
	}
	case OP_STACK:
		add_stack(g, term);
		break;
	case OP_PATHS:
		add_paths(g, term);
		break;
	case OP_CAPSH: {
		/* an inner shell without CAP_SYS_ADMIN or CAP_SYS_CHROOT: the
		 * privilege checks' place among each call's other checks */
		static const char *const drops[] = {
			"cap_sys_admin", "cap_sys_admin", "cap_sys_chroot", "cap_sys_admin,cap_sys_chroot",
		};
		addf(g, term, "capsh --drop=%s --", PICK(g, drops));
		shell_starts(g, term);
		break;
	}
	case OP_UNDER_BIND: {
		/* a mount below the source of a bind written before: its copy
		 * appears below the bind's target, where later operations aim */
		unsigned i = ns_rng_below(&g->rng, g->nbinds);
		const char *src = g->binds[i].src;
		size_t n = strlen(src);
		const char *at = keep(g, xasprintf("%s%s", src, n > 2 && !strcmp(src + n - 2, "/x") ? "/y" : "/x"));
		addf(g, term, "mount %s %s", PICK(g, devs), at);
		mounted_on(g, at);
		break;
	}
	default:
		add_new_api(g, term, k);
		break;
	}
	ns_buf_free(&b);
}

void ns_fuzz_generate(uint64_t seed, uint64_t index, const struct ns_fuzz_gen_opts *o,
		      struct ns_fuzz_case *c)
{
	struct gen g;
	unsigned nterm = o->terminals ? o->terminals : 1;

	if (nterm > NS_FUZZ_MAX_TERMS)
		nterm = NS_FUZZ_MAX_TERMS;
	memset(&g, 0, sizeof(g));
	memset(c, 0, sizeof(*c));
	ns_rng_seed(&g.rng, seed, index);
	g.o = o;
	g.c = c;
	g.nterm = nterm;
	/* the usual opening: directories, and propagation turned on */
	if (c->n < o->steps && ns_rng_pct(&g.rng, 85))
		ns_fuzz_case_add(c, 1, "mkdir -p /a/x/y /b/x/y /c/x");
	if (c->n < o->steps && ns_rng_pct(&g.rng, 70))
		ns_fuzz_case_add(c, 1, ns_rng_pct(&g.rng, 80) ? "mount --make-rshared /"
							       : "mount --make-shared /");
	while (c->n < o->steps)
		add_op(&g, 1 + ns_rng_below(&g.rng, nterm));
	ns_lines_free(&g.scratch);
}
