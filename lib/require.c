/* require.c - see require.h */
#include "require.h"

#include <stdio.h>
#include <sys/utsname.h>
#include <unistd.h>

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
				     const struct ns_run_opts *o)
{
	if (sc->devices != NS_DEVICES_DEFAULT)
		return sc->devices;
	if (sc->requires & NS_REQ_LOOP)
		return NS_DEVICES_LOOP;
	return o->devices == NS_DEVICES_LOOP ? NS_DEVICES_LOOP : NS_DEVICES_TMPFS;
}

char *ns_require_unmet(const struct ns_scenario *sc, const struct ns_run_opts *o)
{
	const int *min = sc->kernel_min;
	struct utsname u;
	int have[3];

	if (min[0] || min[1] || min[2]) {
		if (uname(&u) < 0 || ns_kernel_version(u.release, have) < 0)
			return xstrdup("cannot read the kernel version");
		if (version_cmp(have, min) < 0)
			return xasprintf("needs kernel >= %d.%d.%d, this is %s",
					 min[0], min[1], min[2], u.release);
	}
	if ((sc->requires & NS_REQ_LOOP || ns_require_mode(sc, o) == NS_DEVICES_LOOP) &&
	    access("/dev/loop-control", R_OK | W_OK) < 0)
		return xstrdup("needs loop devices: /dev/loop-control is not usable (modprobe loop)");
	if (sc->requires & NS_REQ_ROOT && geteuid() != 0)
		return xstrdup("needs root");
	return NULL;
}
