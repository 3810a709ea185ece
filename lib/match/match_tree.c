/* match_tree.c - see match_tree.h.
 *
 * findmnt hangs a mount's children under it in the order of their mount
 * IDs (libmount's mnt_table_next_child_fs). The kernel hands out the
 * lowest free ID, so when another namespace frees one (a sandbox of a
 * parallel run, say), a later mount can get a lower ID than an earlier
 * one and the same transcript prints its siblings in another order. IDs
 * are renamed, so that order says nothing a transcript can rely on. The
 * judge therefore compares a tree that does not match as printed once
 * more with the children of every mount sorted, on both sides, by their
 * text (the fields of renamed columns left out; siblings with the same
 * text by their subtrees), and the glyphs drawn again for the new order.
 * Rows, depths and parents are still compared; only the order among
 * siblings is free.
 *
 * The glyphs are drawn again only once they are found to agree with the
 * tree as written: findmnt (libsmartcols) draws a mount that has a later
 * sibling with "├─" and the last one with "└─", and in each column of an
 * ancestor "│ " while that ancestor has a later sibling, else "  ". A
 * block whose glyphs say otherwise is no tree findmnt prints, and is not
 * sorted (it then fails as written). A "..." line may stand for a later
 * sibling, so a glyph before one is not held to either form; after a
 * filter (findmnt | grep -v proc) lines may be missing anywhere, and the
 * glyphs are not checked at all.
 *
 * A tree line's cell in the tree column (TARGET's) starts with its
 * prefix: a group per level above it ("│ ", "  ", or "| " in ASCII) and
 * its own glyph ("├─" or "└─"; "|-" or "`-"). A line with no prefix (the
 * root, the heading) is a top line; top lines keep their order. A cell
 * that starts with blanks but has no glyph after them is no tree line,
 * and the block is left as it is.
 *
 * When the tree column is not the first (findmnt -o ID,PARENT,TARGET),
 * the fields before it are the line's head, kept as they are. A column
 * is padded to its widest cell, so the tree column starts at the same
 * place (in characters, the glyphs being one each) on every line: the
 * leftmost place where a row's tree cell has its first character other
 * than a blank (the heading's, a top line's). Blank groups of a prefix
 * are told from padding that way; a line too short to reach that place,
 * or with no blank before it, has no head (a "..." line of a block).
 *
 * A flat tree (sh->flat: findmnt -l, -r or -J -l with -R and a
 * selection) is the same tree's lines in the same order, depth first,
 * without glyphs or nesting. Its structure is read from the rows: with
 * ID and PARENT columns a row hangs under the nearest open row whose ID
 * is its PARENT; else, with a TARGET column, under the nearest open row
 * whose target is its own or an ancestor directory of it (a submount's
 * mount point is inside its parent's); with neither, every row of a run
 * hangs under the run's first. A line that is no row (the heading, a
 * "...") keeps its place and ends every open subtree. */
#include "match/match_tree.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "match/match_step.h"

#define UTF_VERT "\xe2\x94\x82 "       /* "│ " */
#define UTF_TEE "\xe2\x94\x9c\xe2\x94\x80" /* "├─" */
#define UTF_ELL "\xe2\x94\x94\xe2\x94\x80" /* "└─" */
#define DEPTH_MARK '\x05'     /* no line has it: control characters are refused */

struct node {
	const char *line;
	size_t hlen;          /* bytes before the tree column */
	size_t depth, plen;   /* levels below a top line; prefix bytes after hlen */
	size_t parent;        /* index of the parent node; SIZE_MAX for a top line */
	bool wild;            /* a "..." line */
	char *own;            /* its row's text, renamed fields left out */
	char *key;            /* what siblings are sorted by: own, then subtree */
	size_t *kids;
	size_t nkids, kcap;
};

static void free_nodes(struct node *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].own);
		free(v[i].key);
		free(v[i].kids);
	}
	free(v);
}

static void add_kid(struct node *v, size_t p, size_t i)
{
	v[i].parent = p;
	ns_grow((void **)&v[p].kids, &v[p].kcap, v[p].nkids + 1, sizeof(size_t));
	v[p].kids[v[p].nkids++] = i;
}

