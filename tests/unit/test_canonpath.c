/* test_canonpath.c - names made canonical as coreutils' realpath(1) and
 * readlink -f make them, over a made-up tree of directories, files and
 * symbolic links. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "commands/canonpath.h"
#include "tap.h"

/* The tree: each entry an absolute name, 'd' a directory, 'f' a file,
 * 'l' a link with its target. */
static const struct node {
	const char *name;
	char kind;
	const char *target;
} tree[] = {
	{ "/", 'd', NULL },
	{ "/a", 'd', NULL },
	{ "/a/b", 'd', NULL },
	{ "/a/f", 'f', NULL },
	{ "/a/up", 'l', ".." },
	{ "/abs", 'l', "/a/b" },
	{ "/rel", 'l', "a/b" },
	{ "/dangling", 'l', "/nowhere/x" },
	{ "/half", 'l', "/a/new" },
	{ "/loop1", 'l', "loop2" },
	{ "/loop2", 'l', "loop1" },
};

static const struct node *find(const char *path)
{
	for (size_t i = 0; i < NS_ARRAY_SIZE(tree); i++)
		if (!strcmp(tree[i].name, path))
			return &tree[i];
	return NULL;
}

static int calls;

static int t_lstat(void *ctx, const char *path, bool *link, bool *dir)
{
	const struct node *n = find(path);

	(void)ctx;
	calls++;
	if (!n)
		return -ENOENT;
	*link = n->kind == 'l';
	*dir = n->kind == 'd';
	return 0;
}

static int t_readlink(void *ctx, const char *path, char **target)
{
	const struct node *n = find(path);

	(void)ctx;
	if (!n || n->kind != 'l')
		return n ? -EINVAL : -ENOENT;
	*target = xstrdup(n->target);
	return 0;
}

static const struct ns_cp_ops ops = { t_lstat, t_readlink };

/* "=NAME" for a result, "-ERRNO" as a number for a failure. */
static char *canon(const char *cwd, const char *path)
{
	char *out = NULL, *s;
	int r = ns_canonicalize(&ops, NULL, cwd, path, &out);


	if (r < 0)
		return xasprintf("-%d", -r);
	s = xasprintf("=%s", out);
	free(out);
	return s;
}

static void check(const char *cwd, const char *path, const char *want, const char *what)
{
	char *got = canon(cwd, path);

	is_str(got, want, "%s", what);
	free(got);
}

TEST(canonpath)
{
	char enoent[8], enotdir[8], eloop[8];

	snprintf(enoent, sizeof(enoent), "-%d", ENOENT);
	snprintf(enotdir, sizeof(enotdir), "-%d", ENOTDIR);
	snprintf(eloop, sizeof(eloop), "-%d", ELOOP);

	check("/", "/a/b", "=/a/b", "a plain absolute name stays");
	check("/a", "b", "=/a/b", "a relative name starts at the working directory");
	check("/", "//a///b/", "=/a/b", "repeated and trailing slashes go");
	check("/", "/a/./b/.", "=/a/b", "\".\" goes");
	check("/", "/a/b/../..", "=/", "\"..\" takes a component off");
	check("/", "/../..", "=/", "never above /");
	check("/", "/abs", "=/a/b", "an absolute link starts again at /");
	check("/", "/rel", "=/a/b", "a relative link is read from its directory");
	check("/", "/a/up/a/b", "=/a/b", "a link to \"..\" climbs from where it is");
	check("/", "/abs/../f", "=/a/f", "\"..\" after a link climbs from its target");
	check("/", "/a/missing", "=/a/missing", "the last component need not exist");
	check("/", "/half", "=/a/new", "nor need a link's target's last component");
	check("/", "/a/missing/x", enoent, "a missing component before the last is ENOENT");
	check("/", "/dangling", enoent, "a link into a missing directory is ENOENT");
	check("/", "/a/f/x", enotdir, "a file before the last component is ENOTDIR");
	check("/", "/loop1", eloop, "a loop of links is ELOOP");
	check("/", "", enoent, "the empty name is ENOENT");
	calls = 0;
	check("/", "/a/b/..", "=/a", "a name with \"..\"");
	ok(calls == 2, "each component is looked at once (%d lstat calls)", calls);
}
