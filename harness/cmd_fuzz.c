/* cmd_fuzz.c - `nstest fuzz`: the differential fuzzer. Generated
 * scenarios are played on two sides and every divergence is shrunk and
 * written as a scenario file (lib/fuzz/session.h). The sides come from
 * the backend table: by default the first backend whose fuzz_role is the
 * reference (the kernel) against the first that is a model; --first NAME
 * and --vs NAME name any backend that can be a side, --vs-kernel IMAGE
 * puts another kernel in a VM on the second side. The options for tests
 * and VMs, listed apart in the help: --vs kernel (the kernel against
 * itself), --print-scenarios (the generated scenarios, nothing run),
 * --play-dump FILE... (play files on the reference backend and print
 * their runs for the host, lib/fuzz/dump.h), --batch N (cases per runner
 * call), --first NAME (`--first model --vs model` times the model
 * alone). */
#include "harness.h"
#include "progress.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "fuzz/dump.h"
#include "fuzz/session.h"
#include "fuzz/vm.h"
#include "backends/backends.h"
#include "model/model.h"
#include "run/backend.h"
#include "scenario/scenario.h"

#define MAX_JOBS 256
#define MAX_STEPS 200
#define FUZZ_TIMEOUT 20

static const char fuzz_help[] =
	"usage: nstest fuzz [OPTION...]\n"
	"Play generated scenarios on the kernel and on a second side, and write each\n"
	"divergence, shrunk, as a scenario file.\n"
	"\n"
	"  --seed N               the run's seed (default: 1); same seed, same scenarios\n"
	"  --count N              scenarios to play (default: 1000 unless --time)\n"
	"  --time S               play for S seconds (then the batch under way ends)\n"
	"  --steps M              operations per scenario (default: 10)\n"
	"  --terminals K          terminals sh1..shK, 1 to 16 (default: 3)\n"
	"  -j, --jobs N           workers per side, 1 to 256 (default: 1)\n"
	"  --out DIR              where findings go (default: fuzz-findings; created)\n"
	"  --quirk NAME           a quirk of the model (repeatable)\n"
	"  --quirks=kernel        every quirk the model knows the kernel has\n"
	"  --shrink N             at most N cases tried to shrink each finding\n"
	"                         (default: 2000; 0: write findings unshrunk)\n"
	"  --vs model             the second side: the model backend (the default)\n"
	"  --vs-kernel IMAGE      the second side: the kernel IMAGE booted by ci/vm-run;\n"
	"                         given twice, the two kernels are the two sides (no model:\n"
	"                         no quirks, causes by the first differing operation)\n"
	"  -h, --help             this help\n"
	"\n"
	"For tests, timing and the VMs (nstest(1)):\n"
	"  --print-scenarios      print the generated scenarios, run nothing\n"
	"  --start I              begin at scenario I of the seed (default: 0); with\n"
	"                         --count 1, one finding played and shrunk again\n"
	"  --batch N              scenarios per runner call (default: 64 per worker;\n"
	"                         with --vs-kernel, one VM boot per batch: --count up\n"
	"                         to 1000, or 200 with --time)\n"
	"  --first NAME           the first side: kernel (the default) or model;\n"
	"                         --first model --vs-kernel IMAGE --quirks=kernel: the\n"
	"                         model imitating IMAGE's release\n"
	"  --vs kernel            the second side: this kernel again\n"
	"  --play-dump FILE...    play FILEs on this kernel, print each run framed\n"
	"                         for a host (what a --vs-kernel VM runs)\n"
	"  --probe                print \"features N\", \"release R\" (uname -r) and\n"
	"                         \"tmpfs-inode64 0|1\": what a --vs-kernel VM is asked first\n"
	"\n"
	"Examples:\n"
	"  nstest fuzz --vs-kernel K2 --vs-kernel K1 --time 120   # kernel K2 against K1\n"
	"  nstest fuzz --first model --vs-kernel K --quirks=kernel # the model against K\n"
	"\n"
	"Exit status: 0 no finding, 1 findings, 2 usage or setup error, 130 interrupted.\n";

