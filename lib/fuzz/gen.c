/* gen.c - see gen.h. Each operation is picked by weight from the table
 * below; what a terminal's shell state allows (an inner shell to exit, a
 * tree held under @t) changes the odds, never determinism: the only
 * input is the seed's stream. Commands are written the way the parsers
 * of lib/commands/ accept them, so every case parses. */
#include "fuzz/gen.h"

#include <string.h>

#include "fuzz/rng.h"
#include "scenario/scenario.h"

static const char *const dirs[] = { "/a", "/b", "/c", "/a/x", "/b/x", "/c/x" };
static const char *const devs[] = { "/dev/d1", "/dev/d2", "/dev/d3" };
static const char *const makes[] = {
	"shared", "private", "slave", "unbindable",
	"rshared", "rprivate", "rslave", "runbindable",
};
static const char *const unshare_props[] = { "shared", "slave", "private", "unchanged" };
static const char *const setattr_props[] = { "shared", "slave", "private", "unbindable" };

/* What the generator knows of one terminal while it writes. */
struct term_state {
	unsigned depth;         /* inner shells started (unshare) */
	bool handle;            /* open_tree put a tree under @t */
};

struct gen {
	struct ns_rng rng;
	const struct ns_fuzz_gen_opts *o;
	struct ns_fuzz_case *c;
	struct term_state t[NS_FUZZ_MAX_TERMS + 1];
};

static const char *pick(struct gen *g, const char *const *v, size_t n)
{
	return v[ns_rng_below(&g->rng, (unsigned)n)];
}

#define PICK(g, v) pick(g, v, NS_ARRAY_SIZE(v))

/* A directory, now and then a path that does not exist or "/" itself. */
static const char *target(struct gen *g)
{
	unsigned r = ns_rng_below(&g->rng, 100);

	if (r < 4)
		return "/";
	if (r < 7)
		return "/nonexistent";
	return PICK(g, dirs);
}

enum op_kind {
	OP_MKDIR, OP_TOUCH, OP_LS, OP_MOUNT_DEV, OP_BIND, OP_RBIND, OP_MOVE,
	OP_MAKE, OP_MAKE2, OP_UMOUNT, OP_UMOUNT_LAZY, OP_UNSHARE, OP_EXIT,
	OP_UNSHARE_USER, OP_OPEN_TREE, OP_MOVE_MOUNT, OP_SETATTR, OP__COUNT
};

/* Weights out of their sum; the new mount API only where both sides
 * have it (gen_opts.features). */
static unsigned weight(const struct gen *g, unsigned term, enum op_kind k)
{
	const struct term_state *t = &g->t[term];

	switch (k) {
	case OP_MKDIR: return 8;
	case OP_TOUCH: return 2;
	case OP_LS: return 3;
	case OP_MOUNT_DEV: return 14;
	case OP_BIND: return 10;
	case OP_RBIND: return 5;
	case OP_MOVE: return 4;
	case OP_MAKE: return 14;
	case OP_MAKE2: return 2;
	case OP_UMOUNT: return 6;
	case OP_UMOUNT_LAZY: return 3;
	case OP_UNSHARE: return 7;
	case OP_EXIT: return t->depth ? 5 : 1;
	case OP_UNSHARE_USER: return 1;
	case OP_OPEN_TREE:
		return g->o->features & NS_FEAT_OPEN_TREE ? 2 : 0;
	case OP_MOVE_MOUNT:
		return g->o->features & NS_FEAT_MOVE_MOUNT ? (t->handle ? 4 : 1) : 0;
	case OP_SETATTR:
		return g->o->features & NS_FEAT_MOUNT_SETATTR ? 2 : 0;
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

static void add_unshare(struct gen *g, unsigned term)
{
	unsigned r = ns_rng_below(&g->rng, 5);

	if (r == 4)
		ns_fuzz_case_add(g->c, term, "unshare -m sh");
	else
		ns_fuzz_case_addf(g->c, term, "unshare -m --propagation %s sh", unshare_props[r]);
	g->t[term].depth++;
}

static void add_op(struct gen *g, unsigned term)
{
	struct term_state *t = &g->t[term];
	struct ns_fuzz_case *c = g->c;

	switch (pick_kind(g, term)) {
	case OP_MKDIR:
		ns_fuzz_case_addf(c, term, "mkdir -p %s", PICK(g, dirs));
		break;
	case OP_TOUCH:
		ns_fuzz_case_addf(c, term, "touch %s/f", PICK(g, dirs));
		break;
	case OP_LS:
		ns_fuzz_case_addf(c, term, "ls %s", PICK(g, dirs));
		break;
	case OP_MOUNT_DEV:
		ns_fuzz_case_addf(c, term, "mount %s %s", PICK(g, devs), target(g));
		break;
	case OP_BIND:
	case OP_RBIND: {
		const char *src = target(g), *dst = target(g);
		ns_fuzz_case_addf(c, term, "mount --%s %s %s",
				  ns_rng_below(&g->rng, 3) ? "bind" : "rbind", src, dst);
		break;
	}
	case OP_MOVE: {
		const char *src = target(g), *dst = target(g);
		ns_fuzz_case_addf(c, term, "mount --move %s %s", src, dst);
		break;
	}
	case OP_MAKE:
		ns_fuzz_case_addf(c, term, "mount --make-%s %s", PICK(g, makes), target(g));
		break;
	case OP_MAKE2: {
		const char *a = PICK(g, makes), *b = PICK(g, makes);
		ns_fuzz_case_addf(c, term, "mount --make-%s --make-%s %s", a, b, target(g));
		break;
	}
	case OP_UMOUNT:
		ns_fuzz_case_addf(c, term, "umount %s", target(g));
		break;
	case OP_UMOUNT_LAZY:
		ns_fuzz_case_addf(c, term, "umount -l %s", target(g));
		break;
	case OP_UNSHARE:
		add_unshare(g, term);
		break;
	case OP_EXIT:
		ns_fuzz_case_add(c, term, "exit");
		if (t->depth)
			t->depth--;
		else
			t->handle = false; /* the terminal ends */
		break;
	case OP_UNSHARE_USER:
		ns_fuzz_case_add(c, term, "unshare -U -r -m sh");
		t->depth++;
		break;
	case OP_OPEN_TREE: {
		unsigned r = ns_rng_below(&g->rng, 3);
		ns_fuzz_case_addf(c, term, "open_tree %s%s @t",
				  r == 0 ? "-c " : r == 1 ? "-c -R " : "", PICK(g, dirs));
		t->handle = true;
		break;
	}
	case OP_MOVE_MOUNT:
		ns_fuzz_case_addf(c, term, "move_mount @t %s", target(g));
		break;
	case OP_SETATTR:
		ns_fuzz_case_addf(c, term, "mount_setattr %s--propagation %s %s",
				  ns_rng_below(&g->rng, 2) ? "-R " : "", PICK(g, setattr_props),
				  target(g));
		break;
	case OP__COUNT:
		break;
	}
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
	/* the usual opening: directories, and propagation turned on */
	if (c->n < o->steps && ns_rng_pct(&g.rng, 85))
		ns_fuzz_case_add(c, 1, "mkdir -p /a/x /b/x /c/x");
	if (c->n < o->steps && ns_rng_pct(&g.rng, 70))
		ns_fuzz_case_add(c, 1, ns_rng_pct(&g.rng, 80) ? "mount --make-rshared /"
							       : "mount --make-shared /");
	while (c->n < o->steps)
		add_op(&g, 1 + ns_rng_below(&g.rng, nterm));
}
