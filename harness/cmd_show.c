/* cmd_show.c - `nstest show FILE`: run one scenario and print it as the
 * article reads, with this kernel's output under each command (show.h).
 * On a backend that can say why (the model: its explain()) each step is
 * followed by its causes (why each mount it made or removed is there or
 * gone); --explain puts the view and causes of the table's first such
 * backend beside a step of another backend (the kernel) that differs. */
#include "harness.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/backends.h"
#include "base/outfile.h"
#include "run/backend.h"
#include "run/require.h"
#include "run/runner.h"
#include "report/html.h"
#include "report/picture.h"
#include "report/show.h"
#include "run/verdict.h"

#define DEFAULT_TIMEOUT 60

static const char show_help[] =
	"usage: nstest show [OPTION...] FILE\n"
	"Run one scenario and print it as it reads, with this kernel's output\n"
	"under each command and the differences marked.\n"
	"\n"
	"  --backend NAME         what carries the scenario out (default: kernel); on the\n"
	"                         model, each step is followed by the causes it recorded\n"
	"  --html FILE            write the scenario as one self-contained HTML page, with\n"
	"                         the propagation graph after each step that changed a\n"
	"                         mount table (needs Graphviz's dot)\n"
	"  --explain              under each step that differs, what the model (the\n"
	"                         documented rules) prints, and why\n"
	"  --quirk NAME           model: imitate this known kernel deviation (repeatable)\n"
	"  --quirks=kernel        model: imitate every deviation known for this kernel\n"
	"  --devices=tmpfs|loop   the stand-in devices behind /dev/NAME (default: tmpfs)\n"
	"  --userns               build the sandbox in a new user namespace (rootless mode)\n"
	"  -t, --timeout SECONDS  watchdog, 0 for none (default: 60)\n"
	"  -h, --help             this help\n";

struct show_state {
	const char *about;
	enum ns_status status;
	const struct ns_show_notes *notes;
	char **pictures;          /* --html: per step (report/picture.h), or NULL */
	int html_rc;              /* --html: 0, or -1 after saying why */
};

static bool explain;
static const char *html_path;

/* Who says why: the chosen backend when it can, else with --explain the
 * table's first backend that can; NULL for nobody. */
static const struct ns_backend *explainer(const struct ns_backend *be)
{
	const struct ns_backend *x;

	if (be->explain || !explain)
		return be->explain ? be : NULL;
	for (size_t i = 0; (x = ns_backend_at(i)); i++)
		if (x->explain)
			return x;
	return NULL;
}

/* The explainer's run of sc, step by step: its causes, and when it is not
 * the backend that runs the scenario its output too. 0, or -1 with a
 * message on stderr. */
static int explain_notes(const struct ns_backend *x, const struct ns_scenario *sc,
			 const struct ns_run_opts *o, bool with_output, struct ns_show_notes *n)
{
	struct ns_buf err = NS_BUF_INIT;

	n->n = sc->nsteps;
	n->why = xcalloc(sc->nsteps ? sc->nsteps : 1, sizeof(*n->why));
	n->model = with_output ? xcalloc(sc->nsteps ? sc->nsteps : 1, sizeof(*n->model)) : NULL;
	if (x->explain(sc, o, sc->nsteps, n->why, n->model, &err) < 0) {
		fprintf(stderr, "nstest: error: %s\n", ns_buf_str(&err));
		ns_buf_free(&err);
		return -1;
	}
	return 0;
}

static void free_notes(struct ns_show_notes *x)
{
	for (size_t i = 0; i < x->n; i++) {
		free(x->why[i]);
		if (x->model)
			free(x->model[i]);
	}
	free(x->why);
	free(x->model);
}

