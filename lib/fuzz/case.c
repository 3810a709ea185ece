/* case.c - see case.h: a fuzz case, its scenario text, and the rewrites
 * the shrinker tries. */
#include "fuzz/case.h"

#include <stdarg.h>
#include <string.h>

void ns_fuzz_case_add(struct ns_fuzz_case *c, unsigned term, const char *cmd)
{
	ns_grow((void **)&c->ops, &c->cap, c->n + 1, sizeof(*c->ops));
	c->ops[c->n].term = term;
	c->ops[c->n].cmd = xstrdup(cmd);
	c->n++;
}

void ns_fuzz_case_addf(struct ns_fuzz_case *c, unsigned term, const char *fmt, ...)
{
	struct ns_buf b = NS_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	ns_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	ns_fuzz_case_add(c, term, ns_buf_str(&b));
	ns_buf_free(&b);
}

void ns_fuzz_case_copy(struct ns_fuzz_case *dst, const struct ns_fuzz_case *src)
{
	memset(dst, 0, sizeof(*dst));
	for (size_t i = 0; i < src->n; i++)
		ns_fuzz_case_add(dst, src->ops[i].term, src->ops[i].cmd);
}

void ns_fuzz_case_free(struct ns_fuzz_case *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->ops[i].cmd);
	free(c->ops);
	memset(c, 0, sizeof(*c));
}

bool ns_fuzz_case_equal(const struct ns_fuzz_case *a, const struct ns_fuzz_case *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (a->ops[i].term != b->ops[i].term || strcmp(a->ops[i].cmd, b->ops[i].cmd))
			return false;
	return true;
}

size_t ns_fuzz_case_terms(const struct ns_fuzz_case *c, unsigned *terms)
{
	bool used[NS_FUZZ_MAX_TERMS + 1] = { false };
	size_t n = 0;

	for (size_t i = 0; i < c->n; i++)
		if (c->ops[i].term >= 1 && c->ops[i].term <= NS_FUZZ_MAX_TERMS)
			used[c->ops[i].term] = true;
	for (unsigned t = 1; t <= NS_FUZZ_MAX_TERMS; t++)
		if (used[t])
			terms[n++] = t;
	return n;
}

/* The first word of cmd is w. */
static bool first_word(const char *cmd, const char *w)
{
	size_t n = strlen(w);

	return !strncmp(cmd, w, n) && (cmd[n] == ' ' || !cmd[n]);
}

bool ns_fuzz_cmd_changes_tables(const char *cmd)
{
	static const char *const reads[] = {
		"mkdir", "touch", "ls", "cat", "cd", "findmnt", "statmount", "listmount",
		"exec", "fsopen", "stat", "pwd", "watch", "mountpoint",
	};

	for (size_t i = 0; i < NS_ARRAY_SIZE(reads); i++)
		if (first_word(cmd, reads[i]))
			return false;
	return true;
}

/* Does cmd start a shell (unshare, nsenter or chroot ending in sh)? */
static bool starts_shell(const char *cmd)
{
	size_t n = strlen(cmd);

	return (first_word(cmd, "unshare") || first_word(cmd, "nsenter") ||
		first_word(cmd, "chroot")) && n > 3 && !strcmp(cmd + n - 3, " sh");
}

static void plan_add(struct ns_fuzz_plan *p, unsigned term, const char *cmd, size_t op)
{
	ns_grow((void **)&p->s, &p->cap, p->n + 1, sizeof(*p->s));
	p->s[p->n].term = term;
	p->s[p->n].cmd = cmd;
	p->s[p->n].op = op;
	p->s[p->n].round = p->rounds;
	p->n++;
}

void ns_fuzz_case_plan(const struct ns_fuzz_case *c, struct ns_fuzz_plan *p)
{
	/* depth[t]: shells running at terminal t, 0 when it is not running */
	unsigned depth[NS_FUZZ_MAX_TERMS + 1] = { 0 };

	memset(p, 0, sizeof(*p));
	for (size_t i = 0; i < c->n; i++) {
		unsigned t = c->ops[i].term;
		const char *cmd = c->ops[i].cmd;
		if (t < 1 || t > NS_FUZZ_MAX_TERMS)
			continue;
		plan_add(p, t, cmd, i);
		if (!depth[t])
			depth[t] = 1;           /* a command starts the terminal */
		if (starts_shell(cmd))
			depth[t]++;
		else if (!strcmp(cmd, "exit"))
			depth[t]--;
		if (!ns_fuzz_cmd_changes_tables(cmd))
			continue;
		for (unsigned k = 1; k <= NS_FUZZ_MAX_TERMS; k++)
			if (depth[k])
				plan_add(p, k, NS_FUZZ_OBSERVE, NS_FUZZ_NO_OP);
		p->rounds++;
	}
}

