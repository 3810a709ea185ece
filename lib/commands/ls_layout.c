/* ls_layout.c - see ls_layout.h. The layout is GNU ls's for a terminal
 * of 80 columns (coreutils src/ls.c, calculate_columns() and
 * print_many_per_line(), the same in 8.32 and 9.x): for each number of
 * columns up to 80 / 3 + 1, the names fill ceil(n / cols) rows, column
 * after column; each column is as wide as its longest name plus two
 * blanks, the last of the cols without the two blanks, and every column
 * at least 3 (MIN_COLUMN_WIDTH), columns left empty included. ls takes
 * the most columns whose line is shorter than 80, so a line of exactly
 * 80 does not fit; but it checks the length only when a column grows
 * past 3, so 27 names of one character still share a row of 79 (27
 * columns of 3 are 81). A row pads each name but its last to its
 * column. */
#include "commands/ls_layout.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define LS_WIDTH 80
#define LS_MIN_COLUMN 3

static size_t rows_for(size_t n, size_t cols)
{
	return (n + cols - 1) / cols;
}

/* The widths of the cols columns, blanks after them included, into w;
 * whether they fit a line (see above). */
static bool columns_fit(const struct ns_lines *names, size_t cols, size_t *w)
{
	size_t rows = rows_for(names->n, cols), total = 0;
	bool grew = false;

	for (size_t c = 0; c < cols; c++)
		w[c] = LS_MIN_COLUMN;
	for (size_t i = 0; i < names->n; i++) {
		size_t c = i / rows, len = strlen(names->v[i]) + (c + 1 == cols ? 0 : 2);

		if (len > w[c]) {
			w[c] = len;
			grew = true;
		}
	}
	for (size_t c = 0; c < cols; c++)
		total += w[c];
	return !grew || total < LS_WIDTH;
}

static void render_columns(const struct ns_lines *names, size_t cols, const size_t *w,
			   struct ns_buf *out)
{
	size_t rows = rows_for(names->n, cols);

	for (size_t r = 0; r < rows; r++) {
		for (size_t i = r, c = 0; i < names->n; i += rows, c++) {
			ns_buf_adds(out, names->v[i]);
			if (i + rows >= names->n)
				break;
			for (size_t pad = strlen(names->v[i]); pad < w[c]; pad++)
				ns_buf_addc(out, ' ');
		}
		ns_buf_addc(out, '\n');
	}
}

void ns_ls_render(const struct ns_lines *names, bool one_per_line, struct ns_buf *out)
{
	size_t max = LS_WIDTH / LS_MIN_COLUMN + (LS_WIDTH % LS_MIN_COLUMN != 0);
	size_t cols = names->n < max ? names->n : max;
	size_t *w;

	if (one_per_line) {
		for (size_t i = 0; i < names->n; i++) {
			ns_buf_adds(out, names->v[i]);
			ns_buf_addc(out, '\n');
		}
		return;
	}
	if (!names->n)
		return;
	w = xcalloc(cols, sizeof(*w));
	while (!columns_fit(names, cols, w) && cols > 1)
		cols--;
	render_columns(names, cols, w, out);
	free(w);
}

/* The cells of one row: text cut at runs of two or more blanks. */
static void row_cells(const char *row, struct ns_lines *cells)
{
	const char *p = row;

	while (*p) {
		const char *end = strstr(p, "  ");

		if (!end)
			end = p + strlen(p);
		ns_lines_pushn(cells, p, (size_t)(end - p));
		p = end + strspn(end, " ");
	}
}

bool ns_ls_split(const char *text, struct ns_lines *names)
{
	struct ns_lines rows = NS_LINES_INIT;
	struct ns_lines *cells;
	struct ns_buf again = NS_BUF_INIT;
	size_t ncols = 0;
	bool same;

	ns_lines_split(&rows, text, strlen(text));
	cells = xcalloc(rows.n + 1, sizeof(*cells));
	for (size_t r = 0; r < rows.n; r++) {
		row_cells(rows.v[r], &cells[r]);
		if (cells[r].n > ncols)
			ncols = cells[r].n;
	}
	for (size_t c = 0; c < ncols; c++)
		for (size_t r = 0; r < rows.n; r++)
			if (c < cells[r].n)
				ns_lines_push(names, cells[r].v[c]);
	ns_ls_render(names, false, &again);
	same = !strcmp(ns_buf_str(&again), text);
	for (size_t r = 0; r < rows.n; r++)
		ns_lines_free(&cells[r]);
	free(cells);
	ns_lines_free(&rows);
	ns_buf_free(&again);
	return same;
}

void ns_ls_untab(const char *line, struct ns_buf *out)
{
	size_t col = 0;

	for (const char *p = line; *p; p++) {
		if (*p != '\t') {
			ns_buf_addc(out, *p);
			col++;
			continue;
		}
		do
			ns_buf_addc(out, ' ');
		while (++col % 8);
	}
}

/* ---- ls -l ------------------------------------------------------------------ */

static void owner_name(unsigned id, bool group, struct ns_buf *out)
{
	if (id == 0)
		ns_buf_adds(out, "root");
	else if (id == 65534)
		ns_buf_adds(out, group ? "nogroup" : "nobody");
	else
		ns_buf_addf(out, "%u", id);
}

/* The size column's cell: the size, or a device's "MAJ, MIN". */
static void size_cell(const struct ns_ls_entry *e, struct ns_buf *out)
{
	unsigned type = e->st.mode & S_IFMT;

	if (type == S_IFCHR || type == S_IFBLK)
		ns_buf_addf(out, "%u, %u", e->st.rdev_major, e->st.rdev_minor);
	else
		ns_buf_addf(out, "%llu", e->st.size);
}

