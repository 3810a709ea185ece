/* require.c - see require.h. Every question about the machine goes to
 * the backend; this file only decides what the answers mean. */
#include "run/require.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "run/trouble.h"

int ns_kernel_version(const char *release, int v[3])
{
	v[0] = v[1] = v[2] = 0;
	return sscanf(release, "%d.%d.%d", &v[0], &v[1], &v[2]) >= 2 ? 0 : -1;
}

static int version_cmp(const int a[3], const int b[3])
{
	for (int i = 0; i < 3; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

enum ns_devices_mode ns_require_mode(const struct ns_scenario *sc,
				     const struct ns_run_opts *o,
				     const struct ns_backend *be)
{
	if (sc->devices != NS_DEVICES_DEFAULT)
		return sc->devices;
	if (sc->requires & NS_REQ_LOOP || o->devices == NS_DEVICES_LOOP)
		return NS_DEVICES_LOOP;
	/* one superblock for a name mounted twice: tmpfs stand-ins need
	 * Linux 6.15+ for that, loop devices give it anywhere. A name
	 * mounted both read-only and read-write is judged by whether its
	 * superblock is still alive, which only a real device tells (a
	 * tmpfs master keeps it alive: kernel/device.c) */
	if (sc->remounts && !o->userns && (!be->tmpfs_remounts() || sc->ro_mixed) &&
	    be->loop_devices())
		return NS_DEVICES_LOOP;
	return NS_DEVICES_TMPFS;
}

/* A probe of the machine that could not run (no process, descriptor or
 * memory for it) answers nothing about the kernel: nstest says so, and
 * the scenario is not judged (*trouble). */
static char *probe_failed(const char *what, int err, bool *trouble)
{
	char *limit = ns_trouble_what(err);
	char *msg = xasprintf("cannot judge: the probe for %s could not run: %s%s%s",
			      what, strerror(err), limit ? "; " : "", limit ? limit : "");

	free(limit);
	*trouble = true;
	return msg;
}

static char *missing_feature(unsigned req, const struct ns_backend *be, bool *trouble)
{
	for (unsigned bit = NS_FEAT_FIRST; bit && bit <= NS_FEAT_LAST; bit <<= 1) {
		int has;

		if (!(req & bit))
			continue;
		has = be->has_feature(bit);
		if (has < 0)
			return probe_failed(ns_requirement_name(bit), errno, trouble);
		if (!has)
			return be->is_kernel ? xasprintf("this kernel lacks %s", ns_requirement_name(bit))
					     : xasprintf("needs the kernel itself: the %s backend has no %s",
							 be->name, ns_requirement_name(bit));
	}
	return NULL;
}

static bool cmp_holds(const struct ns_version_cmp *c, const int have[3])
{
	int r = version_cmp(have, c->v);

	if (!strcmp(c->op, ">="))
		return r >= 0;
	if (!strcmp(c->op, ">"))
		return r > 0;
	if (!strcmp(c->op, "<="))
		return r <= 0;
	if (!strcmp(c->op, "<"))
		return r < 0;
	return r == 0;
}

bool ns_xfail_holds(const struct ns_xfail *x, const int have[3])
{
	bool all = true;

	for (size_t k = 0; k < x->ncmp; k++)
		all = all && cmp_holds(&x->cmp[k], have);
	return x->any || all;
}

const struct ns_xfail *ns_xfail_for(const struct ns_scenario *sc, const char *release)
{
	int have[3];

	if (!release || ns_kernel_version(release, have) < 0)
		return NULL;
	for (size_t i = 0; i < sc->nxfails; i++)
		if (ns_xfail_holds(&sc->xfails[i], have))
			return &sc->xfails[i];
	return NULL;
}

/* `kernel: >= X.Y.Z` against the backend's release; a backend with no
 * release (one that is not a kernel) meets every such line. */
static char *kernel_too_old(const struct ns_scenario *sc, const struct ns_run_opts *o,
			    const struct ns_backend *be)
{
	const int *min = sc->kernel_min;
	const char *release = be->release(o);
	int have[3];

	if (!(min[0] || min[1] || min[2]) || !release)
		return NULL;
	if (ns_kernel_version(release, have) < 0)
		return xasprintf("cannot read the kernel version from '%s'", release);
	if (version_cmp(have, min) < 0)
		return xasprintf("needs kernel >= %d.%d.%d, this is %s",
				 min[0], min[1], min[2], release);
	return NULL;
}

/* requires: root, and what the stand-in mode needs. */
static char *privileges_missing(const struct ns_scenario *sc, const struct ns_run_opts *o,
				const struct ns_backend *be, bool *trouble)
{
	enum ns_devices_mode mode = ns_require_mode(sc, o, be);
	int userns;

	if (sc->requires & NS_REQ_ROOT) {
		char *problem = o->userns || !be->needs_privileges ? NULL : be->privilege_problem();
		if (o->userns || problem) {
			free(problem);
			return xstrdup("needs real root, not a user namespace");
		}
	}
	if (o->userns && mode == NS_DEVICES_LOOP)
		return xstrdup("needs real root for loop devices (rootless mode has tmpfs stand-ins only)");
	if (mode == NS_DEVICES_TMPFS && sc->remounts && !be->tmpfs_remounts())
		return xstrdup("mounts one stand-in more than once: tmpfs stand-ins share a superblock only on Linux 6.15 or later, and loop devices are not available here");
	if (mode == NS_DEVICES_LOOP && !be->loop_standins)
		return xasprintf("needs loop devices: the %s backend has none", be->name);
	if (mode == NS_DEVICES_LOOP && !be->loop_devices())
		return xstrdup("needs loop devices: /dev/loop-control is not usable (modprobe loop)");
	if (sc->requires & NS_REQ_USERNS) {
		userns = be->userns_allowed();
		if (userns < 0)
			return probe_failed("user namespaces", errno, trouble);
		if (!userns)
			return xstrdup("needs user namespaces, which this system does not allow");
	}
	return NULL;
}

char *ns_require_unmet(const struct ns_scenario *sc, const struct ns_run_opts *o,
		       const struct ns_backend *be, bool *trouble)
{
	char *why = kernel_too_old(sc, o, be);

	*trouble = false;
	if (!why)
		why = privileges_missing(sc, o, be, trouble);
	if (!why)
		why = missing_feature(sc->requires, be, trouble);
	return why;
}
