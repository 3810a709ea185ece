/* cmd_run.c - `nstest run`: parse every scenario, then run each one on the
 * chosen backend, judge it and report (or, with --update, rewrite it). */
#include "harness.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/outfile.h"
#include "progress.h"
#include "run/backend.h"
#include "report/picture.h"
#include "report/reporter.h"
#include "run/require.h"
#include "run/runner.h"
#include "scenario/scenario.h"
#include "update/update.h"
#include "run/verdict.h"

#define DEFAULT_TIMEOUT 60
#define MAX_JOBS 256

static const char run_help[] =
	"usage: nstest run [OPTION...] PATH...\n"
	"Run scenario files (a folder is searched for *.scn, sorted); options may\n"
	"come before or after the paths, and -- ends them.\n"
	"\n"
	"  --backend NAME         what carries the scenarios out (default: kernel)\n"
	"  --quirk NAME           model backend: imitate this known kernel deviation\n"
	"                         (repeatable; see nstest(1), QUIRKS)\n"
	"  --quirks=kernel        model backend: imitate every deviation known for the\n"
	"                         running kernel, and judge xfail: lines against it\n"
	"  --devices=tmpfs|loop   the stand-in devices behind /dev/NAME (default: tmpfs)\n"
	"  --userns               build each sandbox in a new user namespace (rootless mode)\n"
	"  -t, --timeout SECONDS  watchdog per scenario, 0 for none (default: 60)\n"
	"  -j, --jobs N           scenarios at once, 1 to 256 (default: 1)\n"
	"  -x, --exitfirst        start no scenario after the first failure\n"
	"      --keep-going       the opposite of -x (the default)\n"
	"  --filter PATTERN       only scenarios whose path or file name matches the glob\n"
	"                         PATTERN; without * ? or [, those that contain it\n"
	"  --shard K/N            only every N-th scenario, starting with the K-th (1 <= K\n"
	"                         <= N), after --filter: N runs with K = 1..N run each\n"
	"                         scenario once; the report names the shard. A shard\n"
	"                         with no scenario (K above the number of scenarios) is\n"
	"                         an error\n"
	"  --allow-empty-shard    an empty shard is no error: it reports zero scenarios\n"
	"  --list                 print the scenario files that would run, run nothing\n"
	"  --format FORMAT        human (default), tap, ktap, junit, json or html (a page with\n"
	"                         each failing scenario and its propagation graphs)\n"
	"  -o, --output FILE      write the report to FILE (progress goes to stderr)\n"
	"  --report FORMAT:FILE   also write a report in FORMAT to FILE, from the same run\n"
	"                         (repeatable; each report a file of its own)\n"
	"  -v, --verbose          human format: the whole transcript, not only failures\n"
	"  --color[=WHEN]         human format on stdout: colour verdicts and diffs auto\n"
	"                         (default: on a terminal, unless NO_COLOR is set),\n"
	"                         always (for CI logs that show colour; --color alone)\n"
	"                         or never; a report file never has colour\n"
	"  --repeat N             run every scenario N times (1 to 10000); the report is\n"
	"                         of the first run, and a scenario whose verdict changed\n"
	"                         is named on stderr and fails the run (125 with --bisect)\n"
	"  --update               rewrite the expected output this kernel does not match\n"
	"  --bisect               for git bisect run: exit 0 good, 1 bad, 125 cannot judge,\n"
	"                         128 (stop the bisect) for a bad option or scenario file\n"
	"  -h, --help             this help\n"
	"\n"
	"SIGINT, SIGTERM or SIGHUP stops the run: no scenario starts, the running ones\n"
	"end, every report is written whole, marked interrupted and naming what did not\n"
	"run, and nstest ends by the signal (status 130, 143, 129; with --bisect too).\n";

/* A report besides the one of --format: --report FORMAT:FILE. */
struct report_req {
	const struct ns_reporter *rep;
	const char *path;          /* FILE, within spec */
	const char *spec;          /* FORMAT:FILE as given, for messages */
};

/* --color=WHEN */
enum color_when { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };

struct run_cli {
	const char *backend_name;  /* --backend NAME, or NULL */
	const struct ns_backend *backend;
	struct ns_run_opts opts;
	struct config_opts config; /* --quirk, --quirks: opts.config's strings */
	bool verbose;
	bool list;
	bool stop_on_fail;
	bool update;
	bool bisect;               /* exit 0, 1, 125 or 128 and nothing else */
	bool help;                 /* --help: printed, nothing else to do */
	unsigned jobs;
	unsigned repeat;           /* --repeat N: runs in all (1: once) */
	const char *filter;
	unsigned shard_k, shard_n; /* --shard K/N; 0/0 without */
	bool allow_empty_shard;    /* --allow-empty-shard */
	const char *shard;         /* "K/N" for the reports (shard_text), or NULL */
	char shard_text[24];       /* written as K/N, whatever zeros were typed */
	const char *output;        /* --output FILE */
	enum color_when color;     /* --color: auto (the default), always, never */
	const struct ns_reporter *reporter;
	struct report_req *reports; /* --report FORMAT:FILE, in order */
	size_t nreports;
};