struct fuzz_cli {
	struct ns_fuzz_opts o;
	unsigned jobs;
	bool count_given, time_given, help, print, play_dump, probe;
	const struct ns_backend *vs;    /* --vs NAME, or NULL: the table's model */
	const struct ns_backend *first; /* --first NAME, or NULL: its reference */
	const char *images[2];          /* --vs-kernel, once or twice */
	unsigned nimages;
	struct ns_buf quirks;           /* comma-separated */
	struct ns_backend_config config; /* both sides': quirks, from the environment */
	struct ns_buf options;          /* the options, for the findings' prose */
};

enum { OPT_SEED = 256, OPT_COUNT, OPT_TIME, OPT_STEPS, OPT_TERMS, OPT_OUT, OPT_QUIRK,
       OPT_QUIRKS, OPT_VS, OPT_VS_KERNEL, OPT_PRINT, OPT_PLAY_DUMP, OPT_BATCH, OPT_FIRST,
       OPT_SHRINK, OPT_PROBE, OPT_START };

static int bad(const char *fmt, ...) NS_PRINTF(1, 2);
static int bad(const char *fmt, ...)
{
	va_list ap;

	fputs("nstest fuzz: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (see nstest fuzz --help)\n", stderr);
	return -1;
}

static int u64(const char *v, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long n;

	if (!*v || *v < '0' || *v > '9')
		return -1;
	errno = 0;
	n = strtoull(v, &end, 10);
	if (*end || errno || n < min || n > max)
		return -1;
	*out = n;
	return 0;
}

static int number_opt(const char *name, const char *v, uint64_t min, uint64_t max, uint64_t *out)
{
	if (u64(v, min, max, out) == 0)
		return 0;
	return bad("%s must be a whole number from %" PRIu64 " to %" PRIu64 ", not '%s'",
		   name, min, max, v);
}

