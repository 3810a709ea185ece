/* main.c - nstest: replay mount-namespace transcripts on a backend (the
 * running kernel by default) */
#include "harness.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/resource.h>

#include "base/outfile.h"

static const char usage_text[] =
	"usage: nstest run [OPTION...] PATH...\n"
	"       nstest run --update [OPTION...] PATH...\n"
	"       nstest show [OPTION...] FILE\n"
	"       nstest graph [OPTION...] FILE\n"
	"       nstest lint PATH...\n"
	"       nstest fuzz [OPTION...]\n"
	"       nstest export --c FILE [-o OUT]\n"
	"       nstest --help | --version\n"
	"\n"
	"  run    run scenario files (folders are searched for *.scn, sorted)\n"
	"  show   run one scenario and print it with this kernel's output under each command\n"
	"  graph  run one scenario up to a step and draw its propagation graph (DOT, SVG)\n"
	"  lint   parse scenario files and report errors; runs nothing\n"
	"  fuzz   compare the kernel with the model on generated scenarios; shrink and\n"
	"         write each divergence as a scenario file\n"
	"  export write one scenario as a standalone C program that replays and checks it\n"
	"\n"
	"nstest COMMAND --help lists the options of each command.\n"
	"Exit status: 0 all passed or skipped, 1 a scenario failed, 2 usage, parse or write error\n"
	"(125: --bisect could not judge this kernel; 128: --bisect given a file that does not parse;\n"
	"128+N: run stopped by signal N, its reports written: 130 SIGINT, 143 SIGTERM, 129 SIGHUP).\n"
	"See nstest(1) and nstest-scenario(5).\n";

void usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("nstest: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n", stderr);
	fputs(usage_text, stderr);
}

int stdout_done(int status)
{
	static bool done;
	int err;

	if (done)
		return status;
	done = true;
	err = ns_stdout_close();
	/* a reader that went away (`| head`, SIGPIPE ignored) wanted no more */
	if (!err || err == EPIPE)
		return status;
	fprintf(stderr, "nstest: error: write error on standard output: %s\n", strerror(err));
	return EXIT_USAGE;
}

static int command(int argc, char **argv)
{
	if (argc < 2) {
		usage_error("no command given");
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(usage_text, stdout);
		return EXIT_PASS;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("nstest %s\n", NS_VERSION);
		return EXIT_PASS;
	}
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(argv[1], "show"))
		return cmd_show(argc - 1, argv + 1);
	if (!strcmp(argv[1], "graph"))
		return cmd_graph(argc - 1, argv + 1);
	if (!strcmp(argv[1], "fuzz"))
		return cmd_fuzz(argc - 1, argv + 1);
	if (!strcmp(argv[1], "lint"))
		return cmd_lint(argc - 1, argv + 1);
	if (!strcmp(argv[1], "export"))
		return cmd_export(argc - 1, argv + 1);
	usage_error("unknown command '%s'", argv[1]);
	return EXIT_USAGE;
}

/* Every terminal keeps descriptors (its places, handles, sockets): take
 * the hard limit as the soft one, as a shell could with ulimit -n, so the
 * common soft limit of 1024 does not end a scenario of many terminals. */
static void raise_fd_limit(void)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < r.rlim_max) {
		r.rlim_cur = r.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &r);
	}
}

int main(int argc, char **argv)
{
	raise_fd_limit();
	ns_stdout_watch();
	setvbuf(stdout, NULL, _IOLBF, 0);
	return stdout_done(command(argc, argv));
}