/* Append row with the fields that the renaming covers left out: the same
 * on both sides whenever two rows can match. */
static void add_key(struct ns_buf *b, const char *row, const struct ns_match_shape *sh)
{
	struct ns_match_line l;

	memset(&l, 0, sizeof(l));
	if (!ns_match_table_parse(&l, row, sh)) {
		ns_buf_adds(b, row);
		return;
	}
	for (size_t i = 0; i < l.nseg; i++) {
		if (l.seg[i].type == NS_SEG_TEXT)
			ns_buf_add(b, l.seg[i].s, l.seg[i].len);
		else
			ns_buf_addc(b, '\x01'); /* a field's place, below every character */
	}
	free(l.seg);
}

static char *row_key(const char *row, const struct ns_match_shape *sh)
{
	struct ns_buf b = NS_BUF_INIT;

	add_key(&b, row, sh);
	return ns_buf_detach(&b);
}

static int by_key(const void *pa, const void *pb, void *nodes)
{
	const struct node *v = nodes;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int c = strcmp(v[a].key, v[b].key);

	return c ? c : (a > b) - (a < b);
}

/* Sort the children of every node of v[0..n) (a child comes after its
 * parent) by their keys: a node's own text, then its children's keys in
 * their order, so siblings of the same text are told apart by their
 * subtrees, the same way on both sides. Top nodes keep their order. The
 * separators are control characters no line has. */
static void sort_forest(struct node *v, size_t n)
{
	for (size_t i = n; i-- > 0;) {
		struct node *x = &v[i];
		struct ns_buf b = NS_BUF_INIT;

		if (x->nkids > 1)
			qsort_r(x->kids, x->nkids, sizeof(size_t), by_key, v);
		if (x->parent == SIZE_MAX)
			continue;
		ns_buf_adds(&b, x->own ? x->own : "");
		ns_buf_addc(&b, '\x02');
		for (size_t k = 0; k < x->nkids; k++) {
			ns_buf_adds(&b, v[x->kids[k]].key);
			ns_buf_addc(&b, '\x03');
		}
		ns_buf_addc(&b, '\x04');
		x->key = ns_buf_detach(&b);
	}
}

/* ---- a tree drawn with glyphs ---- */

static bool starts(const char *s, const char *p, size_t *len)
{
	*len = strlen(p);
	return strncmp(s, p, *len) == 0;
}

/* The depth of a line and the length of its prefix; false if it starts
 * like a tree line but is none. ascii is set by the first glyph seen. */
static bool read_prefix(const char *line, size_t *depth, size_t *plen, int *ascii)
{
	size_t groups = 0, pos = 0, len;

	for (;;) {
		const char *p = line + pos;

		if (starts(p, UTF_TEE, &len) || starts(p, UTF_ELL, &len) ||
		    starts(p, "|-", &len) || starts(p, "`-", &len)) {
			if (*ascii < 0)
				*ascii = p[0] == '|' || p[0] == '`';
			*depth = groups + 1;
			*plen = pos + len;
			return true;
		}
		if (starts(p, UTF_VERT, &len) || starts(p, "| ", &len) || starts(p, "  ", &len)) {
			groups++;
			pos += len;
			continue;
		}
		*depth = *plen = 0;
		return groups == 0 && *p != ' ';
	}
}

/* What the prefix of x says, level by level: said[k - 1] whether the
 * mount at depth k on its way down (x itself at its own depth) has a
 * later sibling ("│ " and "├─"; "  " and "└─" say it has none). False
 * when a glyph is of the other set (ASCII among UTF-8 or the reverse). */
static bool prefix_says(const struct node *x, bool ascii, bool *said)
{
	const char *p = x->line + x->hlen;
	size_t len;

	for (size_t k = 1; k <= x->depth; k++, p += len) {
		bool last = k == x->depth;
		const char *more = last ? (ascii ? "|-" : UTF_TEE) : (ascii ? "| " : UTF_VERT);
		const char *none = last ? (ascii ? "`-" : UTF_ELL) : "  ";

		if (starts(p, more, &len))
			said[k - 1] = true;
		else if (starts(p, none, &len))
			said[k - 1] = false;
		else
			return false;
	}
	return true;
}