enum { OPT_KEEP_GOING = 256, OPT_LIST, OPT_FILTER, OPT_FORMAT, OPT_USERNS, OPT_UPDATE,
       OPT_BISECT, OPT_BACKEND, OPT_QUIRK, OPT_QUIRKS, OPT_SHARD,
       OPT_ALLOW_EMPTY_SHARD, OPT_REPORT, OPT_REPEAT, OPT_COLOR, OPT_HELP = 'h' };

#define MAX_REPEAT 10000

static int unknown_format(const char *name)
{
	struct ns_buf known = NS_BUF_INIT;

	ns_reporter_names(&known);
	usage_error("unknown --format '%s' (known: %s)", name, ns_buf_str(&known));
	ns_buf_free(&known);
	return -1;
}

/* --report FORMAT:FILE: a known format, a colon, a file name. The
 * format name has no colon, so the first colon ends it: the file name
 * may hold more. */
static int opt_report(const char *v, struct run_cli *cli)
{
	const char *colon = strchr(v, ':');
	struct ns_buf known = NS_BUF_INIT;
	char name[32];
	size_t len = colon ? (size_t)(colon - v) : 0;
	const struct ns_reporter *rep = NULL;

	if (!colon || !len || !colon[1]) {
		usage_error("--report must be FORMAT:FILE, a format, a colon and a file name, not '%s'", v);
		return -1;
	}
	if (len < sizeof(name)) {
		memcpy(name, v, len);
		name[len] = '\0';
		rep = ns_reporter_find(name);
	}
	if (!rep) {
		ns_reporter_names(&known);
		usage_error("--report %s: unknown format '%.*s' (known: %s)", v, (int)len, v,
			    ns_buf_str(&known));
		ns_buf_free(&known);
		return -1;
	}
	cli->reports = xrealloc(cli->reports, (cli->nreports + 1) * sizeof(*cli->reports));
	cli->reports[cli->nreports++] = (struct report_req){ rep, colon + 1, v };
	return 0;
}

/* Where a report to path lands, to tell two names of one file apart from
 * two files: the file a name leads to (outfile.h follows a symlink to a
 * file), or, for a file not there yet, its folder's real path and its
 * name. Heap; NULL when the folder cannot be resolved (the open then
 * says why). */
static char *report_target(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir, *real, *key;
	struct ns_buf b = NS_BUF_INIT;

	real = realpath(path, NULL);
	if (real)
		return real;
	dir = !slash ? xstrdup(".") : slash == path ? xstrdup("/")
		: xstrndup(path, (size_t)(slash - path));
	real = realpath(dir, NULL);
	free(dir);
	if (!real)
		return NULL;
	ns_buf_addf(&b, "%s/%s", strcmp(real, "/") ? real : "", slash ? slash + 1 : path);
	free(real);
	key = xstrdup(ns_buf_str(&b));
	ns_buf_free(&b);
	return key;
}

/* Two reports may not share a file: the later rename would silently
 * throw the earlier report away. 0, or -1 after a usage message. */
static int check_report_files(const struct run_cli *cli)
{
	size_t n = cli->nreports + 1;
	char **key = xcalloc(n, sizeof(*key));
	int r = 0;

	key[0] = cli->output ? report_target(cli->output) : NULL;
	for (size_t i = 1; i < n && !r; i++) {
		key[i] = report_target(cli->reports[i - 1].path);
		for (size_t j = 0; j < i && key[i] && !r; j++) {
			if (!key[j] || strcmp(key[i], key[j]))
				continue;
			if (j == 0)
				usage_error("--report %s: %s is the file of --output already; each report needs a file of its own",
					    cli->reports[i - 1].spec, cli->reports[i - 1].path);
			else
				usage_error("--report %s: %s is the file of --report %s already; each report needs a file of its own",
					    cli->reports[i - 1].spec, cli->reports[i - 1].path,
					    cli->reports[j - 1].spec);
			r = -1;
		}
	}
	for (size_t i = 0; i < n; i++)
		free(key[i]);
	free(key);
	return r;
}

/* Shard numbers: up to a million shards, far more than any CI has jobs. */
#define MAX_SHARDS 1000000