/* 0, 1 after printing the help, or -1 after a usage message. */
static int parse_args(int argc, char **argv, struct ns_runner_opts *ro, struct config_opts *cfg)
{
	static const struct option longopts[] = {
		{ "devices", required_argument, NULL, 'd' },
		{ "timeout", required_argument, NULL, 't' },
		{ "userns", no_argument, NULL, 'u' },
		{ "backend", required_argument, NULL, 'b' },
		{ "explain", no_argument, NULL, 'e' },
		{ "html", required_argument, NULL, 'H' },
		{ "quirk", required_argument, NULL, 'q' },
		{ "quirks", required_argument, NULL, 'Q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct ns_run_opts *o = &ro->run;
	const char *backend = NULL;
	int c;

	o->devices = NS_DEVICES_TMPFS;
	o->timeout_s = DEFAULT_TIMEOUT;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":t:h", longopts, NULL)) != -1) {
		if (c == 'h') {
			fputs(show_help, stdout);
			return 1;
		} else if (c == 'd') {
			if (opt_devices(optarg, o) < 0)
				return -1;
		} else if (c == 't') {
			if (opt_timeout(optarg, o) < 0)
				return -1;
		} else if (c == 'u') {
			o->userns = true;
		} else if (c == 'b') {
			backend = optarg;
		} else if (c == 'H') {
			html_path = optarg;
		} else if (c == 'e') {
			explain = true;
		} else if (c == 'q') {
			opt_quirk(cfg, optarg);
		} else if (c == 'Q') {
			if (opt_quirks(cfg, optarg) < 0)
				return -1;
		} else {
			if (c == ':')
				usage_error("show: option '%s' needs a value", argv[optind - 1]);
			else
				unknown_option("show", argv[optind - 1], longopts);
			return -1;
		}
	}
	if (argc - optind != 1) {
		usage_error("show needs exactly one scenario file");
		return -1;
	}
	ro->backend = choose_backend(backend);
	if (ro->backend && apply_config(cfg, ro->backend, o) < 0)
		return -1;
	return ro->backend ? 0 : -1;
}

/* --html FILE: the page of r. 0, or -1 after saying why. */
static int write_html(const struct show_state *st, const struct ns_result *r)
{
	struct ns_buf page = NS_BUF_INIT;
	int rc = 0, err;

	ns_html_begin(&page, r->sc->title ? r->sc->title : r->sc->name, st->about);
	ns_html_scenario(&page, r, st->pictures, st->notes, r->sc->name);
	ns_html_end(&page);
	/* whole or not at all: an earlier page survives a full disk */
	err = ns_write_file_atomic(html_path, page.data, page.len);
	if (err < 0) {
		fprintf(stderr, "nstest: error: --html %s: %s\n", html_path, strerror(-err));
		rc = -1;
	}
	ns_buf_free(&page);
	return rc;
}

static void on_result(void *p, size_t index, const struct ns_result *r)
{
	struct show_state *st = p;

	(void)index;
	if (html_path) {
		st->html_rc = write_html(st, r);
		if (!st->html_rc)
			printf("%-5s %s (%s; the page: %s)\n", ns_status_name(r->v->status), r->sc->path,
			       st->about, html_path);
	} else {
		ns_show(stdout, r, st->about, st->notes);
	}
	st->status = r->v->status;
}

/* --html: the scenario played once, reading every terminal's table after
 * each step; the page prints that run's output, judged as any run's, and
 * draws its tables, so both number mounts and peer groups alike. The
 * causes are marked when the backend that traced them numbers mounts
 * the same in every run (the model). 0, or -1 after saying why. */
static int draw_page(struct show_state *st, const struct ns_scenario *sc,
		     const struct ns_runner_opts *ro, const struct ns_show_notes *own,
		     const struct ns_runner_hooks *hooks)
{
	struct ns_buf err = NS_BUF_INIT;
	struct ns_svg_cache cache = { NS_LINES_INIT, NS_LINES_INIT };
	struct ns_drawing d;
	struct ns_verdict v;
	struct ns_result r;
	bool causes = own && ro->backend->repeatable;

	if (scenario_drawing(sc, ro, causes ? own->why : NULL, &cache, &d, &err) < 0) {
		fprintf(stderr, "nstest: error: %s\n", ns_buf_str(&err));
		ns_buf_free(&err);
		ns_svg_cache_free(&cache);
		return -1;
	}
	if (err.len)
		fprintf(stderr, "nstest: warning: some graphs are missing: %s\n", ns_buf_str(&err));
	ns_judge(sc, &d.run, ro->backend->release(&ro->run), &v);
	r = (struct ns_result){ sc, &d.run, &v, d.seconds, d.devices };
	st->pictures = d.pics;
	hooks->result(hooks->ctx, 0, &r);
	st->pictures = NULL;
	ns_verdict_free(&v);
	ns_drawing_free(&d);
	ns_svg_cache_free(&cache);
	ns_buf_free(&err);
	return 0;
}