enum fact { NO, YES, UNKNOWN };

/* Whether the mount at depth k on line i's way down has a later sibling,
 * as the lines after it show: the next line at depth k or less decides,
 * unless a "..." comes first. */
static enum fact has_later(const struct node *v, size_t n, size_t i, size_t k)
{
	for (size_t j = i + 1; j < n; j++) {
		if (v[j].wild)
			return UNKNOWN;
		if (v[j].depth < k)
			return NO;
		if (v[j].depth == k)
			return YES;
	}
	return NO;
}

/* Whether the glyphs of v[0..n) are the ones findmnt draws for the tree
 * they describe (see the top of this file). */
static bool glyphs_agree(const struct node *v, size_t n, bool ascii)
{
	size_t maxd = 0;
	bool *said, ok = true;

	for (size_t i = 0; i < n; i++)
		if (v[i].depth > maxd)
			maxd = v[i].depth;
	said = xcalloc(maxd + 1, sizeof(*said));
	for (size_t i = 0; ok && i < n; i++) {
		if (!v[i].depth)
			continue;
		ok = prefix_says(&v[i], ascii, said);
		for (size_t k = 1; ok && k <= v[i].depth; k++) {
			enum fact f = has_later(v, n, i, k);

			ok = f == UNKNOWN || (f == YES) == said[k - 1];
		}
	}
	free(said);
	return ok;
}

static void emit(const struct node *v, size_t i, struct ns_buf *prefix, int ascii,
		 struct ns_lines *out)
{
	const struct node *n = &v[i];
	struct ns_buf line = NS_BUF_INIT;
	size_t mark = prefix->len;

	for (size_t k = 0; k < n->nkids; k++) {
		const struct node *c = &v[n->kids[k]];
		bool last = k + 1 == n->nkids;

		ns_buf_reset(&line);
		ns_buf_add(&line, c->line, c->hlen);
		ns_buf_add(&line, prefix->data, prefix->len);
		ns_buf_adds(&line, ascii ? (last ? "`-" : "|-") : (last ? UTF_ELL : UTF_TEE));
		ns_buf_adds(&line, c->line + c->hlen + c->plen);
		ns_lines_push(out, ns_buf_str(&line));
		ns_buf_adds(prefix, last ? "  " : ascii ? "| " : UTF_VERT);
		emit(v, n->kids[k], prefix, ascii, out);
		ns_buf_truncate(prefix, mark);
	}
	ns_buf_free(&line);
}

/* ---- where the tree column starts ---- */

static bool is_glyph(const char *s, size_t len)
{
	return (len == 1 && s[0] == '|') ||
	       (len == 3 && memcmp(s, "\xe2\x94\x82", 3) == 0); /* │ */
}

/* Characters in s[0..len): bytes other than UTF-8 continuation bytes. */
static size_t chars(const char *s, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += ((unsigned char)s[i] & 0xc0) != 0x80;
	return n;
}

/* The place (in characters) where line's tree cell has its first
 * character other than a blank: the first of the glyph words ("│") just
 * before the tree column's field, or that field; words as match_table.c
 * cuts a tree's rows. False when the line has not one field per column. */
static bool cell_at(const char *line, const struct ns_match_shape *sh, size_t *at)
{
	const char *glyphs = NULL;
	size_t field = 0;
	bool found = false;

	for (const char *p = line; *p;) {
		size_t len;

		p += strspn(p, " ");
		if (!*p)
			break;
		len = strcspn(p, " ");
		if (is_glyph(p, len)) {
			if (!glyphs)
				glyphs = p;
		} else {
			if (field == sh->tree_col) {
				*at = chars(line, (size_t)((glyphs ? glyphs : p) - line));
				found = true;
			}
			field++;
			glyphs = NULL;
		}
		p += len;
	}
	return found && field == sh->ncols;
}

/* Where the tree column starts on every line: the leftmost cell_at of
 * the lines (0 when it is the first column). */
static size_t tree_start(const char *const *lines, size_t n,
			 const struct ns_match_shape *sh)
{
	size_t start = SIZE_MAX, at;

	if (!sh->tree_col)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (cell_at(lines[i], sh, &at) && at < start)
			start = at;
	return start == SIZE_MAX ? 0 : start;
}