/* --shard K/N: two plain decimal numbers, 1 <= K <= N. */
static int opt_shard(const char *v, struct run_cli *cli)
{
	const char *slash = strchr(v, '/');
	char k[16];
	size_t klen = slash ? (size_t)(slash - v) : 0;

	if (slash && klen && klen < sizeof(k) && strspn(v, "0123456789") == klen &&
	    slash[1] && strspn(slash + 1, "0123456789") == strlen(slash + 1)) {
		memcpy(k, v, klen);
		k[klen] = '\0';
		if (opt_uint(k, MAX_SHARDS, &cli->shard_k) == 0 &&
		    opt_uint(slash + 1, MAX_SHARDS, &cli->shard_n) == 0 &&
		    cli->shard_k >= 1 && cli->shard_k <= cli->shard_n) {
			snprintf(cli->shard_text, sizeof(cli->shard_text), "%u/%u",
				 cli->shard_k, cli->shard_n);
			cli->shard = cli->shard_text;
			return 0;
		}
	}
	usage_error("--shard must be K/N, two whole numbers with 1 <= K <= N <= %d (shard K of N), not '%s'",
		    MAX_SHARDS, v);
	return -1;
}

static int parse_option(int c, struct run_cli *cli)
{
	switch (c) {
	case 'd':
		return opt_devices(optarg, &cli->opts);
	case 'v':
		cli->verbose = true;
		return 0;
	case 't':
		return opt_timeout(optarg, &cli->opts);
	case 'j':
		if (opt_uint(optarg, MAX_JOBS, &cli->jobs) == 0 && cli->jobs > 0)
			return 0;
		usage_error("-j must be a number of scenarios from 1 to %d, not '%s'", MAX_JOBS, optarg);
		return -1;
	case 'x':
		cli->stop_on_fail = true;
		return 0;
	case OPT_KEEP_GOING:
		cli->stop_on_fail = false;
		return 0;
	case OPT_LIST:
		cli->list = true;
		return 0;
	case OPT_UPDATE:
		cli->update = true;
		return 0;
	case 'o':
		cli->output = optarg;
		return 0;
	case OPT_BISECT:
		cli->bisect = true;
		return 0;
	case OPT_USERNS:
		cli->opts.userns = true;
		return 0;
	case OPT_FILTER:
		cli->filter = optarg;
		return 0;
	case OPT_BACKEND:
		cli->backend_name = optarg;
		return 0;
	case OPT_SHARD:
		return opt_shard(optarg, cli);
	case OPT_ALLOW_EMPTY_SHARD:
		cli->allow_empty_shard = true;
		return 0;
	case OPT_QUIRK:
		opt_quirk(&cli->config, optarg);
		return 0;
	case OPT_QUIRKS:
		return opt_quirks(&cli->config, optarg);
	case OPT_REPORT:
		return opt_report(optarg, cli);
	case OPT_REPEAT:
		if (opt_uint(optarg, MAX_REPEAT, &cli->repeat) == 0 && cli->repeat > 0)
			return 0;
		usage_error("--repeat must be a number of runs from 1 to %d, not '%s'", MAX_REPEAT,
			    optarg);
		return -1;
	case OPT_COLOR:
		/* --color alone is always, as for ls and grep */
		if (!optarg || !strcmp(optarg, "always"))
			cli->color = COLOR_ALWAYS;
		else if (!strcmp(optarg, "auto"))
			cli->color = COLOR_AUTO;
		else if (!strcmp(optarg, "never"))
			cli->color = COLOR_NEVER;
		else {
			usage_error("--color must be auto, always or never, not '%s'", optarg);
			return -1;
		}
		return 0;
	case OPT_FORMAT:
		cli->reporter = ns_reporter_find(optarg);
		if (cli->reporter)
			return 0;
		return unknown_format(optarg);
	}
	return -1;
}

static int parse_args(int argc, char **argv, struct run_cli *cli)
{
	static const struct option longopts[] = {
		{ "devices", required_argument, NULL, 'd' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "timeout", required_argument, NULL, 't' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "exitfirst", no_argument, NULL, 'x' },
		{ "keep-going", no_argument, NULL, OPT_KEEP_GOING },
		{ "list", no_argument, NULL, OPT_LIST },
		{ "update", no_argument, NULL, OPT_UPDATE },
		{ "filter", required_argument, NULL, OPT_FILTER },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "userns", no_argument, NULL, OPT_USERNS },
		{ "output", required_argument, NULL, 'o' },
		{ "report", required_argument, NULL, OPT_REPORT },
		{ "bisect", no_argument, NULL, OPT_BISECT },
		{ "backend", required_argument, NULL, OPT_BACKEND },
		{ "quirk", required_argument, NULL, OPT_QUIRK },
		{ "quirks", required_argument, NULL, OPT_QUIRKS },
		{ "shard", required_argument, NULL, OPT_SHARD },
		{ "allow-empty-shard", no_argument, NULL, OPT_ALLOW_EMPTY_SHARD },
		{ "repeat", required_argument, NULL, OPT_REPEAT },
		{ "color", optional_argument, NULL, OPT_COLOR },
		{ "help", no_argument, NULL, OPT_HELP },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	cli->opts.devices = NS_DEVICES_TMPFS;
	cli->opts.timeout_s = DEFAULT_TIMEOUT;
	cli->jobs = 1;
	cli->repeat = 1;
	cli->reporter = &ns_reporter_human;
	optind = 1;
	opterr = 0; /* one message of our own, naming the option */
	/* GNU order: options may follow the paths, -- ends them */
	while ((c = getopt_long(argc, argv, ":vt:j:xo:h", longopts, NULL)) != -1) {
		if (c == ':') {
			usage_error("run: option '%s' needs a value", argv[optind - 1]);
			return -1;
		}
		if (c == '?') {
			unknown_option("run", argv[optind - 1], longopts);
			return -1;
		}
		if (c == OPT_HELP) {
			fputs(run_help, stdout);
			cli->help = true;
			return 0;
		}
		if (parse_option(c, cli) < 0)
			return -1;
	}
	if (optind >= argc) {
		usage_error("run needs at least one scenario file or folder");
		return -1;
	}
	if (cli->nreports && check_report_files(cli) < 0)
		return -1;
	cli->backend = choose_backend(cli->backend_name);
	if (cli->backend && apply_config(&cli->config, cli->backend, &cli->opts) < 0)
		return -1;
	return cli->backend ? 0 : -1;
}

