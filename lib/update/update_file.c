/* update_file.c - the file side of `nstest run --update` (update.h): check
 * that a file is still the one that was run, rewrite and verify it, and
 * replace it atomically. */
#include "update/update.h"

#include <string.h>

#include "base/outfile.h"
#include "run/verdict.h"

#define MAX_FILE (64u << 20) /* as ns_scenario_load */

/* ---- one result -------------------------------------------------------- */

/* The file as it is now, and whether it ends in a newline. It must still
 * be the text that was parsed and run. */
static int read_back(const struct ns_scenario *sc, char **text, size_t *len,
		     bool *final_newline, char **why)
{
	struct ns_buf orig = NS_BUF_INIT;
	int r = ns_read_file(sc->path, MAX_FILE, text, len);

	if (r < 0) {
		*why = xasprintf("cannot read it again: %s", strerror(-r));
		return -1;
	}
	*final_newline = *len && (*text)[*len - 1] == '\n';
	ns_update_original(sc, *final_newline, &orig);
	r = orig.len == *len && !memcmp(ns_buf_str(&orig), *text, *len) ? 0 : -1;
	ns_buf_free(&orig);
	if (r < 0)
		*why = xstrdup("it changed on disk while it ran");
	return r;
}

/* Why a result is not one to rewrite (heap), or NULL. */
static char *not_updatable(const struct ns_result *r, enum ns_update_outcome *how)
{
	*how = NS_UPDATE_SKIPPED;
	if (r->v->status == NS_SKIP || !r->run)
		return xstrdup(r->v->reason ? r->v->reason : "did not run");
	if (r->v->status == NS_XFAIL)
		return xasprintf("%s; a known deviation is not written into the transcript",
				 r->v->reason ? r->v->reason : "xfail");
	*how = NS_UPDATE_FAILED;
	if (r->run->aborted)
		return xasprintf("the run broke off: %s", r->run->aborted);
	return NULL;
}

enum ns_update_outcome ns_update_apply(const struct ns_result *r, char **why,
				       size_t *blocks)
{
	enum ns_update_outcome how;
	struct ns_update u = { NULL, 0, 0, NULL };
	_cleanup_free_ char *text = NULL;
	size_t len;
	bool nl;
	int err;

	*blocks = 0;
	*why = not_updatable(r, &how);
	if (*why)
		return how;
	if (read_back(r->sc, &text, &len, &nl, why) < 0)
		return NS_UPDATE_FAILED;
	if (ns_update_rewrite(r->sc, r->run, nl, &u) < 0 || ns_update_verify(r->sc, r->run, &u) < 0) {
		*why = u.error;
		u.error = NULL;
		ns_update_free(&u);
		return NS_UPDATE_FAILED;
	}
	*blocks = u.rewritten;
	how = NS_UPDATE_UNCHANGED;
	if (u.len != len || memcmp(u.text, text, len)) {
		/* whole or not at all, with the old file's mode (outfile.h) */
		err = ns_write_file_atomic(r->sc->path, u.text, u.len);
		how = err ? NS_UPDATE_FAILED : NS_UPDATE_WRITTEN;
		if (err)
			*why = xasprintf("cannot replace it: %s", strerror(-err));
	}
	ns_update_free(&u);
	return how;
}

/* ---- a list of scenarios ----------------------------------------------- */

/* What each outcome is called on its line. */
static const char *const outcome_word[] = {
	[NS_UPDATE_UNCHANGED] = "unchanged",
	[NS_UPDATE_WRITTEN] = "updated",
	[NS_UPDATE_SKIPPED] = "skipped",
	[NS_UPDATE_FAILED] = "failed",
};

struct update_run {
	FILE *out;
	size_t count[NS_ARRAY_SIZE(outcome_word)]; /* by outcome */
};

static void on_result(void *p, size_t index, const struct ns_result *r)
{
	struct update_run *ur = p;
	size_t blocks;
	char *why = NULL;
	enum ns_update_outcome how = ns_update_apply(r, &why, &blocks);

	(void)index;
	ur->count[how]++;
	fprintf(ur->out, "%-9s  %s", outcome_word[how], r->sc->path);
	if (how == NS_UPDATE_WRITTEN)
		fprintf(ur->out, " (%zu block%s rewritten)", blocks, blocks == 1 ? "" : "s");
	else if (why)
		fprintf(ur->out, " (%s)", why);
	fputc('\n', ur->out);
	fflush(ur->out);
	free(why);
}

size_t ns_update_all(struct ns_scenario *const *sc, size_t n,
		     const struct ns_runner_opts *o, FILE *out)
{
	struct update_run ur = { out, { 0 } };
	struct ns_runner_hooks hooks = { &ur, NULL, on_result, NULL, NULL };

	ns_runner_run(sc, n, o, &hooks);
	fprintf(out, "%zu %s, %zu %s, %zu %s, %zu %s\n",
		ur.count[NS_UPDATE_WRITTEN], outcome_word[NS_UPDATE_WRITTEN],
		ur.count[NS_UPDATE_UNCHANGED], outcome_word[NS_UPDATE_UNCHANGED],
		ur.count[NS_UPDATE_SKIPPED], outcome_word[NS_UPDATE_SKIPPED],
		ur.count[NS_UPDATE_FAILED], outcome_word[NS_UPDATE_FAILED]);
	return ur.count[NS_UPDATE_FAILED];
}
