/* reclog.c - see reclog.h. */
#include "scenario/reclog.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "scenario/import.h"

enum phase { BEFORE, PROMPT, OUTPUT, GONE };

struct term {
	enum phase phase;
	struct ns_buf pending;     /* bytes not yet placed */
	size_t step;               /* OUTPUT: the step being printed */
};

struct step {
	char *echo;                /* the command line as echoed, raw */
	struct ns_buf out;         /* raw output */
};

struct ns_reclog {
	struct term *t;
	size_t nt, tcap;
	struct step *s;
	size_t ns, scap;
};

struct ns_reclog *ns_reclog_new(void)
{
	return xcalloc(1, sizeof(struct ns_reclog));
}

size_t ns_reclog_terminal(struct ns_reclog *r)
{
	void *p = r->t;

	ns_grow(&p, &r->tcap, r->nt + 1, sizeof(*r->t));
	r->t = p;
	r->t[r->nt] = (struct term){ BEFORE, NS_BUF_INIT, 0 };
	return r->nt++;
}

static const char *find_mark(const struct ns_buf *b)
{
	size_t k = strlen(NS_RECLOG_MARK);

	for (size_t i = 0; i + k <= b->len; i++)
		if (!memcmp(b->data + i, NS_RECLOG_MARK, k))
			return b->data + i;
	return NULL;
}

static void place(struct ns_reclog *r, struct term *t)
{
	for (;;) {
		if (t->phase == PROMPT) {
			const char *nl = t->pending.len ? memchr(t->pending.data, '\n', t->pending.len) : NULL;
			const char *mark = find_mark(&t->pending);
			void *p = r->s;

			if (mark && (!nl || mark < nl)) {
				/* a new prompt before any newline (the shell
				 * drew it again): start over from it */
				ns_buf_drop(&t->pending, (size_t)(mark - t->pending.data) + strlen(NS_RECLOG_MARK));
				continue;
			}
			if (!nl)
				return;
			ns_grow(&p, &r->scap, r->ns + 1, sizeof(*r->s));
			r->s = p;
			r->s[r->ns] = (struct step){ xstrndup(t->pending.data, (size_t)(nl - t->pending.data)),
						     NS_BUF_INIT };
			t->step = r->ns++;
			t->phase = OUTPUT;
			ns_buf_drop(&t->pending, (size_t)(nl - t->pending.data) + 1);
			continue;
		}
		if (t->phase == BEFORE || t->phase == OUTPUT) {
			const char *mark = find_mark(&t->pending);
			size_t at;

			if (!mark)
				return;
			at = (size_t)(mark - t->pending.data);
			if (t->phase == OUTPUT)
				ns_buf_add(&r->s[t->step].out, t->pending.data, at);
			ns_buf_drop(&t->pending, at + strlen(NS_RECLOG_MARK));
			t->phase = PROMPT;
			continue;
		}
		return;
	}
}

void ns_reclog_feed(struct ns_reclog *r, size_t term, const char *p, size_t n)
{
	struct term *t = &r->t[term];

	if (t->phase == GONE)
		return;
	ns_buf_add(&t->pending, p, n);
	place(r, t);
}

void ns_reclog_end(struct ns_reclog *r, size_t term)
{
	struct term *t = &r->t[term];

	if (t->phase == OUTPUT)
		ns_buf_add(&r->s[t->step].out, t->pending.data, t->pending.len);
	ns_buf_free(&t->pending);
	t->phase = GONE;
}

size_t ns_reclog_steps(const struct ns_reclog *r)
{
	return r->ns;
}

char *ns_reclog_text(const struct ns_reclog *r)
{
	struct ns_buf b = NS_BUF_INIT;

	for (size_t i = 0; i < r->ns; i++) {
		const struct step *s = &r->s[i];
		char *echo = ns_import_clean_line(s->echo, strlen(s->echo));
		size_t el = strlen(echo);
		struct ns_lines lines = NS_LINES_INIT;

		if (el >= 2 && !strcmp(echo + el - 2, "^C")) {
			free(echo);
			continue;
		}
		ns_buf_addf(&b, "%s\n", echo);
		free(echo);
		ns_lines_split(&lines, s->out.data ? s->out.data : "", s->out.len);
		for (size_t k = 0; k < lines.n; k++) {
			char *line = ns_import_clean_line(lines.v[k], strlen(lines.v[k]));

			/* the last piece, with no newline, is what the shell
			 * printed before its next prompt: mode switches */
			if (!(k + 1 == lines.n && !*line &&
			      (!s->out.len || s->out.data[s->out.len - 1] != '\n')))
				ns_buf_addf(&b, "%s\n", line);
			free(line);
		}
		ns_lines_free(&lines);
	}
	return ns_buf_detach(&b);
}

void ns_reclog_free(struct ns_reclog *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nt; i++)
		ns_buf_free(&r->t[i].pending);
	for (size_t i = 0; i < r->ns; i++) {
		free(r->s[i].echo);
		ns_buf_free(&r->s[i].out);
	}
	free(r->t);
	free(r->s);
	free(r);
}