static bool quirk_syntax(const char *q)
{
	if (!*q)
		return false;
	for (; *q; q++)
		if (!((*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9') || *q == '-' || *q == '_'))
			return false;
	return true;
}

static int add_quirk(struct fuzz_cli *cli, const char *q)
{
	if (cli->quirks.len)
		ns_buf_addc(&cli->quirks, ',');
	ns_buf_adds(&cli->quirks, q);
	return 0;
}

/* --vs NAME, --first NAME: a backend of the table that can be a side. */
static int side_opt(const char *opt, const char *name, const struct ns_backend **out)
{
	const struct ns_backend *be = ns_backend_find(name);
	struct ns_buf known = NS_BUF_INIT;
	int r;

	if (be && be->fuzz_role != NS_FUZZ_NO_SIDE) {
		*out = be;
		return 0;
	}
	for (size_t i = 0; (be = ns_backend_at(i)); i++)
		if (be->fuzz_role != NS_FUZZ_NO_SIDE)
			ns_buf_addf(&known, "%s%s", known.len ? ", " : "", be->name);
	r = bad("%s %s: %s (sides: %s%s)", opt, name,
		ns_backend_find(name) ? "that backend cannot be a side" : "no such backend",
		ns_buf_str(&known), !strcmp(opt, "--vs") ? "; another kernel: --vs-kernel IMAGE" : "");
	ns_buf_free(&known);
	return r;
}

static int parse_option(int c, struct fuzz_cli *cli)
{
	uint64_t v;

	switch (c) {
	case OPT_SEED:
		return number_opt("--seed", optarg, 0, UINT64_MAX, &cli->o.seed);
	case OPT_COUNT:
		cli->count_given = true;
		return number_opt("--count", optarg, 1, UINT64_MAX, &cli->o.count);
	case OPT_TIME:
		cli->time_given = true;
		if (number_opt("--time", optarg, 1, 86400 * 365, &v) < 0)
			return -1;
		cli->o.seconds = (double)v;
		return 0;
	case OPT_STEPS:
		if (number_opt("--steps", optarg, 1, MAX_STEPS, &v) < 0)
			return -1;
		cli->o.gen.steps = (unsigned)v;
		return 0;
	case OPT_TERMS:
		if (number_opt("--terminals", optarg, 1, NS_FUZZ_MAX_TERMS, &v) < 0)
			return -1;
		cli->o.gen.terminals = (unsigned)v;
		return 0;
	case 'j':
		if (number_opt("-j", optarg, 1, MAX_JOBS, &v) < 0)
			return -1;
		cli->jobs = (unsigned)v;
		return 0;
	case OPT_BATCH:
		if (number_opt("--batch", optarg, 1, 100000, &v) < 0)
			return -1;
		cli->o.batch = (size_t)v;
		return 0;
	case OPT_OUT:
		cli->o.out_dir = optarg;
		return 0;
	case OPT_SHRINK:
		if (number_opt("--shrink", optarg, 0, 1000000, &v) < 0)
			return -1;
		cli->o.shrink_candidates = (size_t)v;
		return 0;
	case OPT_QUIRK:
		if (!quirk_syntax(optarg))
			return bad("--quirk takes a name of lowercase letters, digits, - and _, not '%s'", optarg);
		return add_quirk(cli, optarg);
	case OPT_QUIRKS:
		if (strcmp(optarg, "kernel"))
			return bad("--quirks takes only the word kernel, not '%s' (name single quirks with --quirk)", optarg);
		return add_quirk(cli, "kernel");
	case OPT_VS:
		return side_opt("--vs", optarg, &cli->vs);
	case OPT_VS_KERNEL:
		if (cli->nimages == 2)
			return bad("--vs-kernel %s: a third kernel; --vs-kernel names the second side, "
				   "or, given twice, both sides", optarg);
		cli->images[cli->nimages++] = optarg;
		return 0;
	case OPT_FIRST:
		return side_opt("--first", optarg, &cli->first);
	case OPT_PRINT:
		cli->print = true;
		return 0;
	case OPT_PLAY_DUMP:
		cli->play_dump = true;
		return 0;
	case OPT_PROBE:
		cli->probe = true;
		return 0;
	case OPT_START:
		return number_opt("--start", optarg, 0, UINT64_MAX / 2, &cli->o.start);
	}
	return -1;
}

/* The options that shape the scenarios, for the findings' prose (the
 * quirks are named there apart). */
static void describe(struct fuzz_cli *cli)
{
	ns_buf_addf(&cli->options, "--steps %u --terminals %u", cli->o.gen.steps, cli->o.gen.terminals);
}

static int parse_args(int argc, char **argv, struct fuzz_cli *cli)
{
	static const struct option longopts[] = {
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "count", required_argument, NULL, OPT_COUNT },
		{ "time", required_argument, NULL, OPT_TIME },
		{ "steps", required_argument, NULL, OPT_STEPS },
		{ "terminals", required_argument, NULL, OPT_TERMS },
		{ "jobs", required_argument, NULL, 'j' },
		{ "out", required_argument, NULL, OPT_OUT },
		{ "quirk", required_argument, NULL, OPT_QUIRK },
		{ "quirks", required_argument, NULL, OPT_QUIRKS },
		{ "vs", required_argument, NULL, OPT_VS },
		{ "vs-kernel", required_argument, NULL, OPT_VS_KERNEL },
		{ "print-scenarios", no_argument, NULL, OPT_PRINT },
		{ "play-dump", no_argument, NULL, OPT_PLAY_DUMP },
		{ "batch", required_argument, NULL, OPT_BATCH },
		{ "first", required_argument, NULL, OPT_FIRST },
		{ "shrink", required_argument, NULL, OPT_SHRINK },
		{ "probe", no_argument, NULL, OPT_PROBE },
		{ "start", required_argument, NULL, OPT_START },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	cli->o.seed = 1;
	cli->o.gen.steps = 10;
	cli->o.gen.terminals = 3;
	cli->o.out_dir = "fuzz-findings";
	cli->o.shrink_candidates = NS_FUZZ_SHRINK_DEFAULT;
	cli->jobs = 1;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":j:h", longopts, NULL)) != -1) {
		if (c == ':')
			return bad("option '%s' needs a value", argv[optind - 1]);
		if (c == '?') {
			const char *near = suggest_option(argv[optind - 1], longopts);

			if (near)
				return bad("unknown option '%s'; did you mean '--%s'?", argv[optind - 1], near);
			return bad("unknown option '%s'", argv[optind - 1]);
		}
		if (c == 'h') {
			fputs(fuzz_help, stdout);
			cli->help = true;
			return 0;
		}
		if (parse_option(c, cli) < 0)
			return -1;
	}
	if (optind < argc && !cli->play_dump)
		return bad("unexpected argument '%s' (fuzz takes options only)", argv[optind]);
	if (cli->count_given && cli->time_given)
		return bad("--time and --count exclude each other");
	if (!cli->count_given && !cli->time_given)
		cli->o.count = 1000;
	if (cli->nimages && cli->vs)
		return bad("--vs %s and --vs-kernel exclude each other: the second side is one or the "
			   "other (two kernels in VMs: --vs-kernel A --vs-kernel B)", cli->vs->name);
	if (cli->nimages == 2 && cli->first)
		return bad("--first %s and two --vs-kernel exclude each other: the two kernels are "
			   "both sides", cli->first->name);
	if (cli->nimages == 2 && cli->quirks.len)
		return bad("--quirk and --quirks need a model side, and two --vs-kernel compare two "
			   "kernels (the model against one: --first model --vs-kernel IMAGE)");
	for (unsigned i = 0; i < cli->nimages; i++)
		if (access(cli->images[i], R_OK) < 0) {
			fprintf(stderr, "nstest fuzz: --vs-kernel %s: cannot read the kernel image: %s\n",
				cli->images[i], strerror(errno));
			return -1;
		}
	describe(cli);
	/* both sides' configuration: the environment's test hooks, and the
	 * quirks of the command line over NSTEST_MODEL_QUIRKS */
	config_from_env(&cli->config);
	if (!cli->nimages)
		add_build_quirks(&cli->quirks);
	if (cli->quirks.len)
		cli->config.quirks = ns_buf_str(&cli->quirks);
	return 0;
}

