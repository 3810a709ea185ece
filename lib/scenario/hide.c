/* hide.c - see hide.h.
 *
 * Three line forms name a mount: a mountinfo line (its MAJ:MIN, mount
 * point and source), a mount(8) line ("SRC on TARGET type T (OPTS)") and
 * a findmnt row. A findmnt table printed straight to the terminal is
 * read as columns: the columns are the runs of positions where some line
 * has a character that is no blank (findmnt puts one blank between
 * columns and pads each to its widest cell), each cell is cut at its
 * column's start, the rows of hidden mounts (and what hangs below them
 * in a tree) go, and the rest is padded to the widest cell that is left,
 * right-aligned columns (ID, PARENT, sizes) to the right, with no blank
 * after the last column, and the tree's glyphs drawn again from each
 * row's depth (`├─` before a later sibling, `└─` for the last, `│ `
 * under an ancestor with a later sibling). */
#include "scenario/hide.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void ns_hide_free(struct ns_hide *h)
{
	ns_lines_free(&h->devs);
	ns_lines_free(&h->sources);
	ns_lines_free(&h->targets);
	free(h->keep);
	h->keep = NULL;
}

static bool in_list(const struct ns_lines *l, const char *s, size_t n)
{
	for (size_t i = 0; i < l->n; i++)
		if (strlen(l->v[i]) == n && !memcmp(l->v[i], s, n))
			return true;
	return false;
}

/* A word that is a hidden source, or one with findmnt's "[/root]". */
static bool source_word(const struct ns_hide *h, const char *w, size_t n)
{
	for (size_t i = 0; i < h->sources.n; i++) {
		size_t k = strlen(h->sources.v[i]);

		if (k && n >= k && !memcmp(w, h->sources.v[i], k) && (n == k || w[k] == '['))
			return true;
	}
	return false;
}

/* Is path (n bytes) strictly below the scratch directory? */
static bool below_keep(const struct ns_hide *h, const char *path, size_t n)
{
	size_t k = strlen(h->keep);

	while (k > 1 && h->keep[k - 1] == '/')
		k--;
	if (k == 1 && h->keep[0] == '/')
		return n > 1 && path[0] == '/';
	return n > k + 1 && !memcmp(path, h->keep, k) && path[k] == '/';
}

struct words {
	const char *w[64];
	size_t n[64];
	size_t count;
};

static void split_words(const char *s, struct words *w)
{
	w->count = 0;
	while (*s && w->count < 64) {
		s += strspn(s, " \t");
		if (!*s)
			break;
		w->w[w->count] = s;
		w->n[w->count] = strcspn(s, " \t");
		s += w->n[w->count++];
	}
}

static bool word_is(const struct words *w, size_t i, const char *s)
{
	return i < w->count && w->n[i] == strlen(s) && !memcmp(w->w[i], s, w->n[i]);
}

/* Does this line name a hidden mount? Its kind of line decides how. */
static bool line_hidden(const struct ns_hide *h, const char *line)
{
	struct words w;

	split_words(line, &w);
	/* mountinfo: ID PARENT MAJ:MIN ROOT POINT OPTS [TAGS] - TYPE SOURCE SUPER */
	if (w.count >= 10 && memchr(w.w[2], ':', w.n[2]) &&
	    strspn(w.w[0], "0123456789") == w.n[0] && strspn(w.w[1], "0123456789") == w.n[1]) {
		for (size_t i = 6; i + 2 < w.count; i++)
			if (word_is(&w, i, "-")) {
				if (in_list(&h->devs, w.w[2], w.n[2]) || source_word(h, w.w[i + 2], w.n[i + 2]))
					return true;
				return h->keep && !below_keep(h, w.w[4], w.n[4]);
			}
	}
	/* mount(8): SRC on TARGET type TYPE (OPTS) */
	if (w.count >= 6 && word_is(&w, 1, "on") && word_is(&w, w.count - 3, "type") &&
	    w.w[w.count - 1][0] == '(') {
		if (source_word(h, w.w[0], w.n[0]))
			return true;
		return h->keep && !below_keep(h, w.w[2], w.n[2]);
	}
	if (h->keep)
		return false;
	/* anything else (findmnt piped, df): a word that is a hidden mount's
	 * source or device */
	for (size_t i = 0; i < w.count; i++)
		if (in_list(&h->devs, w.w[i], w.n[i]) || source_word(h, w.w[i], w.n[i]))
			return true;
	return false;
}