/* --filter PATTERN: does the scenario at path match? A glob matches the
 * path or the file name; a pattern without glob characters matches where
 * the path contains it. */
static bool filter_matches(const char *pattern, const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	if (!strpbrk(pattern, "*?["))
		return strstr(path, pattern) != NULL;
	return !fnmatch(pattern, path, 0) || !fnmatch(pattern, base, 0);
}

/* Keep the scenarios that match; 0, or -1 after saying that none did. */
static int apply_filter(struct ns_lines *files, const char *pattern)
{
	size_t k = 0, all = files->n;

	for (size_t i = 0; i < files->n; i++) {
		if (filter_matches(pattern, files->v[i]))
			files->v[k++] = files->v[i];
		else
			free(files->v[i]);
	}
	files->n = k;
	if (k || !all)
		return 0;
	fprintf(stderr, "nstest: error: --filter '%s' matches none of the %zu scenario file(s) found\n",
		pattern, all);
	return -1;
}

/* --shard K/N: keep the scenarios at positions K-1, K-1+N, K-1+2N, ...
 * of the list (0-based), which is sorted and filtered already: the N
 * shards of the same command line share the list out, each scenario to
 * exactly one. Round robin rather than slices, so that each shard gets
 * some of every folder. An empty shard (more shards than scenarios) is
 * an error: a CI job that runs nothing and passes hides the split that
 * is wrong. With --allow-empty-shard it says so and reports zero
 * scenarios. 0, or -1 after saying why. */
static int apply_shard(struct ns_lines *files, const struct run_cli *cli)
{
	size_t k = 0, all = files->n;

	for (size_t i = 0; i < files->n; i++) {
		if (i % cli->shard_n == cli->shard_k - 1)
			files->v[k++] = files->v[i];
		else
			free(files->v[i]);
	}
	files->n = k;
	if (k)
		return 0;
	if (cli->allow_empty_shard) {
		fprintf(stderr, "nstest: shard %s has no scenarios: %zu scenario file(s) for %u shards\n",
			cli->shard, all, cli->shard_n);
		return 0;
	}
	fprintf(stderr, "nstest: error: shard %s has no scenarios: %zu scenario file(s) for %u shards; "
		"split into at most %zu shards, or pass --allow-empty-shard where an empty shard is expected\n",
		cli->shard, all, cli->shard_n, all);
	return -1;
}

/* One report of the run: the one of --format (to standard output, or to
 * --output), then one per --report. Each has a context of its own, so
 * each format keeps its own state and writes exactly what a run with it
 * alone writes. */
struct report_sink {
	const struct ns_reporter *rep;
	struct ns_report_ctx ctx;
	const char *path;          /* the file, or NULL: standard output */
	const char *what;          /* "--output FILE", "--report FORMAT:FILE" */
	struct ns_buf what_buf;
	struct ns_outfile file;    /* when path */
	bool opened;
};

struct run_state {
	struct report_sink *sink;
	size_t nsinks;
	struct ns_tally tally;
	struct ns_scenario *const *sc;
	size_t total;
	struct progress progress; /* on stderr, when the report is not the progress */
	size_t done;            /* results handed out */
	unsigned bad, unjudged; /* --bisect: see bisect_status() */
	struct vsig *first;     /* --repeat: each scenario's verdict in run 1 */
	struct ns_not_run *not_run; /* a stopped run's scenarios without a result */
	size_t nnot_run;
};