/* ---- --print-scenarios and --play-dump ---------------------------------- */

/* The backends the sides will be, as sides() picks them; NULL for a VM. */
static void side_backends(const struct fuzz_cli *cli, const struct ns_backend **first,
			  const struct ns_backend **second)
{
	*first = cli->nimages == 2 ? NULL
		 : cli->first ? cli->first : ns_backend_fuzz_default(NS_FUZZ_REFERENCE);
	*second = cli->nimages ? NULL : cli->vs ? cli->vs : ns_backend_fuzz_default(NS_FUZZ_MODEL);
}

/* The new mount API only where both sides have it. A VM side (NULL) is
 * asked apart (ns_fuzz_vm_probe); until then it counts as having what
 * this kernel has, and with two VMs every feature is open. */
static unsigned gen_features(const struct ns_backend *a, const struct ns_backend *b)
{
	unsigned f = 0;

	for (unsigned bit = NS_FEAT_FIRST; bit <= NS_FEAT_LAST; bit <<= 1)
		if ((!a || a->has_feature(bit) > 0) && (!b || b->has_feature(bit) > 0))
			f |= bit;
	return f;
}

/* `--probe`, what a --vs-kernel VM is asked first: its features, its
 * release, and whether a fresh tmpfs shows inode64 or inode32 (a build
 * option: quirk tmpfs-inode64), one line each. */
static int print_probe(void)
{
	const struct ns_backend *be = ns_backend_fuzz_default(NS_FUZZ_REFERENCE);
	struct utsname u;

	printf("features %u\n", gen_features(be, NULL));
	printf("release %s\n", uname(&u) == 0 ? u.release : "unknown");
	printf("tmpfs-inode64 %d\n", be && be->tmpfs_inode64 && be->tmpfs_inode64());
	return EXIT_PASS;
}

/* What a run with the same options would play: the same features (a VM
 * side is taken to have this kernel's; a run asks it). */
static int print_scenarios(struct fuzz_cli *cli)
{
	uint64_t n = cli->o.count ? cli->o.count : 1000;
	const struct ns_backend *a, *b;

	side_backends(cli, &a, &b);
	if (!a && !b)
		a = ns_backend_fuzz_default(NS_FUZZ_REFERENCE);
	cli->o.gen.features = gen_features(a, b);

	for (uint64_t i = cli->o.start; i < cli->o.start + n; i++) {
		struct ns_fuzz_case c;
		struct ns_buf text = NS_BUF_INIT;
		char title[96];
		ns_fuzz_generate(cli->o.seed, i, &cli->o.gen, &c);
		snprintf(title, sizeof(title), "fuzz seed %" PRIu64 " scenario %" PRIu64, cli->o.seed, i);
		ns_fuzz_case_text(&c, title, &text);
		fputs(ns_buf_str(&text), stdout);
		fputs("\n", stdout);
		ns_buf_free(&text);
		ns_fuzz_case_free(&c);
	}
	return EXIT_PASS;
}