/* ---- findmnt's tables ---- */

struct cpline {
	uint32_t *cp;
	size_t n;
};

static void to_cp(const char *s, struct cpline *l)
{
	size_t len = strlen(s);

	l->cp = xcalloc(len + 1, sizeof(*l->cp));
	l->n = 0;
	while (*s) {
		uint32_t c;
		size_t k = ns_utf8_char(s, &c);

		if (!k) {
			c = (unsigned char)*s;
			k = 1;
		}
		l->cp[l->n++] = c;
		s += k;
	}
}

static void add_cp(struct ns_buf *b, uint32_t c)
{
	if (c < 0x80) {
		ns_buf_addc(b, (char)c);
	} else if (c < 0x800) {
		ns_buf_addc(b, (char)(0xc0 | (c >> 6)));
		ns_buf_addc(b, (char)(0x80 | (c & 0x3f)));
	} else if (c < 0x10000) {
		ns_buf_addc(b, (char)(0xe0 | (c >> 12)));
		ns_buf_addc(b, (char)(0x80 | ((c >> 6) & 0x3f)));
		ns_buf_addc(b, (char)(0x80 | (c & 0x3f)));
	} else {
		ns_buf_addc(b, (char)(0xf0 | (c >> 18)));
		ns_buf_addc(b, (char)(0x80 | ((c >> 12) & 0x3f)));
		ns_buf_addc(b, (char)(0x80 | ((c >> 6) & 0x3f)));
		ns_buf_addc(b, (char)(0x80 | (c & 0x3f)));
	}
}

static bool is_glyph(uint32_t c)
{
	return c == ' ' || c == 0x2502 || c == 0x251c || c == 0x2514 || c == 0x2500 ||
	       c == '|' || c == '`' || c == '-';
}

/* What the command line says of findmnt's output. */
struct fm_opts {
	bool findmnt;        /* findmnt alone, into the terminal */
	bool noheadings, tree, padded;
	bool columns;        /* -o given */
	size_t target;       /* with -o: TARGET's column, SIZE_MAX for none */
	char names[512];     /* -o's list as given; "" for the defaults */
	bool df;
};

/* -o LIST: where TARGET is in it ("+COLS" adds to the defaults, which
 * start with it). */
static void output_list(struct fm_opts *o, const char *v, size_t n)
{
	size_t col = 0;

	o->columns = true;
	snprintf(o->names, sizeof(o->names), "%.*s", (int)n, v);
	if (n && v[0] == '+') {
		o->target = 0;
		return;
	}
	for (size_t i = 0; i < n;) {
		size_t k = 0;

		while (i + k < n && v[i + k] != ',')
			k++;
		if (k == 6 && !strncasecmp(v + i, "TARGET", 6)) {
			o->target = col;
			return;
		}
		col++;
		i += k + 1;
	}
}

static void read_findmnt(const char *cmdline, struct fm_opts *o)
{
	struct words w;
	size_t i = 0;

	memset(o, 0, sizeof(*o));
	o->target = SIZE_MAX;
	if (strpbrk(cmdline, "|;&<>`$"))
		return;
	split_words(cmdline, &w);
	if (word_is(&w, 0, "sudo"))
		i++;
	if (!word_is(&w, i, "findmnt"))
		return;
	o->findmnt = o->tree = o->padded = true;
	for (i++; i < w.count; i++) {
		const char *a = w.w[i];
		size_t n = w.n[i];

		if (n > 2 && a[0] == '-' && a[1] == '-') {
#define LONG(s) (n >= strlen(s) && !memcmp(a, s, strlen(s)))
			if (LONG("--noheadings"))
				o->noheadings = true;
			else if (LONG("--list"))
				o->tree = false;
			else if (LONG("--raw") || LONG("--json") || LONG("--pairs"))
				o->tree = o->padded = false;
			else if (LONG("--df"))
				o->df = true, o->tree = false;
			else if (LONG("--output")) {
				const char *eq = memchr(a, '=', n);

				if (eq)
					output_list(o, eq + 1, (size_t)(a + n - eq - 1));
				else if (i + 1 < w.count)
					output_list(o, w.w[i + 1], w.n[i + 1]);
			}
#undef LONG
			continue;
		}
		if (n < 2 || a[0] != '-')
			continue;
		for (size_t k = 1; k < n; k++) {
			char c = a[k];

			if (c == 'n')
				o->noheadings = true;
			else if (c == 'l')
				o->tree = false;
			else if (c == 'r' || c == 'J' || c == 'P')
				o->tree = o->padded = false;
			else if (c == 'D')
				o->df = true, o->tree = false;
			if (c == 'o') {
				if (k + 1 < n)
					output_list(o, a + k + 1, n - k - 1);
				else if (i + 1 < w.count)
					output_list(o, w.w[i + 1], w.n[i + 1]);
			}
			if (strchr("oOtSTNFMdw", c)) {
				if (k + 1 == n)
					i++;
				break;
			}
		}
	}
	if (o->df)
		o->tree = false;
}