/* ---- SIGINT, SIGTERM, SIGHUP ------------------------------------------------
 *
 * The first of them asks the runner to stop (runner.h): no scenario
 * starts any more, the workers of the running ones are killed (their
 * sandboxes, terminals, mounts and loop devices go with them), and every
 * report is written whole, marked interrupted and naming the scenarios
 * without a result; then nstest ends by that same signal, so that its
 * status is 128 + the signal's number (130, 143, 129) and a shell script
 * that ran it stops too, as after a program that had no handler. This is
 * nstest fuzz's SIGINT (a flag its loop looks at) for a run of workers: a
 * pipe wakes the runner where it waits, and the handler is the process's
 * only until the run ends.
 *
 * A second signal ends nstest at once, by that signal. A report file is
 * then as it was before the run (outfile.h writes it beside its name; a
 * named temporary file is removed here), or complete: the renames into
 * place wait for the signals. Standard output is a stream, cut where it
 * was. A signal that was ignored when nstest started (nohup, a shell's
 * background job) stays ignored. */

static struct ns_runner_stop stop = { 0, -1 };
static int stop_wake = -1;      /* the pipe's write end */
static pid_t stop_owner;        /* the workers inherit the handler */
static struct run_state *stop_files; /* report files to remove on a second signal */
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
static struct sigaction stop_saved[NS_ARRAY_SIZE(stop_signals)];
static bool stop_caught[NS_ARRAY_SIZE(stop_signals)];

static void end_by(int sig)
{
	signal(sig, SIG_DFL);
	raise(sig); /* held until the handler returns */
}

static void on_stop_signal(int sig)
{
	int e = errno;

	if (getpid() != stop_owner) {
		end_by(sig); /* a worker, or a process of its sandbox */
	} else if (stop.sig) {
		for (size_t i = 0; stop_files && i < stop_files->nsinks; i++)
			if (stop_files->sink[i].opened && stop_files->sink[i].file.tmp)
				unlink(stop_files->sink[i].file.tmp);
		end_by(sig);
	} else {
		stop.sig = sig;
		/* a reader of standard output that the same ^C ended must not
		 * end nstest before its report files are in place */
		signal(SIGPIPE, SIG_IGN);
		if (write(stop_wake, "", 1) < 0) {
			/* the pipe is full: the runner is awake already */
		}
	}
	errno = e;
}

/* Catch the three; -1 when the pipe cannot be made (then nothing is). */
static int catch_stop_signals(void)
{
	struct sigaction sa;
	int p[2];

	if (pipe2(p, O_CLOEXEC | O_NONBLOCK) < 0)
		return -1;
	stop.sig = 0;
	stop.fd = p[0];
	stop_wake = p[1];
	stop_owner = getpid();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NS_ARRAY_SIZE(stop_signals); i++)
		sigaddset(&sa.sa_mask, stop_signals[i]);
	for (size_t i = 0; i < NS_ARRAY_SIZE(stop_signals); i++) {
		stop_caught[i] = sigaction(stop_signals[i], NULL, &stop_saved[i]) == 0 &&
				 stop_saved[i].sa_handler != SIG_IGN;
		if (stop_caught[i])
			sigaction(stop_signals[i], &sa, NULL);
	}
	return 0;
}

/* Block (or unblock) the three: a report file being renamed into place
 * is not cut short by a second signal. */
static void hold_stop_signals(bool hold)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < NS_ARRAY_SIZE(stop_signals); i++)
		sigaddset(&set, stop_signals[i]);
	sigprocmask(hold ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}

/* The dispositions of before; the signal that stopped the run, or 0. */
static int release_stop_signals(void)
{
	for (size_t i = 0; i < NS_ARRAY_SIZE(stop_signals); i++)
		if (stop_caught[i])
			sigaction(stop_signals[i], &stop_saved[i], NULL);
	if (stop.fd >= 0)
		close(stop.fd);
	if (stop_wake >= 0)
		close(stop_wake);
	stop.fd = stop_wake = -1;
	stop_files = NULL;
	return stop.sig;
}

static const char *signal_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP"
		: "a signal";
}

static void on_unfinished(void *p, size_t index, bool running)
{
	struct run_state *st = p;

	st->not_run = xrealloc(st->not_run, (st->nnot_run + 1) * sizeof(*st->not_run));
	st->not_run[st->nnot_run++] = (struct ns_not_run){ st->sc[index], running };
}

static void on_started(void *p, size_t index)
{
	struct run_state *st = p;

	for (size_t i = 0; i < st->nsinks; i++)
		if (st->sink[i].rep->started)
			st->sink[i].rep->started(&st->sink[i].ctx, index, st->sc[index]);
	/* the line names the first scenario without a result; a worker
	 * takes the next one early, which changes nothing there */
	if (index == st->done)
		progress_update(&st->progress, st->done, st->sc[index]->path);
}

static void on_tick(void *p)
{
	struct run_state *st = p;

	progress_tick(&st->progress);
}

