/* canonpath.c - see canonpath.h. */
#include "commands/canonpath.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* The kernel's MAXSYMLINKS; coreutils finds a loop by the links it has
 * seen, which gives ELOOP for the same names. */
#define CP_MAXLINKS 40

/* name with "/comp" added (name is "/" or has no trailing slash). */
static char *join(const char *name, const char *comp, size_t len)
{
	return xasprintf("%s%s%.*s", name, strcmp(name, "/") ? "/" : "", (int)len, comp);
}

/* name with its last component taken off, never above "/". */
static void up(char *name)
{
	char *slash = strrchr(name, '/');

	if (slash == name)
		name[1] = '\0';
	else if (slash)
		*slash = '\0';
}

int ns_canonicalize(const struct ns_cp_ops *ops, void *ctx, const char *cwd,
		    const char *path, char **out)
{
	char *name, *rest, *p;
	int links = 0, r = 0;

	if (!*path)
		return -ENOENT;
	name = xstrdup(*path == '/' ? "/" : cwd);
	rest = xstrdup(path);
	p = rest;
	for (;;) {
		char *comp, *cand, *target, *more;
		size_t len;
		bool link, dir, last;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		comp = p;
		len = strcspn(p, "/");
		p += len;
		if (len == 1 && comp[0] == '.')
			continue;
		if (len == 2 && comp[0] == '.' && comp[1] == '.') {
			up(name);
			continue;
		}
		more = p;
		while (*more == '/')
			more++;
		last = !*more;
		cand = join(name, comp, len);
		r = ops->lstat(ctx, cand, &link, &dir);
		if (r == -ENOENT && last) {
			/* the last component need not exist */
			free(name);
			name = cand;
			r = 0;
			break;
		}
		if (r < 0) {
			free(cand);
			break;
		}
		if (link) {
			if (++links > CP_MAXLINKS) {
				free(cand);
				r = -ELOOP;
				break;
			}
			r = ops->readlink(ctx, cand, &target);
			free(cand);
			if (r < 0)
				break;
			/* the target goes in front of what is left */
			more = xasprintf("%s/%s", target, p);
			if (*target == '/')
				strcpy(name, "/");
			free(target);
			free(rest);
			rest = p = more;
			continue;
		}
		if (!dir && !last) {
			free(cand);
			r = -ENOTDIR;
			break;
		}
		free(name);
		name = cand;
	}
	free(rest);
	if (r < 0) {
		free(name);
		return r;
	}
	*out = name;
	return 0;
}
