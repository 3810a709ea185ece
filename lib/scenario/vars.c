/* vars.c - see vars.h. */
#include "scenario/vars.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "commands/command.h"

struct var {
	char *name, *value;      /* value NULL: exported, not set */
	bool exported;
};

/* One shell level's variables. */
struct level {
	struct var *v;
	size_t n, cap;
};

struct term {
	char *name;
	struct level *lv;         /* the levels, innermost last */
	size_t n, cap;
};

struct ns_vars {
	struct term *t;
	size_t n, cap;
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
	free(vs);
}

static struct level *push_level(struct term *t)
{
	void *p = t->lv;

	ns_grow(&p, &t->cap, t->n + 1, sizeof(*t->lv));
	t->lv = p;
	memset(&t->lv[t->n], 0, sizeof(*t->lv));
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
	push_level(&vs->t[vs->n]);
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
	struct var *v = find(&t->lv[t->n - 1], name, len);

	return v ? v->value : NULL;
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

		inner = push_level(t);
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
			push_level(t);
	}
}
