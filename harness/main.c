/* main.c - nstest: replay mount-namespace transcripts on a backend (the
 * running kernel by default) */
#include "harness.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <string.h>
#include <sys/resource.h>

#include "base/outfile.h"
#include "base/suggest.h"

static const char usage_text[] =
	"usage: nstest run [OPTION...] PATH...\n"
	"       nstest run --update [OPTION...] PATH...\n"
	"       nstest show [OPTION...] FILE\n"
	"       nstest graph [OPTION...] FILE\n"
	"       nstest lint PATH...\n"
	"       nstest fuzz [OPTION...]\n"
	"       nstest export --c FILE [-o OUT]\n"
	"       nstest import [-o FILE] [--scratch DIR] LOG\n"
	"       nstest record [--join] FILE\n"
	"       nstest help [COMMAND] | --help | --version | version\n"
	"\n"
	"  run    run scenario files (folders are searched for *.scn, sorted)\n"
	"  show   run one scenario and print it with this kernel's output under each command\n"
	"  graph  run one scenario up to a step and draw its propagation graph (DOT, SVG)\n"
	"  lint   parse scenario files and report errors; runs nothing\n"
	"  fuzz   compare the kernel with the model on generated scenarios; shrink and\n"
	"         write each divergence as a scenario file\n"
	"  export write one scenario as a standalone C program that replays and checks it\n"
	"  import write a terminal's log (script(1), tmux, a copy) as a scenario\n"
	"  record record an interactive shell in a sandbox as a scenario (--join: another\n"
	"         terminal of a running recording)\n"
	"  help   this text, or with COMMAND that command's options (as COMMAND --help)\n"
	"  version  nstest's version (also -V, --version)\n"
	"\n"
	"nstest COMMAND --help lists the options of each command.\n"
	"Exit status: 0 all passed or skipped, 1 a scenario failed, 2 usage, parse or write error\n"
	"(125: --bisect could not judge this kernel; 128: --bisect given a file that does not parse;\n"
	"128+N: run stopped by signal N, its reports written: 130 SIGINT, 143 SIGTERM, 129 SIGHUP).\n"
	"See nstest(1) and nstest-scenario(5).\n";

/* The command being run, for the pointer to its --help; NULL before one
 * is known. */
static const char *current_command;

void usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("nstest: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'nstest %s%s--help' for more information.\n",
		current_command ? current_command : "", current_command ? " " : "");
}

const char *suggest_option(const char *arg, const struct option *longopts)
{
	const char *names[64];
	char word[128];
	size_t n = 0, len;

	if (strncmp(arg, "--", 2))
		return NULL;
	/* --formt=tap: the option is what comes before the '=' */
	len = strcspn(arg, "=");
	snprintf(word, sizeof(word), "%.*s", (int)(len < sizeof(word) ? len : sizeof(word) - 1), arg);
	for (const struct option *o = longopts; o->name && n < NS_ARRAY_SIZE(names); o++)
		names[n++] = o->name;
	/* the table's names have no dashes: compare without them */
	return ns_closest(word + 2, names, n);
}

void unknown_option(const char *cmd, const char *arg, const struct option *longopts)
{
	const char *near = suggest_option(arg, longopts);

	if (near)
		usage_error("%s: unknown option '%s' (did you mean '--%s'?)", cmd, arg, near);
	else
		usage_error("%s: unknown option '%s'", cmd, arg);
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

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
} commands[] = {
	{ "run", cmd_run },
	{ "show", cmd_show },
	{ "graph", cmd_graph },
	{ "lint", cmd_lint },
	{ "fuzz", cmd_fuzz },
	{ "export", cmd_export },
	{ "import", cmd_import },
	{ "record", cmd_record },
};

/* What may come where a command goes: the commands, help and version,
 * for "did you mean". */
static const char *const command_words[] = {
	"run", "show", "graph", "lint", "fuzz", "export", "import", "record", "help", "version",
	"--help", "--version",
};

static int unknown_command(const char *word)
{
	const char *near = ns_closest(word, command_words, NS_ARRAY_SIZE(command_words));

	if (near)
		usage_error("unknown command '%s' (did you mean '%s'?)", word, near);
	else
		usage_error("unknown command '%s'", word);
	return EXIT_USAGE;
}

static int dispatch(int argc, char **argv)
{
	for (size_t i = 0; i < NS_ARRAY_SIZE(commands); i++) {
		if (!strcmp(argv[0], commands[i].name)) {
			current_command = commands[i].name;
			return commands[i].run(argc, argv);
		}
	}
	return unknown_command(argv[0]);
}

static int version(void)
{
	printf("nstest %s\n", NS_VERSION);
	return EXIT_PASS;
}

/* nstest help [COMMAND]: the usage, or COMMAND --help. */
static int help(int argc, char **argv)
{
	static char help_opt[] = "--help";
	char *args[3];

	if (argc < 2) {
		fputs(usage_text, stdout);
		return EXIT_PASS;
	}
	if (argc > 2) {
		usage_error("help takes one command, not '%s'", argv[2]);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "help") || !strcmp(argv[1], "version"))
		return help(1, argv);
	args[0] = argv[1];
	args[1] = help_opt;
	args[2] = NULL;
	return dispatch(2, args);
}

static int command(int argc, char **argv)
{
	if (argc < 2) {
		fputs("nstest: error: no command given\n", stderr);
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return help(1, argv + 1);
	if (!strcmp(argv[1], "help"))
		return help(argc - 1, argv + 1);
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V") || !strcmp(argv[1], "version"))
		return version();
	return dispatch(argc - 1, argv + 1);
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
