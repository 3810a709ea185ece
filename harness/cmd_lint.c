/* cmd_lint.c - `nstest lint PATH...`: parse every scenario and report
 * every file's error; runs nothing, so it needs no privileges. */
#include "harness.h"

#include <string.h>

#include "scenario/scenario.h"

static const char lint_help[] =
	"usage: nstest lint PATH...\n"
	"Parse scenario files (a folder is searched for *.scn) and report every\n"
	"error as FILE:LINE:COL: error: ...; runs nothing and needs no privileges.\n"
	"Exit status 0 when every file parses, 2 otherwise.\n"
	"\n"
	"  -h, --help   this help\n";

int cmd_lint(int argc, char **argv)
{
	struct ns_lines files = NS_LINES_INIT;
	struct ns_scenario **sc;

	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(lint_help, stdout);
			return EXIT_PASS;
		}
	}
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
