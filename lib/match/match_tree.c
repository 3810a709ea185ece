/* match_tree.c - see match_tree.h.
 *
 * findmnt hangs a mount's children under it in the order of their mount
 * IDs. The kernel hands out the lowest free ID, so when another namespace
 * frees one (a sandbox of a parallel run, say), a later mount can get a
 * lower ID than an earlier one and the same transcript prints its siblings
 * in another order. IDs are renamed, so that order says nothing a
 * transcript can rely on. The judge therefore compares a tree that does
 * not match as printed once more with the children of every mount sorted,
 * on both sides, by their literal text (the fields of renamed columns
 * left out), and the glyphs drawn again for the new order. Rows, depths
 * and parents are still compared; only the order among siblings is free.
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
 * or with no blank before it, has no head (a "..." line of a block). */
#include "match/match_tree.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "match/match_step.h"

#define UTF_VERT "\xe2\x94\x82 "       /* "│ " */
#define UTF_TEE "\xe2\x94\x9c\xe2\x94\x80" /* "├─" */
#define UTF_ELL "\xe2\x94\x94\xe2\x94\x80" /* "└─" */

struct node {
	const char *line;
	size_t hlen;          /* bytes before the tree column */
	size_t depth, plen;   /* levels below a top line; prefix bytes after hlen */
	size_t parent;        /* index of the parent node; SIZE_MAX for a top line */
	char *key;            /* what siblings are sorted by */
	size_t *kids;
	size_t nkids, kcap;
};

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

/* What node x is sorted by: its row without its prefix, as add_key
 * writes it. */
static char *sort_key(const struct node *x, const struct ns_match_shape *sh)
{
	struct ns_buf b = NS_BUF_INIT;
	char *row = xasprintf("%.*s%s", (int)x->hlen, x->line, x->line + x->hlen + x->plen);

	add_key(&b, row, sh);
	free(row);
	return ns_buf_detach(&b);
}

static int by_key(const void *pa, const void *pb, void *nodes)
{
	const struct node *v = nodes;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int c = strcmp(v[a].key, v[b].key);

	return c ? c : (a > b) - (a < b);
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

static void free_nodes(struct node *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].key);
		free(v[i].kids);
	}
	free(v);
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
		x->parent = p;
		x->key = sort_key(x, sh);
		ns_grow((void **)&v[p].kids, &v[p].kcap, v[p].nkids + 1, sizeof(size_t));
		v[p].kids[v[p].nkids++] = i;
		*nested = true;
	}
	return true;
}

/* The nodes of a tree with a nested line, or NULL. */
static struct node *tree_of(const char *const *lines, size_t n,
			    const struct ns_match_shape *sh, int *ascii)
{
	struct node *v;
	bool nested;

	if (!sh || !sh->tree || sh->form != NS_MATCH_TABLE || sh->tree_col >= sh->ncols || !n)
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

/* ---- a JSON tree ----
 *
 * findmnt -J nests a mount's submounts in its "children": [ ... ], in the
 * order of their mount IDs, as libsmartcols writes them: each element an
 * object whose "{" (or "},{" after the one before) and "}" stand on lines
 * of their own at one indentation, its members deeper, and the "]" at the
 * indentation of "children". The elements of every "children" are sorted
 * by their text, subtree included, with the renamed values left out;
 * the top level ("filesystems") keeps its order, as top lines do. */

struct json {
	const char *const *lines;
	size_t n, i;          /* the next line */
	const struct ns_match_shape *sh;
};

struct element {
	struct ns_lines body; /* its members, their "children" sorted */
	char *key;
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

/* After a "children": [ at indentation ind: its elements, sorted, and "]". */
static bool json_array(struct json *j, size_t ind, struct ns_lines *out)
{
	const char *open, *sep = NULL, *close;
	struct element *v = NULL;
	size_t n = 0, cap = 0, e;

	if (j->i >= j->n)
		return false;
	open = j->lines[j->i];
	e = indent(open);
	if (e <= ind || strcmp(open + e, "{"))
		return false;
	for (j->i++;; j->i++) {
		const char *l;
		struct ns_buf key = NS_BUF_INIT;

		ns_grow((void **)&v, &cap, n + 1, sizeof(*v));
		v[n].body = (struct ns_lines)NS_LINES_INIT;
		v[n].key = NULL;
		if (!json_body(j, e, &v[n].body) || j->i >= j->n || indent(j->lines[j->i]) != e) {
			free_elements(v, n + 1);
			return false;
		}
		for (size_t k = 0; k < v[n].body.n; k++) {
			add_key(&key, v[n].body.v[k], j->sh);
			ns_buf_addc(&key, '\n');
		}
		v[n++].key = ns_buf_detach(&key);
		l = j->lines[j->i];
		if (!strcmp(l + e, "},{")) {
			sep = l;
			continue;
		}
		if (strcmp(l + e, "}")) {
			free_elements(v, n);
			return false;
		}
		close = l;
		j->i++;
		break;
	}
	if (j->i >= j->n || indent(j->lines[j->i]) != ind || strcmp(j->lines[j->i] + ind, "]")) {
		free_elements(v, n);
		return false;
	}
	/* stable: equal elements keep their order (qsort is not) */
	for (size_t k = 0; k < n; k++) {
		char *key = xasprintf("%s%020zu", v[k].key, k);

		free(v[k].key);
		v[k].key = key;
	}
	qsort(v, n, sizeof(*v), by_element);
	for (size_t k = 0; k < n; k++) {
		ns_lines_push(out, k ? sep : open);
		for (size_t m = 0; m < v[k].body.n; m++)
			ns_lines_push(out, v[k].body.v[m]);
	}
	ns_lines_push(out, close);
	ns_lines_push(out, j->lines[j->i++]);
	free_elements(v, n);
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

bool ns_match_tree_canon(const char *const *lines, size_t n,
			 const struct ns_match_shape *sh, struct ns_lines *out)
{
	struct ns_buf prefix = NS_BUF_INIT;
	int ascii = -1;
	struct node *v;

	if (sh && sh->tree && sh->form == NS_MATCH_JSON)
		return json_tree(lines, n, sh, out);
	v = tree_of(lines, n, sh, &ascii);
	if (!v)
		return false;
	for (size_t i = 0; i < n; i++)
		if (v[i].nkids > 1)
			qsort_r(v[i].kids, v[i].nkids, sizeof(size_t), by_key, v);
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
