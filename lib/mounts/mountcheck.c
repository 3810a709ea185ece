/* mountcheck.c - see mountcheck.h */
#include "mounts/mountcheck.h"

#include <stdbool.h>
#include <string.h>

#include "mounts/mountinfo_line.h"

/* The value of a numbered optional field (shared, master,
 * propagate_from), or 0 when the record has none. */
static unsigned long tag(const struct ns_mi_line *l, const char *name)
{
	for (size_t i = 0; i < l->ntags; i++)
		if (l->tags[i].numbered && !strcmp(l->tags[i].name, name))
			return l->tags[i].group;
	return 0;
}

/* mountinfo escapes blanks and backslashes in paths as \ooo. */
static void unescape(const char *s, struct ns_buf *out)
{
	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] && s[3]) {
			ns_buf_addc(out, (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0')));
			s += 3;
		} else {
			ns_buf_addc(out, *s);
		}
	}
}

static void differ(struct ns_buf *out, unsigned long id, const char *what,
		   unsigned long long mi, unsigned long long sm)
{
	if (mi != sm)
		ns_buf_addf(out, "mount %lu: %s: mountinfo %llu, statmount %llu\n", id, what, mi, sm);
}

static void differ_path(struct ns_buf *out, unsigned long id, const char *what,
			const char *mi, const char *sm)
{
	struct ns_buf plain = NS_BUF_INIT;

	unescape(mi, &plain);
	if (strcmp(ns_buf_str(&plain), sm))
		ns_buf_addf(out, "mount %lu: %s: mountinfo %s, statmount %s\n", id, what, mi, sm);
	ns_buf_free(&plain);
}

static void compare(const struct ns_mi_line *l, const struct ns_sm_view *v,
		    struct ns_buf *out)
{
	differ(out, l->id, "parent", l->parent, v->parent_old);
	differ(out, l->id, "major", l->major, v->major);
	differ(out, l->id, "minor", l->minor, v->minor);
	differ(out, l->id, "peer group", tag(l, "shared"), v->peer_group);
	differ(out, l->id, "master", tag(l, "master"), v->master);
	/* mountinfo shows propagate_from only where it differs from master;
	 * statmount always gives the dominating group of a slave */
	differ(out, l->id, "propagate_from", tag(l, "propagate_from"),
	       v->propagate_from == v->master ? 0 : v->propagate_from);
	differ_path(out, l->id, "root", l->root, v->root);
	differ_path(out, l->id, "mount point", l->mountpoint, v->mount_point);
}

void ns_mountcheck(const char *mountinfo, const struct ns_sm_view *v, size_t n,
		   struct ns_buf *out)
{
	const char *line = mountinfo;
	bool *seen = xcalloc(n ? n : 1, sizeof(*seen));

	while (*line) {
		size_t len = strcspn(line, "\n");
		char *copy = xstrndup(line, len);
		struct ns_mi_line l;
		size_t k = 0;

		if (ns_mi_parse(copy, &l)) {
			while (k < n && v[k].id_old != l.id)
				k++;
			if (k == n)
				ns_buf_addf(out, "mount %lu: in mountinfo but not in listmount\n", l.id);
			else if (seen[k])
				ns_buf_addf(out, "mount %lu: twice in mountinfo\n", l.id);
			else {
				seen[k] = true;
				compare(&l, &v[k], out);
			}
			ns_mi_free(&l);
		}
		free(copy);
		line += len + (line[len] == '\n');
	}
	/* the other direction: listmount lists a mount mountinfo lacks */
	for (size_t k = 0; k < n; k++)
		if (!seen[k])
			ns_buf_addf(out, "mount %llu: in listmount but not in mountinfo\n", v[k].id_old);
	free(seen);
}
