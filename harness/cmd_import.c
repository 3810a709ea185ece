/* cmd_import.c - `nstest import [-o FILE] LOG`: a terminal's log (a
 * script(1) typescript, a tmux capture, a copy of the screen) written as
 * a scenario (scenario/import.h). */
#include "harness.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <string.h>
#include <unistd.h>

#include "base/outfile.h"
#include "scenario/hide.h"
#include "scenario/import.h"

#define LOG_MAX (64u << 20)

static const char import_help[] =
	"usage: nstest import [-o FILE] [--scratch DIR] [--columns N] LOG\n"
	"Write a terminal's log as a scenario: a script(1) typescript, a tmux capture\n"
	"(capture-pane -p) or a copy of the screen; LOG '-' is standard input. Prompts\n"
	"(NAME# , USER@HOST:PATH# , [USER@HOST PATH]# , with $ too) start commands, the\n"
	"lines after them are their output, anything before the first prompt is prose.\n"
	"Escape sequences, carriage returns and backspaces are applied as the terminal\n"
	"applied them. A command nstest does not take is written as prose saying why,\n"
	"and named on standard error; none is dropped.\n"
	"\n"
	"  -o, --output FILE    write the scenario to FILE (default: standard output)\n"
	"      --scratch DIR    the session worked below DIR: leave every mount whose\n"
	"                       mount point is not below DIR (the host's, DIR's own) out\n"
	"                       of mountinfo, mount and findmnt views, '...' in its place,\n"
	"                       findmnt's columns padded again; paths stay as they were\n"
	"      --columns N      the terminal was N columns wide (findmnt cut its tables to\n"
	"                       fit): written as 'columns: N'; a script(1) log says it\n"
	"  -h, --help           this help\n"
	"Exit status: 0 written, 2 usage, a log that cannot be read, or a write error.\n"
	"Example: script -q -c bash session.log; nstest import -o session.scn session.log\n";

int cmd_import(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ "scratch", required_argument, NULL, 'S' },
		{ "columns", required_argument, NULL, 'C' },
		{ NULL, 0, NULL, 0 },
	};
	const char *output = NULL, *log;
	struct ns_hide hide = NS_HIDE_INIT;
	struct ns_buf scn = NS_BUF_INIT, notes = NS_BUF_INIT;
	char *text = NULL;
	size_t len = 0;
	int opt, fd, r, status = EXIT_PASS;
	unsigned columns = 0;
	char *end;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			fputs(import_help, stdout);
			return EXIT_PASS;
		case 'o':
			output = optarg;
			break;
		case 'S':
			if (optarg[0] != '/') {
				usage_error("import: --scratch needs an absolute directory, as the log's paths are: '%s'", optarg);
				ns_hide_free(&hide);
				return EXIT_USAGE;
			}
			free(hide.keep);
			hide.keep = xstrdup(optarg);
			hide.ellipsis = true;
			break;
		case 'C':
			errno = 0;
			columns = (unsigned)strtoul(optarg, &end, 10);
			if (errno || *end || !isdigit((unsigned char)optarg[0]) || columns < 20 ||
			    columns > 4096) {
				usage_error("import: --columns needs the terminal's width, 20 to 4096: '%s'", optarg);
				ns_hide_free(&hide);
				return EXIT_USAGE;
			}
			break;
		case ':':
			usage_error("import: option %s needs an argument", argv[optind - 1]);
			ns_hide_free(&hide);
			return EXIT_USAGE;
		default:
			unknown_option("import", argv[optind - 1], longopts);
			ns_hide_free(&hide);
			return EXIT_USAGE;
		}
	}
	if (argc - optind != 1) {
		usage_error("import needs exactly one log file ('-' for standard input)");
		ns_hide_free(&hide);
		return EXIT_USAGE;
	}
	log = argv[optind];
	fd = strcmp(log, "-") ? open(log, O_RDONLY | O_CLOEXEC) : STDIN_FILENO;
	if (fd < 0 || (r = ns_read_fd(fd, LOG_MAX, &text, &len)) < 0) {
		fprintf(stderr, "nstest: error: %s: %s\n", log, strerror(fd < 0 ? errno : -r));
		if (fd > STDIN_FILENO)
			close(fd);
		ns_hide_free(&hide);
		return EXIT_USAGE;
	}
	if (fd > STDIN_FILENO)
		close(fd);
	ns_import_log_hide(text, len, strcmp(log, "-") ? log : "standard input",
			   hide.keep ? &hide : NULL, columns, &scn, &notes);
	for (const char *p = ns_buf_str(&notes); *p;) {
		size_t n = strcspn(p, "\n");

		fprintf(stderr, "nstest import: %s: %.*s\n", log, (int)n, p);
		p += n + (p[n] == '\n');
	}
	if (!output || !strcmp(output, "-")) {
		fwrite(scn.data, 1, scn.len, stdout);
	} else if ((r = ns_write_file_atomic(output, scn.data, scn.len)) < 0) {
		fprintf(stderr, "nstest: error: %s: %s\n", output, strerror(-r));
		status = EXIT_USAGE;
	}
	free(text);
	ns_buf_free(&scn);
	ns_buf_free(&notes);
	ns_hide_free(&hide);
	return status;
}
