/* cmd_run.c - `nstest run`: parse every scenario, then run each one in its
 * own sandbox, judge it and report. */
#include "harness.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "report.h"
#include "require.h"
#include "scenario.h"
#include "verdict.h"

#define DEFAULT_TIMEOUT 60

struct run_cli {
	struct ns_run_opts opts;
	bool verbose;
};

static int parse_devices(const char *v, struct ns_run_opts *o)
{
	if (!strcmp(v, "tmpfs"))
		o->devices = NS_DEVICES_TMPFS;
	else if (!strcmp(v, "loop"))
		o->devices = NS_DEVICES_LOOP;
	else
		return -1;
	return 0;
}

static int parse_timeout(const char *v, unsigned *out)
{
	char *end;
	unsigned long n = strtoul(v, &end, 10);

	if (!*v || *end || n > 86400)
		return -1;
	*out = (unsigned)n;
	return 0;
}

static int parse_args(int argc, char **argv, struct run_cli *cli)
{
	static const struct option longopts[] = {
		{ "devices", required_argument, NULL, 'd' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "timeout", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	cli->opts.devices = NS_DEVICES_TMPFS;
	cli->opts.timeout_s = DEFAULT_TIMEOUT;
	optind = 1;
	opterr = 0; /* one message of our own, naming the option */
	while ((c = getopt_long(argc, argv, "+:vt:", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			if (parse_devices(optarg, &cli->opts) < 0) {
				usage_error("--devices must be tmpfs or loop, not '%s'", optarg);
				return -1;
			}
			break;
		case 'v':
			cli->verbose = true;
			break;
		case 't':
			if (parse_timeout(optarg, &cli->opts.timeout_s) < 0) {
				usage_error("--timeout must be a number of seconds from 0 (no watchdog) to 86400, not '%s'", optarg);
				return -1;
			}
			break;
		case ':':
			usage_error("run: option '%s' needs a value", argv[optind - 1]);
			return -1;
		default:
			usage_error("run: unknown option '%s'", argv[optind - 1]);
			return -1;
		}
	}
	if (optind >= argc) {
		usage_error("run needs at least one scenario file or folder");
		return -1;
	}
	return 0;
}

/* Parse every file before running any: one bad file runs nothing. */
static struct ns_scenario **parse_all(const struct ns_lines *files)
{
	struct ns_scenario **sc = xcalloc(files->n, sizeof(*sc));
	bool bad = false;

	for (size_t i = 0; i < files->n; i++) {
		struct ns_diag d = { NULL };
		sc[i] = ns_scenario_load(files->v[i], &d);
		if (!sc[i]) {
			fprintf(stderr, "%s\n", d.msg);
			bad = true;
		}
		ns_diag_free(&d);
	}
	if (!bad)
		return sc;
	for (size_t i = 0; i < files->n; i++)
		ns_scenario_free(sc[i]);
	free(sc);
	return NULL;
}

static bool any_loop(struct ns_scenario **sc, size_t n, const struct ns_run_opts *o)
{
	for (size_t i = 0; i < n; i++)
		if (ns_require_mode(sc[i], o) == NS_DEVICES_LOOP)
			return true;
	return false;
}

static void run_one(const struct ns_backend *be, const struct ns_scenario *sc,
		    const struct run_cli *cli, struct ns_tally *tally)
{
	struct ns_run_opts o = cli->opts;
	struct ns_verdict v;
	struct ns_run run;
	char *unmet = ns_require_unmet(sc, &o);

	if (unmet) {
		ns_verdict_skip(&v, unmet);
		ns_report_scenario(stdout, sc, NULL, &v, cli->verbose);
	} else {
		o.devices = ns_require_mode(sc, &o);
		be->run(sc, &o, &run);
		ns_judge(sc, &run, &v);
		ns_report_scenario(stdout, sc, &run, &v, cli->verbose);
		ns_run_free(&run);
	}
	ns_tally_add(tally, v.status);
	ns_verdict_free(&v);
}

int cmd_run(int argc, char **argv)
{
	const struct ns_backend *be = &ns_backend_kernel;
	struct ns_lines files = NS_LINES_INIT;
	struct ns_tally tally = { 0, 0, 0, 0, 0 };
	struct ns_scenario **sc;
	struct run_cli cli;
	char *problem;

	memset(&cli, 0, sizeof(cli));
	if (parse_args(argc, argv, &cli) < 0)
		return EXIT_USAGE;
	if (collect_scenarios(argv + optind, argc - optind, &files) < 0) {
		ns_lines_free(&files);
		return EXIT_USAGE;
	}
	if (!files.n) {
		usage_error("no scenario files (*.scn) found");
		return EXIT_USAGE;
	}
	sc = parse_all(&files);
	if (!sc) {
		ns_lines_free(&files);
		return EXIT_USAGE;
	}
	problem = privilege_problem();
	if (problem) {
		fprintf(stderr, "nstest: error: %s\n", problem);
		free(problem);
		tally.failed = 0;
		goto out_usage;
	}
	if (cli.opts.devices == NS_DEVICES_LOOP && access("/dev/loop-control", R_OK | W_OK) < 0) {
		fprintf(stderr, "nstest: error: --devices=loop: /dev/loop-control is not usable (try: modprobe loop)\n");
		goto out_usage;
	}
	if (any_loop(sc, files.n, &cli.opts)) {
		struct ns_run_opts lo = cli.opts;
		struct ns_buf err = NS_BUF_INIT;
		lo.devices = NS_DEVICES_LOOP;
		if (be->prepare && be->prepare(&lo, &err) < 0) {
			fprintf(stderr, "nstest: error: loop stand-ins: %s\n", ns_buf_str(&err));
			ns_buf_free(&err);
			goto out_usage;
		}
	}
	for (size_t i = 0; i < files.n; i++)
		run_one(be, sc[i], &cli, &tally);
	ns_report_summary(stdout, &tally);
	for (size_t i = 0; i < files.n; i++)
		ns_scenario_free(sc[i]);
	free(sc);
	ns_lines_free(&files);
	return tally.failed || tally.xpassed ? EXIT_FAILED : EXIT_PASS;
out_usage:
	for (size_t i = 0; i < files.n; i++)
		ns_scenario_free(sc[i]);
	free(sc);
	ns_lines_free(&files);
	return EXIT_USAGE;
}

/* `nstest lint FILE...`: parse only; no privileges needed. */
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
	sc = parse_all(&files);
	if (sc) {
		for (size_t i = 0; i < files.n; i++)
			ns_scenario_free(sc[i]);
		free(sc);
		printf("%zu scenario(s) parsed\n", files.n);
	}
	ns_lines_free(&files);
	return sc ? EXIT_PASS : EXIT_USAGE;
}