static int show_main(int argc, char **argv, struct config_opts *cfg)
{
	struct ns_lines files = NS_LINES_INIT;
	struct ns_runner_opts ro = { NULL, { 0 }, 1, false, NULL };
	struct show_state st = { NULL, NS_FAIL, NULL, NULL, 0 };
	struct ns_runner_hooks hooks = { &st, NULL, on_result, NULL, NULL };
	struct ns_scenario *sc = NULL;
	struct ns_diag d = { NULL, 0 };
	struct ns_show_notes notes = { NULL, NULL, 0 };
	const struct ns_backend *x;
	const char *release;
	char *about;

	switch (parse_args(argc, argv, &ro, cfg)) {
	case 1:
		return EXIT_PASS;
	case 0:
		break;
	default:
		return EXIT_USAGE;
	}
	if (collect_scenarios(argv + optind, 1, &files) < 0) {
		ns_lines_free(&files);
		return EXIT_USAGE;
	}
	if (files.n != 1) {
		usage_error("show takes one scenario file; %s holds %zu", argv[optind], files.n);
		ns_lines_free(&files);
		return EXIT_USAGE;
	}
	sc = ns_scenario_load(files.v[0], &d);
	ns_lines_free(&files);
	if (!sc) {
		fprintf(stderr, "%s\n", d.msg);
		ns_diag_free(&d);
		return EXIT_USAGE;
	}
	if (prepare_sandboxes(ro.backend, &ro.run, &sc, 1) < 0) {
		ns_scenario_free(sc);
		return EXIT_USAGE;
	}
	release = ro.backend->release(&ro.run);
	/* a backend that is no kernel (the model) follows the documents */
	about = xasprintf("%s%s, %s stand-ins, %s backend%s", release ? "Linux " : "documented rules",
			  release ? release : "",
			  ns_require_mode(sc, &ro.run, ro.backend) == NS_DEVICES_LOOP ? "loop" : "tmpfs",
			  ro.backend->name, ro.run.userns ? ", rootless" : "");
	st.about = about;
	x = explainer(ro.backend);
	if (explain && !x) {
		fprintf(stderr, "nstest: error: --explain: no backend of this nstest can say why\n");
		free(about);
		ns_scenario_free(sc);
		return EXIT_USAGE;
	}
	if (x) {
		/* configured as the command line says (--quirk) */
		st.notes = &notes;
		if (explain_notes(x, sc, &ro.run, x != ro.backend, &notes) < 0) {
			free_notes(&notes);
			free(about);
			ns_scenario_free(sc);
			return EXIT_USAGE;
		}
	}
	if (html_path) {
		if (draw_page(&st, sc, &ro, x == ro.backend ? &notes : NULL, &hooks) < 0) {
			if (st.notes)
				free_notes(&notes);
			free(about);
			ns_scenario_free(sc);
			return EXIT_USAGE;
		}
	} else {
		ns_runner_run(&sc, 1, &ro, &hooks);
	}
	if (st.notes)
		free_notes(&notes);
	free(about);
	ns_scenario_free(sc);
	if (st.html_rc < 0)
		return EXIT_USAGE; /* the page was not written: nstest's trouble */
	return st.status == NS_FAIL || st.status == NS_XPASS ? EXIT_FAILED : EXIT_PASS;
}

int cmd_show(int argc, char **argv)
{
	struct config_opts cfg = { NS_BUF_INIT };
	int status = show_main(argc, argv, &cfg);

	config_opts_free(&cfg);
	return status;
}
