/* test_require.c - kernel versions, xfail ranges and feature probes */
#include <linux/mount.h>
#include <string.h>

#include "run/require.h"
#include "scenario/scenario.h"
#include "tap.h"

static struct ns_scenario *parse(const char *text)
{
	struct ns_diag d = { NULL };
	struct ns_scenario *sc = ns_scenario_parse("t.scn", text, strlen(text), &d);

	if (!sc)
		printf("# %s\n", d.msg);
	ns_diag_free(&d);
	return sc;
}

static void test_versions(void)
{
	int v[3];

	ok(ns_kernel_version("6.1.0-18-amd64", v) == 0 && v[0] == 6 && v[1] == 1 && v[2] == 0, "Debian release string");
	ok(ns_kernel_version("6.18.44-fc-v1098", v) == 0 && v[1] == 18 && v[2] == 44, "three numbers");
	ok(ns_kernel_version("5.10-rc1", v) == 0 && v[0] == 5 && v[1] == 10 && v[2] == 0, "no patch level");
	ok(ns_kernel_version("garbage", v) < 0, "not a version");
}

static void test_xfail(void)
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

static void test_probes(void)
{
	ok(!ns_move_mount_knows(0x40000000u), "an unknown move_mount flag is reported missing");
	ok(ns_move_mount_knows(0), "no flag at all is known");
}

int main(void)
{
	test_versions();
	test_xfail();
	test_probes();
	return tap_done();
}
