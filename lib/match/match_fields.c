/* match_fields.c - lines that follow a template of fields (the shape's
 * NS_MATCH_FIELDS form): stat -c FORMAT prints one per file, mountpoint
 * -d prints a device, statmount a line of fields. A template is a list
 * of pieces: literal text, any text (a field nstest does not rename: a name, a mode, a
 * size), or a number the renaming covers:
 *
 *   a device in decimal or hex (stat's %d, %D), renamed as the MAJ:MIN
 *   of mountinfo lines, since it is the same st_dev: "45" pairs with the
 *   "0:45" of a mountinfo line;
 *   a device as MAJOR:MINOR (mountpoint -d);
 *   an inode number (%i), renamed one to one across the scenario;
 *   statmount's mount IDs, peer groups and namespace IDs, renamed as the
 *   mount IDs and groups of mountinfo lines and, the namespaces, one to
 *   one; a group column may say "-" (none), which is text; the unique
 *   mount IDs of statmount and watch, one to one.
 *
 * A line is cut by trying each split in turn: any-text pieces as short
 * as they can be, numbers as long as they can be. Expected and actual
 * lines are cut by the same rule; a line that fits no split, or has no
 * number, matches literally. */
#include "match/match_step.h"

#include <ctype.h>
#include <limits.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "base/util.h"

/* A number as the tools print one: digits of the base, no sign, no
 * leading zero. */
static bool parse_base(const char *s, size_t len, int base, unsigned long long *out)
{
	unsigned long long v = 0;

	if (!len || (s[0] == '0' && len > 1))
		return false;
	for (size_t i = 0; i < len; i++) {
		int c = (unsigned char)s[i], d;

		if (isdigit(c))
			d = c - '0';
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else
			return false;
		if (v > (ULLONG_MAX - (unsigned)d) / (unsigned)base)
			return false;
		v = v * (unsigned)base + (unsigned)d;
	}
	*out = v;
	return true;
}

/* The number of column c that s[0..len) holds, as a segment. */
static bool number(enum ns_match_col c, const char *s, size_t len, struct ns_match_seg *seg)
{
	unsigned long long v, w;
	const char *colon;

	*seg = (struct ns_match_seg){ NS_SEG_NUM, s, len, NS_RENAMING_DEV, false, { 0, 0 },
				      NS_NUM_PLAIN, NS_MATCH_COL_TEXT };
	switch (c) {
	case NS_MATCH_COL_DEV_DEC:
	case NS_MATCH_COL_DEV_HEX:
		if (!parse_base(s, len, c == NS_MATCH_COL_DEV_HEX ? 16 : 10, &v))
			return false;
		seg->form = c == NS_MATCH_COL_DEV_HEX ? NS_NUM_DEV_HEX : NS_NUM_DEV_DEC;
		seg->k = (struct ns_key){ major(v), minor(v) };
		return true;
	case NS_MATCH_COL_DEV:
		colon = memchr(s, ':', len);
		if (!colon || !parse_base(s, (size_t)(colon - s), 10, &v) ||
		    !parse_base(colon + 1, len - (size_t)(colon - s) - 1, 10, &w) ||
		    v > UINT_MAX || w > UINT_MAX)
			return false;
		seg->k = (struct ns_key){ (unsigned long)v, (unsigned long)w };
		return true;
	case NS_MATCH_COL_INO:
	case NS_MATCH_COL_ID:
	case NS_MATCH_COL_PARENT:
	case NS_MATCH_COL_GROUP:
	case NS_MATCH_COL_NSID:
	case NS_MATCH_COL_UNIQUE:
	case NS_MATCH_COL_PID:
		if (!parse_base(s, len, 10, &v) || v > ULONG_MAX)
			return false;
		seg->kind = c == NS_MATCH_COL_INO ? NS_RENAMING_INO :
			    c == NS_MATCH_COL_GROUP ? NS_RENAMING_GROUP :
			    c == NS_MATCH_COL_NSID ? NS_RENAMING_NSID :
			    c == NS_MATCH_COL_UNIQUE ? NS_RENAMING_UNIQUE :
			    c == NS_MATCH_COL_PID ? NS_RENAMING_PID : NS_RENAMING_ID;
		seg->parent = c == NS_MATCH_COL_PARENT;
		seg->k = (struct ns_key){ (unsigned long)v, 0 };
		return true;
	case NS_MATCH_COL_TEXT:
	case NS_MATCH_COL_SIZE: /* free fields: match_free.c, WORDS and tables */
	case NS_MATCH_COL_PERCENT:
	case NS_MATCH_COL_DATE:
		break;
	}
	return false;
}

/* "-": a group column's word for no group (statmount's), plain text. */
static bool no_group(enum ns_match_col c, const char *s, size_t len)
{
	return c == NS_MATCH_COL_GROUP && len == 1 && *s == '-';
}

/* Where piece k of the template starts in the line, and how long it is. */
struct cut {
	const struct ns_match_shape *sh;
	const char *line;
	size_t *start, *len;
};

static bool cut_from(struct cut *c, size_t k, const char *s)
{
	size_t rest = strlen(s);
	struct ns_match_seg seg;

	if (k == c->sh->ncols)
		return !rest;
	c->start[k] = (size_t)(s - c->line);
	if (c->sh->lit[k]) {
		c->len[k] = c->sh->litlen[k];
		return !strncmp(s, c->sh->lit[k], c->len[k]) && cut_from(c, k + 1, s + c->len[k]);
	}
	if (c->sh->cols[k] == NS_MATCH_COL_TEXT) {
		for (size_t n = 0; n <= rest; n++) {
			c->len[k] = n;
			if (cut_from(c, k + 1, s + n))
				return true;
		}
		return false;
	}
	for (size_t n = rest; n > 0; n--) {
		c->len[k] = n;
		if ((number(c->sh->cols[k], s, n, &seg) || no_group(c->sh->cols[k], s, n)) &&
		    cut_from(c, k + 1, s + n))
			return true;
	}
	return false;
}

bool ns_match_fields_parse(struct ns_match_line *l, const char *text,
			   const struct ns_match_shape *shape)
{
	size_t start[NS_MATCH_MAX_COLS], len[NS_MATCH_MAX_COLS], cap = 0;
	struct cut c = { shape, text, start, len };
	bool numbers = false;
	void *v = NULL;

	l->seg = NULL;
	l->nseg = 0;
	if (shape->ncols > NS_MATCH_MAX_COLS || !cut_from(&c, 0, text))
		return false;
	for (size_t k = 0; k < shape->ncols; k++) {
		struct ns_match_seg seg;
		const char *s = text + start[k];

		if (shape->lit[k] || shape->cols[k] == NS_MATCH_COL_TEXT ||
		    no_group(shape->cols[k], s, len[k])) {
			if (!len[k])
				continue;
			seg = (struct ns_match_seg){ NS_SEG_TEXT, s, len[k], NS_RENAMING_ID, false,
						     { 0, 0 }, NS_NUM_PLAIN, NS_MATCH_COL_TEXT };
			if (l->nseg && l->seg[l->nseg - 1].type == NS_SEG_TEXT) {
				l->seg[l->nseg - 1].len += len[k];
				continue;
			}
		} else {
			number(shape->cols[k], s, len[k], &seg);
			numbers = true;
		}
		v = l->seg;
		ns_grow(&v, &cap, l->nseg + 1, sizeof(*l->seg));
		l->seg = v;
		l->seg[l->nseg++] = seg;
	}
	if (numbers)
		return true;
	free(l->seg);
	l->seg = NULL;
	l->nseg = 0;
	return false;
}
