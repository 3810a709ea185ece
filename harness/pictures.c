/* pictures.c - the propagation graph after every step of a scenario that
 * changed a mount table, as SVG: what `show --html` and the HTML run
 * report put under those steps. One extra run of the scenario reads every
 * live terminal's table after every step (run/observe.h). */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

#include "report/picture.h"
#include "run/observe.h"

/* The distinct tables of ob, sorted and joined: equal for two moments
 * whose mount tables are all the same. */
static char *tables_key(const struct ns_observation *ob)
{
	struct ns_lines l = NS_LINES_INIT;
	struct ns_buf b = NS_BUF_INIT;

	for (size_t j = 0; j < ob->n; j++)
		ns_lines_push(&l, ob->tables[j]);
	ns_lines_sort(&l);
	for (size_t j = 0; j < l.n; j++)
		if (!j || strcmp(l.v[j], l.v[j - 1]))
			ns_buf_addf(&b, "%s\n\x1e", l.v[j]);
	ns_lines_free(&l);
	return ns_buf_detach(&b);
}

char **scenario_pictures(const struct ns_scenario *sc, const struct ns_runner_opts *ro,
			 char *const *why, struct ns_buf *err)
{
	size_t n = sc->nsteps + 1;
	size_t *points = xcalloc(n, sizeof(*points));
	char **pics = xcalloc(n, sizeof(*pics));
	struct ns_observe ob = { NULL, 0 };
	char *prev = NULL;

	for (size_t i = 0; i < n; i++)
		points[i] = i;
	if (ns_observe_run(sc, points, n, ro, true, &ob, err) < 0) {
		free(points);
		free(pics);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		char *key = ob.at[i].n ? tables_key(&ob.at[i]) : NULL;

		if (i > 0 && key && prev && strcmp(key, prev)) {
			struct ns_buf svg = NS_BUF_INIT, e = NS_BUF_INIT;
			char *title = ns_picture_title(sc, i);

			if (ns_picture(&ob.at[i], why ? why[i - 1] : NULL, title, true, &svg, &e) == 0) {
				pics[i - 1] = ns_buf_detach(&svg);
			} else if (!err->len) {
				ns_buf_addf(err, "%s", ns_buf_str(&e));
			}
			ns_buf_free(&svg);
			ns_buf_free(&e);
			free(title);
		}
		if (key || !ob.at[i].n) {
			free(prev);
			prev = key;
		}
	}
	free(prev);
	free(points);
	ns_observe_free(&ob);
	return pics;
}

void free_pictures(char **p, size_t n)
{
	for (size_t i = 0; p && i < n; i++)
		free(p[i]);
	free(p);
}
