/* shrink.c - see shrink.h. */
#include "fuzz/shrink.h"

#include <string.h>

struct cands {
	struct ns_fuzz_case *v;
	size_t n, cap;
};

/* Take *c as a candidate unless it is the current case or one already
 * listed; frees it otherwise. */
static void offer(struct cands *k, struct ns_fuzz_case *c, const struct ns_fuzz_case *cur)
{
	/* a scenario needs a command: an empty candidate is no candidate */
	bool dup = c->n == 0 || ns_fuzz_case_equal(c, cur);

	for (size_t i = 0; i < k->n && !dup; i++)
		dup = ns_fuzz_case_equal(c, &k->v[i]);
	if (dup) {
		ns_fuzz_case_free(c);
		return;
	}
	ns_grow((void **)&k->v, &k->cap, k->n + 1, sizeof(*k->v));
	k->v[k->n++] = *c;
}

static void drops(struct cands *k, const struct ns_fuzz_case *cur)
{
	unsigned terms[NS_FUZZ_MAX_TERMS];
	size_t nt = ns_fuzz_case_terms(cur, terms);
	struct ns_fuzz_case c;

	if (nt > 1)
		for (size_t t = 0; t < nt; t++) {
			ns_fuzz_case_drop_term(&c, cur, terms[t]);
			offer(k, &c, cur);
		}
	/* chunks: halves, quarters, ... down to three */
	for (size_t size = cur->n / 2; size >= 3; size /= 2)
		for (size_t from = 0; from + size <= cur->n; from += size) {
			ns_fuzz_case_drop(&c, cur, from, size);
			offer(k, &c, cur);
		}
	for (size_t i = 0; i + 1 < cur->n; i++) {
		ns_fuzz_case_drop(&c, cur, i, 2);
		offer(k, &c, cur);
	}
	for (size_t i = 0; i < cur->n; i++) {
		ns_fuzz_case_drop(&c, cur, i, 1);
		offer(k, &c, cur);
	}
}

/* Same class of name: both directories at the same depth, or both
 * devices (see case.c). */
static bool same_class(const char *a, const char *b)
{
	if (ns_fuzz_is_dev_name(a) || ns_fuzz_is_dev_name(b))
		return ns_fuzz_is_dev_name(a) && ns_fuzz_is_dev_name(b);
	return (a[0] >= 'x') == (b[0] >= 'x') && a[0] != 'f' && b[0] != 'f';
}

/* Simpler spellings of the same kind of operation, whole words: what a
 * shrunk case should say when the simpler one still diverges. */
static const struct { const char *from, *to, *only; } simpler[] = {
	{ " --make-rshared ", " --make-shared ", NULL },
	{ " --make-rslave ", " --make-slave ", NULL },
	{ " --make-rprivate ", " --make-private ", NULL },
	{ " --make-runbindable ", " --make-unbindable ", NULL },
	{ " --rbind ", " --bind ", NULL },
	{ " -l ", " ", NULL },
	{ " -R ", " ", NULL },
	/* unshare's: mount_setattr has no "unchanged" */
	{ " --propagation shared ", " --propagation unchanged ", "unshare " },
	{ " --propagation slave ", " --propagation unchanged ", "unshare " },
	{ " --propagation private ", " --propagation unchanged ", "unshare " },
};

/* cmd with the first `from` (padded with spaces) replaced by `to`, or
 * NULL when cmd has no such words. */
static char *respell(const char *cmd, const char *from, const char *to)
{
	struct ns_buf b = NS_BUF_INIT;
	char *padded = xasprintf(" %s ", cmd), *at = strstr(padded, from);
	char *r = NULL;

	if (at) {
		/* up to the words, then to, then the rest, unpadded */
		ns_buf_add(&b, padded, (size_t)(at - padded));
		ns_buf_adds(&b, to);
		ns_buf_adds(&b, at + strlen(from));
		r = xstrndup(b.data + 1, b.len - 2);
	}
	ns_buf_free(&b);
	free(padded);
	return r;
}