struct dump_ctx {
	struct ns_scenario **sc;
};

static void dump_one(void *p, size_t i, const struct ns_run *run)
{
	struct dump_ctx *d = p;
	struct ns_buf b = NS_BUF_INIT;

	ns_fuzz_dump_run(&b, i, run, d->sc[i]->nsteps);
	fwrite(b.data, 1, b.len, stdout);
	ns_buf_free(&b);
}

/* What the VM of --vs-kernel plays: the files, on the reference backend
 * (the kernel). Loop stand-ins on both sides of --vs-kernel: a kernel
 * before 6.15 plays a scenario that mounts a name twice with loop devices
 * anyway (ext4), and the two tables must show the same filesystems. A
 * guest without loop devices (Debian's 6.19 to 7.1 come without their
 * modules) plays with tmpfs stand-ins: the canonical form compares a
 * stand-in by its name and ro or rw only, and a case that needs loop
 * devices there is not compared. */
static int play_dump(struct fuzz_cli *cli, int argc, char **argv)
{
	const struct ns_backend *be = ns_backend_fuzz_default(NS_FUZZ_REFERENCE);
	struct ns_lines files = NS_LINES_INIT;
	struct ns_run_opts ro = { NS_DEVICES_LOOP, FUZZ_TIMEOUT, false, cli->config, true };
	struct ns_scenario **sc;
	struct dump_ctx d;

	for (int i = optind; i < argc; i++)
		ns_lines_push(&files, argv[i]);
	if (!files.n) {
		ns_lines_free(&files);
		bad("--play-dump needs scenario files");
		return EXIT_USAGE;
	}
	if (!be) {
		ns_lines_free(&files);
		bad("--play-dump: no backend of this nstest can be the reference side");
		return EXIT_USAGE;
	}
	if (!be->loop_standins || !be->loop_devices())
		ro.devices = NS_DEVICES_TMPFS;
	sc = parse_scenarios(&files);
	if (!sc || prepare_sandboxes(be, &ro, sc, files.n) < 0) {
		if (sc)
			free_scenarios(sc, &files);
		else
			ns_lines_free(&files);
		return EXIT_USAGE;
	}
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	d.sc = sc;
	ns_fuzz_play_scenarios(be, &ro, cli->jobs, sc, files.n, dump_one, &d);
	fflush(stdout);
	free_scenarios(sc, &files);
	return EXIT_PASS;
}

/* ---- the session --------------------------------------------------------- */

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* --out: a folder this process can write in, created if missing. */
static int check_out(const char *dir)
{
	struct stat st;
	char *probe;
	int fd;

	if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
		fprintf(stderr, "nstest fuzz: --out %s: cannot create the folder: %s\n", dir, strerror(errno));
		return -1;
	}
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "nstest fuzz: --out %s: not a folder\n", dir);
		return -1;
	}
	probe = xasprintf("%s/.nstest-fuzz-probe", dir);
	fd = open(probe, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		fprintf(stderr, "nstest fuzz: --out %s: cannot write in the folder: %s\n", dir, strerror(errno));
		free(probe);
		return -1;
	}
	close(fd);
	unlink(probe);
	free(probe);
	return 0;
}

/* Side b as the kernel image in a VM: ci/vm-run next to this program's
 * repository (found once into *vm_run), and this program (*self). */
static int vm_side(const char *image, unsigned jobs, struct ns_fuzz_side *b, char **vm_run,
		   char **self)
{
	char exe[4096];
	ssize_t l;
	char *dir;

	/* the image was found readable with the options */
	if (*vm_run)
		goto found;
	l = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (l <= 0) {
		fprintf(stderr, "nstest fuzz: --vs-kernel: cannot find this program: %s\n", strerror(errno));
		return -1;
	}
	exe[l] = '\0';
	*self = xstrdup(exe);
	dir = xstrdup(exe);
	*strrchr(dir, '/') = '\0';
	*vm_run = getenv("NSTEST_VM_RUN") ? xstrdup(getenv("NSTEST_VM_RUN"))
					  : xasprintf("%s/ci/vm-run", dir);
	free(dir);
	if (access(*vm_run, X_OK) < 0) {
		fprintf(stderr, "nstest fuzz: --vs-kernel: no ci/vm-run at %s (set NSTEST_VM_RUN)\n", *vm_run);
		return -1;
	}
found:
	memset(b, 0, sizeof(*b));
	b->label = "the kernel in a VM";
	b->be = NULL;
	b->jobs = jobs;
	b->image = image;
	b->vm_run = *vm_run;
	b->nstest = *self;
	return 0;
}

