/* command.c - the command table: finding a command by name across the
 * command modules, what their parsers share, and the questions the rest
 * of lib/ asks a stage of its definition */
#include "commands/command.h"

#include <stdarg.h>
#include <string.h>

#include "base/suggest.h"

static const struct {
	const struct ns_cmd_def *defs;
	const size_t *count;
} modules[] = {
	{ ns_cmd_fs, &ns_cmd_fs_count },
	{ ns_cmd_mount, &ns_cmd_mount_count },
	{ ns_cmd_ns, &ns_cmd_ns_count },
	{ ns_cmd_time, &ns_cmd_time_count },
	{ ns_cmd_caps, &ns_cmd_caps_count },
	{ ns_cmd_newapi, &ns_cmd_newapi_count },
	{ ns_cmd_statmount, &ns_cmd_statmount_count },
	{ ns_cmd_watch, &ns_cmd_watch_count },
	{ ns_cmd_findmnt, &ns_cmd_findmnt_count },
	{ ns_cmd_inspect, &ns_cmd_inspect_count },
	{ ns_cmd_df, &ns_cmd_df_count },
	{ ns_cmd_filter, &ns_cmd_filter_count },
	{ ns_cmd_vars, &ns_cmd_vars_count },
};

const struct ns_cmd_def *ns_cmd_at(size_t i)
{
	for (size_t m = 0; m < NS_ARRAY_SIZE(modules); m++) {
		if (i < *modules[m].count)
			return &modules[m].defs[i];
		i -= *modules[m].count;
	}
	return NULL;
}

const struct ns_cmd_def *ns_cmd_find(const char *name)
{
	if (ns_var_assignment(name))
		return &ns_cmd_assign;
	for (size_t m = 0; m < NS_ARRAY_SIZE(modules); m++)
		for (size_t i = 0; i < *modules[m].count; i++)
			if (!strcmp(modules[m].defs[i].name, name))
				return &modules[m].defs[i];
	return NULL;
}

const char *ns_cmd_closest(const char *name, bool filters)
{
	size_t total = 0, n = 0;
	const struct ns_cmd_def *d;
	const char **names, *near;

	while (ns_cmd_at(total))
		total++;
	names = xcalloc(total, sizeof(*names));
	for (size_t i = 0; (d = ns_cmd_at(i)); i++)
		if (d->filter || !filters)
			names[n++] = d->name;
	near = ns_closest(name, names, n);
	free(names);
	return near;
}

const char *ns_cmd_handle_takers(void)
{
	static struct ns_buf list = NS_BUF_INIT;
	const struct ns_cmd_def *d;

	if (list.len)
		return ns_buf_str(&list);
	for (size_t i = 0; (d = ns_cmd_at(i)); i++)
		if (d->handles)
			ns_buf_addf(&list, "%s%s", list.len ? ", " : "", d->name);
	return ns_buf_str(&list);
}

int ns_parse_long_option_fail(const struct ns_long_option *v, size_t n, const char *cmd,
			      const char *word, size_t i, struct ns_parse_err *e)
{
	const char **names = xcalloc(n ? n : 1, sizeof(*names)), *near;
	const struct ns_long_option **of = xcalloc(n ? n : 1, sizeof(*of));
	char *name = xstrndup(word, strcspn(word, "="));
	size_t m = 0;
	int rc = 0;

	for (size_t k = 0; k < n; k++) {
		if (strcmp(v[k].cmd, cmd))
			continue;
		if (!strcmp(v[k].name, name))
			rc = ns_parse_fail(e, i, "%s: long options are not supported: write -%c for %s",
					   cmd, v[k].letter, word);
		of[m] = &v[k];
		names[m++] = v[k].name;
	}
	near = rc ? NULL : ns_closest(name, names, m);
	for (size_t k = 0; near && k < m; k++)
		if (names[k] == near)
			rc = ns_parse_fail(e, i, "%s: unknown option %s (did you mean -%c, that is %s?)",
					   cmd, word, of[k]->letter, near);
	if (!rc)
		rc = ns_parse_fail(e, i, "%s: unknown option %s", cmd, word);
	free(name);
	free(of);
	free(names);
	return rc;
}

int ns_parse_fail(struct ns_parse_err *e, size_t word, const char *fmt, ...)
{
	struct ns_buf b = NS_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	ns_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	free(e->msg);
	e->msg = ns_buf_detach(&b);
	e->word = word;
	return -1;
}

const struct ns_stage *ns_stage_inner(const struct ns_stage *st)
{
	if (!st->def || !st->def->inner || !st->args)
		return NULL;
	return st->def->inner(st->args);
}

const struct ns_stage *ns_stage_cmd(const struct ns_stage *st)
{
	const struct ns_stage *in;

	while ((in = ns_stage_inner(st)) && in->def)
		st = in;
	return st;
}

bool ns_stage_starts_shell(const struct ns_stage *st)
{
	return st->def && st->def->shell == NS_SHELL_STARTS && st->args && !ns_stage_inner(st);
}

bool ns_stage_ends_shell(const struct ns_stage *st)
{
	return st->def && st->def->shell == NS_SHELL_ENDS;
}