/* Of two --make-X words in a row, only one. */
static char *one_make(const char *cmd, bool keep_first)
{
	const char *p = strstr(cmd, " --make-"), *q = p ? strstr(p + 1, " --make-") : NULL;
	const char *end;

	if (!p || !q)
		return NULL;
	end = strchr(q + 1, ' ');
	if (!end)
		return NULL;
	if (keep_first)
		return xasprintf("%.*s%s", (int)(q - cmd), cmd, end);
	return xasprintf("%.*s%s", (int)(p - cmd), cmd, q);
}

static void offer_cmd(struct cands *k, const struct ns_fuzz_case *cur, size_t i, char *cmd)
{
	struct ns_fuzz_case c;

	if (!cmd)
		return;
	ns_fuzz_case_copy(&c, cur);
	free(c.ops[i].cmd);
	c.ops[i].cmd = cmd;
	offer(k, &c, cur);
}

static void simplifications(struct cands *k, const struct ns_fuzz_case *cur)
{
	unsigned terms[NS_FUZZ_MAX_TERMS];
	size_t nt = ns_fuzz_case_terms(cur, terms);

	for (size_t i = 0; i < cur->n; i++) {
		for (size_t r = 0; r < NS_ARRAY_SIZE(simpler); r++)
			if (!simpler[r].only ||
			    !strncmp(cur->ops[i].cmd, simpler[r].only, strlen(simpler[r].only)))
				offer_cmd(k, cur, i, respell(cur->ops[i].cmd, simpler[r].from, simpler[r].to));
		offer_cmd(k, cur, i, one_make(cur->ops[i].cmd, true));
		offer_cmd(k, cur, i, one_make(cur->ops[i].cmd, false));
	}
	/* a later terminal's operations typed at an earlier one */
	for (size_t j = 1; j < nt; j++)
		for (size_t t = 0; t < j; t++) {
			struct ns_fuzz_case c;
			ns_fuzz_case_copy(&c, cur);
			for (size_t i = 0; i < c.n; i++)
				if (c.ops[i].term == terms[j])
					c.ops[i].term = terms[t];
			offer(k, &c, cur);
		}
}

static void merges(struct cands *k, const struct ns_fuzz_case *cur)
{
	struct ns_lines names = NS_LINES_INIT;
	struct ns_fuzz_case c;

	ns_fuzz_case_names(cur, &names);
	/* a later name into an earlier one */
	for (size_t j = 1; j < names.n; j++)
		for (size_t i = 0; i < j; i++) {
			if (!same_class(names.v[i], names.v[j]))
				continue;
			ns_fuzz_case_rename(&c, cur, names.v[j], names.v[i]);
			offer(k, &c, cur);
		}
	ns_lines_free(&names);
	ns_fuzz_case_normalize(&c, cur);
	offer(k, &c, cur);
}

int ns_fuzz_shrink(struct ns_fuzz_case *c, ns_fuzz_oracle *oracle, void *ctx,
		   const volatile sig_atomic_t *stop, struct ns_fuzz_shrink_stats *stats)
{
	int r = 0;

	for (;;) {
		struct cands k = { NULL, 0, 0 };
		bool *keep;
		size_t won = 0;
		int o;

		if (stop && *stop)
			break;
		drops(&k, c);
		merges(&k, c);
		simplifications(&k, c);
		if (!k.n)
			break;
		keep = xcalloc(k.n, sizeof(*keep));
		if (stats) {
			stats->rounds++;
			stats->candidates += k.n;
		}
		o = oracle(ctx, k.v, k.n, keep);
		if (o < 0)
			r = -1;
		else if (o > 0)
			memset(keep, 0, k.n * sizeof(*keep)); /* spent: none judged */
		while (r == 0 && won < k.n && !keep[won])
			won++;
		if (r == 0 && won < k.n) {
			ns_fuzz_case_free(c);
			*c = k.v[won];
			memset(&k.v[won], 0, sizeof(k.v[won]));
		}
		for (size_t i = 0; i < k.n; i++)
			ns_fuzz_case_free(&k.v[i]);
		free(k.v);
		free(keep);
		if (r < 0 || won == k.n)
			break;
	}
	return r;
}
