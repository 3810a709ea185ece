/* plan.c - see plan.h. ns_plan_add_command is in scenario_parse.c, with
 * the parser it reuses. */
#include "scenario/plan.h"

#include <string.h>

#include "scenario/parser.h"

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

struct ns_scenario *ns_plan_new(const struct ns_scenario *sc)
{
	struct ns_scenario *plan = xcalloc(1, sizeof(*plan));

	/* every scalar of the header as it is; each pointer below is the
	 * plan's own copy (a new heap field of struct ns_scenario needs its
	 * line here, or ns_scenario_free frees it twice) */
	*plan = *sc;
	plan->path = xstrdup(sc->path);
	plan->name = xstrdup(sc->name);
	plan->root_dev = xstrdup(sc->root_dev);
	plan->title = dup_or_null(sc->title);
	plan->xfails = NULL;
	if (sc->nxfails) {
		plan->xfails = xcalloc(sc->nxfails, sizeof(*plan->xfails));
		for (size_t i = 0; i < sc->nxfails; i++) {
			plan->xfails[i] = sc->xfails[i];
			plan->xfails[i].reason = dup_or_null(sc->xfails[i].reason);
		}
	}
	plan->devnames = NULL;
	plan->devnames_cap = 0;
	if (sc->ndevnames) {
		plan->devnames = xcalloc(sc->ndevnames, sizeof(*plan->devnames));
		plan->devnames_cap = sc->ndevnames;
		for (size_t i = 0; i < sc->ndevnames; i++)
			plan->devnames[i] = xstrdup(sc->devnames[i]);
	}
	plan->steps = NULL;
	plan->nsteps = plan->steps_cap = 0;
	plan->raw = NULL;
	plan->nraw = plan->raw_cap = 0;
	return plan;
}

void ns_plan_borrow(struct ns_scenario *plan, const struct ns_step *st)
{
	struct ns_step *copy = ns_parser_new_step(plan);

	*copy = *st;
	copy->borrowed = true;
}
