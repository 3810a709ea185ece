/* pictures.c - the propagation graph after every step of a scenario that
 * changed a mount table, as a page's figures: what `show --html` and the
 * HTML run report put under those steps. One run of the scenario reads
 * every live terminal's table after every step (run/observe.h); the page
 * prints that run's own output beside the figures, so both number mounts
 * and peer groups alike. */
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

int scenario_drawing(const struct ns_scenario *sc, const struct ns_runner_opts *ro,
		     char *const *why, struct ns_svg_cache *cache, struct ns_drawing *d,
		     struct ns_buf *err)
{
	size_t n = sc->nsteps + 1, k = 0;
	size_t *points = xcalloc(n, sizeof(*points)), *step = xcalloc(n, sizeof(*step));
	const struct ns_observation **at = xcalloc(n, sizeof(*at)), **before = xcalloc(n, sizeof(*before));
	char **causes = xcalloc(n, sizeof(*causes)), **figs = xcalloc(n, sizeof(*figs));
	struct ns_observe ob = { .at = NULL };
	const struct ns_observation *last = NULL;
	char *prev = NULL;

	memset(d, 0, sizeof(*d));
	for (size_t i = 0; i < n; i++)
		points[i] = i;
	if (ns_observe_run(sc, points, n, ro, true, &ob, err) < 0) {
		free(points);
		free(step);
		free(at);
		free(before);
		free(causes);
		free(figs);
		return -1;
	}
	d->n = sc->nsteps;
	d->pics = xcalloc(n, sizeof(*d->pics));
	/* only a step that changed a table is drawn; all at once */
	for (size_t i = 0; i < n; i++) {
		char *key = ob.at[i].n ? tables_key(&ob.at[i]) : NULL;

		if (i > 0 && key && prev && strcmp(key, prev)) {
			step[k] = i - 1;
			at[k] = &ob.at[i];
			before[k] = last;
			causes[k++] = why ? why[i - 1] : NULL;
		}
		if (key || !ob.at[i].n) {
			free(prev);
			prev = key;
		}
		if (ob.at[i].n)
			last = &ob.at[i];
	}
	ns_picture_pages(at, before, causes, k, cache, figs, err);
	for (size_t j = 0; j < k; j++)
		d->pics[step[j]] = figs[j];
	free(step);
	free(at);
	free(before);
	free(causes);
	free(figs);
	free(prev);
	free(points);
	/* the run drawn is the run to print */
	d->run = ob.run;
	ob.run = (struct ns_run){ NULL, 0, NULL, false, false, 0 };
	d->seconds = ob.seconds;
	d->devices = ob.devices;
	ns_observe_free(&ob);
	return 0;
}