/* The rows of a tree drawn again from their depths. */
static void draw_prefix(struct ns_buf *b, const size_t *depth, size_t m, size_t i)
{
	for (size_t k = 1; k <= depth[i]; k++) {
		bool later = false;

		for (size_t j = i + 1; j < m; j++) {
			if (depth[j] < k)
				break;
			if (depth[j] == k) {
				later = true;
				break;
			}
		}
		if (k < depth[i])
			ns_buf_adds(b, later ? "\u2502 " : "  ");
		else
			ns_buf_adds(b, later ? "\u251c\u2500" : "\u2514\u2500");
	}
}

/* With a scratch directory, the "..." above the session's rows stands
 * for the sandbox's root row on replay, which findmnt pads the columns
 * for: the widths of its cells (the root stand-in /dev/sda1, a tmpfs)
 * in the columns that print them the same on every run. */
static size_t root_width(const struct words *hw, size_t j)
{
	static const struct { const char *col, *cell; } root[] = {
		{ "TARGET", "/" }, { "SOURCE", "/dev/sda1" }, { "FSTYPE", "tmpfs" },
		{ "OPTIONS", "rw,relatime" }, { "VFS-OPTIONS", "rw,relatime" },
		{ "FS-OPTIONS", "rw" }, { "PROPAGATION", "private" }, { "FSROOT", "/" },
		{ "SOURCES", "/dev/sda1" },
	};

	for (size_t i = 0; i < NS_ARRAY_SIZE(root); i++)
		if (word_is(hw, j, root[i].col))
			return strlen(root[i].cell);
	return 0;
}

/* Without headings findmnt still pads each column to its heading's
 * width: the names of -o's list, or of the default columns. */
static void heading_widths(const struct fm_opts *o, size_t *w, size_t ncol)
{
	char list[600];
	size_t j = 0;

	if (!o->names[0] || o->names[0] == '+')
		snprintf(list, sizeof(list), "%s%s",
			 o->df ? "SOURCE,FSTYPE,SIZE,USED,AVAIL,USE%,TARGET" : "TARGET,SOURCE,FSTYPE,OPTIONS",
			 o->names[0] ? o->names : "");
	else
		snprintf(list, sizeof(list), "%s", o->names);
	for (char *p = list, *c; j < ncol && (c = strsep(&p, ",+")); ) {
		if (!*c)
			continue;
		if (strlen(c) > w[j])
			w[j] = strlen(c);
		j++;
	}
	if (j != ncol)
		/* a list this does not read as findmnt does: no widths */
		for (size_t k = 0; k < ncol; k++)
			w[k] = 0;
}

/* A findmnt table without h's rows, padded again. Returns the lines
 * dropped, or SIZE_MAX when the columns cannot be told apart. */