/* A backend of this process as side s, prepared: one that needs
 * privileges as `run` prepares it (rootless mode when it has none), any
 * other by its own set-up, which checks the configuration (its quirks).
 * 0, or -1 after saying why. */
static int local_side(const struct ns_backend *be, const struct fuzz_cli *cli,
		      struct ns_fuzz_side *s)
{
	struct ns_buf err = NS_BUF_INIT;

	*s = (struct ns_fuzz_side){ .label = be->name, .be = be, .jobs = cli->jobs,
				    .run = { NS_DEVICES_TMPFS, FUZZ_TIMEOUT, false, cli->config, true } };
	if (be->needs_privileges) {
		struct ns_run_opts loop = s->run;
		if (prepare_sandboxes(be, &s->run, NULL, 0) < 0)
			return -1;
		/* a case that mounts a device read-only and read-write falls
		 * back to loop stand-ins, as `nstest run` does: their image is
		 * made now, before any worker, where the host can make one */
		loop.devices = NS_DEVICES_LOOP;
		loop.userns = s->run.userns;
		if (be->loop_standins && !s->run.userns && be->loop_devices() && be->prepare &&
		    be->prepare(&loop, &err) < 0) {
			fprintf(stderr, "nstest fuzz: loop stand-ins: %s\n", ns_buf_str(&err));
			ns_buf_free(&err);
			return -1;
		}
		return 0;
	}
	if (be->prepare && be->prepare(&s->run, &err) < 0) {
		fprintf(stderr, "nstest fuzz: the %s backend: %s\n", be->name, ns_buf_str(&err));
		ns_buf_free(&err);
		return -1;
	}
	return 0;
}

/* Both sides, prepared: 0, or -1 after saying why. */
static int sides(struct fuzz_cli *cli, struct ns_fuzz_side *a, struct ns_fuzz_side *b,
		 char **vm_run, char **self)
{
	const struct ns_backend *first = cli->first ? cli->first : ns_backend_fuzz_default(NS_FUZZ_REFERENCE);
	const struct ns_backend *second = cli->vs ? cli->vs : ns_backend_fuzz_default(NS_FUZZ_MODEL);

	if (cli->nimages == 2)
		/* two kernels in VMs, one after the other (a VM at a time) */
		return vm_side(cli->images[0], cli->jobs, a, vm_run, self) < 0 ||
		       vm_side(cli->images[1], cli->jobs, b, vm_run, self) < 0 ? -1 : 0;
	if (!first || (!second && !cli->nimages)) {
		bad("no backend of this nstest can be the %s side; name one with %s", first ? "second" : "first",
		    first ? "--vs NAME or --vs-kernel IMAGE" : "--first NAME");
		return -1;
	}
	if (cli->quirks.len && !first->has_quirks && (cli->nimages || !second->has_quirks)) {
		bad("--quirk and --quirks need a side with quirks (--vs model), and neither %s nor %s has any",
		    first->name, cli->nimages ? "a VM" : second->name);
		return -1;
	}
	if (local_side(first, cli, a) < 0)
		return -1;
	if (cli->nimages) {
		/* as the guest plays them (play_dump) */
		if (first->loop_standins) {
			struct ns_buf err = NS_BUF_INIT;

			a->run.devices = NS_DEVICES_LOOP;
			if (prepare_sandboxes(first, &a->run, NULL, 0) < 0)
				return -1;
			if (first->prepare && first->prepare(&a->run, &err) < 0) {
				fprintf(stderr, "nstest fuzz: --vs-kernel: loop stand-ins: %s\n", ns_buf_str(&err));
				ns_buf_free(&err);
				return -1;
			}
		}
		return vm_side(cli->images[0], cli->jobs, b, vm_run, self);
	}
	if (second == first) {
		/* prepared once: --vs kernel asks for privileges once */
		*b = *a;
		return 0;
	}
	return local_side(second, cli, b);
}

