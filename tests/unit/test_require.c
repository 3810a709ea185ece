/* test_require.c - kernel versions, xfail ranges and feature probes */
#include <errno.h>
#include <linux/mount.h>
#include <string.h>

#include "kernel/probe.h"
#include "run/require.h"
#include "scenario/scenario.h"
#include "scn.h"
#include "tap.h"

TEST(versions)
{
	int v[3];

	ok(ns_kernel_version("6.1.0-18-amd64", v) == 0 && v[0] == 6 && v[1] == 1 && v[2] == 0, "Debian release string");
	ok(ns_kernel_version("6.18.44-fc-v1098", v) == 0 && v[1] == 18 && v[2] == 44, "three numbers");
	ok(ns_kernel_version("5.10-rc1", v) == 0 && v[0] == 5 && v[1] == 10 && v[2] == 0, "no patch level");
	ok(ns_kernel_version("garbage", v) < 0, "not a version");
}

TEST(xfail)
{
	struct ns_scenario *sc = parse("xfail: >= 6.1, < 6.9: one (ref)\nxfail: = 5.4.10: two (ref)\n    # ls\n");

	ok(sc && sc->nxfails == 2, "two xfail lines");
	if (!sc)
		return;
	ok(ns_xfail_for(sc, "6.1.0-18-amd64") == &sc->xfails[0], "lower bound is inclusive");
	ok(ns_xfail_for(sc, "6.8.12") == &sc->xfails[0], "inside the range");
	ok(ns_xfail_for(sc, "6.9.0") == NULL, "upper bound is exclusive");
	ok(ns_xfail_for(sc, "6.0.19") == NULL, "below the range");
	ok(ns_xfail_for(sc, "5.4.10") == &sc->xfails[1], "equal version");
	ok(ns_xfail_for(sc, "5.4.11") == NULL, "not equal");
	is_str(sc->xfails[0].reason, "one (ref)", "reason kept");
	ns_scenario_free(sc);
	sc = parse("xfail: *: always (ref)\n    # ls\n");
	ok(sc && ns_xfail_for(sc, "4.19.0") == &sc->xfails[0], "'*' matches any kernel");
	ns_scenario_free(sc);
}

TEST(probes)
{
	ok(!ns_move_mount_knows(0x40000000u), "an unknown move_mount flag is reported missing");
	ok(ns_move_mount_knows(0), "no flag at all is known");
}

/* A backend whose answers about the host the test sets: the requirement
 * checks must ask it, and nothing else, about the machine. */
static struct {
	const char *release;
	bool privileged, userns, loop, remounts;
	unsigned features;
	bool no_probe;  /* every probe fails to run, as fork under ulimit -u */
} host;

static const char *fake_release(const struct ns_run_opts *o) { (void)o; return host.release; }
static char *fake_privilege(void) { return host.privileged ? NULL : xstrdup("no caps"); }
static int fake_userns(void)
{
	if (host.no_probe)
		return errno = EAGAIN, -1;
	return host.userns;
}
static bool fake_loop(void) { return host.loop; }
static bool fake_remounts(void) { return host.remounts; }
static int fake_feature(unsigned bit)
{
	if (host.no_probe)
		return errno = EAGAIN, -1;
	return (host.features & bit) != 0;
}

static const struct ns_backend fake = {
	.name = "fake", .needs_privileges = true, .loop_standins = true,
	.release = fake_release, .privilege_problem = fake_privilege,
	.userns_allowed = fake_userns, .loop_devices = fake_loop,
	.tmpfs_remounts = fake_remounts, .has_feature = fake_feature,
};

/* The same answers from a backend that is a kernel (is_kernel), under a
 * name that says nothing: a missing feature is then the kernel's, not the
 * backend's. */
static const struct ns_backend fake_kernel = {
	.name = "fake-kernel", .is_kernel = true, .needs_privileges = true, .loop_standins = true,
	.release = fake_release, .privilege_problem = fake_privilege,
	.userns_allowed = fake_userns, .loop_devices = fake_loop,
	.tmpfs_remounts = fake_remounts, .has_feature = fake_feature,
};

