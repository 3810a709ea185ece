/* cmd_export.c - `nstest export --c FILE [--devices MODE] [-o OUT]`: the scenario written
 * as a standalone C program that replays and checks it on the running
 * kernel (lib/export/). Parses only; runs nothing. */
#include "harness.h"

#include <errno.h>
#include <getopt.h>
#include <string.h>

#include "base/outfile.h"
#include "export/export.h"
#include "scenario/scenario.h"

static const char export_help[] =
	"usage: nstest export --c FILE [--devices MODE] [-o OUT]\n"
	"Write the scenario FILE as one standalone C program: raw system calls in a\n"
	"private mount namespace with stand-in devices, each step's errno and output\n"
	"checked as the file expects. Build it with `cc -O2 -Wall OUT` and run it as\n"
	"root: exit 0 when every step matches, 1 at the first difference (printed),\n"
	"2 when it cannot set up. A command the exporter cannot write is refused\n"
	"(FILE:LINE: CMD: not exportable to C (REASON)); nothing is written then.\n"
	"\n"
	"  --c                  the C program (the only format)\n"
	"  --devices MODE       the stand-ins: tmpfs, or loop (loop devices over an ext4\n"
	"                       image the program carries; made here with mke2fs);\n"
	"                       default: the file's devices:, else tmpfs. Give the mode\n"
	"                       the file's expected output was recorded with\n"
	"  -o, --output OUT     write it to OUT (default, and -: standard output)\n"
	"  -h, --help           this help\n"
	"Exit status: 0 written, 2 usage, a file that does not parse, a refused\n"
	"command, or a write error.\n";

int cmd_export(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "c", no_argument, NULL, 'c' },
		{ "output", required_argument, NULL, 'o' },
		{ "devices", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *output = NULL;
	enum ns_devices_mode devices = NS_DEVICES_DEFAULT;
	bool c_format = false;
	struct ns_diag diag = { NULL, 0 };
	struct ns_buf prog = NS_BUF_INIT, err = NS_BUF_INIT, notes = NS_BUF_INIT;
	struct ns_scenario *sc;
	int opt, status = EXIT_PASS;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			fputs(export_help, stdout);
			return EXIT_PASS;
		case 'c':
			c_format = true;
			break;
		case 'o':
			output = optarg;
			break;
		case 'd':
			if (!strcmp(optarg, "tmpfs")) {
				devices = NS_DEVICES_TMPFS;
			} else if (!strcmp(optarg, "loop")) {
				devices = NS_DEVICES_LOOP;
			} else {
				usage_error("export: --devices: tmpfs or loop, not '%s'", optarg);
				return EXIT_USAGE;
			}
			break;
		case ':':
			usage_error("export: option %s needs an argument", argv[optind - 1]);
			return EXIT_USAGE;
		default:
			unknown_option("export", argv[optind - 1], longopts);
			return EXIT_USAGE;
		}
	}
	if (!c_format) {
		usage_error("export: say which format: --c (the only one)");
		return EXIT_USAGE;
	}
	if (argc - optind != 1) {
		usage_error("export needs exactly one scenario file");
		return EXIT_USAGE;
	}
	sc = ns_scenario_load(argv[optind], &diag);
	if (!sc) {
		fprintf(stderr, "%s\n", diag.msg);
		ns_diag_free(&diag);
		return EXIT_USAGE;
	}
	if (ns_export_c(sc, devices, &prog, &err, &notes) < 0) {
		fprintf(stderr, "%s\n", ns_buf_str(&err));
		status = EXIT_USAGE;
	} else {
		for (const char *p = ns_buf_str(&notes); *p;) {
			size_t n = strcspn(p, "\n");

			fprintf(stderr, "nstest export: %s: not checked: %.*s\n", sc->path, (int)n, p);
			p += n + (p[n] == '\n');
		}
		if (!output || !strcmp(output, "-")) {
			fwrite(prog.data, 1, prog.len, stdout);
		} else {
			int r = ns_write_file_atomic(output, prog.data, prog.len);

			if (r < 0) {
				fprintf(stderr, "nstest: error: %s: %s\n", output, strerror(-r));
				status = EXIT_USAGE;
			}
		}
	}
	ns_buf_free(&prog);
	ns_buf_free(&err);
	ns_buf_free(&notes);
	ns_scenario_free(sc);
	return status;
}