void ns_fuzz_plan_free(struct ns_fuzz_plan *p)
{
	free(p->s);
	memset(p, 0, sizeof(*p));
}

size_t ns_fuzz_case_nsteps(const struct ns_fuzz_case *c)
{
	struct ns_fuzz_plan p;
	size_t n;

	ns_fuzz_case_plan(c, &p);
	n = p.n;
	ns_fuzz_plan_free(&p);
	return n;
}

void ns_fuzz_session_line(struct ns_buf *out, unsigned term, const char *cmd)
{
	ns_buf_adds(out, "    sh");
	ns_buf_addu(out, term);
	ns_buf_adds(out, "# ");
	ns_buf_adds(out, cmd);
	ns_buf_addc(out, '\n');
}

void ns_fuzz_case_text(const struct ns_fuzz_case *c, const char *title, struct ns_buf *out)
{
	struct ns_fuzz_plan p;

	ns_fuzz_case_plan(c, &p);
	ns_buf_addf(out, "title: %s\n\n", title);
	for (size_t i = 0; i < p.n; i++)
		ns_fuzz_session_line(out, p.s[i].term, p.s[i].cmd);
	ns_fuzz_plan_free(&p);
}

void ns_fuzz_case_drop(struct ns_fuzz_case *dst, const struct ns_fuzz_case *src,
		       size_t from, size_t count)
{
	memset(dst, 0, sizeof(*dst));
	for (size_t i = 0; i < src->n; i++)
		if (i < from || i >= from + count)
			ns_fuzz_case_add(dst, src->ops[i].term, src->ops[i].cmd);
}

void ns_fuzz_case_drop_term(struct ns_fuzz_case *dst, const struct ns_fuzz_case *src,
			    unsigned term)
{
	memset(dst, 0, sizeof(*dst));
	for (size_t i = 0; i < src->n; i++)
		if (src->ops[i].term != term)
			ns_fuzz_case_add(dst, src->ops[i].term, src->ops[i].cmd);
}

bool ns_fuzz_is_dev_name(const char *name)
{
	return name[0] == 'd' && name[1] >= '1' && name[1] <= '9' && !name[2];
}

bool ns_fuzz_is_dir_name(const char *name)
{
	return name[0] >= 'a' && name[0] <= 'z' && !name[1];
}

/* The class a name is renamed within: 1 top-level directories (a ... w),
 * 2 subdirectories (x y z), 3 devices, 0 not renamable (f, the file). */
static int name_class(const char *name)
{
	if (ns_fuzz_is_dev_name(name))
		return 3;
	if (!ns_fuzz_is_dir_name(name) || name[0] == 'f')
		return 0;
	return name[0] >= 'x' ? 2 : 1;
}

typedef const char *rename_fn(void *ctx, const char *name);

/* cmd with every path component of its absolute path words passed
 * through fn (which returns the new name, or NULL to keep it). */
static char *rewrite_cmd(const char *cmd, rename_fn *fn, void *ctx)
{
	struct ns_buf b = NS_BUF_INIT;
	const char *p = cmd;

	while (*p) {
		size_t wl = strcspn(p, " ");
		if (*p == '/') {
			const char *q = p, *end = p + wl;
			while (q < end) {
				const char *slash, *to;
				size_t cl;
				char *comp;
				ns_buf_addc(&b, '/');
				q++;
				slash = memchr(q, '/', (size_t)(end - q));
				cl = (size_t)((slash ? slash : end) - q);
				comp = xstrndup(q, cl);
				to = fn(ctx, comp);
				ns_buf_adds(&b, to ? to : comp);
				free(comp);
				q += cl;
			}
		} else {
			ns_buf_add(&b, p, wl);
		}
		p += wl;
		if (*p == ' ') {
			ns_buf_addc(&b, ' ');
			p++;
		}
	}
	return ns_buf_detach(&b);
}

