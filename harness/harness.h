/* harness.h - the nstest program: argument parsing and wiring of the
 * engine's stages. One file per subcommand. */
#ifndef NS_HARNESS_H
#define NS_HARNESS_H

#include "base/util.h"

#define NS_VERSION "0.1.0"

/* Exit statuses (design §6). */
#define EXIT_PASS 0
#define EXIT_FAILED 1
#define EXIT_USAGE 2
#define EXIT_BISECT_SKIP 125

int cmd_run(int argc, char **argv);
int cmd_lint(int argc, char **argv);
int cmd_show(int argc, char **argv);

/* Expand files and folders (recursively, sorted) into .scn paths.
 * Returns 0, or -1 after printing why. */
int collect_scenarios(char **paths, int n, struct ns_lines *out);

/* NULL when this process may build sandboxes, else what is missing and
 * what to do about it (heap). */
char *privilege_problem(void);

void usage_error(const char *fmt, ...) NS_PRINTF(1, 2);

/* prepare.c: options shared by run and show (0, or -1 after a usage
 * message) and the checks before the first sandbox (0, or -1 after
 * saying why). */
struct ns_run_opts;
struct ns_scenario;
int opt_devices(const char *v, struct ns_run_opts *o);
int opt_timeout(const char *v, struct ns_run_opts *o);
int opt_uint(const char *v, unsigned long max, unsigned *out);
int prepare_sandboxes(struct ns_run_opts *o, struct ns_scenario *const *sc, size_t n);

#endif
