/* gen_units.c - the generator's units (gen_units.h): what each kind of
 * operation writes, from one line (mount, umount and their options) to
 * a chain of them built on purpose (add_stack). Commands are written the
 * way the parsers of lib/commands/ accept them, so every case parses.
 * Only the seed's stream (g->rng) decides. */
#include <stdlib.h>
#include <string.h>

#include "fuzz/gen_units.h"
#include "scenario/scenario.h"

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

/* A mount operation on its own: what `unshare -m CMD` runs. */
static void mount_op(struct gen *g, unsigned term, struct ns_buf *b)
{
	switch (ns_rng_below(&g->rng, 4)) {
	case 0:
		ns_buf_addf(b, "mount --bind %s %s", gen_dir(g), gen_dir(g));
		break;
	case 1:
		ns_buf_addf(b, "mount --make-%s %s", PICK(g, makes), gen_dir(g));
		break;
	case 2:
		ns_buf_addf(b, "umount %s", gen_dir(g));
		break;
	default:
		ns_buf_addf(b, "mount %s %s", PICK(g, devs), gen_dir(g));
		break;
	}
	(void)term;
}

/* How `unshare` maps ids: -U -r most of the time, and now and then the
 * other forms unshare(1) has (bundled, the current user, single ids,
 * ranges written from outside as newuidmap does), or -U with no map. */
static const char *user_opts(struct gen *g)
{
	static const char *const forms[] = {
		"-U -r ", "-U -r ", "-U -r ", "-U -r ", "-Ur ", "-U -c ",
		"--map-user=0 --map-group=0 ", "-U --map-users=0,0,1 --map-groups=0,0,1 ",
		"-U --map-users=0,0,65536 --map-groups=0,0,65536 ", "-U ",
	};

	return PICK(g, forms);
}

/* --propagation MODE (also --propagation=MODE), or none: private. */
static void add_propagation(struct gen *g, struct ns_buf *b)
{
	unsigned r = ns_rng_below(&g->rng, 5);

	if (r < 4)
		ns_buf_addf(b, "--propagation%s%s ", ns_rng_pct(&g->rng, 20) ? "=" : " ",
			    unshare_props[r]);
}

static void add_unshare(struct gen *g, unsigned term, bool user)
{
	struct ns_buf b = NS_BUF_INIT;
	/* a user namespace alone, now and then: the shell keeps its mount
	 * namespace, owned by a more privileged one (EPERM to mount) */
	bool mnt = !user || !ns_rng_pct(&g->rng, 8);

	ns_buf_adds(&b, "unshare ");
	if (user)
		ns_buf_adds(&b, user_opts(g));
	if (mnt) {
		ns_buf_adds(&b, "-m ");
		add_propagation(g, &b);
	}
	ns_buf_adds(&b, "sh");
	gen_add(g, term, ns_buf_str(&b));
	ns_buf_free(&b);
	gen_shell_starts(g, term);
	if (user)
		gen_in_userns(g, term);
}