/* mkdir and touch name each operand once: after a merge, "mkdir -p /a/x
 * /b/x" that became "mkdir -p /a/x /a/x" is "mkdir -p /a/x". */
static char *once_each(char *cmd)
{
	struct ns_lines words = NS_LINES_INIT;
	struct ns_buf b = NS_BUF_INIT;
	const char *p = cmd;

	if (strncmp(cmd, "mkdir ", 6) && strncmp(cmd, "touch ", 6))
		return cmd;
	while (*p) {
		size_t wl = strcspn(p, " ");
		bool seen = false;
		for (size_t i = 0; i < words.n && !seen; i++)
			seen = strlen(words.v[i]) == wl && !strncmp(words.v[i], p, wl);
		if (!seen) {
			ns_lines_pushn(&words, p, wl);
			if (b.len)
				ns_buf_addc(&b, ' ');
			ns_buf_add(&b, p, wl);
		}
		p += wl;
		p += strspn(p, " ");
	}
	ns_lines_free(&words);
	free(cmd);
	return ns_buf_detach(&b);
}

static void rewrite(struct ns_fuzz_case *dst, const struct ns_fuzz_case *src,
		    rename_fn *fn, void *ctx)
{
	memset(dst, 0, sizeof(*dst));
	for (size_t i = 0; i < src->n; i++) {
		char *cmd = once_each(rewrite_cmd(src->ops[i].cmd, fn, ctx));
		ns_fuzz_case_add(dst, src->ops[i].term, cmd);
		free(cmd);
	}
}

struct one_rename {
	const char *from, *to;
	bool changed;
};

static const char *rename_one(void *p, const char *name)
{
	struct one_rename *r = p;

	if (strcmp(name, r->from))
		return NULL;
	r->changed = true;
	return r->to;
}

bool ns_fuzz_case_rename(struct ns_fuzz_case *dst, const struct ns_fuzz_case *src,
			 const char *from, const char *to)
{
	struct one_rename r = { from, to, false };

	rewrite(dst, src, rename_one, &r);
	return r.changed;
}

/* Names seen so far, to list them in order of first appearance. */
static const char *collect_name(void *p, const char *name)
{
	struct ns_lines *l = p;

	if (!name_class(name))
		return NULL;
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], name))
			return NULL;
	ns_lines_push(l, name);
	return NULL;
}

void ns_fuzz_case_names(const struct ns_fuzz_case *c, struct ns_lines *names)
{
	for (size_t i = 0; i < c->n; i++)
		free(rewrite_cmd(c->ops[i].cmd, collect_name, names));
}

/* The normal form's renaming: old names, and the new name of each. */
struct renaming {
	struct ns_lines from, to;
};

static const char *rename_many(void *p, const char *name)
{
	struct renaming *r = p;

	for (size_t i = 0; i < r->from.n; i++)
		if (!strcmp(r->from.v[i], name))
			return r->to.v[i];
	return NULL;
}

void ns_fuzz_case_normalize(struct ns_fuzz_case *dst, const struct ns_fuzz_case *src)
{
	struct renaming r = { NS_LINES_INIT, NS_LINES_INIT };
	unsigned next[4] = { 0, 0, 0, 0 }, term_map[NS_FUZZ_MAX_TERMS + 1] = { 0 }, nterm = 0;

	ns_fuzz_case_names(src, &r.from);
	for (size_t i = 0; i < r.from.n; i++) {
		int cl = name_class(r.from.v[i]);
		unsigned k = next[cl]++;
		char name[8];
		if (cl == 3)
			snprintf(name, sizeof(name), "d%u", k + 1);
		else if (cl == 2)
			snprintf(name, sizeof(name), "%c", 'x' + (k % 3));
		else
			snprintf(name, sizeof(name), "%c", 'a' + (k % 5));
		ns_lines_push(&r.to, name);
	}
	rewrite(dst, src, rename_many, &r);
	for (size_t i = 0; i < dst->n; i++) {
		unsigned t = dst->ops[i].term;
		if (t > NS_FUZZ_MAX_TERMS)
			continue;
		if (!term_map[t])
			term_map[t] = ++nterm;
		dst->ops[i].term = term_map[t];
	}
	ns_lines_free(&r.from);
	ns_lines_free(&r.to);
}
