/* cmd_graph.c - `nstest graph FILE`: run a scenario up to a step and draw
 * its propagation graph (report/picture.h), as DOT or SVG. Every live
 * terminal's table is read at that step and the one before, in one run
 * (run/observe.h), and what changed between them is marked; on a backend that
 * says why and numbers mounts alike in every run (the model), the mounts
 * the last step made or removed carry their causes. */
#include "harness.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "base/outfile.h"
#include "report/picture.h"
#include "run/backend.h"
#include "run/observe.h"
#include "run/runner.h"

#define DEFAULT_TIMEOUT 60

static const char graph_help[] =
	"usage: nstest graph [OPTION...] FILE\n"
	"Run one scenario up to a step and draw its propagation graph: a cluster per\n"
	"mount namespace, a node per mount, the mount tree, peer groups and masters.\n"
	"\n"
	"  --step N               after the first N steps (default: all; 0: the start)\n"
	"  --after LINE           after the steps whose command is on LINE or before\n"
	"  --format dot|svg       Graphviz DOT (default) or SVG (needs Graphviz's dot)\n"
	"  -o, --output FILE      write the picture to FILE (default: standard output)\n"
	"  --backend NAME         kernel (default) or model; the model also marks the\n"
	"                         mounts the last step made or removed, with their cause\n"
	"  --quirk NAME           model: imitate this known kernel deviation (repeatable)\n"
	"  --quirks=kernel        model: imitate every deviation known for this kernel\n"
	"  --devices=tmpfs|loop   the stand-in devices behind /dev/NAME (default: tmpfs)\n"
	"  --userns               build the sandbox in a new user namespace (rootless mode)\n"
	"  -t, --timeout SECONDS  watchdog, 0 for none (default: 60)\n"
	"  -h, --help             this help\n";

struct graph_cli {
	const char *step, *after, *output;
	bool svg;
};

/* 0, 1 after printing the help, or -1 after a usage message. */
static int parse_args(int argc, char **argv, struct ns_runner_opts *ro, struct graph_cli *cli,
		      struct config_opts *cfg)
{
	static const struct option longopts[] = {
		{ "step", required_argument, NULL, 's' },
		{ "after", required_argument, NULL, 'a' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "devices", required_argument, NULL, 'd' },
		{ "timeout", required_argument, NULL, 't' },
		{ "userns", no_argument, NULL, 'u' },
		{ "backend", required_argument, NULL, 'b' },
		{ "quirk", required_argument, NULL, 'q' },
		{ "quirks", required_argument, NULL, 'Q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *backend = NULL;
	int c;

	ro->run.devices = NS_DEVICES_TMPFS;
	ro->run.timeout_s = DEFAULT_TIMEOUT;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":t:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(graph_help, stdout);
			return 1;
		case 's':
			cli->step = optarg;
			break;
		case 'a':
			cli->after = optarg;
			break;
		case 'o':
			cli->output = optarg;
			break;
		case 'f':
			if (strcmp(optarg, "dot") && strcmp(optarg, "svg")) {
				usage_error("graph: --format must be dot or svg, not '%s'", optarg);
				return -1;
			}
			cli->svg = !strcmp(optarg, "svg");
			break;
		case 'd':
			if (opt_devices(optarg, &ro->run) < 0)
				return -1;
			break;
		case 't':
			if (opt_timeout(optarg, &ro->run) < 0)
				return -1;
			break;
		case 'u':
			ro->run.userns = true;
			break;
		case 'b':
			backend = optarg;
			break;
		case 'q':
			opt_quirk(cfg, optarg);
			break;
		case 'Q':
			if (opt_quirks(cfg, optarg) < 0)
				return -1;
			break;
		default:
			if (c == ':')
				usage_error("graph: option '%s' needs a value", argv[optind - 1]);
			else
				unknown_option("graph", argv[optind - 1], longopts);
			return -1;
		}
	}
	if (argc - optind != 1) {
		usage_error("graph needs exactly one scenario file");
		return -1;
	}
	if (cli->step && cli->after) {
		usage_error("graph: --step and --after both say where to stop; give one");
		return -1;
	}
	ro->backend = choose_backend(backend);
	if (ro->backend && apply_config(cfg, ro->backend, &ro->run) < 0)
		return -1;
	return ro->backend ? 0 : -1;
}

/* How many steps to run: --step N or --after LINE, else all. 0, or -1
 * after saying why. */
