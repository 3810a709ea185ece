/* vm.c - see vm.h. ci/vm-run copies the files named on its command line
 * into the guest at the same paths, runs nstest there, and passes its
 * standard output through. */
#include "fuzz/vm.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz/dump.h"
#include "fuzz/play.h"

static int write_cases(const char *dir, const struct ns_fuzz_case *cases, size_t n,
		       struct ns_lines *files, struct ns_buf *err)
{
	for (size_t i = 0; i < n; i++) {
		struct ns_buf text = NS_BUF_INIT;
		char *path = xasprintf("%s/case-%06zu.scn", dir, i);
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), r;

		ns_fuzz_case_text(&cases[i], "fuzz case", &text);
		r = fd < 0 ? -errno : ns_write_all(fd, text.data, text.len);
		if (fd >= 0 && close(fd) < 0 && r == 0)
			r = -errno;
		ns_buf_free(&text);
		if (r < 0) {
			ns_buf_addf(err, "writing %s: %s", path, strerror(-r));
			free(path);
			return -1;
		}
		ns_lines_push(files, path);
		free(path);
	}
	return 0;
}

/* The start of a command line that runs `nstest fuzz` in s's VM, which
 * plays n scenarios (0: the probe), with s's workers (-j) and a CPU for
 * each, up to this host's. vm-run's timeout (600 s, or NSTEST_VM_TIMEOUT)
 * grows by 2 s a scenario past the first 100, so that a long batch on a
 * loaded host is no lost boot: the timeout only ever ends a hung guest,
 * with no verdict, never a finding. */
static void guest_fuzz(const struct ns_fuzz_side *s, size_t n, struct ns_lines *argv)
{
	ns_lines_push(argv, s->vm_run);
	ns_lines_push(argv, "--nstest");
	ns_lines_push(argv, s->nstest);
	if (n > 100 && !getenv("NSTEST_VM_TIMEOUT")) {
		char t[32];
		snprintf(t, sizeof(t), "--timeout=%zu", 600 + 2 * (n - 100));
		ns_lines_push(argv, t);
	}
	if (n && s->jobs > 1) {
		/* -j N in the guest, on as many CPUs as it and this host have */
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		char o[32];
		snprintf(o, sizeof(o), "--smp=%ld", cpus > 0 && cpus < (long)s->jobs ? cpus : (long)s->jobs);
		ns_lines_push(argv, o);
	}
	ns_lines_push(argv, s->image);
	ns_lines_push(argv, "--");
	ns_lines_push(argv, "fuzz");
	if (n && s->jobs > 1) {
		char j[32];
		snprintf(j, sizeof(j), "-j%u", s->jobs);
		ns_lines_push(argv, j);
	}
}

