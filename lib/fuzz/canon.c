/* canon.c - see canon.h. The text is copied once and cut into fields in
 * place; every record's fields, every sort key and the records themselves
 * live in a few arrays of the call (no allocation per line), and each
 * record's parent is found once. tests/unit/test_fuzz_fast.c holds the
 * result to the line-by-line reference it replaced (canon_ref.h). */
#include "fuzz/canon.h"

#include <stdlib.h>
#include <string.h>

/* Fields of a line past these are not read. */
#define MAX_FIELDS 64

struct field {
	const char *s;
	size_t len;
};

struct rec {
	size_t f0, nf;          /* its fields: fields[f0 .. f0 + nf) */
	size_t dash;            /* index of the "-" field, or nf */
	unsigned long id, parent;
	size_t up;              /* index of the parent record, or NONE */
	size_t key;             /* offset of its key in the keys buffer */
	const char *k;          /* the key, once every key is written */
	size_t pos;             /* its name: sorted position, or the round's */
};

#define NONE ((size_t)-1)

/* A call's scratch: the records, their fields and their keys. */
struct table {
	struct rec *v;
	size_t n, cap;
	struct field *f;
	size_t nf, fcap;
	struct ns_buf keys;
};

void ns_fuzz_groups_free(struct ns_fuzz_groups *g)
{
	free(g->from);
	free(g->ids);
	free(g->outside);
	memset(g, 0, sizeof(*g));
}

/* The name (1-based) of number n in the list v, added when new. */
static size_t name_in(unsigned long **v, size_t *n, size_t *cap, unsigned long num)
{
	for (size_t i = 0; i < *n; i++)
		if ((*v)[i] == num)
			return i + 1;
	ns_grow((void **)v, cap, *n + 1, sizeof(**v));
	(*v)[(*n)++] = num;
	return *n;
}

static size_t group_name(struct ns_fuzz_groups *g, unsigned long n)
{
	return name_in(&g->from, &g->n, &g->cap, n);
}

/* A mount ID seen in this round's tables: its name, or 0. */
static size_t id_name(const struct ns_fuzz_groups *g, unsigned long id)
{
	for (size_t i = 0; i < g->nids; i++)
		if (g->ids[i] == id)
			return i + 1;
	return 0;
}

/* A field that is a number and nothing else (strtoul's value). */
static bool number(const char *s, unsigned long *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	*v = strtoul(s, &end, 10);
	return !*end;
}

/* ns_buf_add and ns_buf_addc where the buffer has room and no limit:
 * the canonical form is written a field at a time. */
static inline void put(struct ns_buf *b, const char *s, size_t n)
{
	if (b->max || b->len + n >= b->cap) {
		ns_buf_add(b, s, n);
		return;
	}
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

static inline void putc1(struct ns_buf *b, char c)
{
	put(b, &c, 1);
}

static const struct field *fld(const struct table *t, const struct rec *r, size_t i)
{
	return &t->f[r->f0 + i];
}

/* Cut the line at s (its '\n' or end made '\0' by the caller) into
 * fields in place, as strtok(" ") would, into a new record of t: false,
 * and nothing kept, when it is not a mountinfo record. */
static bool cut(struct table *t, char *s)
{
	struct rec r = { t->nf, 0, 0, 0, 0, NONE, 0, NULL, 0 };
	const struct field *f;

	ns_grow((void **)&t->f, &t->fcap, t->nf + MAX_FIELDS, sizeof(*t->f));
	while (r.nf < MAX_FIELDS) {
		char *e;
		while (*s == ' ')
			s++;
		if (!*s)
			break;
		for (e = s; *e && *e != ' '; e++)
			;
		t->f[t->nf++] = (struct field){ s, (size_t)(e - s) };
		r.nf++;
		s = e;
		if (*s)
			*s++ = '\0';
	}
	f = &t->f[r.f0];
	if (r.nf < 6 || !number(f[0].s, &r.id) || !number(f[1].s, &r.parent) ||
	    !memchr(f[2].s, ':', f[2].len) || f[3].s[0] != '/' || f[4].s[0] != '/') {
		t->nf = r.f0;
		return false;
	}
	r.dash = r.nf;
	for (size_t i = 6; i < r.nf; i++)
		if (f[i].len == 1 && f[i].s[0] == '-') {
			r.dash = i;
			break;
		}
	ns_grow((void **)&t->v, &t->cap, t->n + 1, sizeof(*t->v));
	t->v[t->n++] = r;
	return true;
}

static const struct field *source(const struct table *t, const struct rec *r)
{
	static const struct field none = { "", 0 };

	return r->dash + 2 < r->nf ? fld(t, r, r->dash + 2) : &none;
}

/* The first record with this ID, or NONE. */
static size_t find(const struct table *t, unsigned long id)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].id == id)
			return i;
	return NONE;
}

/* An optional field with its number: "shared:" for shared:12, else NULL. */
static const char *group_tag(const struct field *f, unsigned long *num, size_t *taglen)
{
	static const struct field tags[] = {
		{ "shared:", 7 }, { "master:", 7 }, { "propagate_from:", 15 },
	};

	for (size_t k = 0; k < NS_ARRAY_SIZE(tags); k++)
		if (f->len > tags[k].len && !memcmp(f->s, tags[k].s, tags[k].len) &&
		    number(f->s + tags[k].len, num)) {
			*taglen = tags[k].len;
			return tags[k].s;
		}
	return NULL;
}

/* Record r's key: its ancestry (mount point, root and source of it and
 * of each parent up), then the rest of its line without group numbers. */
