/* match.c - see match.h.
 *
 * A step parses its expected and actual lines once, then searches for a
 * pairing (match_search.c) that binds new pairs into the renaming
 * (renaming.h) on its trail. A step that matches keeps them; one that
 * fails undoes them and shows a diff (match_diff.c). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "match/match_step.h"

#define DEFAULT_BUDGET 10000000UL /* line comparisons one step may try */

struct ns_matcher *ns_matcher_new(void)
{
	struct ns_matcher *m = xcalloc(1, sizeof(*m));

	m->ren = ns_renaming_new();
	m->budget = DEFAULT_BUDGET;
	return m;
}

void ns_matcher_free(struct ns_matcher *m)
{
	if (!m)
		return;
	ns_renaming_free(m->ren);
	for (enum ns_renaming_kind k = 0; k < NS_RENAMING_NKINDS; k++)
		ns_keymap_free(&m->origin[k]);
	free(m->places);
	free(m);
}

void ns_matcher_set_budget(struct ns_matcher *m, unsigned long comparisons)
{
	m->budget = comparisons ? comparisons : DEFAULT_BUDGET;
}

/* The expected name of actual number k, or k itself when unbound. */
static struct ns_key expected_name(void *ren, enum ns_renaming_kind kind,
				   struct ns_key k)
{
	const struct ns_key *e = ns_renaming_expected(ren, kind, k);

	return e ? *e : k;
}

_Static_assert(NS_RENAMING_ID == 0 && NS_RENAMING_DEV == 1 && NS_RENAMING_GROUP == 2,
	       "ns_mi_format_names takes the letters of IDs, devices and groups in that order");

static void map_row(const struct ns_match_line *l, ns_match_namer name,
		    void *ctx, const char *letters, struct ns_buf *out);

/* letters: NULL for names written as numbers, else each kind's letter
 * (ns_match_line_name_as); a line that is no record may still name peer
 * groups (match_line.c) */
static void map_mountinfo(const char *line, ns_match_namer name, void *ctx,
			  const char *letters, struct ns_buf *out)
{
	struct ns_mi_line l;
	struct ns_key k;

	if (!ns_mi_parse(line, &l)) {
		struct ns_match_line ml;

		ns_mi_free(&l);
		memset(&ml, 0, sizeof(ml));
		ns_match_line_init(&ml, line, false, NULL);
		if (ml.tab)
			map_row(&ml, name, ctx, letters, out);
		else
			ns_buf_adds(out, line);
		ns_match_line_free(&ml);
		return;
	}
	l.parent = name(ctx, NS_RENAMING_ID, (struct ns_key){ l.parent, 0 }).x;
	l.id = name(ctx, NS_RENAMING_ID, (struct ns_key){ l.id, 0 }).x;
	k = name(ctx, NS_RENAMING_DEV, (struct ns_key){ l.major, l.minor });
	l.major = k.x;
	l.minor = k.y;
	for (size_t i = 0; i < l.ntags; i++)
		if (l.tags[i].numbered)
			l.tags[i].group = name(ctx, NS_RENAMING_GROUP,
					       (struct ns_key){ l.tags[i].group, 0 }).x;
	if (letters)
		ns_mi_format_names(&l, letters, out);
	else
		ns_mi_format(&l, out);
	ns_mi_free(&l);
}

/* A row's numbers named PARENT first, then in their order. */
static void map_row(const struct ns_match_line *l, ns_match_namer name,
		    void *ctx, const char *letters, struct ns_buf *out)
{
	struct ns_key *names = xcalloc(l->nseg + 1, sizeof(*names));

	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < l->nseg; i++)
			if (l->seg[i].type == NS_SEG_NUM && l->seg[i].parent == !pass)
				names[i] = name(ctx, l->seg[i].kind, l->seg[i].k);
	ns_match_table_format(l, names, letters, out);
	free(names);
}

void ns_match_map_numbers(const struct ns_match_shape *shape, const char *line,
			  ns_match_namer name, void *ctx, struct ns_buf *out)
{
	struct ns_match_line l;

	if (!shape) {
		map_mountinfo(line, name, ctx, NULL, out);
		return;
	}
	memset(&l, 0, sizeof(l));
	ns_match_line_init(&l, line, false, shape);
	if (l.tab)
		map_row(&l, name, ctx, NULL, out);
	else
		ns_buf_adds(out, line);
	ns_match_line_free(&l);
}

void ns_matcher_rename(const struct ns_matcher *m, const char *line,
		       struct ns_buf *out)
{
	map_mountinfo(line, expected_name, m->ren, NULL, out);
}

void ns_match_line_name_as(const struct ns_match_line *l, ns_match_namer name,
			   void *ctx, const char *letters, struct ns_buf *out)
{
	if (l->tab)
		map_row(l, name, ctx, letters, out);
	else if (l->mi)
		map_mountinfo(l->text, name, ctx, letters, out);
	else
		ns_buf_adds(out, l->text);
}

