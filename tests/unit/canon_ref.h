/* canon_ref.h - the canonical form of mountinfo tables as lib/fuzz/canon.c
 * computed it up to f656e12, line by line on the printed text with
 * strtok and one buffer per key: kept here, unchanged but for its names,
 * as the reference test_fuzz_fast.c holds the faster one to. It shares
 * struct ns_fuzz_groups with canon.h, so a round's renaming is the same
 * data on both sides. */
#ifndef NS_TEST_CANON_REF_H
#define NS_TEST_CANON_REF_H

#include <stdlib.h>
#include <string.h>

#include "fuzz/canon.h"

#define REF_MAX_FIELDS 64

struct ref_rec {
	char *line;             /* a copy, cut into fields in place */
	char *f[REF_MAX_FIELDS];
	size_t nf;
	size_t dash;            /* index of the "-" field, or nf */
	unsigned long id, parent;
	char *key;              /* ancestry, then the rest without numbers */
	size_t pos;             /* its name: sorted position, or the round's */
};


/* The name (1-based) of number n in the list v, added when new. */
static size_t ref_name_in(unsigned long **v, size_t *n, size_t *cap, unsigned long num)
{
	for (size_t i = 0; i < *n; i++)
		if ((*v)[i] == num)
			return i + 1;
	ns_grow((void **)v, cap, *n + 1, sizeof(**v));
	(*v)[(*n)++] = num;
	return *n;
}

static size_t ref_group_name(struct ns_fuzz_groups *g, unsigned long n)
{
	return ref_name_in(&g->from, &g->n, &g->cap, n);
}

/* A mount ID seen in this round's tables: its name, or 0. */
static size_t ref_id_name(const struct ns_fuzz_groups *g, unsigned long id)
{
	for (size_t i = 0; i < g->nids; i++)
		if (g->ids[i] == id)
			return i + 1;
	return 0;
}

static bool ref_number(const char *s, unsigned long *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	*v = strtoul(s, &end, 10);
	return !*end;
}

/* Cut a line into fields; false when it is not a mountinfo record. */
static bool ref_cut(struct ref_rec *r, const char *line, size_t len)
{
	char *save = NULL;

	r->line = xstrndup(line, len);
	r->nf = 0;
	for (char *t = strtok_r(r->line, " ", &save); t && r->nf < REF_MAX_FIELDS;
	     t = strtok_r(NULL, " ", &save))
		r->f[r->nf++] = t;
	if (r->nf < 6 || !ref_number(r->f[0], &r->id) || !ref_number(r->f[1], &r->parent) ||
	    !strchr(r->f[2], ':') || r->f[3][0] != '/' || r->f[4][0] != '/')
		return false;
	r->dash = r->nf;
	for (size_t i = 6; i < r->nf; i++)
		if (!strcmp(r->f[i], "-")) {
			r->dash = i;
			break;
		}
	return true;
}

static const char *ref_source(const struct ref_rec *r)
{
	return r->dash + 2 < r->nf ? r->f[r->dash + 2] : "";
}

static struct ref_rec *ref_find(struct ref_rec *v, size_t n, unsigned long id)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].id == id)
			return &v[i];
	return NULL;
}

/* An optional field with its number: "shared:" for shared:12, else NULL. */
static const char *ref_group_tag(const char *f, unsigned long *num)
{
	static const char *const tags[] = { "shared:", "master:", "propagate_from:" };

	for (size_t k = 0; k < NS_ARRAY_SIZE(tags); k++) {
		size_t l = strlen(tags[k]);
		if (!strncmp(f, tags[k], l) && ref_number(f + l, num))
			return tags[k];
	}
	return NULL;
}

static void ref_make_key(struct ref_rec *v, size_t n, struct ref_rec *r)
{
	struct ns_buf k = NS_BUF_INIT;
	struct ref_rec *p = r;
	unsigned long num;

	/* ancestry, bounded: a table with a cycle still ends */
	for (size_t depth = 0; p && depth <= n; depth++) {
		ns_buf_adds(&k, p->f[4]);
		ns_buf_addc(&k, '\x01');
		ns_buf_adds(&k, p->f[3]);
		ns_buf_addc(&k, '\x01');
		ns_buf_adds(&k, ref_source(p));
		ns_buf_addc(&k, '\x02');
		p = p->parent == p->id ? NULL : ref_find(v, n, p->parent);
	}
	ns_buf_addc(&k, '\x03');
	for (size_t i = 5; i < r->nf; i++) {
		const char *tag = ref_group_tag(r->f[i], &num);
		ns_buf_adds(&k, tag ? tag : r->f[i]);
		ns_buf_addc(&k, ' ');
	}
	r->key = ns_buf_detach(&k);
}