static int steps_to_run(const struct ns_scenario *sc, const struct graph_cli *cli, size_t *n)
{
	unsigned v;

	*n = sc->nsteps;
	if (cli->step) {
		if (opt_uint(cli->step, 1000000000, &v) < 0) {
			usage_error("graph: --step must be a number of steps, not '%s'", cli->step);
			return -1;
		}
		if (v > sc->nsteps) {
			fprintf(stderr, "%s: error: --step %u is past the end: the scenario has %zu step%s\n",
				sc->path, v, sc->nsteps, sc->nsteps == 1 ? "" : "s");
			return -1;
		}
		*n = v;
	} else if (cli->after) {
		if (opt_uint(cli->after, 1000000000, &v) < 0 || v == 0) {
			usage_error("graph: --after must be a line number, not '%s'", cli->after);
			return -1;
		}
		if (v > sc->nraw) {
			fprintf(stderr, "%s: error: --after %u is past the end: the file has %zu lines\n",
				sc->path, v, sc->nraw);
			return -1;
		}
		*n = 0;
		while (*n < sc->nsteps && sc->steps[*n].line <= (int)v)
			(*n)++;
	}
	return 0;
}

/* The backend's causes for the last of the first n steps (heap), or NULL:
 * a traced run of its own, so only a backend whose runs number mounts
 * alike can mark them on the graph of another run. */
static char *traced_causes(const struct ns_runner_opts *ro, const struct ns_scenario *sc, size_t n)
{
	const struct ns_backend *be = ro->backend;
	struct ns_buf err = NS_BUF_INIT;
	char **why, *last = NULL;

	if (!n || !be->explain || !be->repeatable)
		return NULL;
	why = xcalloc(n, sizeof(*why));
	if (be->explain(sc, &ro->run, n, why, NULL, &err) == 0) {
		last = why[n - 1];
		why[n - 1] = NULL;
	}
	for (size_t i = 0; i < n; i++)
		free(why[i]);
	free(why);
	ns_buf_free(&err);
	return last;
}

/* -o FILE: whole or not at all (outfile.h); standard output is checked
 * as the program ends (stdout_done). */
static int write_out(const char *path, const struct ns_buf *b)
{
	int r;

	if (!path) {
		fwrite(ns_buf_str(b), 1, b->len, stdout);
		return 0;
	}
	r = ns_write_file_atomic(path, b->data, b->len);
	if (r < 0) {
		fprintf(stderr, "nstest: error: -o %s: %s\n", path, strerror(-r));
		return -1;
	}
	return 0;
}

static int graph_main(int argc, char **argv, struct config_opts *cfg)
{
	struct ns_runner_opts ro = { NULL, { 0 }, 1, false, NULL };
	struct graph_cli cli = { NULL, NULL, NULL, false };
	struct ns_diag d = { NULL, 0 };
	struct ns_buf out = NS_BUF_INIT, err = NS_BUF_INIT;
	struct ns_observe ob = { .at = NULL };
	struct ns_scenario *sc;
	char *causes = NULL, *title = NULL;
	size_t n, points[2];
	int rc = EXIT_USAGE;

	switch (parse_args(argc, argv, &ro, &cli, cfg)) {
	case 1:
		return EXIT_PASS;
	case 0:
		break;
	default:
		return EXIT_USAGE;
	}
	sc = ns_scenario_load(argv[optind], &d);
	if (!sc) {
		fprintf(stderr, "%s\n", d.msg);
		ns_diag_free(&d);
		return EXIT_USAGE;
	}
	if (steps_to_run(sc, &cli, &n) < 0 || prepare_sandboxes(ro.backend, &ro.run, &sc, 1) < 0)
		goto out;
	/* the step before too, from the same run: what changed is marked */
	points[0] = n ? n - 1 : 0;
	points[1] = n;
	if (ns_observe_run(sc, points + !n, n ? 2 : 1, &ro, false, &ob, &err) < 0) {
		fprintf(stderr, "%s%s\n", strncmp(ns_buf_str(&err), sc->path, strlen(sc->path)) ? "nstest: error: " : "",
			ns_buf_str(&err));
		goto out;
	}
	causes = traced_causes(&ro, sc, n);
	title = ns_picture_title(sc, n);
	if (ns_picture(&ob.at[ob.n - 1], ob.n > 1 ? &ob.at[0] : NULL, causes, title, cli.svg, &out,
		       &err) < 0) {
		fprintf(stderr, "nstest: error: %s\n", ns_buf_str(&err));
		goto out;
	}
	if (write_out(cli.output, &out) == 0)
		rc = EXIT_PASS;
out:
	ns_observe_free(&ob);
	free(causes);
	free(title);
	ns_buf_free(&out);
	ns_buf_free(&err);
	ns_scenario_free(sc);
	return rc;
}

int cmd_graph(int argc, char **argv)
{
	struct config_opts cfg = { NS_BUF_INIT };
	int status = graph_main(argc, argv, &cfg);

	config_opts_free(&cfg);
	return status;
}
