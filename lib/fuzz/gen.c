/* gen.c - see gen.h. Each operation is picked by weight from the table
 * below; what a terminal's shell state allows (an inner shell to exit, a
 * tree held under @t) changes the odds, never determinism: the only
 * input is the seed's stream. This file keeps the generator's state and
 * draws places; gen_units.c writes each kind of operation's lines
 * (gen_units.h). */
#include "fuzz/gen.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/gen_units.h"
#include "fuzz/rng.h"
#include "scenario/scenario.h"

const char *const gen_dirs[GEN_NDIRS] = {
	"/a", "/b", "/c", "/a/x", "/b/x", "/c/x", "/a/x/y", "/b/x/y",
};
const char *const gen_mount_handles[GEN_NHANDLES] = { "@t", "@u" };

const char *gen_pick(struct gen *g, const char *const *v, size_t n)
{
	return v[ns_rng_below(&g->rng, (unsigned)n)];
}

bool gen_has(const struct gen *g, unsigned feat)
{
	return (g->o->features & feat) != 0;
}

/* A directory, now and then a path that does not exist or "/" itself. */
const char *gen_dir(struct gen *g)
{
	unsigned r = ns_rng_below(&g->rng, 100);

	if (r < 4)
		return "/";
	if (r < 7)
		return "/nonexistent";
	return PICK(g, gen_dirs);
}

void gen_remember(struct gen *g, const char *p)
{
	g->recent[g->next_recent++ % NS_ARRAY_SIZE(g->recent)] = p;
	if (g->nrecent < NS_ARRAY_SIZE(g->recent))
		g->nrecent++;
}

/* Remember place p (a directory path, not a handle) as mounted on, and
 * where a bind made before would show a copy of what is mounted there. */
void gen_mounted_on(struct gen *g, const char *p)
{
	if (p[0] != '/' || !strcmp(p, "/nonexistent"))
		return;
	gen_remember(g, p);
	for (unsigned i = 0; i < g->nbinds; i++) {
		size_t n = strlen(g->binds[i].src);
		if (!strncmp(p, g->binds[i].src, n) && p[n] == '/')
			gen_remember(g, gen_keep(g, xasprintf("%s%s", g->binds[i].dst, p + n)));
	}
}

/* A bind of directory src onto dst was written. */
void gen_bound(struct gen *g, const char *src, const char *dst)
{
	if (src[0] != '/' || dst[0] != '/' || !strcmp(src, "/") || !strcmp(dst, "/"))
		return;
	g->binds[g->nbinds % NS_ARRAY_SIZE(g->binds)].src = src;
	g->binds[g->nbinds % NS_ARRAY_SIZE(g->binds)].dst = dst;
	g->nbinds++;
	if (g->nbinds > NS_ARRAY_SIZE(g->binds))
		g->nbinds = NS_ARRAY_SIZE(g->binds);
}

/* A place something was mounted on lately half the time, else gen_dir(). */
const char *gen_busy_dir(struct gen *g)
{
	if (g->nrecent && ns_rng_pct(&g->rng, 50))
		return g->recent[ns_rng_below(&g->rng, g->nrecent)];
	return gen_dir(g);
}

/* A mount handle of this terminal, or NULL. */
const char *gen_own_handle(struct gen *g, unsigned term)
{
	unsigned h = g->t[term].handles;

	if (!h)
		return NULL;
	for (;;) {
		unsigned k = ns_rng_below(&g->rng, NS_ARRAY_SIZE(gen_mount_handles));
		if (h & (1u << k))
			return gen_mount_handles[k];
	}
}

/* A word made up here, kept until the case is written. */
const char *gen_keep(struct gen *g, char *word)
{
	ns_lines_push(&g->scratch, word);
	free(word);
	return g->scratch.v[g->scratch.n - 1];
}

/* Where a command that takes handles points: mostly a directory, now and
 * then a handle of this terminal or a place in the tree it holds. */
const char *gen_place(struct gen *g, unsigned term)
{
	const char *h = gen_own_handle(g, term);

	if (h && ns_rng_pct(&g->rng, 30))
		return ns_rng_pct(&g->rng, 50) ? h : gen_keep(g, xasprintf("%s/x", h));
	return gen_busy_dir(g);
}

/* A mount to move or open from: a place, or another running terminal's
 * handle (TERM:@NAME). */