static size_t findmnt_table(const struct ns_hide *h, const struct fm_opts *o, struct ns_lines *out)
{
	size_t nl = out->n, width = 0, ncol = 0, dropped = 0, target = SIZE_MAX;
	struct cpline *l = xcalloc(nl + 1, sizeof(*l));
	bool *gut, *drop = xcalloc(nl + 1, sizeof(*drop));
	size_t *start, *end, *depth = xcalloc(nl + 1, sizeof(*depth));
	bool *right;
	size_t first = o->noheadings ? 0 : 1, *w_min;
	struct ns_lines res = NS_LINES_INIT;
	struct words hw;

	for (size_t i = 0; i < nl; i++) {
		to_cp(out->v[i], &l[i]);
		if (l[i].n > width)
			width = l[i].n;
	}
	gut = xcalloc(width + 1, sizeof(*gut));
	for (size_t p = 0; p < width; p++) {
		gut[p] = true;
		for (size_t i = 0; i < nl && gut[p]; i++)
			if (p < l[i].n && l[i].cp[p] != ' ')
				gut[p] = false;
	}
	start = xcalloc(width + 1, sizeof(*start));
	end = xcalloc(width + 1, sizeof(*end));
	right = xcalloc(width + 1, sizeof(*right));
	w_min = xcalloc(width + 1, sizeof(*w_min));
	for (size_t p = 0; p < width;) {
		if (gut[p]) {
			p++;
			continue;
		}
		start[ncol] = p;
		while (p < width && !gut[p])
			p++;
		end[ncol++] = p;
	}
	if (!o->noheadings) {
		split_words(out->v[0], &hw);
		if (hw.count != ncol)
			goto fail;
		for (size_t j = 0; j < hw.count; j++)
			if (word_is(&hw, j, "TARGET"))
				target = j;
	} else if (!o->columns) {
		target = o->df ? ncol - 1 : 0;
	} else if (o->target < ncol && !(o->df && o->target == 0)) {
		target = o->target;
	}
	if (h->keep && target == SIZE_MAX)
		goto fail;
	/* right-aligned: every cell ends at its column's end */
	for (size_t j = 0; j < ncol; j++) {
		bool all_end = true, some_later = false;

		for (size_t i = 0; i < nl; i++) {
			size_t a = start[j], e = end[j] < l[i].n ? end[j] : l[i].n;

			while (a < e && l[i].cp[a] == ' ')
				a++;
			if (a == e)
				continue;
			if (e != end[j] || l[i].cp[e - 1] == ' ')
				all_end = false;
			if (a > start[j])
				some_later = true;
		}
		right[j] = all_end && some_later;
	}
	/* which rows go; in a tree, with what hangs below them */
	for (size_t i = first; i < nl; i++) {
		size_t pre = 0;

		if (o->tree && target == 0) {
			while (pre < l[i].n && is_glyph(l[i].cp[pre]))
				pre++;
			depth[i] = pre / 2;
		}
		for (size_t j = 0; j < ncol && !drop[i]; j++) {
			size_t a = start[j], e = end[j] < l[i].n ? end[j] : l[i].n;
			struct ns_buf cell = NS_BUF_INIT;

			if (j == 0 && o->tree && target == 0)
				a = pre;
			while (a < e && l[i].cp[a] == ' ')
				a++;
			while (e > a && l[i].cp[e - 1] == ' ')
				e--;
			for (size_t p = a; p < e; p++)
				add_cp(&cell, l[i].cp[p]);
			if (h->keep) {
				if (j == target && !below_keep(h, ns_buf_str(&cell), cell.len))
					drop[i] = true;
			} else if (in_list(&h->devs, ns_buf_str(&cell), cell.len) ||
				   source_word(h, ns_buf_str(&cell), cell.len) ||
				   (j == target && in_list(&h->targets, ns_buf_str(&cell), cell.len))) {
				drop[i] = true;
			}
			ns_buf_free(&cell);
		}
	}
	if (o->tree && target == 0) {
		/* what hangs below a dropped row goes too, but for a scratch
		 * directory: its mounts hang below the host's, and stand
		 * below the root in the sandbox */
		for (size_t i = first; i < nl; i++)
			if (drop[i] && !h->keep)
				for (size_t j = i + 1; j < nl && depth[j] > depth[i]; j++)
					drop[j] = true;
		if (h->keep) {
			/* each row's depth: 1 and its kept ancestors */
			size_t stack[256], sp = 0;
			bool kept[256];

			for (size_t i = first; i < nl; i++) {
				size_t k = 0, was = depth[i];

				while (sp && stack[sp - 1] >= was)
					sp--;
				for (size_t s = 0; s < sp; s++)
					k += kept[s];
				if (sp < 256) {
					kept[sp] = !drop[i];
					stack[sp++] = was;
				}
				depth[i] = 1 + k;
			}
		}
	}
	/* the rows that stay, as cells */
	if (h->keep && !o->noheadings)
		for (size_t j = 0; j < ncol; j++)
			w_min[j] = root_width(&hw, j);
	if (o->noheadings)
		heading_widths(o, w_min, ncol);
	{
		size_t m = 0, *rows = xcalloc(nl + 1, sizeof(*rows)), *rdepth;
		size_t *w = xcalloc(ncol + 1, sizeof(*w));
		char ***cells = xcalloc(nl + 1, sizeof(*cells));

		for (size_t j = 0; j < ncol; j++)
			w[j] = w_min[j];
		for (size_t i = 0; i < nl; i++)
			if (!drop[i])
				rows[m++] = i;
		rdepth = xcalloc(m + 1, sizeof(*rdepth));
		for (size_t r = 0; r < m; r++)
			rdepth[r] = depth[rows[r]];
		for (size_t r = 0; r < m; r++) {
			size_t i = rows[r];

			cells[r] = xcalloc(ncol + 1, sizeof(**cells));
			for (size_t j = 0; j < ncol; j++) {
				size_t a = start[j], e = end[j] < l[i].n ? end[j] : l[i].n;
				struct ns_buf c = NS_BUF_INIT;
				size_t cw = 0;

				if (j == 0 && o->tree && target == 0 && i >= first) {
					while (a < e && is_glyph(l[i].cp[a]))
						a++;
					draw_prefix(&c, rdepth, m, r);
					cw = 2 * rdepth[r];
				} else if (right[j]) {
					while (a < e && l[i].cp[a] == ' ')
						a++;
				}
				while (e > a && l[i].cp[e - 1] == ' ')
					e--;
				for (size_t p = a; p < e; p++)
					add_cp(&c, l[i].cp[p]);
				cw += e > a ? e - a : 0;
				if (cw > w[j])
					w[j] = cw;
				cells[r][j] = ns_buf_detach(&c);
			}
		}
		for (size_t r = 0, i = 0; i <= nl; i++) {
			if (i < nl && drop[i]) {
				dropped++;
				continue;
			}
			if (h->ellipsis && i > 0 && drop[i - 1])
				ns_lines_push(&res, "...");
			if (i == nl)
				break;
			{
				struct ns_buf line = NS_BUF_INIT;

				for (size_t j = 0; j < ncol; j++) {
					struct cpline c;
					size_t pad;

					to_cp(cells[r][j], &c);
					pad = w[j] - c.n;
					free(c.cp);
					if (j)
						ns_buf_addc(&line, ' ');
					if (right[j])
						for (size_t p = 0; p < pad; p++)
							ns_buf_addc(&line, ' ');
					ns_buf_adds(&line, cells[r][j]);
					if (!right[j] && j + 1 < ncol)
						for (size_t p = 0; p < pad; p++)
							ns_buf_addc(&line, ' ');
				}
				while (line.len && line.data[line.len - 1] == ' ')
					line.len--;
				ns_lines_push(&res, line.len ? ns_buf_str(&line) : "");
				ns_buf_free(&line);
				r++;
			}
		}
		for (size_t r = 0; r < m; r++) {
			for (size_t j = 0; j < ncol; j++)
				free(cells[r][j]);
			free(cells[r]);
		}
		free(cells);
		free(w);
		free(rows);
		free(rdepth);
	}
	ns_lines_free(out);
	*out = res;
	goto done;
fail:
	dropped = SIZE_MAX;
done:
	for (size_t i = 0; i < nl; i++)
		free(l[i].cp);
	free(l);
	free(gut);
	free(drop);
	free(depth);
	free(start);
	free(end);
	free(right);
	free(w_min);
	return dropped;
}