/* The quirk spec with "kernel" resolved for release (and tmpfs-inode64
 * where the VM's tmpfs shows it, a build option): the quirks' names,
 * comma-separated ("" for none; heap), or NULL after saying why. The
 * model's own "kernel" means the running kernel's release, which is not
 * the one it is compared with when the other side is a VM. */
static char *quirks_for(const char *spec, const char *release, bool inode64)
{
	struct ns_buf err = NS_BUF_INIT, b = NS_BUF_INIT;
	unsigned mask;

	if (m_quirks_parse(spec, release, &mask, &err) < 0) {
		fprintf(stderr, "nstest fuzz: --quirks: %s\n", ns_buf_str(&err));
		ns_buf_free(&err);
		return NULL;
	}
	if (inode64)
		mask |= 1u << M_QUIRK_TMPFS_INODE64;
	for (int i = 0; i < M_QUIRK__COUNT; i++)
		if (mask & (1u << i))
			ns_buf_addf(&b, "%s%s", b.len ? "," : "", m_quirks[i].name);
	ns_buf_free(&err);
	return ns_buf_detach(&b);
}

/* What the run needs to know of its VM sides, and keeps until it ends. */
struct vm_info {
	char *release[2], *label[2];
	char *quirks, *quirks_text;     /* a model side's, resolved for a VM */
};

static void vm_info_free(struct vm_info *v)
{
	for (int i = 0; i < 2; i++) {
		free(v->release[i]);
		free(v->label[i]);
	}
	free(v->quirks);
	free(v->quirks_text);
}

/* Boot each VM side once to ask its features and release: the generator
 * writes only what every side has, each VM's label names its release,
 * and a model side's --quirks=kernel becomes the quirks of the VM's
 * release. 0, or -1 after saying why. */
static int probe_vms(struct fuzz_cli *cli, struct ns_fuzz_side *a, struct ns_fuzz_side *b,
		     struct vm_info *v)
{
	struct ns_fuzz_side *side[2] = { a, b }, *model = NULL;
	const char *vm_release = NULL;
	bool vm_inode64 = false;

	for (int i = 0; i < 2; i++) {
		struct ns_buf err = NS_BUF_INIT;
		unsigned mask;
		bool inode64;

		if (side[i]->be) {
			if (side[i]->be->has_quirks)
				model = side[i];
			continue;
		}
		if (ns_fuzz_vm_probe(side[i], &mask, &v->release[i], &inode64, &err) < 0) {
			fprintf(stderr, "nstest fuzz: --vs-kernel %s: %s\n", side[i]->image, ns_buf_str(&err));
			ns_buf_free(&err);
			return -1;
		}
		cli->o.gen.features &= mask;
		v->label[i] = xasprintf("the kernel in a VM (Linux %s)", v->release[i]);
		side[i]->label = v->label[i];
		vm_release = v->release[i];
		vm_inode64 = inode64;
	}
	if (model && vm_release && ns_list_has(model->run.config.quirks, "kernel")) {
		v->quirks = quirks_for(model->run.config.quirks, vm_release, vm_inode64);
		if (!v->quirks)
			return -1;
		model->run.config.quirks = v->quirks;
		v->quirks_text = xasprintf("%s (kernel, for Linux %s)", *v->quirks ? v->quirks : "none",
					   vm_release);
		cli->o.quirks = v->quirks_text;
	}
	return 0;
}

/* After each batch: on a terminal a live line, off one a plain line at
 * least every 10 s (progress.h), "k of N" with --count, the time left
 * with --time. */
static void on_progress(void *p, const struct ns_fuzz_report *r)
{
	struct progress *pr = p;

	snprintf(pr->extra, sizeof(pr->extra), "%.0f/s, %zu findings (%zu signatures)",
		 r->seconds > 0 ? (double)r->scenarios / r->seconds : 0.0, r->findings, r->nf);
	progress_update(pr, (size_t)r->scenarios, NULL);
}

