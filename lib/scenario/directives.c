/* directives.c - the header of a scenario file: "key: value" lines before
 * the first session, each read by its own function (nstest-scenario(5),
 * DIRECTIVES). Error messages name the nearest known name from the tables here, or
 * list them all. */
#include "scenario/parser.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/suggest.h"

/* The directives of the header, each read by its dir_ function below. */
typedef int directive_fn(struct parser *p, const char *v, int col);
static directive_fn dir_root, dir_requires, dir_kernel, dir_devices, dir_title,
	dir_xfail, dir_errors, dir_prompt, dir_columns;

static const struct {
	const char *name;
	directive_fn *fn;
	bool repeatable;       /* may be given more than once */
} directives[] = {
	{ "root", dir_root, false },
	{ "requires", dir_requires, false },
	{ "kernel", dir_kernel, false },
	{ "devices", dir_devices, false },
	{ "title", dir_title, false },
	{ "xfail", dir_xfail, true },
	{ "errors", dir_errors, false },
	{ "prompt", dir_prompt, true },
	{ "columns", dir_columns, false },
};


/* struct parser keeps one bit a directive */
_Static_assert(NS_ARRAY_SIZE(directives) <= sizeof(unsigned) * 8, "too many directives for parser.seen");

/* A stand-in name: /dev/NAME with one spelling (no empty, "." or ".."
 * components) and only the characters device names use. */
bool ns_parser_is_devname(const char *s)
{
	if (strncmp(s, "/dev/", 5) != 0 || !s[5])
		return false;
	/* one spelling per device: no empty, "." or ".." components */
	if (strstr(s, "//") || strstr(s, "/./") || strstr(s, "/../") ||
	    !strcmp(s + strlen(s) - 2, "/.") || !strcmp(s + strlen(s) - 3, "/.."))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("/_.-+:@", *s))
			return false;
	return s[-1] != '/';
}

bool ns_parser_devname_too_long(const char *s)
{
	return strlen(s) > NS_DEVNAME_MAX;
}

static int dir_root(struct parser *p, const char *v, int col)
{
	if (!ns_parser_is_devname(v))
		return ns_parser_fail(p, col, "root: '%s' is not a device path like /dev/sda1", v);
	if (ns_parser_devname_too_long(v))
		return ns_parser_fail(p, col, "root: '%.40s...' is %zu characters long: a mount's source is at most %d",
				      v, strlen(v), NS_DEVNAME_MAX);
	free(p->sc->root_dev);
	p->sc->root_dev = xstrdup(v);
	return 0;
}

static const struct {
	const char *name;
	unsigned bit;
} requirements[] = {
	{ "root", NS_REQ_ROOT },
	{ "loop", NS_REQ_LOOP },
	{ "userns", NS_REQ_USERNS },
	{ "open_tree", NS_FEAT_OPEN_TREE },
	{ "move_mount", NS_FEAT_MOVE_MOUNT },
	{ "fsmount", NS_FEAT_FSMOUNT },
	{ "mount_setattr", NS_FEAT_MOUNT_SETATTR },
	{ "statmount", NS_FEAT_STATMOUNT },
	{ "listmount", NS_FEAT_LISTMOUNT },
	{ "move_mount_beneath", NS_FEAT_MOVE_MOUNT_BENEATH },
	{ "move_mount_set_group", NS_FEAT_MOVE_MOUNT_SET_GROUP },
	{ "open_tree_attr", NS_FEAT_OPEN_TREE_ATTR },
	{ "mount_notify", NS_FEAT_MOUNT_NOTIFY },
	{ "open_tree_namespace", NS_FEAT_OPEN_TREE_NAMESPACE },
};

const char *ns_requirement_name(unsigned bit)
{
	for (size_t k = 0; k < NS_ARRAY_SIZE(requirements); k++)
		if (requirements[k].bit == bit)
			return requirements[k].name;
	return NULL;
}

static int unknown_requirement(struct parser *p, int col, const char *s, size_t n)
{
	struct ns_buf known = NS_BUF_INIT;
	const char *names[NS_ARRAY_SIZE(requirements)];
	const char *near;
	char *word = xstrndup(s, n);
	int r;

	for (size_t k = 0; k < NS_ARRAY_SIZE(requirements); k++) {
		names[k] = requirements[k].name;
		ns_parser_add_listed(&known, requirements[k].name, k, NS_ARRAY_SIZE(requirements), ", ");
	}
	near = ns_closest(word, names, NS_ARRAY_SIZE(names));
	if (near)
		r = ns_parser_fail(p, col, "requires: unknown requirement '%s' (did you mean %s?)",
				   word, near);
	else
		r = ns_parser_fail(p, col, "requires: unknown requirement '%s' (known: %s)", word,
				   ns_buf_str(&known));
	ns_buf_free(&known);
	free(word);
	return r;
}