void ns_match_line_name(const struct ns_match_line *l, ns_match_namer name,
			void *ctx, struct ns_buf *out)
{
	ns_match_line_name_as(l, name, ctx, NULL, out);
}

void ns_match_line_rename(const struct ns_renaming *r,
			  const struct ns_match_line *l, struct ns_buf *out)
{
	/* expected_name only reads the renaming */
	ns_match_line_name(l, expected_name, (void *)(uintptr_t)r, out);
}

/* ---- a step's lines ----------------------------------------------------- */

/* Size the renaming for every number the step could bind at once, so
 * that a long block does not rehash the tables over and over. */
static void reserve_for(struct ns_match_step *st)
{
	size_t need[NS_RENAMING_NKINDS] = { 0 };

	for (size_t i = 0; i < st->ne; i++) {
		const struct ns_match_line *l = &st->e[i];

		for (size_t k = 0; l->tab && k < l->nseg; k++)
			need[l->seg[k].kind] += l->seg[k].type == NS_SEG_NUM;
		if (!l->mi)
			continue;
		need[NS_RENAMING_ID] += 2;
		need[NS_RENAMING_DEV]++;
		need[NS_RENAMING_GROUP] += l->p.ntags;
	}
	for (enum ns_renaming_kind k = 0; k < NS_RENAMING_NKINDS; k++)
		ns_renaming_reserve(st->m->ren, k, need[k]);
}

/* Cut a copy of text into lines in place: a final line without '\n'
 * counts, a trailing '\n' does not add an empty line. */
static void cut_lines(struct ns_match_step *st, const char *text)
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
		ns_match_line_init(&st->a[st->na++], p, false, st->shape);
		if (!nl)
			break;
		p = nl + 1;
	}
}

static void step_init(struct ns_match_step *st, struct ns_matcher *m,
		      const struct ns_expect *exp, size_t nexp, const char *actual,
		      const struct ns_match_shape *shape)
{
	memset(st, 0, sizeof(*st));
	st->m = m;
	st->exp = exp;
	st->shape = shape;
	st->ne = nexp;
	st->e = xcalloc(st->ne + 1, sizeof(*st->e));
	for (size_t i = 0; i < st->ne; i++) {
		ns_match_line_init(&st->e[i], exp[i].text, true, shape);
		st->nwild += st->e[i].wild;
	}
	cut_lines(st, actual);
	reserve_for(st);
}

static void step_free(struct ns_match_step *st)
{
	for (size_t i = 0; i < st->ne; i++)
		ns_match_line_free(&st->e[i]);
	for (size_t j = 0; j < st->na; j++)
		ns_match_line_free(&st->a[j]);
	free(st->e);
	free(st->a);
	free(st->act);
}

/* ---- views ------------------------------------------------------------ */

_Static_assert(NS_VIEW_IDS == 1u << NS_RENAMING_ID &&
	       NS_VIEW_DEVS == 1u << NS_RENAMING_DEV &&
	       NS_VIEW_GROUPS == 1u << NS_RENAMING_GROUP,
	       "a view's bits name renaming kinds");

void ns_matcher_set_view(struct ns_matcher *m, const struct ns_view *v)
{
	m->view = *v;
	m->has_view = true;
}

/* The bit of the place key names: its own for the first 31 places, the
 * pinned one for an unknown key and for any later place. */
static uint32_t place_bit(struct ns_matcher *m, const uint64_t key[3])
{
	size_t i;
	void *p;

	if (!key[0] && !key[1] && !key[2])
		return NS_RENAMING_PINNED;
	for (i = 0; i < m->nplaces; i++)
		if (!memcmp(m->places[i], key, sizeof(m->places[i])))
			break;
	if (i == m->nplaces) {
		p = m->places;
		ns_grow(&p, &m->placecap, i + 1, sizeof(*m->places));
		m->places = p;
		memcpy(m->places[m->nplaces++], key, sizeof(m->places[i]));
	}
	return i < 31 ? 1u << i : NS_RENAMING_PINNED;
}

/* What the search did not bind still shows: every actual number counts
 * as seen. */
static void see_all(struct ns_match_step *st)
{
	for (size_t j = 0; j < st->na; j++)
		ns_match_line_see(st->m->ren, &st->a[j]);
}

/* After a step that matched: a complete view without "..." takes the
 * pairs it does not show out of its place (renaming.h). Without a "...",
 * every printed line was paired with an expected one, so a number absent
 * from the output is absent from the expected block too. */
void ns_match_release_absent(struct ns_matcher *m, uint32_t bit)
{
	if (!bit || bit == NS_RENAMING_PINNED)
		return;
	for (enum ns_renaming_kind k = 0; k < NS_RENAMING_NKINDS; k++)
		if (m->view.complete & 1u << k)
			ns_renaming_release_unseen(m->ren, k, bit, m->stamp);
}