/* coreutils' ls: a time more than six months old, or in the future, shows
 * its year instead of its hour */
static void date_cell(long long t, long long now, struct ns_buf *out)
{
	static const char months[12][4] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
					    "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	const long long six_months = 31556952 / 2;
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm)) {
		ns_buf_addf(out, "%lld", t);
		return;
	}
	ns_buf_addf(out, "%s %2d ", months[tm.tm_mon], tm.tm_mday);
	if (now - six_months < t && t <= now)
		ns_buf_addf(out, "%02d:%02d", tm.tm_hour, tm.tm_min);
	else
		ns_buf_addf(out, " %d", tm.tm_year + 1900);
}

enum { W_LINKS, W_OWNER, W_GROUP, W_SIZE, W__N };

static void cells(const struct ns_ls_entry *e, struct ns_buf c[W__N])
{
	for (int k = 0; k < W__N; k++)
		ns_buf_reset(&c[k]);
	ns_buf_addf(&c[W_LINKS], "%llu", e->st.nlink);
	owner_name(e->st.uid, false, &c[W_OWNER]);
	owner_name(e->st.gid, true, &c[W_GROUP]);
	size_cell(e, &c[W_SIZE]);
}

void ns_ls_long_render(const struct ns_ls_entry *v, size_t n, bool total, long long now,
		       struct ns_buf *out)
{
	struct ns_buf c[W__N] = { NS_BUF_INIT, NS_BUF_INIT, NS_BUF_INIT, NS_BUF_INIT };
	size_t w[W__N] = { 0 };
	unsigned long long blocks = 0;

	for (size_t i = 0; i < n; i++) {
		cells(&v[i], c);
		for (int k = 0; k < W__N; k++)
			if (c[k].len > w[k])
				w[k] = c[k].len;
		blocks += v[i].blocks;
	}
	/* in 1024-byte units, rounded up, as human_readable() does */
	if (total)
		ns_buf_addf(out, "total %llu\n", (blocks + 1) / 2);
	for (size_t i = 0; i < n; i++) {
		cells(&v[i], c);
		ns_stat_mode_string(v[i].st.mode, out);
		ns_buf_addf(out, " %*s %-*s %-*s %*s ", (int)w[W_LINKS], ns_buf_str(&c[W_LINKS]),
			    (int)w[W_OWNER], ns_buf_str(&c[W_OWNER]), (int)w[W_GROUP],
			    ns_buf_str(&c[W_GROUP]), (int)w[W_SIZE], ns_buf_str(&c[W_SIZE]));
		date_cell(v[i].mtime, now, out);
		ns_buf_addf(out, " %s", v[i].name);
		if (v[i].link)
			ns_buf_addf(out, " -> %s", v[i].link);
		ns_buf_addc(out, '\n');
	}
	for (int k = 0; k < W__N; k++)
		ns_buf_free(&c[k]);
}

static int by_name(const void *x, const void *y)
{
	return strcmp(((const struct ns_ls_entry *)x)->name, ((const struct ns_ls_entry *)y)->name);
}

void ns_ls_sort_entries(struct ns_ls_entry *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), by_name);
}

static int by_operand(const void *x, const void *y)
{
	return strcmp(((const struct ns_ls_operand *)x)->name, ((const struct ns_ls_operand *)y)->name);
}

/* the files among ops, as one listing */
static bool render_files(const struct ns_ls_operand *ops, size_t n, bool longf, bool one,
			 long long now, struct ns_buf *out)
{
	struct ns_ls_entry *v = xcalloc(n + 1, sizeof(*v));
	struct ns_lines names = NS_LINES_INIT;
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (!ops[i].file)
			continue;
		if (longf)
			v[k] = ops[i].v[0];
		k++;
		ns_lines_push(&names, ops[i].name);
	}
	if (k && longf)
		ns_ls_long_render(v, k, false, now, out);
	else if (k)
		ns_ls_render(&names, one, out);
	free(v);
	ns_lines_free(&names);
	return k > 0;
}

void ns_ls_render_operands(struct ns_ls_operand *ops, size_t n, bool longf, bool one,
			   long long now, struct ns_buf *out)
{
	bool printed;

	if (n > 1)
		qsort(ops, n, sizeof(*ops), by_operand);
	printed = render_files(ops, n, longf, one, now, out);
	for (size_t i = 0; i < n; i++) {
		if (ops[i].file)
			continue;
		if (printed)
			ns_buf_addc(out, '\n');
		if (n > 1)
			ns_buf_addf(out, "%s:\n", ops[i].name);
		if (longf)
			ns_ls_long_render(ops[i].v, ops[i].n, true, now, out);
		else
			ns_ls_render(&ops[i].names, one, out);
		printed = true;
	}
}

void ns_ls_long_shape(struct ns_match_shape *out)
{
	static const enum ns_match_col cols[] = {
		NS_MATCH_COL_TEXT, NS_MATCH_COL_TEXT, NS_MATCH_COL_TEXT, NS_MATCH_COL_TEXT,
		NS_MATCH_COL_SIZE, NS_MATCH_COL_DATE, NS_MATCH_COL_TEXT,
	};

	memset(out, 0, sizeof(*out));
	out->form = NS_MATCH_WORDS;
	out->total = true;
	out->ncols = NS_ARRAY_SIZE(cols);
	memcpy(out->cols, cols, sizeof(cols));
}
