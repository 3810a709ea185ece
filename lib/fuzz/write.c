/* write.c - see write.h. */
#include "fuzz/write.h"

#include <inttypes.h>
#include <string.h>

#include "base/outfile.h"

/* Lines of text as "  | LINE" prose; "  | (nothing)" for no output. */
static void quote(struct ns_buf *out, const char *text)
{
	const char *p = text;

	if (!*p) {
		ns_buf_adds(out, "  | (nothing)\n");
		return;
	}
	while (*p) {
		size_t l = strcspn(p, "\n");
		ns_buf_adds(out, "  | ");
		ns_buf_add(out, p, l);
		ns_buf_addc(out, '\n');
		p += l;
		p += *p == '\n';
	}
}

static void prose(struct ns_buf *out, const struct ns_fuzz_case *c,
		  const struct ns_fuzz_outcome *a, const struct ns_fuzz_diff *d,
		  const struct ns_fuzz_origin *o)
{
	const struct ns_fuzz_step *s = d->step < a->n ? &a->s[d->step] : NULL;

	ns_buf_addf(out, "Found by nstest fuzz with seed %" PRIu64 ", scenario %" PRIu64 " (%s),\n",
		    o->seed, o->index, o->options);
	/* a VM side's label names its release; a model has none */
	if (o->release)
		ns_buf_addf(out, "comparing %s (Linux %s) with %s (quirks: %s).\n", o->first,
			    o->release, o->second, o->quirks);
	else
		ns_buf_addf(out, "comparing %s with %s (quirks: %s).\n", o->first, o->second,
			    o->quirks);
	ns_buf_addf(out, "Shrunk from %zu to %zu operations. The expected output below is what\n",
		    o->original_ops, c->n);
	ns_buf_addf(out, "%s printed; %s differs at step %zu:\n", o->second, o->first, d->step + 1);
	ns_buf_addf(out, "%s.\n", d->what);
	if (o->cause)
		ns_buf_addf(out, "Cause: %s.\n", o->cause);
	ns_buf_adds(out, "\n");
	ns_buf_addf(out, "What %s printed at that step:\n\n", o->first);
	if (!s || !s->ran)
		ns_buf_adds(out, "  | (the step did not run)\n");
	else
		quote(out, s->out ? s->out : "");
	ns_buf_adds(out, "\n");
}

/* One step's expected block: the second side's output. */
static void expected(struct ns_buf *out, const struct ns_fuzz_step *s, bool table)
{
	const char *p = s->out;
	bool first = true;

	if (!s->ran || !p || !*p)
		return;
	while (*p) {
		size_t l = strcspn(p, "\n");
		if (first && table)
			ns_buf_adds(out, "    [unordered]\n");
		first = false;
		/* a blank line would end the block: any lines may stand there */
		if (!l || !p[strspn(p, " \t")] || p[strspn(p, " \t")] == '\n')
			ns_buf_adds(out, "    ...\n");
		else {
			ns_buf_adds(out, "    ");
			ns_buf_add(out, p, l);
			ns_buf_addc(out, '\n');
		}
		p += l;
		p += *p == '\n';
	}
}

void ns_fuzz_write_text(const struct ns_fuzz_case *c, const struct ns_fuzz_outcome *a,
			const struct ns_fuzz_outcome *b, const struct ns_fuzz_diff *d,
			const struct ns_fuzz_origin *o, struct ns_buf *out)
{
	struct ns_fuzz_plan p;

	ns_fuzz_case_plan(c, &p);
	ns_buf_addf(out, "title: fuzz finding: %s\n\n", d->what);
	prose(out, c, a, d, o);
	for (size_t i = 0; i < p.n; i++) {
		ns_buf_addf(out, "    sh%u# %s\n", p.s[i].term, p.s[i].cmd);
		/* a table's order is what differs: the tables keep theirs */
		if (i < b->n)
			expected(out, &b->s[i], p.s[i].op == NS_FUZZ_NO_OP && d->kind != NS_FUZZ_ORDER);
	}
	ns_fuzz_plan_free(&p);
}

char *ns_fuzz_file_name(uint64_t seed, uint64_t index)
{
	return xasprintf("fuzz-%" PRIu64 "-%" PRIu64 ".scn", seed, index);
}

int ns_fuzz_write_file(const char *dir, const char *name, const struct ns_buf *text,
		       struct ns_buf *err)
{
	char *path = xasprintf("%s/%s", dir, name);
	/* whole or not at all: a full disk leaves no half finding */
	int r = ns_write_file_atomic(path, text->data, text->len);

	if (r < 0)
		ns_buf_addf(err, "writing %s: %s", path, strerror(-r));
	free(path);
	return r < 0 ? -1 : 0;
}