static void on_result(void *p, size_t index, const struct ns_result *r)
{
	struct run_state *st = p;

	/* a report on the same terminal prints below no half line */
	progress_clear(&st->progress);
	for (size_t i = 0; i < st->nsinks; i++)
		st->sink[i].rep->scenario(&st->sink[i].ctx, index, r);
	ns_tally_add(&st->tally, r->v->status);
	st->done = index + 1;
	if (st->tally.failed || st->tally.xpassed)
		snprintf(st->progress.extra, sizeof(st->progress.extra), "%u failed",
			 st->tally.failed + st->tally.xpassed);
	progress_update(&st->progress, st->done,
			st->done < st->total ? st->sc[st->done]->path : NULL);
	if (st->first)
		vsig_of(r, &st->first[index]);
	/* for bisecting, xfail markers do not count: the documented rule
	 * decides; a skip cannot, nor a run nstest could not judge (a
	 * sandbox that could not be built, its own resources that ran out,
	 * a probe that could not run: run/trouble.h) */
	if (r->v->status == NS_SKIP || r->v->unjudged)
		st->unjudged++;
	else if (r->v->status == NS_FAIL || r->v->status == NS_XFAIL)
		st->bad++;
}

/* The context every report starts from: what ran, where, on what. */
static void init_ctx(struct ns_report_ctx *ctx, const struct run_cli *cli, size_t n,
		     char *hostname, size_t hostname_size)
{
	bool tty = isatty(STDOUT_FILENO);
	const char *release = cli->backend->release(&cli->opts);

	memset(ctx, 0, sizeof(*ctx));
	ctx->out = stdout;
	ctx->total = n;
	ctx->verbose = cli->verbose;
	/* auto: on a terminal, unless NO_COLOR is set and not empty
	 * (no-color.org); always and never say it on the command line,
	 * which outranks the environment */
	ctx->color = cli->color == COLOR_ALWAYS ||
		     (cli->color == COLOR_AUTO && tty && !(getenv("NO_COLOR") && *getenv("NO_COLOR")));
	ctx->version = NS_VERSION;
	ctx->progress = tty;
	ctx->devices = cli->opts.devices == NS_DEVICES_LOOP ? "loop" : "tmpfs";
	ctx->kernel = release; /* NULL: the documented rules, no kernel */
	ctx->shard = cli->shard;
	if (gethostname(hostname, hostname_size) < 0)
		snprintf(hostname, hostname_size, "unknown");
	hostname[hostname_size - 1] = '\0';
	ctx->hostname = hostname;
}

/* The html report's drawing of a failing scenario: a second run of it
 * (harness/pictures.c), whose output the report prints beside its graphs;
 * a graph that cannot be drawn is left out, with a warning. The SVGs
 * drawn are kept for the whole report: a picture that comes back is
 * drawn once. */
static struct ns_svg_cache run_svgs = { NS_LINES_INIT, NS_LINES_INIT };

static struct ns_drawing *run_pictures(void *arg, const struct ns_scenario *sc)
{
	struct ns_buf err = NS_BUF_INIT;
	struct ns_drawing *d = xcalloc(1, sizeof(*d));

	/* a stopped run starts no sandbox, not even for a picture */
	if (stop.sig || scenario_drawing(sc, arg, NULL, &run_svgs, d, &err) < 0) {
		free(d);
		d = NULL;
	}
	if (err.len && !stop.sig)
		fprintf(stderr, "nstest: warning: %s: graphs: %s\n", sc->path, ns_buf_str(&err));
	ns_buf_free(&err);
	return d;
}

/* The reports of the run, the one of --format first, each with its own
 * copy of base. */
static void init_sinks(struct run_state *st, const struct run_cli *cli,
		       const struct ns_report_ctx *base, struct ns_runner_opts *ro)
{
	st->nsinks = 1 + cli->nreports;
	st->sink = xcalloc(st->nsinks, sizeof(*st->sink));
	for (size_t i = 0; i < st->nsinks; i++) {
		struct report_sink *k = &st->sink[i];

		k->ctx = *base;
		k->rep = i ? cli->reports[i - 1].rep : cli->reporter;
		k->path = i ? cli->reports[i - 1].path : cli->output;
		ns_buf_addf(&k->what_buf, "%s %s", i ? "--report" : "--output",
			    i ? cli->reports[i - 1].spec : cli->output ? cli->output : "-");
		k->what = ns_buf_str(&k->what_buf);
		if (k->rep == &ns_reporter_html) {
			k->ctx.pictures = run_pictures;
			k->ctx.pictures_arg = ro;
		}
	}
}

