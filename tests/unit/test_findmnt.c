/* test_findmnt.c - the findmnt renderer and parser against what the real
 * findmnt(8) printed: tests/data/findmnt holds a mountinfo and, per case,
 * findmnt's arguments (NN.args, one a line) and its output (NN.out, then
 * "rc=N"), recorded by tests/data/findmnt/record. A case whose output is
 * one "findmnt: ..." line is an error: the parser must refuse the words
 * with that message. Otherwise the words must parse and render to exactly
 * the output, and print nothing where findmnt exited 1. */
#include "mounts/findmnt.h"
#include "commands/command.h"
#include "tap.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

static char *data_path(const char *name)
{
	const char *unit = strstr(__FILE__, "unit/test_findmnt.c");
	int dirlen = unit ? (int)(unit - __FILE__) : 0;

	return xasprintf("%.*sdata/findmnt/%s", dirlen, __FILE__, name);
}

static char *slurp(const char *name)
{
	char *path = data_path(name), *data = NULL;
	size_t len = 0;

	if (ns_read_file(path, 1u << 24, &data, &len) < 0)
		data = NULL;
	free(path);
	return data;
}

/* -T's fallback as the test finds it: the longest mount target that is a
 * leading part of the path (findmnt stats the path; the recorded tree has
 * no bind mount inside one filesystem, where the two would differ). */
static const char *holder(const struct ns_mount_entry *v, size_t n, const char *path)
{
	const char *best = NULL;

	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(v[i].target);

		if (strncmp(path, v[i].target, len) ||
		    (path[len] && path[len] != '/' && strcmp(v[i].target, "/")))
			continue;
		if (!best || len > strlen(best))
			best = v[i].target;
	}
	return best;
}

struct words {
	char cmd[8];
	char *v[32];
	size_t n;
};

/* "findmnt" and the lines of NN.args (one empty line: no arguments). */
static void read_words(char *args, struct words *w)
{
	w->n = 0;
	strcpy(w->cmd, "findmnt");
	w->v[w->n++] = w->cmd;
	for (char *p = args; *p && w->n < 31;) {
		char *nl = strchr(p, '\n');

		if (nl)
			*nl = '\0';
		if (*p || nl != p)
			w->v[w->n++] = p;
		if (!nl)
			break;
		p = nl + 1;
	}
	if (w->n == 2 && !*w->v[1])
		w->n = 1;
	w->v[w->n] = NULL;
}

static void one_case(const struct ns_snapshot *snap, const char *name, char *args,
		     char *want)
{
	const struct ns_cmd_def *def = ns_cmd_find("findmnt");
	struct words w;
	struct ns_stage st = { 0 };
	struct ns_parse_err e = { 0 };
	char *rc = strstr(want, "rc=");
	int parsed;
	bool found;

	read_words(args, &w);
	st.def = def;
	st.argv = w.v;
	st.argc = w.n;
	parsed = def->parse(&st, &e);
	if (!rc) {
		ok(0, "%s: the fixture ends with rc=N", name);
		goto out;
	}
	found = strncmp(rc, "rc=0", 4) == 0;
	*rc = '\0';
	/* findmnt ran as /.rec/findmnt: its errors name that path */
	if (!strncmp(want, "/.rec/", 6))
		want += 6;
	if (!strncmp(want, "findmnt: ", 9)) {
		char *nl = strchr(want, '\n');

		if (nl)
			*nl = '\0';
		ok(parsed < 0, "%s: %s is refused", name, want);
		/* findmnt's words, and at most nstest's hint after them */
		if (e.msg && !strncmp(e.msg, want, strlen(want)) &&
		    !strncmp(e.msg + strlen(want), " (did you mean ", 15))
			ok(1, "%s: with findmnt's message and a hint", name);
		else
			is_str(e.msg, want, "%s: with findmnt's message", name);
		goto out;
	}
	ok(parsed == 0, "%s: parses%s%s", name, e.msg ? ": " : "", e.msg ? e.msg : "");
	if (parsed == 0) {
		const struct ns_mount_entry *v = ns_snapshot_entries(snap);
		size_t n = ns_snapshot_count(snap);
		const struct ns_findmnt_args *a = st.args;
		struct ns_buf out = NS_BUF_INIT;
		/* the recorded paths need no resolving: canon is NULL, and
		 * they match as typed (sessions.bats replays the paths that do) */
		size_t lines = ns_findmnt_render(v, n, a, NULL,
						 a->path ? holder(v, n, a->path) : NULL, NULL, &out);

		is_str(out.data ? out.data : "", want, "%s: prints what findmnt printed", name);
		ok((lines > 0) == found, "%s: prints %s, as findmnt exited %d", name,
		   lines ? "mounts" : "nothing", found ? 0 : 1);
		ns_buf_free(&out);
	}
out:
	if (st.args)
		def->free_args(st.args);
	free(e.msg);
}

TEST(recorded_cases)
{
	char *mi = slurp("mountinfo");
	struct ns_snapshot *snap = NULL;
	int ncases = 0;

	ok(mi && ns_snapshot_parse(mi, strlen(mi), &snap) == 0, "the recorded mountinfo parses");
	if (!snap)
		return;
	for (int i = 0; i < 100; i++) {
		char *an = xasprintf("%02d.args", i), *on = xasprintf("%02d.out", i);
		char *args = slurp(an), *want = slurp(on);

		if (args && want) {
			one_case(snap, an, args, want);
			ncases++;
		}
		free(args);
		free(want);
		free(an);
		free(on);
	}
	ok(ncases >= 40, "all %d recorded cases ran", ncases);
	ns_snapshot_free(snap);
	free(mi);
}
