/* harness.h - the nstest program: argument parsing and wiring of the
 * engine's stages. One file per subcommand. */
#ifndef NS_HARNESS_H
#define NS_HARNESS_H

#include <stdio.h>

#include "base/util.h"

#define NS_VERSION "0.1.0"

/* Exit statuses (nstest(1), EXIT STATUS). */
#define EXIT_PASS 0
#define EXIT_FAILED 1
#define EXIT_USAGE 2
#define EXIT_BISECT_SKIP 125
#define EXIT_BISECT_STOP 128

int cmd_run(int argc, char **argv);
int cmd_lint(int argc, char **argv);   /* cmd_lint.c */
int cmd_show(int argc, char **argv);
int cmd_fuzz(int argc, char **argv);   /* cmd_fuzz.c */
int cmd_graph(int argc, char **argv);  /* cmd_graph.c */
int cmd_export(int argc, char **argv); /* cmd_export.c */
int cmd_import(int argc, char **argv); /* cmd_import.c */
int cmd_record(int argc, char **argv); /* cmd_record.c */

/* Expand files and folders (recursively, sorted) into .scn paths.
 * Returns 0, or -1 after printing why. */
int collect_scenarios(char **paths, int n, struct ns_lines *out);
/* Parse every file before running any: one bad file runs nothing. The
 * scenarios, or NULL after printing every file's error. */
struct ns_scenario **parse_scenarios(const struct ns_lines *files);
void free_scenarios(struct ns_scenario **sc, struct ns_lines *files);

/* "nstest: error: WHAT" and a line pointing at the command's --help, on
 * stderr (main.c). */
void usage_error(const char *fmt, ...) NS_PRINTF(1, 2);
/* A usage error for an option cmd does not know: arg as typed, and the
 * closest of longopts (getopt_long's table) as a "did you mean". */
struct option;
/* The long option of longopts closest to arg ("--formt=tap"), without
 * its dashes, or NULL. */
const char *suggest_option(const char *arg, const struct option *longopts);
void unknown_option(const char *cmd, const char *arg, const struct option *longopts);
/* Flush and close standard output, every write to it checked (main.c):
 * status, or EXIT_USAGE after "write error on standard output: WHY". A
 * reader that went away (EPIPE, SIGPIPE ignored) is no error. Only the
 * first call acts: `run` calls it before --bisect maps the status. */
int stdout_done(int status);

/* prepare.c: the backend (NULL after a usage message), options shared by
 * run and show (0, or -1 after a usage message) and the checks before
 * the first sandbox (0, or -1 after saying why). */
#define DEFAULT_BACKEND "kernel"
struct ns_backend;
struct ns_run_opts;
struct ns_scenario;
const struct ns_backend *choose_backend(const char *name);
int opt_devices(const char *v, struct ns_run_opts *o);
/* The backend's configuration (struct ns_backend_config): --quirk NAME
 * (repeatable) and --quirks=kernel, what a backend with quirks imitates;
 * the test hooks NSTEST_MODEL_QUIRKS (quirks, when the command line names
 * none) and NSTEST_MODEL_BREAK (a rule to break), nstest(1), ENVIRONMENT.
 * Only config_from_env reads them. config_opts owns the strings that the
 * run options point to: free it after the run. */
struct ns_backend_config;
struct config_opts {
	struct ns_buf quirks;          /* comma-separated, from the command line */
};
void opt_quirk(struct config_opts *c, const char *name);
/* --quirks=V: only "kernel" (0), else a usage message (-1). */
int opt_quirks(struct config_opts *c, const char *v);
/* --quirks=kernel also means the running kernel's build options, which
 * no release says: quirk tmpfs-inode64 when the kernel backend finds a
 * fresh tmpfs showing inode64 or inode32 (CONFIG_TMPFS_INODE64). Appended
 * to quirks when it holds "kernel". */
void add_build_quirks(struct ns_buf *quirks);
/* The environment's part of a configuration. */
void config_from_env(struct ns_backend_config *cfg);
/* o->config for be: 0, or -1 after a usage message (quirks named on the
 * command line, and be has none). */
int apply_config(struct config_opts *c, const struct ns_backend *be, struct ns_run_opts *o);
void config_opts_free(struct config_opts *c);
int opt_timeout(const char *v, struct ns_run_opts *o);
int opt_uint(const char *v, unsigned long max, unsigned *out);
/* pictures.c: sc drawn for a page (report/picture.h): one run on ro's
 * backend, its output judged as any run's and, after each step that
 * changed a mount table, its graph; why (NULL, or per step) are the
 * model's causes to mark; cache (NULL: none) keeps the SVGs drawn. 0, or
 * -1 with err when the scenario could not be observed at all; err may
 * also say why a picture is missing (no Graphviz). */
struct ns_runner_opts;
struct ns_svg_cache;
struct ns_drawing;
int scenario_drawing(const struct ns_scenario *sc, const struct ns_runner_opts *ro,
		     char *const *why, struct ns_svg_cache *cache, struct ns_drawing *d,
		     struct ns_buf *err);
int prepare_sandboxes(const struct ns_backend *be, struct ns_run_opts *o,
		      struct ns_scenario *const *sc, size_t n);

/* repeat.c: --repeat N. A verdict as the flake detector compares it: the
 * status and the first step that failed (SIZE_MAX for none). */
struct ns_result;
struct ns_runner_opts;
struct ns_scenario;
struct vsig {
	int status;                /* enum ns_status */
	size_t step;
};
void vsig_of(const struct ns_result *r, struct vsig *s);
/* Runs 2 to rounds of sc[0..n) (run 1 gave first[]), and a line on out
 * for each scenario whose verdict changed; returns how many did. */
size_t repeat_rounds(struct ns_scenario *const *sc, size_t n, const struct ns_runner_opts *o,
		     unsigned rounds, const struct vsig *first, FILE *out);

#endif