/* Open every report file before the first scenario runs: a file that
 * cannot be written stops the run with nothing written. 0, or -1 after
 * saying which and why. A report to a file has no colour and no progress
 * of its own. The progress goes to stderr (progress.h: a live line on a
 * terminal, a plain line at least every 10 s off one) whenever the
 * report of --format is not itself the progress: it goes to a file
 * (--output), or it is a machine's format (tap, junit, json, html). The
 * human report on stdout is the progress already, a line per scenario
 * (and its own live line on a terminal). */
static int open_sinks(struct run_state *st)
{
	for (size_t i = 0; i < st->nsinks; i++) {
		struct report_sink *k = &st->sink[i];
		int r;

		if (!k->path)
			continue;
		/* written beside it and renamed over it once complete (outfile.h) */
		r = ns_outfile_open(&k->file, k->path);
		if (r < 0) {
			fprintf(stderr, "nstest: error: %s: %s\n", k->what, strerror(-r));
			for (size_t j = 0; j < i; j++) {
				if (st->sink[j].opened)
					ns_outfile_abort(&st->sink[j].file);
				st->sink[j].opened = false;
			}
			return -1;
		}
		k->opened = true;
		k->ctx.out = k->file.f;
		k->ctx.color = false;
		k->ctx.progress = false;
	}
	progress_init(&st->progress, st->sink[0].path || st->sink[0].rep != &ns_reporter_human,
		      isatty(STDERR_FILENO), "run", "scenarios", st->total);
	return 0;
}

/* Put every report file in place; each is committed even when another
 * failed. 0, or -1 after saying which could not be written. */
static int commit_sinks(struct run_state *st)
{
	int status = 0;

	for (size_t i = 0; i < st->nsinks; i++) {
		struct report_sink *k = &st->sink[i];
		int r;

		if (!k->opened)
			continue;
		k->opened = false;
		r = ns_outfile_commit(&k->file);
		if (r < 0) {
			fprintf(stderr, "nstest: error: %s: write error: %s; the file is left as it was\n",
				k->what, strerror(-r));
			status = -1;
		}
	}
	return status;
}

static void free_sinks(struct run_state *st)
{
	for (size_t i = 0; i < st->nsinks; i++)
		ns_buf_free(&st->sink[i].what_buf);
	free(st->sink);
	st->sink = NULL;
	st->nsinks = 0;
	free(st->not_run);
	st->not_run = NULL;
	st->nnot_run = 0;
}

/* Each report's last part, and its file put in place; a stopped run's
 * reports say so first. 0, or -1 when a file could not be written. */
static int end_reports(struct run_state *st)
{
	int committed;

	for (size_t i = 0; i < st->nsinks; i++) {
		struct ns_report_ctx *ctx = &st->sink[i].ctx;

		if (stop.sig) {
			ctx->interrupted = signal_name(stop.sig);
			ctx->not_run = st->not_run;
			ctx->nnot_run = st->nnot_run;
		}
		st->sink[i].rep->end(ctx, &st->tally);
	}
	ns_svg_cache_free(&run_svgs);
	progress_clear(&st->progress);
	hold_stop_signals(true);
	committed = commit_sinks(st);
	stop_files = NULL;
	hold_stop_signals(false);
	return committed;
}

static int run_reported(struct ns_scenario **sc, size_t n, struct run_cli *cli)
{
	struct ns_runner_opts ro;
	struct ns_report_ctx base;
	struct run_state st;
	struct ns_runner_hooks hooks = { &st, on_started, on_result, on_unfinished, on_tick };
	char hostname[256];
	size_t flaky = 0, ran;
	int committed;

	/* an empty shard runs nothing: no sandbox, so no privileges needed */
	if (n && prepare_sandboxes(cli->backend, &cli->opts, sc, n) < 0)
		return EXIT_USAGE;
	ro = (struct ns_runner_opts){ cli->backend, cli->opts, cli->jobs, cli->stop_on_fail,
				      stop.fd >= 0 ? &stop : NULL };
	init_ctx(&base, cli, n, hostname, sizeof(hostname));
	base.backend = ro.backend->name;
	base.rootless = ro.run.userns;
	memset(&st, 0, sizeof(st));
	st.sc = sc;
	st.total = n;
	init_sinks(&st, cli, &base, &ro);
	if (open_sinks(&st) < 0) {
		free_sinks(&st);
		return EXIT_USAGE;
	}
	stop_files = &st;
	for (size_t i = 0; i < st.nsinks; i++)
		if (st.sink[i].rep->begin)
			st.sink[i].rep->begin(&st.sink[i].ctx);
	if (cli->repeat > 1)
		st.first = xcalloc(n + 1, sizeof(*st.first));
	ran = ns_runner_run(sc, n, &ro, &hooks);
	/* the flakes of --repeat, over the scenarios run 1 judged; a run
	 * stopped by a signal goes no further */
	if (cli->repeat > 1 && !stop.sig)
		flaky = repeat_rounds(sc, ran, &ro, cli->repeat, st.first, stderr);
	free(st.first);
	committed = end_reports(&st);
	free_sinks(&st);
	if (committed < 0)
		return EXIT_USAGE;
	/* a verdict that changes from run to run cannot steer a bisect */
	if (cli->bisect)
		return flaky ? EXIT_BISECT_SKIP : st.bad ? EXIT_FAILED
			: st.unjudged ? EXIT_BISECT_SKIP : EXIT_PASS;
	return st.tally.failed || st.tally.xpassed || flaky ? EXIT_FAILED : EXIT_PASS;
}