/* The bytes of line before character col, when they end with a blank
 * (the head of the line); else 0. */
static size_t head_len(const char *line, size_t col)
{
	size_t i = 0, n = 0;

	for (; line[i] && n < col; i++)
		n += ((unsigned char)line[i] & 0xc0) != 0x80;
	while (((unsigned char)line[i] & 0xc0) == 0x80)
		i++; /* the rest of a character that starts before col */
	return n == col && i && line[i - 1] == ' ' ? i : 0;
}

/* The nodes of the lines, each under the nearest line above it with one
 * level less; false if the lines are no tree. */
static bool build(struct node *v, const char *const *lines, size_t n,
		  const struct ns_match_shape *sh, int *ascii, bool *nested)
{
	size_t last_top = SIZE_MAX, col = tree_start(lines, n, sh);

	*nested = false;
	for (size_t i = 0; i < n; i++) {
		struct node *x = &v[i];
		size_t p;

		x->line = lines[i];
		x->wild = !strcmp(lines[i], "...");
		x->hlen = head_len(lines[i], col);
		if (!read_prefix(lines[i] + x->hlen, &x->depth, &x->plen, ascii))
			return false;
		x->parent = SIZE_MAX;
		if (!x->depth) {
			last_top = i;
			continue;
		}
		if (last_top == SIZE_MAX)
			return false;
		for (p = i - 1; v[p].depth >= x->depth; p--)
			;
		if (v[p].depth + 1 != x->depth)
			return false;
		/* its row without its prefix */
		{
			char *row = xasprintf("%.*s%s", (int)x->hlen, x->line,
					      x->line + x->hlen + x->plen);

			x->own = row_key(row, sh);
			free(row);
		}
		add_kid(v, p, i);
		*nested = true;
	}
	return true;
}

/* The nodes of a tree drawn with glyphs and with a nested line, or NULL. */
static struct node *tree_of(const char *const *lines, size_t n,
			    const struct ns_match_shape *sh, int *ascii)
{
	struct node *v;
	bool nested;

	if (!sh || !sh->tree || sh->flat || sh->form != NS_MATCH_TABLE ||
	    sh->tree_col >= sh->ncols || !n)
		return NULL;
	v = xcalloc(n, sizeof(*v));
	if (!build(v, lines, n, sh, ascii, &nested) || !nested) {
		free_nodes(v, n);
		return NULL;
	}
	return v;
}

bool ns_match_tree_prefixes(const char *const *lines, size_t n,
			    const struct ns_match_shape *sh, size_t *head, size_t *plen)
{
	int ascii = -1;
	struct node *v = tree_of(lines, n, sh, &ascii);

	if (!v)
		return false;
	for (size_t i = 0; i < n; i++) {
		head[i] = v[i].hlen;
		plen[i] = v[i].plen;
	}
	free_nodes(v, n);
	return true;
}

bool ns_match_tree_glyphs_agree(const char *const *lines, size_t n,
				const struct ns_match_shape *sh)
{
	int ascii = -1;
	struct node *v = tree_of(lines, n, sh, &ascii);
	bool ok;

	if (!v)
		return true;
	ok = sh->piped || glyphs_agree(v, n, ascii > 0);
	free_nodes(v, n);
	return ok;
}

static bool glyph_tree(const char *const *lines, size_t n, const struct ns_match_shape *sh,
		       struct ns_lines *out)
{
	struct ns_buf prefix = NS_BUF_INIT;
	int ascii = -1;
	struct node *v = tree_of(lines, n, sh, &ascii);

	if (!v)
		return false;
	if (!sh->piped && !glyphs_agree(v, n, ascii > 0)) {
		free_nodes(v, n);
		return false;
	}
	sort_forest(v, n);
	for (size_t i = 0; i < n; i++) {
		if (v[i].depth)
			continue;
		ns_lines_push(out, v[i].line);
		emit(v, i, &prefix, ascii > 0, out);
	}
	ns_buf_free(&prefix);
	free_nodes(v, n);
	return true;
}

/* ---- a flat tree: its structure read from its rows ---- */

