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