void ns_matcher_after_step(struct ns_matcher *m, const struct ns_view *v,
			   const struct ns_alive *a)
{
	uint32_t bit;

	if (!a || !a->known)
		return;
	bit = place_bit(m, v->key);
	if (bit == NS_RENAMING_PINNED)
		return;
	/* the step's own stamp: what its output printed stays, alive or not */
	ns_renaming_set_sighting(m->ren, m->stamp, bit);
	for (enum ns_renaming_kind k = 0; k < 3; k++)
		for (size_t i = 0; i < a->n[k]; i++)
			ns_renaming_see(m->ren, k, a->v[k][i]);
	for (enum ns_renaming_kind k = 0; k < 3; k++)
		ns_renaming_release_unseen(m->ren, k, bit, m->stamp);
	ns_renaming_set_sighting(m->ren, 0, 0);
}

uint32_t ns_match_sighting_begin(struct ns_matcher *m)
{
	uint32_t bit = 0;

	if (m->has_view) {
		bit = place_bit(m, m->view.key);
		ns_renaming_set_sighting(m->ren, ++m->stamp, bit);
	}
	ns_renaming_keep(m->ren);
	return bit;
}

void ns_match_sighting_end(struct ns_matcher *m)
{
	ns_renaming_set_sighting(m->ren, 0, 0);
	m->has_view = false;
}

/* ---- where a name was fixed --------------------------------------------- */

struct origins {
	struct ns_matcher *m;
	struct ns_keymap fresh[NS_RENAMING_NKINDS]; /* the names this step bound */
	int line;
};

static void origin_of(void *ctx, enum ns_renaming_kind kind, struct ns_key k)
{
	struct origins *o = ctx;
	struct ns_keymap *om = &o->m->origin[kind], *fresh = &o->fresh[kind];
	size_t slot;

	if (!fresh->cap || !ns_keymap_get(fresh, k))
		return;
	ns_keymap_del(fresh, k); /* the first line that shows it */
	ns_keymap_reserve(om, 1);
	slot = ns_keymap_find(om, k);
	if (ns_keymap_at(om, slot))
		ns_keymap_at(om, slot)->x = (unsigned long)o->line;
	else
		ns_keymap_fill(om, slot, k, (struct ns_key){ (unsigned long)o->line, 0 });
}

/* The pairs the step just bound: each name's first expected line. */
static void record_origins(struct ns_match_step *st)
{
	struct origins o = { .m = st->m };
	size_t n = ns_renaming_mark(st->m->ren);

	if (!n)
		return;
	for (size_t t = 0; t < n; t++) {
		enum ns_renaming_kind kind;
		struct ns_key e;
		struct ns_keymap *f;
		size_t slot;

		ns_renaming_trail_at(st->m->ren, t, &kind, &e);
		f = &o.fresh[kind];
		ns_keymap_reserve(f, 1);
		slot = ns_keymap_find(f, e);
		if (!ns_keymap_at(f, slot))
			ns_keymap_fill(f, slot, e, e);
	}
	for (size_t i = 0; i < st->ne; i++) {
		o.line = st->exp[i].line;
		ns_match_line_numbers(&st->e[i], origin_of, &o);
	}
	for (enum ns_renaming_kind k = 0; k < NS_RENAMING_NKINDS; k++)
		ns_keymap_free(&o.fresh[k]);
}

int ns_match_origin(const struct ns_matcher *m, enum ns_renaming_kind kind, struct ns_key name)
{
	const struct ns_key *line = m->origin[kind].cap ? ns_keymap_get(&m->origin[kind], name) : NULL;

	return line ? (int)line->x : 0;
}

/* ---- a step ------------------------------------------------------------- */

bool ns_matcher_step(struct ns_matcher *m, const struct ns_expect *exp,
		     size_t nexp, bool unordered, const char *actual,
		     struct ns_buf *diff)
{
	return ns_matcher_step_shaped(m, exp, nexp, unordered, actual, NULL, diff);
}

bool ns_matcher_step_shaped(struct ns_matcher *m, const struct ns_expect *exp,
			    size_t nexp, bool unordered, const char *actual,
			    const struct ns_match_shape *shape,
			    struct ns_buf *diff)
{
	struct ns_match_step st;
	uint32_t bit = 0;
	bool ok;

	step_init(&st, m, exp, nexp, actual ? actual : "", shape);
	bit = ns_match_sighting_begin(m);
	m->spent = 0;
	m->gave_up = false;
	ok = unordered ? ns_match_unordered(&st) : ns_match_ordered(&st);
	if (ok) {
		record_origins(&st);
		ns_renaming_keep(m->ren);
		if (bit && st.nwild)
			see_all(&st);
		else
			ns_match_release_absent(m, bit);
	} else {
		ns_renaming_undo_to(m->ren, 0);
		if (diff)
			ns_match_diff(&st, unordered, diff);
		if (bit)
			see_all(&st);
	}
	ns_match_sighting_end(m);
	step_free(&st);
	return ok;
}

const struct ns_renaming *ns_matcher_renaming(const struct ns_matcher *m)
{
	return m->ren;
}