/* What a row says about where it hangs: its ID and PARENT fields, or
 * its target, as text (one side's numbers are its own throughout). */
struct place {
	bool row;
	const char *id, *parent, *target;
	size_t idlen, parentlen, targetlen;
};

enum by { BY_IDS, BY_TARGET, BY_NOTHING };

static enum by flat_by(const struct ns_match_shape *sh, size_t *idc, size_t *pac)
{
	*idc = *pac = SIZE_MAX;
	for (size_t c = 0; c < sh->ncols; c++) {
		if (sh->cols[c] == NS_MATCH_COL_ID && *idc == SIZE_MAX)
			*idc = c;
		if (sh->cols[c] == NS_MATCH_COL_PARENT && *pac == SIZE_MAX)
			*pac = c;
	}
	if (*idc != SIZE_MAX && *pac != SIZE_MAX)
		return BY_IDS;
	return sh->tree_col < sh->ncols ? BY_TARGET : BY_NOTHING;
}

static bool is_dec(const char *s, size_t len)
{
	if (!len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* Whether what it holds can place a row, by `by`. */
static bool placed(struct place *pl, enum by by)
{
	switch (by) {
	case BY_IDS:
		return pl->id && pl->parent && is_dec(pl->id, pl->idlen) &&
		       is_dec(pl->parent, pl->parentlen);
	case BY_TARGET:
		return pl->target && pl->targetlen && pl->target[0] == '/';
	case BY_NOTHING:
		break;
	}
	return true;
}

/* Whether row c may hang under row p. */
static bool under(const struct place *p, const struct place *c, enum by by)
{
	switch (by) {
	case BY_IDS:
		return p->idlen == c->parentlen && !memcmp(p->id, c->parent, p->idlen);
	case BY_TARGET:
		if (p->targetlen > c->targetlen || memcmp(p->target, c->target, p->targetlen))
			return false;
		return p->targetlen == c->targetlen || p->target[p->targetlen - 1] == '/' ||
		       c->target[p->targetlen] == '/';
	case BY_NOTHING:
		break;
	}
	return true;
}

/* Hang every row of v[0..n) where its place says (see the top of this
 * file): a line that is no row is a top line, and ends every open one. */
static void hang(struct node *v, const struct place *pl, size_t n, enum by by)
{
	size_t *open = xcalloc(n + 1, sizeof(*open)), sp = 0;

	for (size_t i = 0; i < n; i++) {
		v[i].parent = SIZE_MAX;
		if (!pl[i].row) {
			sp = 0;
			continue;
		}
		if (by == BY_NOTHING) {
			if (sp)
				add_kid(v, open[0], i);
			else
				open[sp++] = i;
			continue;
		}
		while (sp && !under(&pl[open[sp - 1]], &pl[i], by))
			sp--;
		if (sp)
			add_kid(v, open[sp - 1], i);
		open[sp++] = i;
	}
	free(open);
}

/* The nodes in order: each top one, then its subtree, depth first. */
static void preorder(const struct node *v, size_t i, size_t *order, size_t *k)
{
	order[(*k)++] = i;
	for (size_t c = 0; c < v[i].nkids; c++)
		preorder(v, v[i].kids[c], order, k);
}

/* The fields of a row of a list (blanks between fields) or of raw
 * output (one space): into pl, when it has one per column. */
static void flat_fields(const char *line, const struct ns_match_shape *sh, size_t idc,
			size_t pac, struct place *pl)
{
	size_t field = 0;
	const char *p = line;

	memset(pl, 0, sizeof(*pl));
	for (;;) {
		size_t len;

		if (sh->form == NS_MATCH_TABLE) {
			p += strspn(p, " ");
			if (!*p)
				break;
		}
		len = strcspn(p, " ");
		if (field == idc) {
			pl->id = p;
			pl->idlen = len;
		}
		if (field == pac) {
			pl->parent = p;
			pl->parentlen = len;
		}
		if (field == sh->tree_col) {
			pl->target = p;
			pl->targetlen = len;
		}
		field++;
		p += len;
		if (!*p)
			break;
		if (sh->form == NS_MATCH_RAW)
			p++;
	}
	pl->row = field == sh->ncols;
}

/* Append line to out; with marks, its target (at, in line) preceded by
 * depth marks: two sides whose rows are read as hanging at other depths
 * then differ although their lines, flat, come out alike. */
static void push_marked(struct ns_lines *out, const char *line, const char *at, size_t depth,
			bool marks)
{
	struct ns_buf b = NS_BUF_INIT;

	if (!marks || !at) {
		ns_lines_push(out, line);
		return;
	}
	ns_buf_add(&b, line, (size_t)(at - line));
	for (size_t d = 0; d < depth; d++)
		ns_buf_addc(&b, DEPTH_MARK);
	ns_buf_adds(&b, at);
	ns_lines_push(out, ns_buf_str(&b));
	ns_buf_free(&b);
}

/* The depth of every node (a parent comes before its children). */
static size_t *depths(const struct node *v, size_t n)
{
	size_t *d = xcalloc(n + 1, sizeof(*d));

	for (size_t i = 0; i < n; i++)
		d[i] = v[i].parent == SIZE_MAX ? 0 : d[v[i].parent] + 1;
	return d;
}

static bool flat_list(const char *const *lines, size_t n, const struct ns_match_shape *sh,
		      bool marks, struct ns_lines *out)
{
	struct node *v;
	struct place *pl;
	size_t idc, pac, *order, k = 0;
	enum by by = flat_by(sh, &idc, &pac);
	bool nested = false;

	if (!n)
		return false;
	v = xcalloc(n, sizeof(*v));
	pl = xcalloc(n, sizeof(*pl));
	for (size_t i = 0; i < n; i++) {
		v[i].line = lines[i];
		flat_fields(lines[i], sh, idc, pac, &pl[i]);
		pl[i].row = pl[i].row && !(i == 0 && sh->heading) && placed(&pl[i], by);
		v[i].own = row_key(lines[i], sh);
	}
	hang(v, pl, n, by);
	for (size_t i = 0; i < n; i++)
		nested |= v[i].parent != SIZE_MAX;
	if (nested) {
		size_t *d = depths(v, n);

		sort_forest(v, n);
		order = xcalloc(n, sizeof(*order));
		for (size_t i = 0; i < n; i++)
			if (v[i].parent == SIZE_MAX)
				preorder(v, i, order, &k);
		for (size_t i = 0; i < n; i++) {
			size_t o = order[i];

			push_marked(out, v[o].line, pl[o].row ? pl[o].target : NULL, d[o],
				    marks && by == BY_TARGET);
		}
		free(order);
		free(d);
	}
	free(pl);
	free_nodes(v, n);
	return nested;
}

/* ---- a JSON tree ----
 *
 * findmnt -J nests a mount's submounts in its "children": [ ... ], in the
 * order of their mount IDs, as libsmartcols writes them: each element an
 * object whose "{" (or "},{" after the one before) and "}" stand on lines
 * of their own at one indentation, its members deeper, and the "]" at the
 * indentation of "children". The elements of every "children" are sorted
 * by their text, subtree included, with the renamed values left out;
 * the top level ("filesystems") keeps its order, as top lines do. In a
 * flat tree (-J -l -R) the top level holds every mount, depth first; its
 * elements are placed by their "id" and "parent", or "target", members
 * as the rows of a list are, and sorted the same way. */

struct json {
	const char *const *lines;
	size_t n, i;          /* the next line */
	const struct ns_match_shape *sh;
};

struct element {
	struct ns_lines body; /* its members, their "children" sorted */
	char *key;
};

/* The elements of one array and the lines around them. */
struct jarray {
	struct element *v;
	size_t n;
	const char *open, *sep, *close, *end; /* "{", "},{" (or NULL), "}", "]" */
};

static size_t indent(const char *s)
{
	return strspn(s, " ");
}

static bool json_array(struct json *j, size_t ind, struct ns_lines *out);

/* The lines from j->i on that are deeper than ind, each "children" sorted. */
static bool json_body(struct json *j, size_t ind, struct ns_lines *out)
{
	while (j->i < j->n && indent(j->lines[j->i]) > ind) {
		const char *l = j->lines[j->i++];
		size_t li = indent(l);

		ns_lines_push(out, l);
		if (!strcmp(l + li, "\"children\": [") && !json_array(j, li, out))
			return false;
	}
	return true;
}

static int by_element(const void *pa, const void *pb)
{
	const struct element *a = pa, *b = pb;

	return strcmp(a->key, b->key);
}

static void free_elements(struct element *v, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		ns_lines_free(&v[k].body);
		free(v[k].key);
	}
	free(v);
}

/* After an array's opening line at indentation ind: its elements, each
 * with its key, and the "]" that closes it; false if they are not
 * there as libsmartcols writes them. */
static bool json_elements(struct json *j, size_t ind, struct jarray *a)
{
	size_t cap = 0, e;

	memset(a, 0, sizeof(*a));
	if (j->i >= j->n)
		return false;
	a->open = j->lines[j->i];
	e = indent(a->open);
	if (e <= ind || strcmp(a->open + e, "{"))
		return false;
	for (j->i++;; j->i++) {
		const char *l;
		struct ns_buf key = NS_BUF_INIT;
		struct element *x;

		ns_grow((void **)&a->v, &cap, a->n + 1, sizeof(*a->v));
		x = &a->v[a->n++];
		x->body = (struct ns_lines)NS_LINES_INIT;
		x->key = NULL;
		if (!json_body(j, e, &x->body) || j->i >= j->n || indent(j->lines[j->i]) != e)
			return false;
		for (size_t k = 0; k < x->body.n; k++) {
			add_key(&key, x->body.v[k], j->sh);
			ns_buf_addc(&key, '\n');
		}
		x->key = ns_buf_detach(&key);
		l = j->lines[j->i];
		if (!strcmp(l + e, "},{")) {
			a->sep = l;
			continue;
		}
		if (strcmp(l + e, "}"))
			return false;
		a->close = l;
		j->i++;
		break;
	}
	if (j->i >= j->n || indent(j->lines[j->i]) != ind || strcmp(j->lines[j->i] + ind, "]"))
		return false;
	a->end = j->lines[j->i++];
	return true;
}

/* Append a's elements in the order given (NULL: as they are); with
 * depth (NULL: none), the value of each one's "target" marked with its
 * depth, as push_marked does. */
static void json_emit(const struct jarray *a, const size_t *order, const size_t *depth,
		      struct ns_lines *out)
{
	for (size_t k = 0; k < a->n; k++) {
		size_t e = order ? order[k] : k;
		const struct element *x = &a->v[e];

		ns_lines_push(out, k ? a->sep : a->open);
		for (size_t m = 0; m < x->body.n; m++) {
			const char *l = x->body.v[m], *t = l + indent(l);
			bool target = depth && !strncmp(t, "\"target\": \"", 11);

			push_marked(out, l, target ? t + 11 : NULL, depth ? depth[e] : 0, target);
		}
	}
	ns_lines_push(out, a->close);
	ns_lines_push(out, a->end);
}

/* After a "children": [ at indentation ind: its elements, sorted, and "]". */
static bool json_array(struct json *j, size_t ind, struct ns_lines *out)
{
	struct jarray a;

	if (!json_elements(j, ind, &a)) {
		free_elements(a.v, a.n);
		return false;
	}
	/* stable: equal elements keep their order (qsort is not) */
	for (size_t k = 0; k < a.n; k++) {
		char *key = xasprintf("%s%020zu", a.v[k].key, k);

		free(a.v[k].key);
		a.v[k].key = key;
	}
	qsort(a.v, a.n, sizeof(*a.v), by_element);
	json_emit(&a, NULL, NULL, out);
	free_elements(a.v, a.n);
	return true;
}

/* A JSON tree: false, and out untouched, when no "children" is read. */
static bool json_tree(const char *const *lines, size_t n, const struct ns_match_shape *sh,
		      struct ns_lines *out)
{
	struct json j = { lines, n, 0, sh };
	struct ns_lines tmp = NS_LINES_INIT;
	bool nested = false, ok = true;

	while (ok && j.i < n) {
		const char *l = lines[j.i++];

		ns_lines_push(&tmp, l);
		if (strcmp(l + indent(l), "\"children\": ["))
			continue;
		ok = json_array(&j, indent(l), &tmp);
		nested = true;
	}
	nested = nested && ok;
	for (size_t k = 0; nested && k < tmp.n; k++)
		ns_lines_push(out, tmp.v[k]);
	ns_lines_free(&tmp);
	return nested;
}

/* The value of member name ("target", "id") in body: the text after
 * `"name": `, without quotes and the trailing comma. */
static void json_member(const struct ns_lines *body, const char *name, const char **val,
			size_t *len)
{
	size_t nl = strlen(name);

	for (size_t k = 0; k < body->n; k++) {
		const char *l = body->v[k] + indent(body->v[k]);
		size_t vl;

		if (l[0] != '"' || strncmp(l + 1, name, nl) || strncmp(l + 1 + nl, "\": ", 3))
			continue;
		l += nl + 4;
		vl = strlen(l);
		if (vl && l[vl - 1] == ',')
			vl--;
		if (vl >= 2 && l[0] == '"' && l[vl - 1] == '"') {
			l++;
			vl -= 2;
		}
		*val = l;
		*len = vl;
		return;
	}
}

/* A flat JSON tree: the top level's elements placed and sorted. */
static bool json_flat(const char *const *lines, size_t n, const struct ns_match_shape *sh,
		      bool marks, struct ns_lines *out)
{
	struct json j = { lines, n, 0, sh };
	struct ns_lines tmp = NS_LINES_INIT;
	struct jarray a = { 0 };
	bool nested = false, read = false;

	size_t idc, pac;
	enum by by = flat_by(sh, &idc, &pac);

	while (j.i < n) {
		const char *l = lines[j.i++];
		size_t li = indent(l), len = strlen(l), *order, *d, k = 0;
		struct node *v;
		struct place *pl;

		ns_lines_push(&tmp, l);
		if (read || len < 4 || strcmp(l + len - 4, "\": [") != 0 || l[li] != '"')
			continue;
		read = true;
		if (!json_elements(&j, li, &a)) {
			nested = false;
			break;
		}
		v = xcalloc(a.n, sizeof(*v));
		pl = xcalloc(a.n, sizeof(*pl));
		for (size_t e = 0; e < a.n; e++) {
			json_member(&a.v[e].body, "id", &pl[e].id, &pl[e].idlen);
			json_member(&a.v[e].body, "parent", &pl[e].parent, &pl[e].parentlen);
			json_member(&a.v[e].body, "target", &pl[e].target, &pl[e].targetlen);
			pl[e].row = placed(&pl[e], by);
			v[e].own = xstrdup(a.v[e].key);
		}
		hang(v, pl, a.n, by);
		for (size_t e = 0; e < a.n; e++)
			nested |= v[e].parent != SIZE_MAX;
		d = depths(v, a.n);
		sort_forest(v, a.n);
		order = xcalloc(a.n + 1, sizeof(*order));
		for (size_t e = 0; e < a.n; e++)
			if (v[e].parent == SIZE_MAX)
				preorder(v, e, order, &k);
		json_emit(&a, order, marks && by == BY_TARGET ? d : NULL, &tmp);
		free(order);
		free(d);
		free(pl);
		free_nodes(v, a.n);
	}
	free_elements(a.v, a.n);
	for (size_t k = 0; nested && k < tmp.n; k++)
		ns_lines_push(out, tmp.v[k]);
	ns_lines_free(&tmp);
	return nested;
}

static bool tree_canon(const char *const *lines, size_t n, const struct ns_match_shape *sh,
		       bool marks, struct ns_lines *out)
{
	if (!sh || !sh->tree)
		return false;
	if (sh->form == NS_MATCH_JSON)
		return sh->flat ? json_flat(lines, n, sh, marks, out) : json_tree(lines, n, sh, out);
	if (sh->flat)
		return flat_list(lines, n, sh, marks, out);
	return glyph_tree(lines, n, sh, out);
}

bool ns_match_tree_canon(const char *const *lines, size_t n,
			 const struct ns_match_shape *sh, struct ns_lines *out)
{
	return tree_canon(lines, n, sh, true, out);
}

bool ns_match_tree_sorted(const char *const *lines, size_t n,
			  const struct ns_match_shape *sh, struct ns_lines *out)
{
	return tree_canon(lines, n, sh, false, out);
}