static void make_key(struct table *t, struct rec *r)
{
	struct ns_buf *k = &t->keys;
	const struct rec *p = r;
	unsigned long num;
	size_t taglen;

	r->key = k->len;
	/* ancestry, bounded: a table with a cycle still ends */
	for (size_t depth = 0; p && depth <= t->n; depth++) {
		const struct field *src = source(t, p);
		put(k, fld(t, p, 4)->s, fld(t, p, 4)->len);
		putc1(k, '\x01');
		put(k, fld(t, p, 3)->s, fld(t, p, 3)->len);
		putc1(k, '\x01');
		put(k, src->s, src->len);
		putc1(k, '\x02');
		p = p->parent == p->id || p->up == NONE ? NULL : &t->v[p->up];
	}
	putc1(k, '\x03');
	for (size_t i = 5; i < r->nf; i++) {
		const struct field *f = fld(t, r, i);
		const char *tag = group_tag(f, &num, &taglen);
		if (tag)
			put(k, tag, taglen);
		else
			put(k, f->s, f->len);
		putc1(k, ' ');
	}
	putc1(k, '\0');
}

static int by_key(const void *a, const void *b)
{
	const struct rec *x = *(const struct rec *const *)a, *y = *(const struct rec *const *)b;

	return strcmp(x->k, y->k);
}

static void emit(const struct table *t, const struct rec *r, struct ns_fuzz_groups *g,
		 struct ns_buf *out)
{
	const struct field *src = source(t, r);
	bool standin = src->len >= 5 && !memcmp(src->s, "/dev/", 5);
	unsigned long num;
	size_t taglen;

	ns_buf_addu(out, r->pos);
	putc1(out, ' ');
	if (r->up != NONE) {
		ns_buf_addu(out, t->v[r->up].pos);
	} else if (id_name(g, r->parent)) {
		/* a mount of another table of the round */
		ns_buf_addu(out, id_name(g, r->parent));
	} else {
		putc1(out, 'p');
		ns_buf_addu(out, name_in(&g->outside, &g->noutside, &g->outside_cap, r->parent));
	}
	/* MAJ:MIN (field 2) is left out */
	for (size_t i = 3; i < r->nf; i++) {
		const struct field *f = fld(t, r, i);
		const char *tag = i > 5 && i < r->dash ? group_tag(f, &num, &taglen) : NULL;
		putc1(out, ' ');
		if (standin && i == r->dash + 1) {
			/* a stand-in's type is the run's (--devices), not a
			 * mount's: a case may fall back to loop stand-ins on
			 * one side only */
			put(out, "stand-in", 8);
		} else if (standin && i == r->dash + 3) {
			/* of its superblock's options, the read-only state */
			const char *comma = memchr(f->s, ',', f->len);
			put(out, f->s, comma ? (size_t)(comma - f->s) : f->len);
		} else if (tag) {
			put(out, tag, taglen);
			putc1(out, 'g');
			ns_buf_addu(out, group_name(g, num));
		} else {
			put(out, f->s, f->len);
		}
	}
	putc1(out, '\n');
}

void ns_fuzz_canon_mountinfo(const char *text, struct ns_fuzz_groups *g, struct ns_buf *out,
			     struct ns_buf *order)
{
	struct table t = { NULL, 0, 0, NULL, 0, 0, NS_BUF_INIT };
	struct rec **sorted;
	size_t len = strlen(text), nother = 0;
	char *copy = xmalloc(len + 1), *p = copy;
	/* the lines that are no records, as (offset, length) in text */
	size_t (*other)[2] = NULL, ocap = 0;

	memcpy(copy, text, len + 1);
	while (*p) {
		size_t l = strcspn(p, "\n");
		char *next = p + l + (p[l] == '\n');
		p[l] = '\0';
		if (!cut(&t, p)) {
			ns_grow((void **)&other, &ocap, nother + 1, sizeof(*other));
			other[nother][0] = (size_t)(p - copy);
			other[nother++][1] = l;
		}
		p = next;
	}
	sorted = xcalloc(t.n ? t.n : 1, sizeof(*sorted));
	for (size_t i = 0; i < t.n; i++)
		t.v[i].up = find(&t, t.v[i].parent);
	for (size_t i = 0; i < t.n; i++) {
		make_key(&t, &t.v[i]);
		sorted[i] = &t.v[i];
	}
	for (size_t i = 0; i < t.n; i++)
		t.v[i].k = t.keys.data + t.v[i].key;
	qsort(sorted, t.n, sizeof(*sorted), by_key);
	/* names: a mount an earlier table of the round showed keeps its
	 * name, the others continue the count in sorted order */
	for (size_t i = 0; i < t.n; i++)
		sorted[i]->pos = name_in(&g->ids, &g->nids, &g->ids_cap, sorted[i]->id);
	for (size_t i = 0; i < t.n; i++)
		emit(&t, sorted[i], g, out);
	/* from the original text: cutting wrote into the copy */
	for (size_t i = 0; i < nother; i++) {
		ns_buf_add(out, text + other[i][0], other[i][1]);
		ns_buf_addc(out, '\n');
	}
	for (size_t i = 0; order && i < t.n; i++) {
		if (i)
			ns_buf_addc(order, ' ');
		ns_buf_addu(order, t.v[i].pos);
	}
	if (order)
		ns_buf_addc(order, '\n');
	free(copy);
	free(other);
	free(sorted);
	free(t.v);
	free(t.f);
	ns_buf_free(&t.keys);
}