static int ref_by_key(const void *a, const void *b)
{
	const struct ref_rec *x = *(const struct ref_rec *const *)a, *y = *(const struct ref_rec *const *)b;

	return strcmp(x->key, y->key);
}

static void ref_emit(struct ref_rec *v, size_t n, struct ref_rec *r, struct ns_fuzz_groups *g,
		 struct ns_buf *out)
{
	struct ref_rec *p = ref_find(v, n, r->parent);
	unsigned long num;

	ns_buf_addu(out, r->pos);
	ns_buf_addc(out, ' ');
	if (p) {
		ns_buf_addu(out, p->pos);
	} else if (ref_id_name(g, r->parent)) {
		/* a mount of another table of the round */
		ns_buf_addu(out, ref_id_name(g, r->parent));
	} else {
		ns_buf_addc(out, 'p');
		ns_buf_addu(out, ref_name_in(&g->outside, &g->noutside, &g->outside_cap, r->parent));
	}
	/* MAJ:MIN (field 2) is left out */
	for (size_t i = 3; i < r->nf; i++) {
		const char *tag = i > 5 && i < r->dash ? ref_group_tag(r->f[i], &num) : NULL;
		bool standin = !strncmp(ref_source(r), "/dev/", 5);
		ns_buf_addc(out, ' ');
		if (standin && i == r->dash + 1) {
			/* a stand-in's type is the run's (--devices), not a
			 * mount's: a case may fall back to loop stand-ins on
			 * one side only */
			ns_buf_adds(out, "stand-in");
		} else if (standin && i == r->dash + 3) {
			/* of its superblock's options, the read-only state */
			ns_buf_add(out, r->f[i], strcspn(r->f[i], ","));
		} else if (tag) {
			ns_buf_adds(out, tag);
			ns_buf_addc(out, 'g');
			ns_buf_addu(out, ref_group_name(g, num));
		} else {
			ns_buf_adds(out, r->f[i]);
		}
	}
	ns_buf_addc(out, '\n');
}

static void ref_canon_mountinfo(const char *text, struct ns_fuzz_groups *g, struct ns_buf *out,
			     struct ns_buf *order)
{
	struct ref_rec *v = NULL, **sorted;
	struct ns_lines other = NS_LINES_INIT;
	size_t n = 0, cap = 0;
	const char *p = text;

	while (*p) {
		size_t len = strcspn(p, "\n");
		ns_grow((void **)&v, &cap, n + 1, sizeof(*v));
		memset(&v[n], 0, sizeof(v[n]));
		if (ref_cut(&v[n], p, len))
			n++;
		else {
			ns_lines_pushn(&other, p, len);
			free(v[n].line);
		}
		p += len;
		if (*p == '\n')
			p++;
	}
	sorted = xcalloc(n ? n : 1, sizeof(*sorted));
	for (size_t i = 0; i < n; i++) {
		ref_make_key(v, n, &v[i]);
		sorted[i] = &v[i];
	}
	qsort(sorted, n, sizeof(*sorted), ref_by_key);
	/* names: a mount an earlier table of the round showed keeps its
	 * name, the others continue the count in sorted order */
	for (size_t i = 0; i < n; i++)
		sorted[i]->pos = ref_name_in(&g->ids, &g->nids, &g->ids_cap, sorted[i]->id);
	for (size_t i = 0; i < n; i++)
		ref_emit(v, n, sorted[i], g, out);
	for (size_t i = 0; i < other.n; i++) {
		ns_buf_adds(out, other.v[i]);
		ns_buf_addc(out, '\n');
	}
	for (size_t i = 0; order && i < n; i++) {
		if (i)
			ns_buf_addc(order, ' ');
		ns_buf_addu(order, v[i].pos);
	}
	if (order)
		ns_buf_addc(order, '\n');
	for (size_t i = 0; i < n; i++) {
		free(v[i].line);
		free(v[i].key);
	}
	free(v);
	free(sorted);
	ns_lines_free(&other);
}

#endif