/* A backend that needs no privileges and has no loop stand-ins (as the
 * model): it is not asked for either. */
static const struct ns_backend fake_unprivileged = {
	.name = "fake-model",
	.release = fake_release, .privilege_problem = fake_privilege,
	.userns_allowed = fake_userns, .loop_devices = fake_loop,
	.tmpfs_remounts = fake_remounts, .has_feature = fake_feature,
};

static const struct ns_backend *backend = &fake;

static void reset_host(void)
{
	host.release = "6.12.0";
	host.privileged = host.userns = host.loop = host.remounts = true;
	host.features = ~0u;
	host.no_probe = false;
}

/* "unmet" when the scenario in text is refused with a reason containing
 * want; NULL want means it must run. */
static void check_unmet(const char *text, const struct ns_run_opts *o, const char *want,
			const char *what)
{
	struct ns_scenario *sc = parse(text);
	bool trouble;
	char *why = sc ? ns_require_unmet(sc, o, backend, &trouble) : xstrdup("did not parse");

	if (want)
		ok(why && strstr(why, want), "%s: %s", what, why ? why : "(runs)");
	else
		ok(!why, "%s: %s", what, why ? why : "runs");
	free(why);
	ns_scenario_free(sc);
}

TEST(backend_answers)
{
	struct ns_run_opts o = { .devices = NS_DEVICES_TMPFS };
	struct ns_run_opts rootless = { .devices = NS_DEVICES_TMPFS, .userns = true };

	reset_host();
	check_unmet("kernel: >= 6.5\n    # ls\n", &o, NULL, "kernel: met");
	host.release = "6.1.0-18-amd64";
	check_unmet("kernel: >= 6.5\n    # ls\n", &o, "needs kernel >= 6.5.0, this is 6.1.0-18-amd64", "kernel: too old");
	host.release = NULL;
	check_unmet("kernel: >= 6.5\n    # ls\n", &o, NULL, "a backend with no release meets kernel:");
	reset_host();
	host.privileged = false;
	check_unmet("requires: root\n    # ls\n", &o, "needs real root", "requires: root, no privileges");
	reset_host();
	check_unmet("requires: root\n    # ls\n", &rootless, "needs real root", "requires: root, rootless");
	check_unmet("requires: loop\n    # ls\n", &rootless, "needs real root for loop devices", "loop, rootless");
	host.loop = false;
	check_unmet("requires: loop\n    # ls\n", &o, "needs loop devices", "loop, none here");
	reset_host();
	host.userns = false;
	check_unmet("requires: userns\n    # ls\n", &o, "needs user namespaces", "userns not allowed");
	reset_host();
	host.features = ~NS_FEAT_LISTMOUNT;
	check_unmet("requires: listmount\n    # ls\n", &o,
		    "needs the kernel itself: the fake backend has no listmount",
		    "feature missing in another backend");
	backend = &fake_kernel;
	check_unmet("requires: listmount\n    # ls\n", &o, "this kernel lacks listmount",
		    "feature missing in the kernel");
	backend = &fake;
	check_unmet("requires: open_tree\n    # ls\n", &o, NULL, "feature present");
	/* the capability fields are asked, not the host: a backend without
	 * privileges to need or loop stand-ins to have */
	reset_host();
	host.privileged = false;
	backend = &fake_unprivileged;
	check_unmet("requires: root\n    # ls\n", &o, NULL,
		    "requires: root on a backend that needs no privileges");
	check_unmet("requires: loop\n    # ls\n", &o, "needs loop devices: the fake-model backend has none",
		    "requires: loop on a backend without loop stand-ins");
	backend = &fake;
	reset_host();
	host.remounts = false;
	host.loop = false;
	check_unmet("    # mount /dev/a /x\n    # mount /dev/a /y\n", &o,
		    "mounts one stand-in more than once", "a name mounted twice, neither way possible");
	host.loop = true;
	check_unmet("    # mount /dev/a /x\n    # mount /dev/a /y\n", &o, NULL,
		    "a name mounted twice goes to loop stand-ins");
	reset_host();
}