static int dir_requires(struct parser *p, const char *v, int col)
{
	const char *s = v;

	while (*s) {
		size_t n = strcspn(s, " \t"), k = 0;

		while (k < NS_ARRAY_SIZE(requirements) &&
		       (strlen(requirements[k].name) != n || strncmp(s, requirements[k].name, n)))
			k++;
		if (k == NS_ARRAY_SIZE(requirements))
			return unknown_requirement(p, col + (int)(s - v), s, n);
		p->sc->requires |= requirements[k].bit;
		s += n;
		s += strspn(s, " \t");
	}
	return 0;
}

/* One "OP X.Y[.Z]" of an xfail range; returns the characters used or -1. */
static int parse_cmp(const char *s, struct ns_version_cmp *c)
{
	static const char *const ops[] = { ">=", "<=", ">", "<", "=" };
	int used = 0, k = -1;

	for (size_t i = 0; i < NS_ARRAY_SIZE(ops) && k < 0; i++)
		if (!strncmp(s, ops[i], strlen(ops[i])))
			k = (int)i;
	if (k < 0)
		return -1;
	strcpy(c->op, ops[k]);
	s += strlen(ops[k]);
	c->v[0] = c->v[1] = c->v[2] = 0;
	if (sscanf(s, " %d.%d%n.%d%n", &c->v[0], &c->v[1], &used, &c->v[2], &used) < 2)
		return -1;
	return (int)strlen(ops[k]) + used;
}

static int dir_xfail(struct parser *p, const char *v, int col)
{
	struct ns_scenario *sc = p->sc;
	const char *colon = strchr(v, ':');
	struct ns_xfail x = { .line = p->lineno };
	const char *s = v;
	void *arr = sc->xfails;
	size_t cap = sc->nxfails;

	if (!colon || !colon[1 + strspn(colon + 1, " \t")])
		return ns_parser_fail(p, col, "xfail: expected 'RANGE: REASON', e.g. 'xfail: >= 6.1, < 6.9: why (reference)'");
	if (!strncmp(s, "*", 1) && s + 1 + strspn(s + 1, " \t") == colon) {
		x.any = true;
	} else {
		while (s < colon) {
			int n;
			if (x.ncmp == NS_ARRAY_SIZE(x.cmp) || (n = parse_cmp(s, &x.cmp[x.ncmp])) < 0)
				return ns_parser_fail(p, col + (int)(s - v), "xfail: bad kernel range '%.*s' (use '*' or comparisons like '>= 6.1, < 6.9')",
					    (int)(colon - v), v);
			x.ncmp++;
			s += n;
			s += strspn(s, " \t");
			if (*s == ',')
				s += 1 + strspn(s + 1, " \t");
			else if (s != colon)
				return ns_parser_fail(p, col + (int)(s - v), "xfail: expected ',' or ':' after a kernel version");
		}
	}
	x.reason = xstrdup(colon + 1 + strspn(colon + 1, " \t"));
	ns_grow(&arr, &cap, sc->nxfails + 1, sizeof(x));
	sc->xfails = arr;
	sc->xfails[sc->nxfails++] = x;
	return 0;
}

static int dir_kernel(struct parser *p, const char *v, int col)
{
	int *k = p->sc->kernel_min;
	int used = 0;

	k[0] = k[1] = k[2] = 0;
	if (sscanf(v, ">= %d.%d%n.%d%n", &k[0], &k[1], &used, &k[2], &used) < 2 ||
	    v[used] || k[0] < 0 || k[1] < 0 || k[2] < 0)
		return ns_parser_fail(p, col, "kernel: expected '>= MAJOR.MINOR[.PATCH]', got '%s'", v);
	return 0;
}

static const struct {
	const char *name;
	enum ns_devices_mode mode;
} device_modes[] = {
	{ "tmpfs", NS_DEVICES_TMPFS },
	{ "loop", NS_DEVICES_LOOP },
	{ "any", NS_DEVICES_DEFAULT },
};

static int dir_devices(struct parser *p, const char *v, int col)
{
	struct ns_buf known = NS_BUF_INIT;
	int r;

	for (size_t i = 0; i < NS_ARRAY_SIZE(device_modes); i++) {
		if (!strcmp(v, device_modes[i].name)) {
			p->sc->devices = device_modes[i].mode;
			return 0;
		}
	}
	for (size_t i = 0; i < NS_ARRAY_SIZE(device_modes); i++)
		ns_parser_add_listed(&known, device_modes[i].name, i, NS_ARRAY_SIZE(device_modes), " or ");
	r = ns_parser_fail(p, col, "devices: expected %s, got '%s'", ns_buf_str(&known), v);
	ns_buf_free(&known);
	return r;
}

static int dir_title(struct parser *p, const char *v, int col)
{
	(void)col;
	free(p->sc->title);
	p->sc->title = xstrdup(v);
	return 0;
}

