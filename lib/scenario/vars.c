/* vars.c - see vars.h. */
#include "scenario/vars.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "commands/args.h"
#include "commands/command.h"

struct var {
	char *name, *value;      /* value NULL: exported, not set */
	bool exported;
};

/* One shell level's variables, and its number ($$). */
struct level {
	struct var *v;
	size_t n, cap;
	char pid[24];
};

struct term {
	char *name;
	struct level *lv;         /* the levels, innermost last */
	size_t n, cap;
};

struct ns_vars {
	struct term *t;
	size_t n, cap;
	unsigned long shells;    /* the shells numbered so far */
	/* the process IDs a recording showed for $$ (echo $$), and the
	 * terminal of each */
	struct ns_lines shown, shown_term;
};

struct ns_vars *ns_vars_new(void)
{
	return xcalloc(1, sizeof(struct ns_vars));
}

static void level_free(struct level *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].name);
		free(l->v[i].value);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

void ns_vars_free(struct ns_vars *vs)
{
	if (!vs)
		return;
	for (size_t i = 0; i < vs->n; i++) {
		for (size_t k = 0; k < vs->t[i].n; k++)
			level_free(&vs->t[i].lv[k]);
		free(vs->t[i].lv);
		free(vs->t[i].name);
	}
	free(vs->t);
	ns_lines_free(&vs->shown);
	ns_lines_free(&vs->shown_term);
	free(vs);
}

static struct level *push_level(struct ns_vars *vs, struct term *t)
{
	void *p = t->lv;

	ns_grow(&p, &t->cap, t->n + 1, sizeof(*t->lv));
	t->lv = p;
	memset(&t->lv[t->n], 0, sizeof(*t->lv));
	snprintf(t->lv[t->n].pid, sizeof(t->lv[t->n].pid), "%lu",
		 NS_SHELL_PID_BASE + vs->shells++ % NS_SHELL_PID_COUNT);
	return &t->lv[t->n++];
}

static struct term *term_of(struct ns_vars *vs, const char *name)
{
	void *p = vs->t;

	for (size_t i = 0; i < vs->n; i++)
		if (!strcmp(vs->t[i].name, name))
			return &vs->t[i];
	ns_grow(&p, &vs->cap, vs->n + 1, sizeof(*vs->t));
	vs->t = p;
	memset(&vs->t[vs->n], 0, sizeof(*vs->t));
	vs->t[vs->n].name = xstrdup(name);
	push_level(vs, &vs->t[vs->n]);
	return &vs->t[vs->n++];
}

static struct var *find(struct level *l, const char *name, size_t len)
{
	for (size_t i = 0; i < l->n; i++)
		if (strlen(l->v[i].name) == len && !strncmp(l->v[i].name, name, len))
			return &l->v[i];
	return NULL;
}

static struct var *find_or_add(struct level *l, const char *name, size_t len)
{
	struct var *v = find(l, name, len);
	void *p = l->v;

	if (v)
		return v;
	ns_grow(&p, &l->cap, l->n + 1, sizeof(*l->v));
	l->v = p;
	v = &l->v[l->n++];
	*v = (struct var){ xstrndup(name, len), NULL, false };
	return v;
}

const char *ns_vars_get(void *lookup, const char *name, size_t len)
{
	struct ns_vars_lookup *lk = lookup;
	struct term *t = term_of(lk->vs, lk->term);
	struct var *v;

	if (len == 1 && name[0] == '$')
		return t->lv[t->n - 1].pid; /* $$ */
	v = find(&t->lv[t->n - 1], name, len);
	return v ? v->value : NULL;
}

const char *ns_vars_pid_terminal(struct ns_vars *vs, const char *number)
{
	for (size_t i = 0; i < vs->shown.n; i++)
		if (!strcmp(vs->shown.v[i], number))
			return vs->shown_term.v[i];
	for (size_t i = 0; i < vs->n; i++)
		if (!strcmp(vs->t[i].lv[vs->t[i].n - 1].pid, number))
			return vs->t[i].name;
	return NULL;
}

/* `echo $$` with the number the recording showed under it: that number
 * names the terminal from now on (nsenter -t NUMBER). */
static void note_shown_pid(struct ns_vars *vs, const struct term *t, const struct ns_step *st)
{
	const struct ns_stage *first = &st->pipeline.stages[0];
	const struct ns_echo_args *a = first->args;
	const char *shown = st->nexpect == 1 ? st->expect[0].text : "";

	if (first->def->id != NS_CMD_ECHO || st->pipeline.n != 1 || st->nmore || !a ||
	    a->nwords != 1 || a->file || strcmp(a->words[0], t->lv[t->n - 1].pid) ||
	    !*shown || strspn(shown, "0123456789") != strlen(shown))
		return;
	ns_lines_push(&vs->shown, shown);
	ns_lines_push(&vs->shown_term, t->name);
}

/* NAME=VALUE (word), or NAME alone with exporting: set it in l. */
static void assign(struct level *l, const char *word, bool exporting)
{
	size_t n = 0;
	struct var *v;

	ns_var_name_len(word, &n);
	v = find_or_add(l, word, n);
	if (word[n] == '=') {
		free(v->value);
		v->value = xstrdup(word + n + 1);
	}
	v->exported |= exporting;
}

static void unset(struct level *l, const char *name)
{
	struct var *v = find(l, name, strlen(name));

	if (!v)
		return;
	free(v->name);
	free(v->value);
	*v = l->v[--l->n];
}

void ns_vars_after_step(struct ns_vars *vs, const struct ns_step *st)
{
	const struct ns_stage *first = st->pipeline.n ? &st->pipeline.stages[0] : NULL;
	struct term *t;
	struct level *l, *inner;

	if (!first || !first->def)
		return;
	t = term_of(vs, st->terminal);
	l = &t->lv[t->n - 1];
	note_shown_pid(vs, t, st);
	if (first->def->id == NS_CMD_VARIABLE) {
		bool exporting = !strcmp(first->def->name, "export");
		bool unsetting = !strcmp(first->def->name, "unset");

		for (size_t i = first->def == &ns_cmd_assign ? 0 : 1; i < first->argc; i++) {
			if (unsetting)
				unset(l, first->argv[i]);
			else
				assign(l, first->argv[i], exporting);
		}
		return;
	}
	if (ns_stage_starts_shell(first) && !st->nexpect) {
		size_t outer = t->n - 1;

		inner = push_level(vs, t);
		for (size_t i = 0; i < t->lv[outer].n; i++)
			if (t->lv[outer].v[i].exported) {
				struct var *v = find_or_add(inner, t->lv[outer].v[i].name,
							    strlen(t->lv[outer].v[i].name));
				v->value = t->lv[outer].v[i].value ? xstrdup(t->lv[outer].v[i].value) : NULL;
				v->exported = true;
			}
		return;
	}
	if (ns_stage_ends_shell(first)) {
		level_free(&t->lv[--t->n]);
		/* the terminal's first shell ended: its next prompt is a new one */
		if (!t->n)
			push_level(vs, t);
	}
}
