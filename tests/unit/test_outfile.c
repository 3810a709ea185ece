/* test_outfile.c - files written whole or not at all (base/outfile.h): a
 * commit puts the text in place with the old file's mode, through a
 * symlink; an abort or a failed write leaves the old file as it was and
 * no temporary file; a device is written in place and its errors, with
 * their errno, are not lost. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/outfile.h"
#include "base/util.h"
#include "tap.h"

static char *tmpdir(void)
{
	char *d = xstrdup("/tmp/nstest-outfile-XXXXXX");

	if (!mkdtemp(d))
		abort();
	return d;
}

/* The names in dir, sorted, one a line. */
static char *names(const char *dir)
{
	struct ns_lines l = NS_LINES_INIT;
	struct ns_buf b = NS_BUF_INIT;
	struct dirent *e;
	DIR *d = opendir(dir);

	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			ns_lines_push(&l, e->d_name);
	if (d)
		closedir(d);
	ns_lines_sort(&l);
	for (size_t i = 0; i < l.n; i++)
		ns_buf_addf(&b, "%s\n", l.v[i]);
	ns_lines_free(&l);
	return ns_buf_detach(&b);
}

static char *slurp(const char *path)
{
	char *data = NULL;
	size_t len;

	if (ns_read_file(path, 1 << 20, &data, &len) < 0)
		return xstrdup("(unreadable)");
	return data;
}

TEST(commit_writes_a_new_file_and_nothing_else)
{
	char *d = tmpdir(), *p = xasprintf("%s/r.json", d), *got, *ls;
	struct ns_outfile o;

	ok(ns_outfile_open(&o, p) == 0, "opened");
	fputs("{\"a\": 1}\n", o.f);
	ls = names(d);
	is_str(ls, "", "nothing named in the folder before the commit");
	free(ls);
	ok(ns_outfile_commit(&o) == 0, "committed");
	got = slurp(p);
	is_str(got, "{\"a\": 1}\n", "the text is in place");
	ls = names(d);
	is_str(ls, "r.json\n", "no temporary file left");
	free(ls);
	free(got);
	unlink(p);
	rmdir(d);
	free(p);
	free(d);
}

TEST(replacing_keeps_the_mode_and_abort_keeps_the_file)
{
	char *d = tmpdir(), *p = xasprintf("%s/r", d), *got, *ls;
	struct ns_outfile o;
	struct stat st;

	ok(ns_write_file_atomic(p, "old\n", 4) == 0, "first version");
	chmod(p, 0640);
	ok(ns_outfile_open(&o, p) == 0, "opened again");
	fputs("half of a new one", o.f);
	ns_outfile_abort(&o);
	got = slurp(p);
	is_str(got, "old\n", "an abort leaves the old text");
	free(got);
	ls = names(d);
	is_str(ls, "r\n", "and no temporary file");
	free(ls);
	ok(ns_write_file_atomic(p, "new\n", 4) == 0, "second version");
	got = slurp(p);
	is_str(got, "new\n", "replaced");
	free(got);
	ok(stat(p, &st) == 0 && (st.st_mode & 07777) == 0640, "with the old mode (%o)", st.st_mode & 07777);
	unlink(p);
	rmdir(d);
	free(p);
	free(d);
}

TEST(a_symlink_is_followed)
{
	char *d = tmpdir(), *p = xasprintf("%s/real", d), *l = xasprintf("%s/link", d), *got;
	struct stat st;

	ok(ns_write_file_atomic(p, "old\n", 4) == 0, "the file");
	ok(symlink("real", l) == 0, "a link to it");
	ok(ns_write_file_atomic(l, "new\n", 4) == 0, "written through the link");
	got = slurp(p);
	is_str(got, "new\n", "the file has the text");
	free(got);
	ok(lstat(l, &st) == 0 && S_ISLNK(st.st_mode), "the link is still a link");
	unlink(l);
	unlink(p);
	rmdir(d);
	free(l);
	free(p);
	free(d);
}

TEST(devices_are_written_in_place_and_their_errors_kept)
{
	struct ns_outfile o;
	struct stat st;

	ok(ns_write_file_atomic("/dev/null", "x\n", 2) == 0, "/dev/null takes it");
	ok(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode), "and is still a device");
	if (stat("/dev/full", &st) < 0) {
		ok(1, "# SKIP no /dev/full");
		return;
	}
	ok(ns_outfile_open(&o, "/dev/full") == 0, "/dev/full opens");
	for (int i = 0; i < 10000; i++)
		fprintf(o.f, "line %d\n", i); /* past stdio's buffer: the write fails early */
	ok(ns_outfile_commit(&o) == -ENOSPC, "the commit says ENOSPC, the first write's error");
}

TEST(a_missing_folder_is_an_error_at_open)
{
	struct ns_outfile o;

	ok(ns_outfile_open(&o, "/nonexistent-nstest-dir/r") == -ENOENT, "ENOENT");
	ok(ns_write_file_atomic("/nonexistent-nstest-dir/r", "x", 1) == -ENOENT, "ENOENT again");
}
