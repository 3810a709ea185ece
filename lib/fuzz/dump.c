/* dump.c - see dump.h. */
#include "fuzz/dump.h"

#include <stdio.h>
#include <string.h>

void ns_fuzz_dump_run(struct ns_buf *out, size_t index, const struct ns_run *run,
		      size_t nsteps)
{
	const char *ab = run && run->aborted ? run->aborted : NULL;

	ns_buf_addf(out, "run %zu %d %d %d %zu %lld\n", index, !run,
		    run && run->setup_failed, run && run->timed_out, nsteps,
		    ab ? (long long)strlen(ab) : -1LL);
	if (ab)
		ns_buf_adds(out, ab);
	ns_buf_addc(out, '\n');
	for (size_t i = 0; i < nsteps; i++) {
		const struct ns_obs *o = run && i < run->n ? &run->obs[i] : NULL;
		const char *text = o && o->ran && o->out.output ? o->out.output : "";
		ns_buf_addf(out, "step %d %d %zu\n%s\n", o && o->ran, o ? o->out.err : 0,
			    strlen(text), text);
	}
}

struct reader {
	const char *p, *end;
};

/* One header line into buf (NUL-terminated); false at the end. */
static bool header(struct reader *r, char *buf, size_t size)
{
	const char *nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
	size_t l;

	if (!nl || (size_t)(nl - r->p) >= size)
		return false;
	l = (size_t)(nl - r->p);
	memcpy(buf, r->p, l);
	buf[l] = '\0';
	r->p = nl + 1;
	return true;
}

/* len bytes and the '\n' after them, as a new string. */
static char *bytes(struct reader *r, size_t len)
{
	char *s;

	if ((size_t)(r->end - r->p) < len + 1 || r->p[len] != '\n')
		return NULL;
	s = xstrndup(r->p, len);
	r->p += len + 1;
	return s;
}

static int read_one(struct reader *r, struct ns_run *run, bool *skipped, size_t want,
		    struct ns_buf *err)
{
	char line[256];
	size_t index, nsteps;
	int sk, sf, to;
	long long ablen;

	memset(run, 0, sizeof(*run));
	if (!header(r, line, sizeof(line)) ||
	    sscanf(line, "run %zu %d %d %d %zu %lld", &index, &sk, &sf, &to, &nsteps, &ablen) != 6 ||
	    index != want || nsteps > 100000) {
		ns_buf_addf(err, "run %zu: no valid header", want);
		return -1;
	}
	*skipped = sk;
	run->setup_failed = sf;
	run->timed_out = to;
	if (ablen >= 0) {
		run->aborted = bytes(r, (size_t)ablen);
		if (!run->aborted) {
			ns_buf_addf(err, "run %zu: its reason is cut short", want);
			return -1;
		}
	} else if (r->p < r->end && *r->p == '\n') {
		r->p++;
	}
	run->n = nsteps;
	run->obs = xcalloc(nsteps ? nsteps : 1, sizeof(*run->obs));
	for (size_t i = 0; i < nsteps; i++) {
		int ran, e;
		size_t len;
		if (!header(r, line, sizeof(line)) ||
		    sscanf(line, "step %d %d %zu", &ran, &e, &len) != 3 ||
		    !(run->obs[i].out.output = bytes(r, len))) {
			ns_buf_addf(err, "run %zu: step %zu is cut short", want, i + 1);
			return -1;
		}
		run->obs[i].ran = ran;
		run->obs[i].out.err = e;
	}
	return 0;
}

int ns_fuzz_undump(const char *text, size_t len, struct ns_run *runs, bool *skipped,
		   size_t n, struct ns_buf *err)
{
	struct reader r = { text, text + len };
	const char *start;

	if (!n)
		return 0;
	/* whatever the guest printed before the first run (its own notes) */
	start = strstr(text, "run 0 ");
	while (start && start != text && start[-1] != '\n')
		start = strstr(start + 1, "run 0 ");
	if (!start) {
		ns_buf_adds(err, "no results in the guest's output");
		return -1;
	}
	r.p = start;
	for (size_t i = 0; i < n; i++)
		if (read_one(&r, &runs[i], &skipped[i], i, err) < 0)
			return -1;
	return 0;
}
