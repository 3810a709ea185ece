/* require.h - what a scenario needs from this machine (`requires:` and
 * `kernel:`), checked before it runs so that an unmet need is a SKIP
 * with its reason rather than a confusing failure. */
#ifndef NS_REQUIRE_H
#define NS_REQUIRE_H

#include <stdbool.h>

#include "run/backend.h"
#include "scenario/scenario.h"

/* NULL when the scenario can run on this backend here, else the reason
 * (heap). *trouble says that the reason is no answer about the machine
 * but nstest's own trouble (a probe that could not run: run/trouble.h):
 * the scenario is then not judged, where an unmet need is a SKIP. */
char *ns_require_unmet(const struct ns_scenario *sc, const struct ns_run_opts *o,
		       const struct ns_backend *be, bool *trouble);

/* The stand-in mode a scenario runs with under these options. */
enum ns_devices_mode ns_require_mode(const struct ns_scenario *sc,
				     const struct ns_run_opts *o,
				     const struct ns_backend *be);

/* The first xfail of sc whose range holds for this kernel release, or NULL. */
/* Does the range of x hold for the kernel version have? */
bool ns_xfail_holds(const struct ns_xfail *x, const int have[3]);
const struct ns_xfail *ns_xfail_for(const struct ns_scenario *sc, const char *release);

/* Parse "6.1.0-18-amd64" into {6,1,0}; returns 0 or -1. */
int ns_kernel_version(const char *release, int v[3]);

#endif