static void add_umount(struct gen *g, unsigned term)
{
	static const char *const opts[] = { "", "", "", "-l ", "-R ", "-R -l ", "--no-follow ",
					    "--expire ", "-f ", "-lR ", "-R -f ", "-R --no-follow ",
					    "--recursive --lazy " };
	const char *o = PICK(g, opts);

	/* umount -R finds the mount by its path: no handles */
	gen_addf(g, term, "umount %s%s", o, strchr(o, 'R') || strstr(o, "recursive") ? gen_busy_dir(g)
								      : gen_place(g, term));
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
	return gen_keep(g, xasprintf("%s/%s", strcmp(d, "/") ? d : "", name));
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
			gen_addf(g, *other, "unshare -m --propagation %s sh", slave ? "slave" : "unchanged");
			g->t[*other].seen = true;
			gen_shell_starts(g, *other);
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
		gen_addf(g, term, "mount --bind %s %s", src, dst);
		gen_mounted_on(g, dst);
		gen_bound(g, src, dst);
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
	gen_addf(g, term, "mount --bind %s %s", r, p);
	gen_mounted_on(g, p);
	name = child_of(r);
	d1 = ns_rng_below(&g->rng, NS_ARRAY_SIZE(devs));
	d2 = (d1 + 1 + ns_rng_below(&g->rng, NS_ARRAY_SIZE(devs) - 1)) % NS_ARRAY_SIZE(devs);
	gen_addf(g, term, "mount %s %s", devs[d1], join(g, p, name));
	gen_mounted_on(g, join(g, p, name));
	c2 = join(g, p2, name);
	if (ns_rng_pct(&g->rng, 30)) {
		/* or the copy in use (a shell's directory, or a file held
		 * there) and a plain umount: EBUSY, since the copy is a
		 * candidate too (propagate_mount_busy()) */
		if (ns_rng_pct(&g->rng, 50)) {
			gen_addf(g, other, "cd %s", c2);
			g->t[other].in_dir = true;
		} else {
			gen_addf(g, other, "touch %s/f", c2);
			gen_addf(g, other, "exec 3< %s/f", c2);
			g->t[other].held = true;
		}
		gen_addf(g, term, "umount %s", p);
		return;
	}
	how = slave && ns_rng_pct(&g->rng, 80) ? NULL : PICK(g, isolate);
	if (how)
		gen_addf(g, other, "mount --make-%s %s", how, c2);
	gen_addf(g, other, "mount %s %s", devs[d2], c2);
	gen_remember(g, c2);
	gen_addf(g, term, "umount %s%s", ns_rng_pct(&g->rng, 80) ? "-l " : "", p);
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
		gen_addf(g, term, "ln -s %s %s", PICK(g, targets), PICK(g, links));
		break;
	case 1:
		gen_addf(g, term, "realpath %s", ns_rng_pct(&g->rng, 40) ? PICK(g, links) : gen_busy_dir(g));
		break;
	case 2:
		gen_addf(g, term, "readlink %s", PICK(g, links));
		break;
	case 3:
		gen_add(g, term, ns_rng_pct(&g->rng, 70) ? "pwd" : "realpath .");
		break;
	case 4: {
		const char *d = gen_busy_dir(g);
		gen_addf(g, term, "echo %s %s %s/f", ns_rng_pct(&g->rng, 50) ? "hi" : "more",
		     ns_rng_pct(&g->rng, 60) ? ">" : ">>", strcmp(d, "/") ? d : "");
		break;
	}
	default: {
		const char *d = gen_busy_dir(g);
		gen_addf(g, term, "cat %s/f", strcmp(d, "/") ? d : "");
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
		gen_addf(g, term, "fsconfig @fc set-string %s", ramfs ? "mode 711" : PICK(g, kv));
}

/* A command a wrapper (unshare, nsenter) runs instead of a shell: a
 * mount operation, or a look at the namespace it runs in. */
static void wrapped_cmd(struct gen *g, unsigned term, struct ns_buf *b)
{
	unsigned pick = ns_rng_below(&g->rng, 6);

	/* a statmount where the kernel has none is a mount operation */
	if (pick == 1 && !gen_has(g, NS_FEAT_STATMOUNT))
		pick = 2;
	switch (pick) {
	case 0:
		ns_buf_addf(b, "findmnt -n -r -o TARGET,PROPAGATION %s", gen_dir(g));
		break;
	case 1:
		ns_buf_addf(b, "statmount -o point,propagation %s", gen_busy_dir(g));
		break;
	default:
		mount_op(g, term, b);
		break;
	}
}

/* mount notifications (fanotify): a watch of the shell's namespace; its
 * events read through a filter, since the kernel's unique mount IDs are
 * not the model's and the order of one step's events is no rule: their
 * kinds sorted, or their count. watch and watch stop without a watch are
 * EBADF; a shell started later has none. */
static void add_watch(struct gen *g, unsigned term)
{
	static const char *const reads[] = {
		"watch | cut -d' ' -f1 | sort", "watch | cut -d' ' -f1 | sort", "watch | wc -l",
		"watch | grep -c detach",
	};
	struct term_state *t = &g->t[term];
	unsigned bit = gen_level_bit(t->depth);

	if (!(t->watch & bit)) {
		if (ns_rng_pct(&g->rng, 90)) {
			gen_add(g, term, "watch start");
			t->watch |= bit;
		} else {
			gen_add(g, term, ns_rng_pct(&g->rng, 50) ? "watch" : "watch stop");
		}
		return;
	}
	switch (ns_rng_below(&g->rng, 10)) {
	case 0:
		gen_add(g, term, "watch stop");
		t->watch &= ~bit;
		break;
	case 1:
		/* a new watch drops what the old one queued */
		gen_add(g, term, "watch start");
		break;
	default:
		gen_add(g, term, PICK(g, reads));
		break;
	}
}

/* statmount(2) of the mount a path or handle is on: one to four fields
 * of those both sides give alike (no IDs, device or type: a stand-in's
 * are the run's), in any order, in any of -o's spellings. Where: mostly
 * a place (a handle's detached tree and a mount of another namespace
 * are ENOENT), else "." (the shell's directory, perhaps unmounted
 * since), a handle that may be closed or never opened (EBADF), or a
 * path that does not exist (statx's ENOENT). */
static void add_statmount(struct gen *g, unsigned term)
{
	static const char *const fields[] = { "point", "root", "attr", "propagation" };
	static const char *const spell[] = { "-o ", "--output ", "--output=" };
	struct ns_buf b = NS_BUF_INIT;
	unsigned n = 1 + ns_rng_below(&g->rng, 4), used = 0, r;
	const char *at;

	if (ns_rng_pct(&g->rng, 10)) {
		/* every field, counted: the numbers are each side's own, but
		 * each is asked of the kernel and given (one word each) */
		gen_addf(g, term, "statmount -o id,parent,unique_id,ns,dev,fstype,propagate_from,"
			 "peer_group,master %s | wc -w", gen_place(g, term));
		return;
	}
	ns_buf_adds(&b, "statmount ");
	for (unsigned i = 0; i < n; i++) {
		unsigned f = ns_rng_below(&g->rng, NS_ARRAY_SIZE(fields));
		if (used & (1u << f))
			continue;
		/* a new -o now and then: several add up */
		if (!used || ns_rng_pct(&g->rng, 15))
			ns_buf_addf(&b, "%s%s", used ? " " : "", PICK(g, spell));
		else
			ns_buf_addc(&b, ',');
		ns_buf_adds(&b, fields[f]);
		used |= 1u << f;
	}
	r = ns_rng_below(&g->rng, 10);
	at = r < 6 ? gen_place(g, term) : r < 8 ? "." : r < 9 ? PICK(g, gen_mount_handles) : gen_dir(g);
	gen_addf(g, term, "%s %s", ns_buf_str(&b), at);
	ns_buf_free(&b);
}

/* df(1)'s choice of mounts (one per device, by stat(2) of each mount
 * point) and of the mount a file is on: source and mount point only.
 * Not its sizes nor, with -T, its type: a stand-in's are the run's (tmpfs,
 * or ext4 where a case needs loop stand-ins). */
static void add_df(struct gen *g, unsigned term)
{
	if (ns_rng_pct(&g->rng, 50)) {
		gen_add(g, term, "df | awk '{print $1, $6}'");
		return;
	}
	gen_addf(g, term, "df %s %s | awk '{print $1, $6}'", gen_busy_dir(g), gen_busy_dir(g));
}

/* nsenter into another terminal's namespaces: the mount namespace, with
 * the user namespace now and then (root there: it must be mapped), the
 * user namespace alone, the target's root (-r) and working directory
 * (-w); a shell most of the time, else one command run there. */
static void add_nsenter(struct gen *g, unsigned term)
{
	unsigned k2 = gen_other_term(g, term);
	struct ns_buf b = NS_BUF_INIT;
	bool user = ns_rng_pct(&g->rng, 30), mnt = !user || !ns_rng_pct(&g->rng, 20);
	bool shell = ns_rng_pct(&g->rng, 75);

	if (!k2)
		k2 = term;
	ns_buf_addf(&b, "nsenter -t sh%u", k2);
	if (mnt)
		ns_buf_adds(&b, " -m");
	if (user)
		ns_buf_adds(&b, " -U");
	if (mnt && ns_rng_pct(&g->rng, 20))
		ns_buf_adds(&b, " -r");
	if (mnt && ns_rng_pct(&g->rng, 20))
		ns_buf_adds(&b, " -w");
	ns_buf_addc(&b, ' ');
	if (shell)
		ns_buf_adds(&b, "sh");
	else
		wrapped_cmd(g, term, &b);
	gen_add(g, term, ns_buf_str(&b));
	ns_buf_free(&b);
	if (!shell)
		return;
	gen_shell_starts(g, term);
	if (user)
		gen_in_userns(g, term);
}

/* unshare with one command: it runs in the new namespaces, which end
 * with it; propagation may carry its mounts out. */
static void add_unshare_cmd(struct gen *g, unsigned term)
{
	struct ns_buf b = NS_BUF_INIT;

	ns_buf_adds(&b, "unshare ");
	if (ns_rng_pct(&g->rng, 30))
		ns_buf_adds(&b, user_opts(g));
	ns_buf_adds(&b, "-m ");
	add_propagation(g, &b);
	wrapped_cmd(g, term, &b);
	gen_add(g, term, ns_buf_str(&b));
	ns_buf_free(&b);
}

static void add_new_api(struct gen *g, unsigned term, enum op_kind k)
{
	struct term_state *t = &g->t[term];
	unsigned hk = ns_rng_below(&g->rng, NS_ARRAY_SIZE(gen_mount_handles));
	const char *h = gen_mount_handles[hk];
	struct ns_buf b = NS_BUF_INIT;

	switch (k) {
	case OP_OPEN_TREE: {
		unsigned r = ns_rng_below(&g->rng, 3);
		const char *src = gen_source(g, term);
		/* -R only with -c: AT_RECURSIVE applies to a copy */
		gen_addf(g, term, "open_tree %s%s %s", r == 0 ? "-c " : r == 1 ? "-c -R " : "", src, h);
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
		ns_buf_addf(&b, "%s %s", gen_source(g, term), h);
		gen_add(g, term, ns_buf_str(&b));
		t->handles |= 1u << hk;
		break;
	case OP_MOVE_MOUNT: {
		const char *from = gen_source(g, term);
		gen_addf(g, term, "move_mount %s %s", from, gen_place(g, term));
		break;
	}
	case OP_BENEATH: {
		const char *from = gen_source(g, term);
		gen_addf(g, term, "move_mount --beneath %s %s", from, gen_place(g, term));
		break;
	}
	case OP_SET_GROUP: {
		/* FROM must be the root of a shared or slave mount: "/" (made
		 * shared by the usual opening) half the time. TO must be a
		 * private mount of FROM's filesystem below FROM's root: a
		 * bind made earlier half the time, when there is one (a
		 * private or unbindable bind joining /'s group is the case
		 * the kernel's do_set_group() changes most) */
		const char *from = ns_rng_pct(&g->rng, 50) ? "/" : gen_place(g, term);
		const char *to = g->unbindable && ns_rng_pct(&g->rng, 50) ? g->unbindable
			: g->nbinds && ns_rng_pct(&g->rng, 50)
			? g->binds[ns_rng_below(&g->rng, g->nbinds)].dst : gen_place(g, term);
		gen_addf(g, term, "move_mount --set-group %s %s", from, to);
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
		ns_buf_adds(&b, gen_place(g, term));
		gen_add(g, term, ns_buf_str(&b));
		break;
	case OP_IDMAP: {
		unsigned k2 = gen_other_term(g, term);
		if (!k2)
			k2 = term;
		if (ns_rng_pct(&g->rng, 50) && gen_has(g, NS_FEAT_OPEN_TREE_ATTR)) {
			gen_addf(g, term, "open_tree_attr -c --idmap sh%u %s %s", k2, gen_dir(g), h);
			t->handles |= 1u << hk;
		} else {
			gen_addf(g, term, "mount_setattr %s--idmap sh%u %s", ns_rng_pct(&g->rng, 30) ? "-R " : "",
			     k2, gen_place(g, term));
		}
		break;
	}
	case OP_CLOSE:
		if (t->fc && (!t->handles || ns_rng_pct(&g->rng, 30))) {
			gen_add(g, term, "close @fc");
			t->fc = false;
		} else if (t->handles) {
			h = gen_own_handle(g, term);
			gen_addf(g, term, "close %s", h);
			for (size_t i = 0; i < NS_ARRAY_SIZE(gen_mount_handles); i++)
				if (!strcmp(gen_mount_handles[i], h))
					t->handles &= ~(1u << i);
		}
		break;
	case OP_FSMOUNT: {
		bool ramfs = !ns_rng_pct(&g->rng, 80);
		gen_addf(g, term, "fsopen %s @fc", ramfs ? "ramfs" : "tmpfs");
		if (ns_rng_pct(&g->rng, 40))
			add_fsconfig_opts(g, term, ramfs);
		if (ns_rng_pct(&g->rng, 30))
			gen_add(g, term, "fsconfig @fc set-flag ro");
		gen_add(g, term, "fsconfig @fc create");
		if (ns_rng_pct(&g->rng, 30))
			gen_addf(g, term, "fsmount @fc -o %s %s", PICK(g, flags), h);
		else
			gen_addf(g, term, "fsmount @fc %s", h);
		t->fc = true;
		t->handles |= 1u << hk;
		break;
	}
	case OP_FSPICK:
		gen_addf(g, term, "fspick %s @fc", gen_dir(g));
		gen_addf(g, term, "fsconfig @fc set-flag %s", ns_rng_pct(&g->rng, 50) ? "ro" : "rw");
		gen_add(g, term, "fsconfig @fc reconfigure");
		t->fc = true;
		break;
	case OP_NAMESPACE:
		gen_addf(g, term, "open_tree --namespace %s%s @ns", ns_rng_pct(&g->rng, 50) ? "-R " : "", gen_dir(g));
		t->ns = true;
		if (ns_rng_pct(&g->rng, 50)) {
			gen_add(g, term, "nsenter --mount=@ns sh");
			gen_shell_starts(g, term);
		} else if (ns_rng_pct(&g->rng, 40)) {
			ns_buf_adds(&b, "nsenter --mount=@ns ");
			wrapped_cmd(g, term, &b);
			gen_add(g, term, ns_buf_str(&b));
		}
		break;
	default:
		break;
	}
	ns_buf_free(&b);
}

void gen_write_op(struct gen *g, unsigned term, enum op_kind k)
{
	struct term_state *t = &g->t[term];
	struct ns_buf b = NS_BUF_INIT;

	switch (k) {
	case OP_MKDIR:
		gen_addf(g, term, "mkdir -p %s", PICK(g, gen_dirs));
		break;
	case OP_TOUCH:
		gen_addf(g, term, "touch %s/f", PICK(g, gen_dirs));
		break;
	case OP_LS:
		gen_addf(g, term, "ls %s", gen_place(g, term));
		break;
	case OP_MOUNT_DEV: {
		const char *dev = PICK(g, devs);
		if (ns_rng_pct(&g->rng, 20)) {
			ns_buf_adds(&b, "-o ");
			add_flags(g, &b);
			ns_buf_addc(&b, ' ');
		}
		const char *at = gen_place(g, term);
		gen_addf(g, term, "mount %s%s %s", ns_buf_str(&b), dev, at);
		gen_mounted_on(g, at);
		if (b.len && at[0] == '/')
			g->flagged = at;
		break;
	}
	case OP_MOUNT_TMPFS: {
		const char *at = gen_place(g, term);
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
			gen_addf(g, term, "mount -t ramfs -o mode=%s ramfs %s", ns_rng_pct(&g->rng, 50) ? "711" : "9", at);
		else
			gen_addf(g, term, "mount -t tmpfs %stmpfs %s", ns_buf_str(&b), at);
		gen_mounted_on(g, at);
		break;
	}
	case OP_BIND: {
		const char *src = gen_place(g, term), *dst = gen_place(g, term);
		gen_addf(g, term, "mount --%s %s %s", ns_rng_below(&g->rng, 3) ? "bind" : "rbind", src, dst);
		gen_mounted_on(g, dst);
		gen_bound(g, src, dst);
		break;
	}
	case OP_MOVE: {
		const char *src = gen_place(g, term), *dst = gen_place(g, term);
		gen_addf(g, term, "mount --move %s %s", src, dst);
		gen_mounted_on(g, dst);
		break;
	}
	case OP_MAKE: {
		const char *how = PICK(g, makes), *at = gen_place(g, term);
		gen_addf(g, term, "mount --make-%s %s", how, at);
		if (strstr(how, "unbindable"))
			g->unbindable = at;
		break;
	}
	case OP_MAKE2: {
		const char *a = PICK(g, makes), *c = PICK(g, makes);
		gen_addf(g, term, "mount --make-%s --make-%s %s", a, c, gen_dir(g));
		break;
	}
	case OP_REMOUNT: {
		const char *at = gen_locked_dir(g, term);
		add_flags(g, &b);
		gen_addf(g, term, "mount -o remount,%s%s %s", ns_rng_pct(&g->rng, 60) ? "bind," : "",
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
	case OP_UNSHARE_CMD:
		add_unshare_cmd(g, term);
		break;
	case OP_NSENTER:
		add_nsenter(g, term);
		break;
	case OP_CHROOT:
		gen_addf(g, term, "chroot %s sh", PICK(g, gen_dirs));
		gen_shell_starts(g, term);
		break;
	case OP_PIVOT: {
		static const char *const tops[] = { "/a", "/b", "/c" };
		const char *top = PICK(g, tops);
		gen_addf(g, term, "pivot_root %s %s/x", top, top);
		break;
	}
	case OP_EXIT:
		gen_add(g, term, "exit");
		if (t->depth) {
			t->userns &= ~gen_level_bit(t->depth);
			t->watch &= ~gen_level_bit(t->depth);
			t->depth--;
		} else {
			/* the terminal ends: its handles and files with it */
			t->handles = t->userns = t->watch = 0;
			t->fc = t->ns = t->held = t->in_dir = false;
		}
		break;
	case OP_CD:
		if (t->in_dir && ns_rng_pct(&g->rng, 50)) {
			gen_add(g, term, "cd");
			t->in_dir = false;
		} else {
			gen_addf(g, term, "cd %s", gen_place(g, term));
			t->in_dir = true;
		}
		break;
	case OP_HOLD:
		if (t->held && ns_rng_pct(&g->rng, 50)) {
			gen_add(g, term, "exec 3<&-");
			t->held = false;
		} else {
			const char *d = gen_busy_dir(g);
			if (!strcmp(d, "/"))
				d = "";
			if (ns_rng_pct(&g->rng, 60))
				gen_addf(g, term, "touch %s/f", d);
			gen_addf(g, term, "exec 3< %s/f", d);
			t->held = true;
		}
		break;
	case OP_FINDMNT:
		/* no FSTYPE: a stand-in's is the run's (tmpfs or loop) */
		gen_addf(g, term, "findmnt -n -r -o TARGET,SOURCE,PROPAGATION %s", gen_dir(g));
		break;
	case OP_STATMOUNT:
		add_statmount(g, term);
		break;
	case OP_WATCH:
		add_watch(g, term);
		break;
	case OP_DF:
		add_df(g, term);
		break;
	case OP_LISTMOUNT:
		gen_add(g, term, "listmount --check");
		break;
	case OP_MOUNTPOINT:
		gen_addf(g, term, "mountpoint %s", gen_busy_dir(g));
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
		const char *a = gen_busy_dir(g), *c = gen_busy_dir(g);
		gen_addf(g, term, "stat %s-c %s %s%s%s", ns_rng_pct(&g->rng, 20) ? "-L " : "",
		     PICK(g, formats), a, c != a ? " " : "", c != a ? c : "");
		break;
	}
	case OP_RMDIR:
		/* a mount point in use is EBUSY, in this namespace or not */
		gen_addf(g, term, "rmdir %s", gen_busy_dir(g));
		break;
	case OP_MV: {
		const char *from = gen_busy_dir(g), *to = gen_dir(g);
		gen_addf(g, term, "mv %s %s", from, to);
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
		gen_addf(g, term, "capsh --drop=%s --", PICK(g, drops));
		gen_shell_starts(g, term);
		break;
	}
	case OP_UNDER_BIND: {
		/* a mount below the source of a bind written before: its copy
		 * appears below the bind's target, where later operations aim */
		unsigned i = ns_rng_below(&g->rng, g->nbinds);
		const char *src = g->binds[i].src;
		size_t n = strlen(src);
		const char *at = gen_keep(g, xasprintf("%s%s", src, n > 2 && !strcmp(src + n - 2, "/x") ? "/y" : "/x"));
		gen_addf(g, term, "mount %s %s", PICK(g, devs), at);
		gen_mounted_on(g, at);
		break;
	}
	default:
		add_new_api(g, term, k);
		break;
	}
	ns_buf_free(&b);
}

