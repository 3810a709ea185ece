/* alive.c - the numbers a place's mount table held after a step
 * (struct ns_alive, match/view.h): gathered by each backend, carried by
 * the wire, read by the matcher. */
#include <stdlib.h>
#include <string.h>

#include "match/view.h"
#include "mounts/mountinfo_line.h"
#include "base/util.h"

void ns_alive_add(struct ns_alive *a, unsigned kind, struct ns_key k)
{
	void *p = a->v[kind];

	ns_grow(&p, &a->cap[kind], a->n[kind] + 1, sizeof(*a->v[kind]));
	a->v[kind] = p;
	a->v[kind][a->n[kind]++] = k;
}

void ns_alive_free(struct ns_alive *a)
{
	for (unsigned k = 0; k < 3; k++)
		free(a->v[k]);
	memset(a, 0, sizeof(*a));
}

void ns_alive_from_mountinfo(const char *text, size_t len, struct ns_alive *a)
{
	struct ns_lines lines = NS_LINES_INIT;

	ns_alive_free(a);
	ns_lines_split(&lines, text, len);
	a->known = true;
	for (size_t i = 0; i < lines.n; i++) {
		struct ns_mi_line l;

		if (!ns_mi_parse(lines.v[i], &l)) {
			/* a line we cannot read hides its numbers: no evidence */
			ns_mi_free(&l);
			ns_alive_free(a);
			break;
		}
		ns_alive_add(a, 0, (struct ns_key){ l.id, 0 });
		ns_alive_add(a, 0, (struct ns_key){ l.parent, 0 });
		ns_alive_add(a, 1, (struct ns_key){ l.major, l.minor });
		for (size_t t = 0; t < l.ntags; t++)
			if (l.tags[t].numbered)
				ns_alive_add(a, 2, (struct ns_key){ l.tags[t].group, 0 });
		ns_mi_free(&l);
	}
	ns_lines_free(&lines);
}