size_t ns_hide_output(const struct ns_hide *h, const char *cmdline, struct ns_lines *out,
		      bool *unsure)
{
	struct fm_opts o;
	struct ns_lines res = NS_LINES_INIT;
	size_t dropped = 0;
	bool prev = false;

	if (unsure)
		*unsure = false;
	if (!out->n)
		return 0;
	read_findmnt(cmdline, &o);
	if (o.findmnt && o.padded) {
		size_t r = findmnt_table(h, &o, out);

		if (r != SIZE_MAX)
			return r;
		if (unsure)
			*unsure = true;
	}
	for (size_t i = 0; i < out->n; i++) {
		if (line_hidden(h, out->v[i])) {
			dropped++;
			prev = true;
			continue;
		}
		if (prev && h->ellipsis)
			ns_lines_push(&res, "...");
		prev = false;
		ns_lines_push(&res, out->v[i]);
	}
	if (prev && h->ellipsis)
		ns_lines_push(&res, "...");
	if (unsure && !dropped && !h->keep)
		for (size_t i = 0; i < h->sources.n; i++)
			for (size_t k = 0; k < out->n; k++)
				if (strstr(out->v[k], h->sources.v[i]))
					*unsure = true;
	ns_lines_free(out);
	*out = res;
	return dropped;
}
