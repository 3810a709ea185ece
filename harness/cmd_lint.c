/* cmd_lint.c - `nstest lint PATH...`: parse every scenario and report
 * every file's error; runs nothing, so it needs no privileges. */
#include "harness.h"

#include "scenario/scenario.h"

int cmd_lint(int argc, char **argv)
{
	struct ns_lines files = NS_LINES_INIT;
	struct ns_scenario **sc;

	if (argc < 2) {
		usage_error("lint needs at least one scenario file or folder");
		return EXIT_USAGE;
	}
	if (collect_scenarios(argv + 1, argc - 1, &files) < 0) {
		ns_lines_free(&files);
		return EXIT_USAGE;
	}
	sc = parse_scenarios(&files);
	if (sc)
		printf("%zu scenario(s) parsed\n", files.n);
	free_scenarios(sc, &files);
	return sc ? EXIT_PASS : EXIT_USAGE;
}
