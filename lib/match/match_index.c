/* match_index.c - an unordered block's actual lines chained by signature
 * (a hash of what must be equal literally), so that the unordered search
 * and the diff of a failed unordered step find an expected line's
 * candidates in one lookup. */
#include "match/match_step.h"

#include <string.h>

#include "base/util.h"

#define NONE NS_MATCH_NONE

static uint64_t fnvn(uint64_t h, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
	return (h ^ 0x100) * 0x100000001b3ULL; /* end of field */
}

static uint64_t fnv(uint64_t h, const char *s)
{
	return fnvn(h, s, strlen(s));
}

/* A hash of what must be equal literally, and of l's kind: literal,
 * mountinfo record or findmnt row. */
struct ns_key ns_match_line_signature(const struct ns_match_line *l)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	if (l->tab) {
		/* the text pieces, and where the numbers and blanks are */
		for (size_t i = 0; i < l->nseg; i++) {
			const struct ns_match_seg *s = &l->seg[i];

			if (s->type == NS_SEG_TEXT)
				h = fnvn(h, s->s, s->len);
			else
				h = fnv(h, s->type == NS_SEG_NUM ? "#" : " ");
		}
		return (struct ns_key){ (unsigned long)h, 2 };
	}
	if (!l->mi)
		return (struct ns_key){ (unsigned long)fnv(h, l->text), 0 };
	h = fnv(fnv(fnv(fnv(h, l->p.root), l->p.mountpoint), l->p.opts), l->p.rest);
	for (size_t i = 0; i < l->p.ntags; i++)
		h = fnv(h, l->p.tags[i].numbered ? "#" : l->p.tags[i].name);
	return (struct ns_key){ (unsigned long)h, 1 };
}

void ns_match_index_init(struct ns_match_index *ix,
			 const struct ns_match_step *st)
{
	ix->heads = (struct ns_keymap)NS_KEYMAP_INIT;
	ns_keymap_reserve(&ix->heads, st->na);
	ix->next = xcalloc(st->na + 1, sizeof(*ix->next));
	ix->used = xcalloc(st->na + 1, sizeof(*ix->used));
	for (size_t j = st->na; j-- > 0;) {
		struct ns_key sig = ns_match_line_signature(&st->a[j]);
		size_t i = ns_keymap_find(&ix->heads, sig);
		if (!ns_keymap_at(&ix->heads, i))
			ns_keymap_fill(&ix->heads, i, sig, (struct ns_key){ NONE, 0 });
		struct ns_key *head = ns_keymap_at(&ix->heads, i);
		ix->next[j] = head->x;
		head->x = j;
	}
}

void ns_match_index_free(struct ns_match_index *ix)
{
	ns_keymap_free(&ix->heads);
	free(ix->next);
	free(ix->used);
}

/* Where the chain of e's candidates starts: a slot's value, or NULL. */
static unsigned long *chain(struct ns_match_index *ix,
			    const struct ns_match_line *e)
{
	struct ns_key *head;

	head = ns_keymap_at(&ix->heads, ns_keymap_find(&ix->heads, ns_match_line_signature(e)));
	return head ? &head->x : NULL;
}

size_t ns_match_index_first(struct ns_match_index *ix,
			    const struct ns_match_line *e)
{
	const unsigned long *head = chain(ix, e);

	return head ? *head : NONE;
}

/* Take an actual line equal to literal line e out of its chain. Equal
 * lines are interchangeable, so this needs no search. */
static size_t take_literal(struct ns_match_index *ix,
			   const struct ns_match_step *st,
			   const struct ns_match_line *e)
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

bool ns_match_index_take_literals(struct ns_match_index *ix,
				  const struct ns_match_step *st,
				  size_t *partner)
{
	for (size_t i = 0; i < st->ne; i++) {
		if (st->e[i].wild || st->e[i].rec)
			continue;
		size_t j = take_literal(ix, st, &st->e[i]);
		if (j == NONE && !partner)
			return false;
		if (partner)
			partner[i] = j;
	}
	return true;
}