/* `prompt: FORM`: a prompt as the session's shell printed it, with
 * {terminal} where the terminal's name is (without it, the form is the
 * bare prompt's, the terminal with no name) and, if it shows one, {path}
 * where the working directory is (scenario_parse.c, prompt_form). */
static int dir_prompt(struct parser *p, const char *v, int col)
{
	const char *t = strstr(v, "{terminal}");
	const char *q = strstr(v, "{path}");

	if (t && strstr(t + 1, "{terminal}"))
		return ns_parser_fail(p, col, "prompt: '%s' holds {terminal} more than once", v);
	if (q && strstr(q + 1, "{path}"))
		return ns_parser_fail(p, col, "prompt: '%s' holds {path} more than once", v);
	if (t && q && (q + 6 == t || t + 10 == q))
		return ns_parser_fail(p, col, "prompt: '%s': {terminal} and {path} need text between them", v);
	if (v[strlen(v) - 1] == '}')
		return ns_parser_fail(p, col, "prompt: '%s' must end with the prompt's own character, such as '#', '$', '%%' or '>'", v);
	for (const char *c = v; *c; c++)
		if (*c == '\t' || (unsigned char)*c < 0x20)
			return ns_parser_fail(p, col, "prompt: '%s' holds a control character", v);
	ns_lines_push(&p->sc->prompts, v);
	return 0;
}

/* `columns: N`: the width of the terminal the session was recorded in,
 * which findmnt fitted its tables to (run/narrow.h). */
static int dir_columns(struct parser *p, const char *v, int col)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(v, &end, 10);
	if (!isdigit((unsigned char)*v) || *end || errno || n < 20 || n > 4096)
		return ns_parser_fail(p, col, "columns: expected the terminal's width, a number from 20 to 4096, got '%s'", v);
	p->sc->columns = (unsigned)n;
	return 0;
}

/* `errors: nstest|util-linux`: the form show and --update write error
 * lines in (run/ulmsg.h). */
static int dir_errors(struct parser *p, const char *v, int col)
{
	if (!strcmp(v, "nstest"))
		p->sc->errors = NS_ERRORS_NSTEST;
	else if (!strcmp(v, "util-linux"))
		p->sc->errors = NS_ERRORS_UTIL_LINUX;
	else
		return ns_parser_fail(p, col, "errors: expected nstest or util-linux, got '%s'", v);
	return 0;
}

/* "key: value" with a lowercase key; anything else is not a directive. */
bool ns_parser_split_directive(const char *line, size_t *keylen, const char **val)
{
	size_t k = 0;

	while (islower((unsigned char)line[k]) || line[k] == '-' ||
	       (k && isdigit((unsigned char)line[k])))
		k++;
	if (!k || line[k] != ':' || (line[k + 1] != ' ' && line[k + 1]))
		return false;
	*keylen = k;
	*val = line + k + 1 + strspn(line + k + 1, " \t");
	return true;
}

int ns_parser_known_directive(const char *key, size_t keylen)
{
	for (size_t i = 0; i < NS_ARRAY_SIZE(directives); i++)
		if (strlen(directives[i].name) == keylen &&
		    !strncmp(directives[i].name, key, keylen))
			return (int)i;
	return -1;
}

static int unknown_directive(struct parser *p, const char *key, size_t keylen)
{
	struct ns_buf known = NS_BUF_INIT;
	const char *names[NS_ARRAY_SIZE(directives)];
	const char *near;
	char *word = xstrndup(key, keylen);
	int r;

	for (size_t i = 0; i < NS_ARRAY_SIZE(directives); i++) {
		names[i] = directives[i].name;
		ns_parser_add_listed(&known, directives[i].name, i, NS_ARRAY_SIZE(directives), ", ");
	}
	near = ns_closest(word, names, NS_ARRAY_SIZE(names));
	if (near)
		r = ns_parser_fail(p, 1, "unknown directive '%s' (did you mean %s?)", word, near);
	else
		r = ns_parser_fail(p, 1, "unknown directive '%s' (known: %s)", word,
				   ns_buf_str(&known));
	ns_buf_free(&known);
	free(word);
	return r;
}

int ns_parser_directive(struct parser *p, const char *line, size_t keylen,
			   const char *val)
{
	int i = ns_parser_known_directive(line, keylen);
	char *v;
	size_t n;
	int r;

	if (i < 0)
		return unknown_directive(p, line, keylen);
	if (p->seen & 1u << i && !directives[i].repeatable)
		return ns_parser_fail(p, 1, "directive '%.*s' given twice", (int)keylen, line);
	p->seen |= 1u << i;
	v = xstrdup(val);
	n = strlen(v);
	while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
		v[--n] = '\0';
	r = directives[i].fn(p, v, (int)(val - line) + 1);
	free(v);
	return r;
}