const char *gen_source(struct gen *g, unsigned term)
{
	if (ns_rng_pct(&g->rng, 20))
		for (unsigned k = 1; k <= g->nterm; k++)
			if (k != term && g->t[k].seen && g->t[k].handles)
				return gen_keep(g, xasprintf("sh%u:%s", k, gen_own_handle(g, k)));
	return gen_place(g, term);
}

/* A terminal seen before, not term (0 when there is none). */
unsigned gen_other_term(struct gen *g, unsigned term)
{
	unsigned k = 1 + ns_rng_below(&g->rng, g->nterm);

	return k != term && g->t[k].seen ? k : 0;
}

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
	case OP_STATMOUNT: return gen_has(g, NS_FEAT_STATMOUNT) ? 2 : 0;
	case OP_LISTMOUNT: return gen_has(g, NS_FEAT_LISTMOUNT) ? 1 : 0;
	case OP_OPEN_TREE: return gen_has(g, NS_FEAT_OPEN_TREE) ? 4 : 0;
	case OP_OPEN_TREE_ATTR: return gen_has(g, NS_FEAT_OPEN_TREE_ATTR) ? 1 : 0;
	case OP_MOVE_MOUNT:
		return gen_has(g, NS_FEAT_MOVE_MOUNT) ? (t->handles ? 6 : 1) : 0;
	case OP_BENEATH:
		return gen_has(g, NS_FEAT_MOVE_MOUNT_BENEATH) ? (t->handles ? 3 : 1) : 0;
	case OP_SET_GROUP:
		return gen_has(g, NS_FEAT_MOVE_MOUNT_SET_GROUP) ? (g->unbindable ? 6 : 2) : 0;
	case OP_SETATTR: return gen_has(g, NS_FEAT_MOUNT_SETATTR) ? 3 : 0;
	case OP_IDMAP:
		return gen_has(g, NS_FEAT_MOUNT_SETATTR) && g->nterm > 1 ? 1 : 0;
	case OP_CLOSE: return t->handles || t->fc ? 2 : 0;
	case OP_FSMOUNT: return gen_has(g, NS_FEAT_FSMOUNT) ? 2 : 0;
	case OP_FSPICK: return gen_has(g, NS_FEAT_FSMOUNT) ? 1 : 0;
	case OP_NAMESPACE: return gen_has(g, NS_FEAT_OPEN_TREE_NAMESPACE) ? 1 : 0;
	case OP_UNDER_BIND: return g->nbinds ? 4 : 0;
	case OP_MOUNTPOINT: return 1;
	case OP_RMDIR: return 1;
	case OP_MV: return 1;
	case OP_STACK: return g->c->n + STACK_OPS <= g->o->steps ? 4 : 0;
	case OP_STAT: return 2;
	case OP_PATHS: return 3;
	case OP_CAPSH: return 1;
	case OP_WATCH:
		return gen_has(g, NS_FEAT_MOUNT_NOTIFY) ? (t->watch & gen_level_bit(t->depth) ? 4 : 2) : 0;
	case OP_DF: return 1;
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

void gen_add(struct gen *g, unsigned term, const char *cmd)
{
	if (g->c->n < g->o->steps)
		ns_fuzz_case_add(g->c, term, cmd);
}

void gen_addf(struct gen *g, unsigned term, const char *fmt, ...)
{
	struct ns_buf b = NS_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	ns_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	gen_add(g, term, ns_buf_str(&b));
	ns_buf_free(&b);
}

/* Inner shell d's bit in term_state.userns; shells past the 31st (up
 * to --steps 200 may start) share the last bit. */
unsigned gen_level_bit(unsigned d)
{
	return 1u << (d < 31 ? d : 31);
}

void gen_shell_starts(struct gen *g, unsigned term)
{
	g->t[term].depth++;
	g->t[term].userns &= ~gen_level_bit(g->t[term].depth);
	g->t[term].watch &= ~gen_level_bit(g->t[term].depth);
}

/* The inner shell just started entered a user namespace. */
void gen_in_userns(struct gen *g, unsigned term)
{
	g->t[term].userns |= gen_level_bit(g->t[term].depth);
}

/* A place mounted with flags half the time in a terminal that is in a
 * less privileged user namespace, else gen_busy_dir(). */
const char *gen_locked_dir(struct gen *g, unsigned term)
{
	if (g->t[term].userns && g->flagged && ns_rng_pct(&g->rng, 60))
		return g->flagged;
	return gen_busy_dir(g);
}

static void add_op(struct gen *g, unsigned term)
{
	enum op_kind k = pick_kind(g, term);

	g->t[term].seen = true;
	gen_write_op(g, term, k);
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
