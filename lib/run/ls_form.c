/* ls_form.c - see ls_form.h. */
#include "run/ls_form.h"

#include <stdlib.h>
#include <string.h>

#include "commands/args.h"
#include "commands/ls_layout.h"
#include "commands/command.h"

/* How a block writes a listing. */
enum form { FORM_UNSEEN, FORM_COLUMNS, FORM_ONE };

/* Whether st is ls printing columns: unwrapped, without -1, unpiped (a
 * piped ls prints one name a line, scenario_parse.c). */
static bool ls_columns(const struct ns_step *st)
{
	const struct ns_stage *cmd;

	if (st->pipeline.n != 1)
		return false;
	cmd = ns_stage_cmd(&st->pipeline.stages[0]);
	return cmd->def && cmd->args && cmd->def->columns && cmd->def->columns(cmd->args);
}

/* Whether st's block can be read as names: in order, no "..." line. */
static bool plain_block(const struct ns_step *st)
{
	if (st->unordered)
		return false;
	for (size_t i = 0; i < st->nexpect; i++)
		if (!strcmp(st->expect[i].text, "..."))
			return false;
	return true;
}

/* The block's lines, tabs expanded (ns_ls_untab), as a list, and as text
 * ("\n" after each). */
static void block_lines(const struct ns_step *st, struct ns_lines *l, struct ns_buf *text)
{
	for (size_t i = 0; i < st->nexpect; i++) {
		struct ns_buf line = NS_BUF_INIT;

		ns_ls_untab(st->expect[i].text, &line);
		ns_lines_push(l, ns_buf_str(&line));
		ns_buf_adds(text, ns_buf_str(&line));
		ns_buf_addc(text, '\n');
		ns_buf_free(&line);
	}
}

bool ns_ls_form_applies(const struct ns_step *st, int err)
{
	return !err && ls_columns(st) && plain_block(st);
}

struct ns_expect *ns_ls_form_untab(const struct ns_step *st, int err)
{
	struct ns_expect *b;
	bool tab = false;

	for (size_t i = 0; i < st->nexpect; i++)
		tab |= strchr(st->expect[i].text, '\t') != NULL;
	if (!tab || !ns_ls_form_applies(st, err))
		return NULL;
	b = xcalloc(st->nexpect, sizeof(*b));
	for (size_t i = 0; i < st->nexpect; i++) {
		struct ns_buf line = NS_BUF_INIT;

		ns_ls_untab(st->expect[i].text, &line);
		b[i] = (struct ns_expect){ ns_buf_detach(&line), st->expect[i].line };
	}
	return b;
}

void ns_ls_form_free_block(struct ns_expect *block, size_t n)
{
	if (!block)
		return;
	for (size_t i = 0; i < n; i++)
		free(block[i].text);
	free(block);
}

char *ns_ls_form_names(const struct ns_step *st, int err, const char *output)
{
	struct ns_lines names = NS_LINES_INIT;
	struct ns_buf b = NS_BUF_INIT;
	bool split = !err && ls_columns(st) && ns_ls_split(output ? output : "", &names);

	if (split)
		ns_ls_render(&names, true, &b);
	ns_lines_free(&names);
	return split ? ns_buf_detach(&b) : NULL;
}

/* The form st's block shows: columns when it splits into names that lay
 * out again to it with two or more in a row; one a line when it has two
 * or more lines that ls would put in other columns; else unseen (no name,
 * one, or names too wide to share a row: both forms are the same). */
static enum form block_form(const struct ns_step *st)
{
	struct ns_lines names = NS_LINES_INIT, split = NS_LINES_INIT;
	struct ns_buf text = NS_BUF_INIT, cols = NS_BUF_INIT;
	enum form f = FORM_UNSEEN;

	if (!ls_columns(st) || !plain_block(st))
		return FORM_UNSEEN;
	block_lines(st, &names, &text);
	ns_ls_render(&names, false, &cols);
	if (ns_ls_split(ns_buf_str(&text), &split) && split.n > st->nexpect)
		f = FORM_COLUMNS;
	else if (st->nexpect > 1 && strcmp(ns_buf_str(&cols), ns_buf_str(&text)))
		f = FORM_ONE;
	ns_lines_free(&names);
	ns_lines_free(&split);
	ns_buf_free(&text);
	ns_buf_free(&cols);
	return f;
}

bool ns_ls_form_one_per_line(const struct ns_scenario *sc, const struct ns_step *st)
{
	enum form own = block_form(st);
	bool one = false;

	if (own != FORM_UNSEEN)
		return own == FORM_ONE;
	for (size_t i = 0; i < sc->nsteps; i++) {
		enum form f = block_form(&sc->steps[i]);

		if (f == FORM_COLUMNS)
			return false;
		one |= f == FORM_ONE;
	}
	return one;
}

char *ns_ls_form_output(const struct ns_scenario *sc, const struct ns_step *st,
			int err, const char *output)
{
	char *names = NULL;

	if (ns_ls_form_one_per_line(sc, st))
		names = ns_ls_form_names(st, err, output);
	return names ? names : xstrdup(output ? output : "");
}