/* Run argv with its standard output into *out; its exit status. */
static int run_capture(char *const *argv, struct ns_buf *out, struct ns_buf *err)
{
	int p[2], status = 0;
	char chunk[65536];
	ssize_t got;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0) {
		ns_buf_addf(err, "pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		ns_buf_addf(err, "fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		dup2(p[1], STDOUT_FILENO);
		execv(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	while ((got = read(p[0], chunk, sizeof(chunk))) > 0 || (got < 0 && errno == EINTR))
		if (got > 0)
			ns_buf_add(out, chunk, (size_t)got);
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void remove_all(const char *dir, const struct ns_lines *files)
{
	for (size_t i = 0; i < files->n; i++)
		unlink(files->v[i]);
	rmdir(dir);
}

int ns_fuzz_vm_play(const struct ns_fuzz_side *s, const struct ns_fuzz_case *cases, size_t n,
		    struct ns_fuzz_outcome *out, struct ns_buf *err)
{
	char dir[] = "/tmp/nstest-fuzz-vm.XXXXXX";
	struct ns_lines files = NS_LINES_INIT, argv = NS_LINES_INIT;
	struct ns_buf text = NS_BUF_INIT;
	struct ns_run *runs;
	bool *skipped, *unparsed = xcalloc(n ? n : 1, sizeof(*unparsed));
	struct ns_fuzz_case *ok = NULL;
	size_t m = 0;
	int status, r = -1;

	if (!mkdtemp(dir)) {
		ns_buf_addf(err, "a temporary folder for the VM's scenarios: %s", strerror(errno));
		return -1;
	}
	runs = xcalloc(n ? n : 1, sizeof(*runs));
	skipped = xcalloc(n ? n : 1, sizeof(*skipped));
	/* a shrinker's candidate that does not parse (a terminal it dropped
	 * is named) is no candidate: the guest gets the others only, since
	 * one file it refuses would fail the whole boot */
	ok = xcalloc(n ? n : 1, sizeof(*ok));
	for (size_t i = 0; i < n; i++) {
		struct ns_buf why = NS_BUF_INIT;
		struct ns_scenario *sc = ns_fuzz_case_scenario(&cases[i], "fuzz-case.scn", &why);
		if (sc) {
			ok[m++] = cases[i];
			ns_scenario_free(sc);
		} else {
			memset(&out[i], 0, sizeof(out[i]));
			out[i].unparsed = true;
			out[i].aborted = ns_buf_detach(&why);
			unparsed[i] = true;
		}
		ns_buf_free(&why);
	}
	if (write_cases(dir, ok, m, &files, err) < 0)
		goto out;
	if (!m) {
		r = 0;          /* nothing left to boot for */
		goto out;
	}
	guest_fuzz(s, m, &argv);
	ns_lines_push(&argv, "--play-dump");
	for (size_t i = 0; i < files.n; i++)
		ns_lines_push(&argv, files.v[i]);
	ns_lines_push(&argv, "");
	free(argv.v[argv.n - 1]);
	argv.v[argv.n - 1] = NULL;
	status = run_capture(argv.v, &text, err);
	if (status != 0) {
		if (status > 0)
			ns_buf_addf(err, "%s %s gave no results (exit status %d)", s->vm_run,
				    s->image, status);
		goto out;
	}
	if (ns_fuzz_undump(ns_buf_str(&text), text.len, runs, skipped, m, err) < 0)
		goto out;
	for (size_t i = 0, k = 0; i < n; i++) {
		struct ns_fuzz_plan p;
		if (unparsed[i])
			continue;
		ns_fuzz_case_plan(&cases[i], &p);
		ns_fuzz_outcome_take(&out[i], skipped[k] ? NULL : &runs[k], &p);
		ns_fuzz_plan_free(&p);
		k++;
	}
	r = 0;
out:
	for (size_t i = 0; i < m; i++)
		ns_run_free(&runs[i]);
	free(runs);
	free(skipped);
	free(unparsed);
	free(ok);
	ns_buf_free(&text);
	remove_all(dir, &files);
	ns_lines_free(&files);
	ns_lines_free(&argv);
	return r;
}

/* FNV-1a over the file at path into *h: 0, or -1. */
static int hash_file(const char *path, uint64_t *h)
{
	char chunk[65536];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t got;

	if (fd < 0)
		return -1;
	while ((got = read(fd, chunk, sizeof(chunk))) > 0 || (got < 0 && errno == EINTR))
		for (ssize_t i = 0; i < got; i++)
			*h = (*h ^ (unsigned char)chunk[i]) * 0x100000001b3ULL;
	close(fd);
	return got < 0 ? -1 : 0;
}

/* Where the probe of s is kept: a file named by the contents of the
 * kernel image, of the nstest that probes it and of the vm-run that
 * boots it, in NSTEST_VM_CACHE (as ci/vm-run has it) /probe. NULL when
 * a file cannot be read. */
static char *probe_cache(const struct ns_fuzz_side *s)
{
	const char *paths[] = { s->image, s->nstest, s->vm_run };
	const char *dir = getenv("NSTEST_VM_CACHE"), *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	uint64_t h = 0xcbf29ce484222325ULL;
	char *base;

	for (size_t i = 0; i < NS_ARRAY_SIZE(paths); i++)
		if (hash_file(paths[i], &h) < 0)
			return NULL;
	if (dir && *dir)
		base = xstrdup(dir);
	else if (xdg && *xdg)
		base = xasprintf("%s/nstest", xdg);
	else if (home && *home)
		base = xasprintf("%s/.cache/nstest", home);
	else
		return NULL;
	char *path = xasprintf("%s/probe/%016llx", base, (unsigned long long)h);
	free(base);
	return path;
}

/* Keep text (the probe's three lines) at path, whole or not at all. */
static void probe_keep(const char *path, const char *text)
{
	char *dir = xstrdup(path), *tmp = xasprintf("%s.%ld", path, (long)getpid());
	int fd;

	*strrchr(dir, '/') = '\0';
	if (mkdir(dir, 0755) < 0 && errno == ENOENT) {
		/* the cache folder itself first */
		char *up = xstrdup(dir);
		*strrchr(up, '/') = '\0';
		mkdir(up, 0755);
		mkdir(dir, 0755);
		free(up);
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0) {
		int w = ns_write_all(fd, text, strlen(text));
		if (close(fd) == 0 && w == 0 && rename(tmp, path) == 0) {
			free(tmp);
			free(dir);
			return;
		}
		unlink(tmp);
	}
	free(tmp);
	free(dir);
}

/* The probe's lines in text: 0, or -1 if features or release lack. */
static int probe_parse(const char *text, unsigned *mask, char **release, bool *inode64)
{
	bool have_mask = false;

	/* the guest's "features N", "release R" and "tmpfs-inode64 0|1"
	 * lines, wherever they stand among what else it printed */
	for (const char *p = text; *p; ) {
		size_t l = strcspn(p, "\n");
		char *line = xstrndup(p, l), *end;

		if (!strncmp(line, "features ", 9)) {
			unsigned long v = strtoul(line + 9, &end, 10);
			if (end != line + 9 && !*end) {
				*mask = (unsigned)v;
				have_mask = true;
			}
		} else if (!strcmp(line, "tmpfs-inode64 1")) {
			*inode64 = true;
		} else if (!strncmp(line, "release ", 8) && line[8]) {
			free(*release);
			*release = xstrdup(line + 8);
		}
		free(line);
		p += l;
		p += *p == '\n';
	}
	if (have_mask && *release)
		return 0;
	free(*release);
	*release = NULL;
	return -1;
}

int ns_fuzz_vm_probe(const struct ns_fuzz_side *s, unsigned *mask, char **release,
		     bool *inode64, struct ns_buf *err)
{
	struct ns_lines argv = NS_LINES_INIT;
	struct ns_buf text = NS_BUF_INIT;
	char *cache = probe_cache(s), *kept = NULL;
	size_t len;
	int status;

	*release = NULL;
	*inode64 = false;
	/* the same image, nstest and vm-run say the same: no boot */
	if (cache && ns_read_file(cache, 4096, &kept, &len) == 0 &&
	    probe_parse(kept, mask, release, inode64) == 0) {
		free(kept);
		free(cache);
		return 0;
	}
	free(kept);
	*inode64 = false;
	guest_fuzz(s, 0, &argv);
	ns_lines_push(&argv, "--probe");
	ns_lines_push(&argv, "");
	free(argv.v[argv.n - 1]);
	argv.v[argv.n - 1] = NULL;
	status = run_capture(argv.v, &text, err);
	if (status == 0 && probe_parse(ns_buf_str(&text), mask, release, inode64) == 0) {
		if (cache) {
			char *lines = xasprintf("features %u\nrelease %s\ntmpfs-inode64 %d\n", *mask,
						*release, *inode64);
			probe_keep(cache, lines);
			free(lines);
		}
	} else {
		free(*release);
		*release = NULL;
		if (status >= 0)
			ns_buf_addf(err, "%s %s: its features and release could not be read (exit status %d)",
				    s->vm_run, s->image, status);
	}
	free(cache);
	ns_buf_free(&text);
	ns_lines_free(&argv);
	return *release ? 0 : -1;
}