static void summary(const struct fuzz_cli *cli, const struct ns_fuzz_side *a,
		    const struct ns_fuzz_side *b, const struct ns_fuzz_report *r)
{
	printf("fuzz: %" PRIu64 " scenarios in %.1f s (%.1f/s), %s vs %s, seed %" PRIu64 "%s\n",
	       r->scenarios, r->seconds, r->seconds > 0 ? (double)r->scenarios / r->seconds : 0.0,
	       a->label, b->label, cli->o.seed, r->interrupted ? ", interrupted" : "");
	printf("fuzz: %zu findings, %zu signatures, %zu causes (%zu unexplained)\n", r->findings,
	       r->nf, r->nc, r->unexplained);
	for (size_t i = 0; i < r->nf; i++)
		printf("  %zu x %s/%s: %s (%zu operations)\n", r->f[i].count, cli->o.out_dir,
		       r->f[i].file, r->f[i].what, r->f[i].ops);
	for (size_t i = 0; i < r->nc; i++)
		printf("  cause: %s: %zu findings, %zu signatures, first %s/%s\n", r->c[i].name,
		       r->c[i].findings, r->c[i].signatures, cli->o.out_dir,
		       r->c[i].file ? r->c[i].file : "?");
	if (r->shrink_spent)
		printf("fuzz: %zu findings kept the shrinking budget's result (%zu cases, or --time)\n",
		       r->shrink_spent, cli->o.shrink_candidates);
	if (r->unjudged)
		fprintf(stderr, "nstest fuzz: %" PRIu64 " scenarios could not be compared: %s\n",
			r->unjudged, r->unjudged_why);
}

static int session(struct fuzz_cli *cli)
{
	struct ns_fuzz_side a, b;
	struct ns_fuzz_report r;
	struct progress pr;
	struct ns_fuzz_hooks h = { &pr, on_progress };
	struct sigaction sa;
	struct vm_info vi = { { NULL, NULL }, { NULL, NULL }, NULL, NULL };
	char *vm_run = NULL, *self = NULL;
	int status;

	if (check_out(cli->o.out_dir) < 0)
		return EXIT_USAGE;
	if (sides(cli, &a, &b, &vm_run, &self) < 0) {
		free(vm_run);
		free(self);
		return EXIT_USAGE;
	}
	cli->o.options_text = ns_buf_str(&cli->options);
	cli->o.quirks = cli->config.quirks && *cli->config.quirks ? cli->config.quirks : "none";
	cli->o.gen.features = gen_features(a.be, b.be);
	if (probe_vms(cli, &a, &b, &vi) < 0) {
		vm_info_free(&vi);
		free(vm_run);
		free(self);
		return EXIT_USAGE;
	}
	if (!cli->o.batch)
		cli->o.batch = b.be ? 64 * cli->jobs : cli->o.count ? (size_t)(cli->o.count < 1000 ? cli->o.count : 1000) : 200;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sa.sa_flags = SA_RESETHAND; /* a second ^C ends the program */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	progress_init(&pr, true, isatty(STDERR_FILENO), "fuzz", "scenarios",
		      cli->o.count > SIZE_MAX ? 0 : (size_t)cli->o.count);
	pr.limit_s = cli->o.seconds;
	ns_fuzz_session(&a, &b, &cli->o, &interrupted, &h, &r);
	signal(SIGINT, SIG_DFL);
	progress_clear(&pr);
	summary(cli, &a, &b, &r);
	if (vi.quirks_text)
		printf("fuzz: the model's quirks: %s\n", vi.quirks_text);
	if (r.error)
		fprintf(stderr, "nstest fuzz: %s\n", r.error);
	status = r.interrupted ? 130 : r.error ? EXIT_USAGE : r.nf ? EXIT_FAILED :
		 r.unjudged && r.unjudged == r.scenarios ? EXIT_USAGE : EXIT_PASS;
	ns_fuzz_report_free(&r);
	vm_info_free(&vi);
	free(vm_run);
	free(self);
	return status;
}

int cmd_fuzz(int argc, char **argv)
{
	struct fuzz_cli cli;
	int status;

	memset(&cli, 0, sizeof(cli));
	if (parse_args(argc, argv, &cli) < 0)
		status = EXIT_USAGE;
	else if (cli.help)
		status = EXIT_PASS;
	else if (cli.print)
		status = print_scenarios(&cli);
	else if (cli.play_dump)
		status = play_dump(&cli, argc, argv);
	else if (cli.probe)
		status = print_probe();
	else
		status = session(&cli);
	ns_buf_free(&cli.quirks);
	ns_buf_free(&cli.options);
	return status;
}
