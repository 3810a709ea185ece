/* match.c - see match.h.
 *
 * The renaming is three bijections (mount IDs, devices, peer groups), each
 * a pair of hash maps expected->actual and actual->expected. A step binds
 * new pairs as it goes and records each on a trail, so that a search
 * branch that fails, or a whole step that fails, can be undone exactly. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "match.h"

#define DEFAULT_BUDGET 10000000UL /* line comparisons one step may try */
#define DIFF_CONTEXT 3
#define NONE SIZE_MAX

/* ---- parsing ------------------------------------------------------------ */

/* A decimal as the kernel prints it: digits, no sign, no leading zero. */
static bool parse_num(const char *s, unsigned long *out)
{
	unsigned long v = 0;

	if (!*s || (s[0] == '0' && s[1]))
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		unsigned long d = (unsigned long)(*s - '0');
		if (v > (ULONG_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

/* Cut the space-separated field at *p; *p moves past it, to NULL at the
 * end of the line. An empty field (two spaces) comes back as "". */
static char *cut_field(char **p)
{
	char *f = *p, *sp = strchr(f, ' ');

	if (sp) {
		*sp = '\0';
		*p = sp + 1;
	} else {
		*p = NULL;
	}
	return f;
}

/* shared:N, master:N and propagate_from:N are numbered; any other field
 * is a literal tag. */
static bool parse_tag(char *t, struct ns_mi_tag *tag)
{
	static const char *const numbered[] = { "shared", "master", "propagate_from" };
	char *colon = strchr(t, ':');

	tag->name = t;
	tag->numbered = false;
	if (!*t)
		return false;
	if (!colon || !parse_num(colon + 1, &tag->group))
		return true;
	*colon = '\0';
	for (size_t i = 0; i < NS_ARRAY_SIZE(numbered); i++)
		tag->numbered |= strcmp(t, numbered[i]) == 0;
	if (!tag->numbered)
		*colon = ':'; /* a literal tag keeps its whole text */
	return true;
}

/* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS, fields already cut. */
static bool parse_fixed(char *const f[6], struct ns_mi_line *out)
{
	char *colon = strchr(f[2], ':');

	if (!parse_num(f[0], &out->id) || !parse_num(f[1], &out->parent) || !colon)
		return false;
	*colon = '\0';
	if (!parse_num(f[2], &out->major) || !parse_num(colon + 1, &out->minor))
		return false;
	out->root = f[3];
	out->mountpoint = f[4];
	out->opts = f[5];
	return f[3][0] == '/' && f[4][0] == '/' && f[5][0];
}

/* Optional fields up to a lone "-"; from the space before it on, the line
 * is `rest`, copied after the fields in buf. */
static bool parse_optional(const char *line, size_t len, char *p,
			   struct ns_mi_line *out)
{
	char *buf = out->buf;

	out->rest = buf + len; /* the terminating NUL: "" */
	while (p) {
		char *t = cut_field(&p);
		if (strcmp(t, "-") == 0) {
			size_t off = (size_t)(t - buf) - 1;
			out->rest = buf + len + 1;
			memcpy(out->rest, line + off, len - off + 1);
			return true;
		}
		if (!parse_tag(t, &out->tags[out->ntags++]))
			return false;
	}
	return true;
}

/* One allocation holds the line cut into fields, the rest, and room for
 * as many tags as there are fields past the sixth. */
static void alloc_copy(const char *line, size_t len, size_t nspaces,
		       struct ns_mi_line *out)
{
	size_t align = _Alignof(struct ns_mi_tag);
	size_t text = (2 * len + 2 + align - 1) / align * align;

	out->buf = xmalloc(text + (nspaces - 5) * sizeof(*out->tags) + 1);
	out->tags = (struct ns_mi_tag *)(void *)(out->buf + text);
	memcpy(out->buf, line, len + 1);
}

bool ns_mi_parse(const char *line, struct ns_mi_line *out)
{
	size_t len = strlen(line), nspaces = 0;
	char *f[6], *p;

	memset(out, 0, sizeof(*out));
	for (const char *c = line; *c; c++)
		nspaces += *c == ' ';
	if (nspaces < 5)
		return false; /* fewer than six fields */
	alloc_copy(line, len, nspaces, out);
	p = out->buf;
	for (size_t i = 0; i < 6; i++) {
		f[i] = cut_field(&p);
		if (!*f[i])
			goto fail;
	}
	if (parse_fixed(f, out) && parse_optional(line, len, p, out))
		return true;
fail:
	ns_mi_free(out);
	return false;
}

void ns_mi_free(struct ns_mi_line *l)
{
	free(l->buf); /* tags live in the same block */
	memset(l, 0, sizeof(*l));
}

/* ---- bijections ---------------------------------------------------------- */

/* A number as the renaming sees it; devices use both halves. */
struct key {
	unsigned long x, y;
};

static bool key_eq(struct key a, struct key b)
{
	return a.x == b.x && a.y == b.y;
}

static size_t key_hash(struct key k)
{
	uint64_t h = (uint64_t)k.x * 0x9e3779b97f4a7c15ULL ^ (uint64_t)k.y;

	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 29;
	return (size_t)h;
}

/* Open addressing with linear probing; cap is a power of two and the
 * table is at most half full. `used` sits apart from the slots so that a
 * probe mostly touches one small array. */
struct map {
	struct slot {
		struct key k, v;
	} *v;
	unsigned char *used;
	size_t cap, n;
};

static size_t map_next(const struct map *mp, size_t i)
{
	return (i + 1) & (mp->cap - 1);
}

static size_t map_home(const struct map *mp, struct key k)
{
	return key_hash(k) & (mp->cap - 1);
}

/* The slot holding k, or the free slot where k would go (cap > 0). */
static size_t map_find(const struct map *mp, struct key k)
{
	size_t i = map_home(mp, k);

	while (mp->used[i] && !key_eq(mp->v[i].k, k))
		i = map_next(mp, i);
	return i;
}

static const struct key *map_get(const struct map *mp, struct key k)
{
	size_t i;

	if (!mp->cap)
		return NULL;
	i = map_find(mp, k);
	return mp->used[i] ? &mp->v[i].v : NULL;
}

/* Make room for `extra` more keys, so that map_find's free slot stays
 * valid while they go in. */
static void map_reserve(struct map *mp, size_t extra)
{
	struct map old = *mp;
	size_t cap = old.cap ? old.cap : 16;

	while (2 * (mp->n + extra) > cap)
		cap *= 2;
	if (cap == old.cap)
		return;
	mp->cap = cap;
	mp->v = xmalloc(cap * sizeof(*mp->v));
	mp->used = xcalloc(cap, 1);
	for (size_t i = 0; i < old.cap; i++) {
		if (!old.used[i])
			continue;
		size_t j = map_find(mp, old.v[i].k);
		mp->v[j] = old.v[i];
		mp->used[j] = 1;
	}
	free(old.v);
	free(old.used);
}

/* Fill the free slot i (from map_find after map_reserve) with k -> v. */
static void map_fill(struct map *mp, size_t i, struct key k, struct key v)
{
	mp->v[i] = (struct slot){ k, v };
	mp->used[i] = 1;
	mp->n++;
}

/* Remove k, then pull later entries of its probe run back into the hole
 * so that every remaining key is still found from its home slot. */
static void map_del(struct map *mp, struct key k)
{
	size_t i = map_find(mp, k);

	mp->used[i] = 0;
	mp->n--;
	for (size_t j = map_next(mp, i); mp->used[j]; j = map_next(mp, j)) {
		size_t h = map_home(mp, mp->v[j].k);
		bool stays = i <= j ? (i < h && h <= j) : (i < h || h <= j);
		if (stays)
			continue;
		mp->v[i] = mp->v[j];
		mp->used[i] = 1;
		mp->used[j] = 0;
		i = j;
	}
}

enum kind { K_ID, K_DEV, K_GROUP, NKINDS };

struct bij {
	struct map fwd, rev; /* expected -> actual, actual -> expected */
};

struct trail {
	enum kind kind;
	struct key e, a;
};

struct ns_matcher {
	struct bij bij[NKINDS];
	struct trail *trail; /* bindings made by the step under way */
	size_t ntrail, trailcap;
	unsigned long budget, spent;
	bool gave_up;
};

struct ns_matcher *ns_matcher_new(void)
{
	struct ns_matcher *m = xcalloc(1, sizeof(*m));

	m->budget = DEFAULT_BUDGET;
	return m;
}

void ns_matcher_free(struct ns_matcher *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < NKINDS; i++) {
		free(m->bij[i].fwd.v);
		free(m->bij[i].fwd.used);
		free(m->bij[i].rev.v);
		free(m->bij[i].rev.used);
	}
	free(m->trail);
	free(m);
}

void ns_matcher_set_budget(struct ns_matcher *m, unsigned long comparisons)
{
	m->budget = comparisons ? comparisons : DEFAULT_BUDGET;
}

/* Would e <-> a fit the renaming as it stands? */
static bool fits(const struct ns_matcher *m, enum kind kind, struct key e,
		 struct key a)
{
	const struct key *have = map_get(&m->bij[kind].fwd, e);

	if (have)
		return key_eq(*have, a);
	return !map_get(&m->bij[kind].rev, a);
}

/* Make e <-> a part of the renaming; false if either is taken otherwise. */
static bool bind(struct ns_matcher *m, enum kind kind, struct key e,
		 struct key a)
{
	struct map *fwd = &m->bij[kind].fwd, *rev = &m->bij[kind].rev;
	void *t = m->trail;
	size_t i, j;

	map_reserve(fwd, 1);
	map_reserve(rev, 1);
	i = map_find(fwd, e);
	if (fwd->used[i])
		return key_eq(fwd->v[i].v, a);
	j = map_find(rev, a);
	if (rev->used[j])
		return false;
	map_fill(fwd, i, e, a);
	map_fill(rev, j, a, e);
	ns_grow(&t, &m->trailcap, m->ntrail + 1, sizeof(*m->trail));
	m->trail = t;
	m->trail[m->ntrail++] = (struct trail){ kind, e, a };
	return true;
}

/* Forget the bindings made since the trail was `mark` long. */
static void undo_to(struct ns_matcher *m, size_t mark)
{
	while (m->ntrail > mark) {
		struct trail *t = &m->trail[--m->ntrail];
		map_del(&m->bij[t->kind].fwd, t->e);
		map_del(&m->bij[t->kind].rev, t->a);
	}
}

/* ---- one line against another --------------------------------------------- */

/* A line of a step: expected or actual, parsed once. */
struct pline {
	const char *text;
	bool wild;            /* an expected "..." */
	bool mi;              /* parsed as mountinfo into p */
	struct ns_mi_line p;
};

/* The i-th renamable number of a record: 0 ID, 1 PARENT, 2 MAJ:MIN, then
 * one per tag. False for a literal tag, which has none. */
static bool number_at(const struct ns_mi_line *l, size_t i, enum kind *kind,
		      struct key *k)
{
	if (i < 2) {
		*kind = K_ID;
		*k = (struct key){ i ? l->parent : l->id, 0 };
		return true;
	}
	if (i == 2) {
		*kind = K_DEV;
		*k = (struct key){ l->major, l->minor };
		return true;
	}
	if (!l->tags[i - 3].numbered)
		return false;
	*kind = K_GROUP;
	*k = (struct key){ l->tags[i - 3].group, 0 };
	return true;
}

/* Everything the renaming does not touch is equal. */
static bool same_shape(const struct ns_mi_line *e, const struct ns_mi_line *a)
{
	if (strcmp(e->root, a->root) || strcmp(e->mountpoint, a->mountpoint) ||
	    strcmp(e->opts, a->opts) || strcmp(e->rest, a->rest) ||
	    e->ntags != a->ntags)
		return false;
	for (size_t i = 0; i < e->ntags; i++)
		if (e->tags[i].numbered != a->tags[i].numbered ||
		    strcmp(e->tags[i].name, a->tags[i].name))
			return false;
	return true;
}

static bool same_literally(const struct pline *e, const struct pline *a)
{
	if (e->mi != a->mi)
		return false;
	return e->mi ? same_shape(&e->p, &a->p) : strcmp(e->text, a->text) == 0;
}

/* e matches a under the renaming, extended by whatever pairs a needs.
 * On false, some of those pairs may be bound: the caller undoes them. */
static bool line_bind(struct ns_matcher *m, const struct pline *e,
		      const struct pline *a)
{
	enum kind kind;
	struct key ke, ka;

	if (!same_literally(e, a))
		return false;
	for (size_t i = 0; e->mi && i < 3 + e->p.ntags; i++) {
		if (number_at(&e->p, i, &kind, &ke) && number_at(&a->p, i, &kind, &ka) &&
		    !bind(m, kind, ke, ka))
			return false;
	}
	return true;
}

/* e could match a without contradicting the renaming as it stands (the
 * line's own numbers are not checked against each other). */
static bool line_fits(const struct ns_matcher *m, const struct pline *e,
		      const struct pline *a)
{
	enum kind kind;
	struct key ke, ka;

	if (!same_literally(e, a))
		return false;
	for (size_t i = 0; e->mi && i < 3 + e->p.ntags; i++) {
		if (number_at(&e->p, i, &kind, &ke) && number_at(&a->p, i, &kind, &ka) &&
		    !fits(m, kind, ke, ka))
			return false;
	}
	return true;
}

/* line_bind for the searches, which may take exponentially many tries:
 * past the budget every try fails and the step is reported as given up. */
static bool try_bind(struct ns_matcher *m, const struct pline *e,
		     const struct pline *a)
{
	if (m->spent >= m->budget) {
		m->gave_up = true;
		return false;
	}
	m->spent++;
	return line_bind(m, e, a);
}

/* The expected name of actual number k, or k itself when unbound. */
static struct key expected_name(const struct ns_matcher *m, enum kind kind,
				struct key k)
{
	const struct key *e = map_get(&m->bij[kind].rev, k);

	return e ? *e : k;
}

void ns_matcher_rename(const struct ns_matcher *m, const char *line,
		       struct ns_buf *out)
{
	struct ns_mi_line l;
	struct key k;

	if (!ns_mi_parse(line, &l)) {
		ns_buf_adds(out, line);
		return;
	}
	k = expected_name(m, K_ID, (struct key){ l.id, 0 });
	ns_buf_addf(out, "%lu ", k.x);
	k = expected_name(m, K_ID, (struct key){ l.parent, 0 });
	ns_buf_addf(out, "%lu ", k.x);
	k = expected_name(m, K_DEV, (struct key){ l.major, l.minor });
	ns_buf_addf(out, "%lu:%lu %s %s %s", k.x, k.y, l.root, l.mountpoint, l.opts);
	for (size_t i = 0; i < l.ntags; i++) {
		ns_buf_addf(out, " %s", l.tags[i].name);
		if (l.tags[i].numbered) {
			k = expected_name(m, K_GROUP, (struct key){ l.tags[i].group, 0 });
			ns_buf_addf(out, ":%lu", k.x);
		}
	}
	ns_buf_adds(out, l.rest);
	ns_mi_free(&l);
}

/* ---- a step's lines ----------------------------------------------------- */

struct step {
	struct ns_matcher *m;
	struct pline *e, *a;
	size_t ne, na;
	size_t nwild;
	char *act;            /* the actual text, cut into lines */
};

static void pline_init(struct pline *l, const char *text, bool expected)
{
	l->text = text;
	l->wild = expected && strcmp(text, "...") == 0;
	l->mi = !l->wild && ns_mi_parse(text, &l->p);
}

/* Size the renaming for every number the step could bind at once, so
 * that a long block does not rehash the tables over and over. */
static void reserve_for(struct step *st)
{
	size_t need[NKINDS] = { 0 };

	for (size_t i = 0; i < st->ne; i++) {
		if (!st->e[i].mi)
			continue;
		need[K_ID] += 2;
		need[K_DEV]++;
		need[K_GROUP] += st->e[i].p.ntags;
	}
	for (size_t k = 0; k < NKINDS; k++) {
		map_reserve(&st->m->bij[k].fwd, need[k]);
		map_reserve(&st->m->bij[k].rev, need[k]);
	}
}

/* Cut a copy of text into lines in place: a final line without '\n'
 * counts, a trailing '\n' does not add an empty line. */
static void cut_lines(struct step *st, const char *text)
{
	size_t len = strlen(text), n = 0;
	char *p;

	st->act = xstrdup(text);
	for (size_t i = 0; i < len; i++)
		n += text[i] == '\n';
	n += len && text[len - 1] != '\n';
	st->a = xcalloc(n + 1, sizeof(*st->a));
	for (p = st->act; *p;) {
		char *nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		pline_init(&st->a[st->na++], p, false);
		if (!nl)
			break;
		p = nl + 1;
	}
}

static void step_init(struct step *st, struct ns_matcher *m,
		      const struct ns_expect *exp, size_t nexp, const char *actual)
{
	memset(st, 0, sizeof(*st));
	st->m = m;
	st->ne = nexp;
	st->e = xcalloc(st->ne + 1, sizeof(*st->e));
	for (size_t i = 0; i < st->ne; i++) {
		pline_init(&st->e[i], exp[i].text, true);
		st->nwild += st->e[i].wild;
	}
	cut_lines(st, actual);
	reserve_for(st);
}

static void step_free(struct step *st)
{
	for (size_t i = 0; i < st->ne; i++)
		ns_mi_free(&st->e[i].p);
	for (size_t j = 0; j < st->na; j++)
		ns_mi_free(&st->a[j].p);
	free(st->e);
	free(st->a);
	free(st->act);
}

/* ---- ordered blocks ------------------------------------------------------ */

struct ordered {
	struct step *st;
	size_t *need;         /* need[i]: non-wild lines in e[i..ne) */
	bool *wild_from;      /* wild_from[i]: a "..." somewhere in e[i..ne) */
};

/* Match e[i..) against a[j..), trying each split at every "...". */
static bool ordered_from(struct ordered *o, size_t i, size_t j)
{
	struct step *st = o->st;

	for (; i < st->ne && !st->e[i].wild; i++, j++)
		if (j >= st->na || !try_bind(st->m, &st->e[i], &st->a[j]))
			return false;
	if (i == st->ne)
		return j == st->na;
	while (i < st->ne && st->e[i].wild)
		i++; /* "... ..." is one "..." */
	if (st->na - j < o->need[i])
		return false;
	size_t last = st->na - o->need[i];
	/* after the last "..." the tail has a fixed length */
	for (size_t k = o->wild_from[i] ? j : last; k <= last; k++) {
		size_t mark = st->m->ntrail;
		if (ordered_from(o, i, k))
			return true;
		undo_to(st->m, mark);
		if (st->m->gave_up)
			return false;
	}
	return false;
}

static bool match_ordered(struct step *st)
{
	struct ordered o = { st, xcalloc(st->ne + 1, sizeof(size_t)),
			     xcalloc(st->ne + 1, sizeof(bool)) };
	bool ok;

	for (size_t i = st->ne; i-- > 0;) {
		o.need[i] = o.need[i + 1] + !st->e[i].wild;
		o.wild_from[i] = o.wild_from[i + 1] || st->e[i].wild;
	}
	ok = ordered_from(&o, 0, 0);
	free(o.need);
	free(o.wild_from);
	return ok;
}

/* ---- unordered blocks ---------------------------------------------------- */

/* The actual lines chained by signature, in their order, so that the
 * candidates for an expected line are found in one lookup. */
struct uindex {
	struct map heads;     /* (signature, is record) -> first line, or NONE */
	size_t *next;         /* the next line with the same signature, or NONE */
	bool *used;           /* taken by an expected line */
};

static uint64_t fnv(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return (h ^ 0x100) * 0x100000001b3ULL; /* end of field */
}

/* A hash of what must be equal literally, and of whether l is a record. */
static struct key signature(const struct pline *l)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	if (!l->mi)
		return (struct key){ (unsigned long)fnv(h, l->text), 0 };
	h = fnv(fnv(fnv(fnv(h, l->p.root), l->p.mountpoint), l->p.opts), l->p.rest);
	for (size_t i = 0; i < l->p.ntags; i++)
		h = fnv(h, l->p.tags[i].numbered ? "#" : l->p.tags[i].name);
	return (struct key){ (unsigned long)h, 1 };
}

static void uindex_init(struct uindex *ix, const struct step *st)
{
	memset(&ix->heads, 0, sizeof(ix->heads));
	map_reserve(&ix->heads, st->na);
	ix->next = xcalloc(st->na + 1, sizeof(*ix->next));
	ix->used = xcalloc(st->na + 1, sizeof(*ix->used));
	for (size_t j = st->na; j-- > 0;) {
		struct key sig = signature(&st->a[j]);
		size_t i = map_find(&ix->heads, sig);
		if (!ix->heads.used[i])
			map_fill(&ix->heads, i, sig, (struct key){ NONE, 0 });
		ix->next[j] = ix->heads.v[i].v.x;
		ix->heads.v[i].v.x = j;
	}
}

static void uindex_free(struct uindex *ix)
{
	free(ix->heads.v);
	free(ix->heads.used);
	free(ix->next);
	free(ix->used);
}

/* Where the chain of e's candidates starts: a slot's value, or NULL. */
static unsigned long *chain(struct uindex *ix, const struct pline *e)
{
	size_t i = map_find(&ix->heads, signature(e));

	return ix->heads.used[i] ? &ix->heads.v[i].v.x : NULL;
}

/* Take an actual line equal to literal line e out of its chain. Equal
 * lines are interchangeable, so this needs no search. */
static size_t take_literal(struct uindex *ix, const struct step *st,
			   const struct pline *e)
{
	unsigned long *link = chain(ix, e);

	for (; link && *link != NONE; link = &ix->next[*link]) {
		size_t j = *link;
		if (strcmp(st->a[j].text, e->text) == 0) {
			*link = ix->next[j];
			ix->used[j] = true;
			return j;
		}
	}
	return NONE;
}

/* Give every literal expected line its own equal actual line. partner, if
 * not NULL, records the choice (or NONE) and lets the walk go on past a
 * line without one. */
static bool take_literals(const struct step *st, struct uindex *ix,
			  size_t *partner)
{
	for (size_t i = 0; i < st->ne; i++) {
		if (st->e[i].wild || st->e[i].mi)
			continue;
		size_t j = take_literal(ix, st, &st->e[i]);
		if (j == NONE && !partner)
			return false;
		if (partner)
			partner[i] = j;
	}
	return true;
}

/* The first candidate of e, or NONE. */
static size_t first_cand(struct uindex *ix, const struct pline *e)
{
	const unsigned long *head = chain(ix, e);

	return head ? *head : NONE;
}

/* Where the pairing search stands for one expected record. */
struct frame {
	size_t pos;           /* the next candidate to try, or NONE */
	size_t j, mark;       /* the partner taken, the trail before it */
};

/* Bind e to the next unused candidate of f that fits. */
static bool next_partner(struct step *st, struct uindex *ix,
			 const struct pline *e, struct frame *f)
{
	while (f->pos != NONE) {
		size_t j = f->pos;
		f->pos = ix->next[j];
		if (ix->used[j])
			continue;
		f->mark = st->m->ntrail;
		if (try_bind(st->m, e, &st->a[j])) {
			ix->used[j] = true;
			f->j = j;
			return true;
		}
		undo_to(st->m, f->mark);
		if (st->m->gave_up)
			return false;
	}
	return false;
}

/* Pair every expected record with its own actual record, backtracking
 * (without recursion, blocks can be long) when a choice leads nowhere. */
static bool pair_records(struct step *st, struct uindex *ix)
{
	struct frame *f = xcalloc(st->ne + 1, sizeof(*f));
	size_t *rec = xcalloc(st->ne + 1, sizeof(*rec)), n = 0, t = 0;

	for (size_t i = 0; i < st->ne; i++)
		if (st->e[i].mi)
			rec[n++] = i;
	if (n)
		f[0].pos = first_cand(ix, &st->e[rec[0]]);
	while (t < n) {
		if (next_partner(st, ix, &st->e[rec[t]], &f[t])) {
			if (++t < n)
				f[t].pos = first_cand(ix, &st->e[rec[t]]);
			continue;
		}
		if (t == 0 || st->m->gave_up)
			break;
		t--;
		ix->used[f[t].j] = false;
		undo_to(st->m, f[t].mark);
	}
	free(f);
	free(rec);
	return t == n;
}

static bool match_unordered(struct step *st)
{
	size_t nreg = st->ne - st->nwild;
	struct uindex ix;
	bool ok;

	if (st->nwild ? nreg > st->na : nreg != st->na)
		return false;
	uindex_init(&ix, st);
	ok = take_literals(st, &ix, NULL) && pair_records(st, &ix);
	uindex_free(&ix);
	return ok;
}

/* ---- the diff of a failed step ------------------------------------------- */

static bool diff_eq(const struct ns_diff_input *in, size_t i, size_t j)
{
	const struct step *st = in->ctx;

	return line_fits(st->m, &st->e[i], &st->a[j]);
}

static bool diff_wild(const struct ns_diff_input *in, size_t i)
{
	const struct step *st = in->ctx;

	return st->e[i].wild;
}

/* Ordered: the shortest diff over "fits the renaming so far", whose kept
 * pairs are then bound in order, so that a pair contradicting an earlier
 * one of the same step shows as -/+ rather than as context. */
static void layout_ordered(struct step *st, const char *const *et,
			   const char *const *at, struct ns_diff *d, size_t *order)
{
	struct ns_diff raw = NS_DIFF_INIT;
	struct ns_diff_input in = { et, st->ne, at, st->na, diff_eq, diff_wild,
				    st, 0 };

	ns_diff_compute(&in, &raw);
	for (size_t k = 0; k < raw.n; k++) {
		struct ns_diff_edit ed = raw.v[k];
		size_t mark = st->m->ntrail;
		if (ed.op == NS_DIFF_SAME && !st->e[ed.a].wild &&
		    !line_bind(st->m, &st->e[ed.a], &st->a[ed.b])) {
			undo_to(st->m, mark);
			ns_diff_push(d, NS_DIFF_DEL, ed.a, ed.b, 0);
			ns_diff_push(d, NS_DIFF_ADD, ed.a + 1, ed.b, 0);
			continue;
		}
		ns_diff_push(d, ed.op, ed.a, ed.b, ed.nb);
	}
	for (size_t j = 0; j < st->na; j++)
		order[j] = j;
	ns_diff_free(&raw);
}

/* The first unused candidate that e binds with, or NONE. */
static size_t greedy_partner(struct step *st, struct uindex *ix,
			     const struct pline *e)
{
	for (size_t j = first_cand(ix, e); j != NONE; j = ix->next[j]) {
		size_t mark = st->m->ntrail;
		if (ix->used[j])
			continue;
		if (line_bind(st->m, e, &st->a[j])) {
			ix->used[j] = true;
			return j;
		}
		undo_to(st->m, mark);
	}
	return NONE;
}

/* Append the actual lines no expected line took to order[] from bpos on;
 * return the new end. */
static size_t put_leftovers(const struct step *st, const struct uindex *ix,
			    size_t *order, size_t bpos)
{
	for (size_t j = 0; j < st->na; j++)
		if (!ix->used[j])
			order[bpos++] = j;
	return bpos;
}

/* Unordered: expected lines in their order, each next to the actual line
 * a first-fit pairing gave it. Lines nobody took go where the first "..."
 * is, which absorbs them, or at the end as additions. */
static void layout_unordered(struct step *st, struct ns_diff *d, size_t *order)
{
	size_t *partner = xcalloc(st->ne, sizeof(*partner));
	size_t bpos = 0, taken = 0;
	bool absorbed = false;
	struct uindex ix;

	uindex_init(&ix, st);
	for (size_t i = 0; i < st->ne; i++)
		partner[i] = NONE;
	take_literals(st, &ix, partner);
	for (size_t i = 0; i < st->ne; i++) {
		if (st->e[i].mi)
			partner[i] = greedy_partner(st, &ix, &st->e[i]);
		taken += partner[i] != NONE;
	}
	for (size_t i = 0; i < st->ne; i++) {
		if (st->e[i].wild) {
			size_t nb = absorbed ? 0 : st->na - taken;
			ns_diff_push(d, NS_DIFF_SAME, i, bpos, nb);
			if (!absorbed)
				bpos = put_leftovers(st, &ix, order, bpos);
			absorbed = true;
		} else if (partner[i] != NONE) {
			ns_diff_push(d, NS_DIFF_SAME, i, bpos, 1);
			order[bpos++] = partner[i];
		} else {
			ns_diff_push(d, NS_DIFF_DEL, i, bpos, 0);
		}
	}
	for (size_t p = bpos; !absorbed && p < st->na; p++)
		ns_diff_push(d, NS_DIFF_ADD, st->ne, p, 0);
	if (!absorbed)
		put_leftovers(st, &ix, order, bpos);
	uindex_free(&ix);
	free(partner);
}

/* Append the unified diff of a failed step. The renaming is the one from
 * before the step plus the pairs the diff shows as matching; it is undone
 * before returning. */
static void write_diff(struct step *st, bool unordered, struct ns_buf *out)
{
	const char **et = xcalloc(st->ne + 1, sizeof(*et));
	const char **at = xcalloc(st->na + 1, sizeof(*at));
	char **shown = xcalloc(st->na + 1, sizeof(*shown));
	size_t *order = xcalloc(st->na + 1, sizeof(*order));
	struct ns_diff d = NS_DIFF_INIT;
	struct ns_buf line = NS_BUF_INIT;

	for (size_t i = 0; i < st->ne; i++)
		et[i] = st->e[i].text;
	for (size_t j = 0; j < st->na; j++)
		at[j] = st->a[j].text;
	if (unordered)
		layout_unordered(st, &d, order);
	else
		layout_ordered(st, et, at, &d, order);
	for (size_t p = 0; p < st->na; p++) {
		ns_matcher_rename(st->m, st->a[order[p]].text, &line);
		shown[p] = ns_buf_detach(&line);
	}
	if (st->m->gave_up)
		ns_buf_addf(out, "# gave up after %lu line comparisons: too many "
			    "ways to pair these lines\n", st->m->budget);
	ns_buf_adds(out, "--- expected\n+++ actual\n");
	ns_diff_hunks(&d, et, (const char *const *)shown, DIFF_CONTEXT, out);
	undo_to(st->m, 0);
	for (size_t p = 0; p < st->na; p++)
		free(shown[p]);
	free(shown);
	free(order);
	free(et);
	free(at);
	ns_diff_free(&d);
}

/* ---- a step ------------------------------------------------------------- */

bool ns_matcher_step(struct ns_matcher *m, const struct ns_expect *exp,
		     size_t nexp, bool unordered, const char *actual,
		     struct ns_buf *diff)
{
	struct step st;
	bool ok;

	step_init(&st, m, exp, nexp, actual ? actual : "");
	m->ntrail = 0;
	m->spent = 0;
	m->gave_up = false;
	ok = unordered ? match_unordered(&st) : match_ordered(&st);
	if (ok) {
		m->ntrail = 0; /* keep the bindings */
	} else {
		undo_to(m, 0);
		if (diff)
			write_diff(&st, unordered, diff);
	}
	step_free(&st);
	return ok;
}