/* A probe that could not run is no missing feature: the reason says so,
 * and that it is nstest's trouble, not an unmet need (run/trouble.h). */
TEST(probe_could_not_run)
{
	struct ns_run_opts o = { .devices = NS_DEVICES_TMPFS };
	struct ns_scenario *sc;
	bool trouble = false;
	char *why;

	reset_host();
	backend = &fake_kernel;
	host.no_probe = true;
	sc = parse("requires: move_mount_beneath\n    # ls\n");
	why = sc ? ns_require_unmet(sc, &o, backend, &trouble) : NULL;
	ok(why && trouble, "a failed probe is nstest's trouble: %s", why ? why : "(runs)");
	ok(why && strstr(why, "the probe for move_mount_beneath could not run") &&
	   strstr(why, "ulimit -u") && !strstr(why, "lacks"),
	   "... named so, with the limit, never 'lacks'");
	free(why);
	ns_scenario_free(sc);
	sc = parse("requires: userns\n    # ls\n");
	why = sc ? ns_require_unmet(sc, &o, backend, &trouble) : NULL;
	ok(why && trouble && strstr(why, "the probe for user namespaces could not run"),
	   "the user namespace probe likewise: %s", why ? why : "(runs)");
	free(why);
	ns_scenario_free(sc);
	host.no_probe = false;
	sc = parse("requires: move_mount_beneath\n    # ls\n");
	host.features = 0;
	why = sc ? ns_require_unmet(sc, &o, backend, &trouble) : NULL;
	ok(why && !trouble && strstr(why, "this kernel lacks move_mount_beneath"),
	   "a probe that ran and said no is a missing feature");
	free(why);
	ns_scenario_free(sc);
	backend = &fake;
	reset_host();
}

/* Which stand-ins a scenario gets: loop ones when only a real device's
 * superblock can judge it, as long as the backend has them. */
TEST(mode)
{
	static const char *const twice_ro = "    # mount -o ro /dev/a /x\n    # mount -o ro /dev/a /y\n";
	static const char *const mixed = "    # mount -o ro /dev/a /x\n    # mount /dev/a /y\n";
	static const char *const root_ro = "    # mount -o ro,nosuid /dev/sda1 /x\n";
	struct ns_run_opts o = { 0 };
	struct ns_scenario *sc;

	reset_host();
	sc = parse(twice_ro);
	ok(sc && sc->remounts && !sc->ro_mixed, "a name mounted read-only twice is not mixed");
	ok(sc && ns_require_mode(sc, &o, &fake) == NS_DEVICES_TMPFS, "... and keeps tmpfs stand-ins");
	ns_scenario_free(sc);
	sc = parse(mixed);
	ok(sc && sc->ro_mixed, "a name mounted read-only and read-write is mixed");
	ok(sc && ns_require_mode(sc, &o, &fake) == NS_DEVICES_LOOP, "... and goes to loop stand-ins");
	host.loop = false;
	ok(sc && ns_require_mode(sc, &o, &fake) == NS_DEVICES_TMPFS, "... or stays on tmpfs ones without loop devices");
	host.loop = true;
	o.userns = true;
	ok(sc && ns_require_mode(sc, &o, &fake) == NS_DEVICES_TMPFS, "... and in rootless mode");
	o.userns = false;
	ns_scenario_free(sc);
	sc = parse(root_ro);
	ok(sc && sc->ro_mixed, "the root's name (mounted read-write) mounted read-only is mixed");
	ns_scenario_free(sc);
	sc = parse("    # mount -o ro --bind /a /x\n    # mount /dev/a /y\n");
	ok(sc && !sc->ro_mixed, "a read-only bind mounts no stand-in");
	ns_scenario_free(sc);
	reset_host();
}
