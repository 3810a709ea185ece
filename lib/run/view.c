/* view.c - see view.h.
 *
 * A filter may drop lines (grep), cut fields (awk) or keep every line and
 * number (sed cutting off the superblock fields). Rather than knowing each
 * filter, the numbers the table held are compared with the numbers the
 * output still shows, kind by kind, so that any filter, present or future,
 * is judged by what it did. */
#include "run/view.h"

#include <string.h>

#include "commands/args.h"
#include "match/keymap.h"
#include "mounts/mountinfo_line.h"
#include "commands/command.h"

bool ns_view_table_step(const struct ns_step *st)
{
	const struct ns_stage *first = st->pipeline.n ? &st->pipeline.stages[0] : NULL;

	return first && first->def && first->args && first->def->whole_table &&
	       first->def->whole_table(first->args);
}

/* One set per kind, in the order of the NS_VIEW_* bits: number -> {seen, 0}. */
struct sets {
	struct ns_keymap k[3];
};

/* Call fn on every renamed number of a record (ID, PARENT, MAJ:MIN, the
 * numbered tags), by kind (0, 1, 2 as NS_VIEW_* bits 0, 1, 2). */
static void each_number(const struct ns_mi_line *l, struct sets *s,
			void (*fn)(struct ns_keymap *, struct ns_key))
{
	fn(&s->k[0], (struct ns_key){ l->id, 0 });
	fn(&s->k[0], (struct ns_key){ l->parent, 0 });
	fn(&s->k[1], (struct ns_key){ l->major, l->minor });
	for (size_t i = 0; i < l->ntags; i++)
		if (l->tags[i].numbered)
			fn(&s->k[2], (struct ns_key){ l->tags[i].group, 0 });
}

static void put(struct ns_keymap *mp, struct ns_key k)
{
	size_t i;

	ns_keymap_reserve(mp, 1);
	i = ns_keymap_find(mp, k);
	if (!ns_keymap_at(mp, i))
		ns_keymap_fill(mp, i, k, (struct ns_key){ 0, 0 });
}

static void mark(struct ns_keymap *mp, struct ns_key k)
{
	struct ns_key *v = mp->cap ? ns_keymap_at(mp, ns_keymap_find(mp, k)) : NULL;

	if (v)
		v->x = 1;
}

/* Visit every line of text[0..len) that is a record (fn NULL: only look
 * at them); false as soon as one is not and all_records is set. */
static bool each_record(const char *text, size_t len, bool all_records,
			struct sets *s, void (*fn)(struct ns_keymap *, struct ns_key))
{
	struct ns_lines lines = NS_LINES_INIT;
	bool ok = true;

	ns_lines_split(&lines, text, len);
	for (size_t i = 0; ok && i < lines.n; i++) {
		struct ns_mi_line l;

		if (!ns_mi_parse(lines.v[i], &l))
			ok = !all_records;
		else if (fn)
			each_number(&l, s, fn);
		ns_mi_free(&l);
	}
	ns_lines_free(&lines);
	return ok;
}

/* Is every number of the set marked? */
static bool all_marked(const struct ns_keymap *mp)
{
	for (size_t i = 0; i < mp->cap; i++)
		if (mp->used[i] && !mp->v[i].v.x)
			return false;
	return true;
}

unsigned ns_view_complete(const char *table, size_t tlen, const char *out,
			  size_t olen)
{
	struct sets s;
	unsigned complete = 0;

	memset(&s, 0, sizeof(s));
	if (out == table && olen == tlen) {
		/* no filter: all of it, if it is all records */
		return each_record(table, tlen, true, &s, NULL) ? NS_VIEW_ALL : 0;
	}
	if (!each_record(table, tlen, true, &s, put))
		goto done;
	each_record(out, olen, false, &s, mark);
	for (unsigned k = 0; k < 3; k++)
		if (all_marked(&s.k[k]))
			complete |= 1u << k;
done:
	for (unsigned k = 0; k < 3; k++)
		ns_keymap_free(&s.k[k]);
	return complete;
}
