/* ls_layout.c - see ls_layout.h. ls fills columns top to bottom and uses
 * the most columns whose widths fit the terminal: each column is as wide
 * as its longest name, and all but the last are followed by two blanks. */
#include "commands/ls_layout.h"

#include <stdlib.h>
#include <string.h>

#define LS_WIDTH 80

/* The widest name of column c when the names fill `rows` rows. */
static size_t column_width(const struct ns_lines *names, size_t rows, size_t c)
{
	size_t w = 0;

	for (size_t i = c * rows; i < names->n && i < (c + 1) * rows; i++)
		if (strlen(names->v[i]) > w)
			w = strlen(names->v[i]);
	return w;
}

/* Whether `cols` columns fit the width with no column left empty. */
static bool columns_fit(const struct ns_lines *names, size_t cols)
{
	size_t rows = (names->n + cols - 1) / cols, total = 0;

	if ((cols - 1) * rows >= names->n)
		return false; /* the last column would be empty */
	for (size_t c = 0; c < cols; c++)
		total += column_width(names, rows, c) + (c + 1 < cols ? 2 : 0);
	return total <= LS_WIDTH;
}

static void render_columns(const struct ns_lines *names, size_t cols, struct ns_buf *out)
{
	size_t rows = (names->n + cols - 1) / cols;

	for (size_t r = 0; r < rows; r++) {
		for (size_t c = 0; c < cols && c * rows + r < names->n; c++) {
			const char *s = names->v[c * rows + r];
			bool last = c + 1 == cols || (c + 1) * rows + r >= names->n;

			ns_buf_adds(out, s);
			if (last)
				continue;
			for (size_t pad = strlen(s); pad < column_width(names, rows, c) + 2; pad++)
				ns_buf_addc(out, ' ');
		}
		ns_buf_addc(out, '\n');
	}
}

void ns_ls_render(const struct ns_lines *names, bool one_per_line, struct ns_buf *out)
{
	size_t cols = names->n;

	if (one_per_line) {
		for (size_t i = 0; i < names->n; i++) {
			ns_buf_adds(out, names->v[i]);
			ns_buf_addc(out, '\n');
		}
		return;
	}
	if (!names->n)
		return;
	while (cols > 1 && !columns_fit(names, cols))
		cols--;
	render_columns(names, cols, out);
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