/* The run, with SIGINT, SIGTERM and SIGHUP caught for its length (see
 * above). *sig: the one that stopped it, or 0. */
static int run_all(struct ns_scenario **sc, size_t n, struct run_cli *cli, int *sig)
{
	int status;

	if (catch_stop_signals() < 0)
		fprintf(stderr, "nstest: warning: cannot catch SIGINT, SIGTERM and SIGHUP: %s; "
			"a signal ends the run without a report\n", strerror(errno));
	status = run_reported(sc, n, cli);
	*sig = release_stop_signals();
	return status;
}

/* --update: run each scenario and rewrite the blocks this kernel does
 * not match (update.h). */
static int update_all(struct ns_scenario **sc, size_t n, struct run_cli *cli)
{
	struct ns_runner_opts ro;

	if (n && prepare_sandboxes(cli->backend, &cli->opts, sc, n) < 0)
		return EXIT_USAGE;
	ro = (struct ns_runner_opts){ cli->backend, cli->opts, cli->jobs, false, NULL };
	return ns_update_all(sc, n, &ro, stdout) ? EXIT_FAILED : EXIT_PASS;
}

/* *input_error is set when the command line or a scenario file is at
 * fault (not the machine): --bisect must then stop, not skip. */
static int run_main(int argc, char **argv, struct run_cli *cli, bool *input_error, int *sig)
{
	struct ns_lines files = NS_LINES_INIT;
	struct ns_scenario **sc = NULL;
	int status;

	*input_error = true;
	if (parse_args(argc, argv, cli) < 0)
		return EXIT_USAGE;
	if (cli->help)
		return EXIT_PASS;
	if (cli->update && cli->repeat > 1) {
		usage_error("--repeat and --update do not go together: --update rewrites what one run printed");
		return EXIT_USAGE;
	}
	if (collect_scenarios(argv + optind, argc - optind, &files) < 0 ||
	    (cli->filter && apply_filter(&files, cli->filter) < 0)) {
		ns_lines_free(&files);
		return EXIT_USAGE;
	}
	if (!files.n) {
		usage_error("no scenario files (*.scn) found");
		ns_lines_free(&files);
		return EXIT_USAGE;
	}
	if (cli->shard && apply_shard(&files, cli) < 0) {
		ns_lines_free(&files);
		return EXIT_USAGE;
	}
	sc = parse_scenarios(&files);
	if (!sc) {
		ns_lines_free(&files);
		return EXIT_USAGE;
	}
	*input_error = false;
	if (cli->list) {
		for (size_t i = 0; i < files.n; i++)
			printf("%s\n", files.v[i]);
		status = EXIT_PASS;
	} else if (cli->update) {
		status = update_all(sc, files.n, cli);
	} else {
		status = run_all(sc, files.n, cli, sig);
	}
	free_scenarios(sc, &files);
	return status;
}

/* --bisect: git bisect run takes 0 as good, 1 as bad, 125 as "cannot test
 * this commit" and anything above 127 as "stop bisecting". A status that
 * is not a verdict on the kernel becomes 125 when the machine is why (no
 * privileges, a feature missing), and 128 when the bisect's own command
 * line or scenario is broken: skipping every commit would hide that. */
static int bisect_status(int status, bool input_error)
{
	if (status == EXIT_PASS || status == EXIT_FAILED)
		return status;
	return input_error ? EXIT_BISECT_STOP : EXIT_BISECT_SKIP;
}

int cmd_run(int argc, char **argv)
{
	bool bisect = false, input_error;
	struct run_cli cli;
	int status, sig = 0;

	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		bisect |= !strcmp(argv[i], "--bisect");
	memset(&cli, 0, sizeof(cli));
	status = stdout_done(run_main(argc, argv, &cli, &input_error, &sig));
	config_opts_free(&cli.config);
	free(cli.reports);
	/* stopped by a signal: its reports are written; end by it (see
	 * above). Under --bisect too: a run cut short is no verdict on the
	 * kernel, good or bad, and 125 would make git bisect run go on to
	 * the next commit, when whoever sent it asked for an end: a status
	 * above 127 stops the bisect where it is. */
	if (sig) {
		end_by(sig);
		return 128 + sig;
	}
	return bisect ? bisect_status(status, input_error) : status;
}
