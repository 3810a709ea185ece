/* test_match_free.c - free fields (match/match_free.c): ls -l's sizes and
 * dates, df's and findmnt -D's sizes and percentages match any value of
 * their form, while everything else on the line (mode, links, owner,
 * names, mount points) must be equal; a free field of another form, or a
 * word that is no value, fails. Every rule has a test that makes it
 * fail. */
#include <stdlib.h>
#include <string.h>

#include "commands/ls_layout.h"
#include "match/canonical.h"
#include "match/match.h"
#include "step.h"
#include "tap.h"

#define L(...) ((const char *const[]){ __VA_ARGS__, NULL })

static bool run1(const struct ns_match_shape *sh, const char *const *exp, const char *actual)
{
	struct ns_matcher *m = ns_matcher_new();
	bool ok = match_step(m, sh, exp, false, actual, NULL);

	ns_matcher_free(m);
	return ok;
}

static struct ns_match_shape ls_shape(void)
{
	struct ns_match_shape sh;

	ns_ls_long_shape(&sh);
	return sh;
}

/* df -h's columns: Filesystem Size Used Avail Use% Mounted on */
static struct ns_match_shape df_shape(void)
{
	struct ns_match_shape sh;

	memset(&sh, 0, sizeof(sh));
	sh.form = NS_MATCH_WORDS;
	sh.ncols = 6;
	sh.cols[1] = sh.cols[2] = sh.cols[3] = NS_MATCH_COL_SIZE;
	sh.cols[4] = NS_MATCH_COL_PERCENT;
	return sh;
}

static const char *const ls_block[] = {
	"total 8",
	"drwxr-xr-x 2 root root   40 Jan  1 00:00 a",
	"-rw-r--r-- 1 root root 4096 Jan  1  1970 f",
	"lrwxrwxrwx 1 root root    2 Jan  1 00:00 l -> /a",
	NULL,
};

TEST(ls_dates_and_sizes_free)
{
	struct ns_match_shape sh = ls_shape();

	ok(run1(&sh, ls_block,
		"total 0\n"
		"drwxr-xr-x 2 root root 60 Dec  7 19:04 a\n"
		"-rw-r--r-- 1 root root  0 Dec  7 19:04 f\n"
		"lrwxrwxrwx 1 root root  2 Dec  7 19:04 l -> /a\n"),
	   "ls -l: other dates, sizes and totals, and the widths they make, match");
	ok(run1(&sh, L("-rw-r--r-- 1 root root 7.8K 2026-12-07 19:04 f"),
		"-rw-r--r-- 1 root root 0 Dec  7 19:04 f\n"),
	   "ls -l: a scaled size and a long-iso date match");
	ok(!run1(&sh, L("-rw-r--r-- 1 root root 0 Dec  7 19:04 f"),
		 "-rw-r--r-- 1 root root 0 Dec  7 19:04 g\n"),
	   "ls -l: another name fails");
	ok(!run1(&sh, L("-rw-r--r-- 1 root root 0 Dec  7 19:04 l -> /a"),
		 "-rw-r--r-- 1 root root 0 Dec  7 19:04 l -> /b\n"),
	   "ls -l: another link target fails");
}

TEST(ls_facts_literal)
{
	struct ns_match_shape sh = ls_shape();
	const char *act = "drwxr-xr-x 2 root root 40 Dec  7 19:04 a\n";

	ok(run1(&sh, L("drwxr-xr-x 2 root root 40 Dec  7 19:04 a"), act), "ls -l: as printed");
	ok(!run1(&sh, L("drwxrwxrwt 2 root root 40 Dec  7 19:04 a"), act), "ls -l: another mode fails");
	ok(!run1(&sh, L("drwxr-xr-x 3 root root 40 Dec  7 19:04 a"), act),
	   "ls -l: another link count fails");
	ok(!run1(&sh, L("drwxr-xr-x 2 nobody root 40 Dec  7 19:04 a"), act),
	   "ls -l: another owner fails");
	ok(!run1(&sh, L("drwxr-xr-x 2 root nogroup 40 Dec  7 19:04 a"), act),
	   "ls -l: another group fails");
	ok(!run1(&sh, L("drwxr-xr-x 2 root root forty Dec  7 19:04 a"), act),
	   "ls -l: a size that is no number fails");
	ok(!run1(&sh, L("drwxr-xr-x 2 root root 40 yesterday a"), act),
	   "ls -l: a date that is no date fails");
	ok(!run1(&sh, L("drwxr-xr-x 2 root root 40 Dec  7 19:04"), act),
	   "ls -l: a row without its name fails");
	ok(!run1(&sh, L("total 4"), "total x\n"), "ls -l: a total that is no number fails");
	ok(!run1(&sh, L("totals 4"), "total 4\n"), "ls -l: another word than total fails");
}

TEST(df_free)
{
	struct ns_match_shape sh = df_shape();
	const char *const *exp = L("Filesystem      Size  Used Avail Use% Mounted on",
				   "/dev/sda1       7.8G     0  7.8G   0% /",
				   "/dev/sdb6       1.0M  4.0K 1020K   1% /mnt");
	const char *act = "Filesystem      Size  Used Avail Use% Mounted on\n"
			  "/dev/sda1        16G     0   16G   0% /\n"
			  "/dev/sdb6        16G     0   16G   0% /mnt\n";

	ok(run1(&sh, exp, act), "df: other sizes and percentages match");
	ok(!run1(&sh, exp, "Filesystem      Size  Used Avail Use% Mounted on\n"
			   "/dev/sda1        16G     0   16G   0% /\n"
			   "/dev/sdb6        16G     0   16G   0% /mnt2\n"),
	   "df: another mount point fails");
	ok(!run1(&sh, exp, "Filesystem      Size  Used Avail Use% Mounted on\n"
			   "/dev/sda1        16G     0   16G   0% /\n"
			   "/dev/sdb7        16G     0   16G   0% /mnt\n"),
	   "df: another filesystem fails");
	ok(!run1(&sh, L("/dev/sda1 16G 0 16G 0% /"), "/dev/sda1 16G 0 16G 0 /\n"),
	   "df: a percentage without its %% fails");
	ok(!run1(&sh, L("/dev/sda1 16G 0 16G 0% /"), "/dev/sda1 16G 0% 16G 0% /\n"),
	   "df: a percentage where a size goes fails");
	ok(!run1(&sh, L("/dev/sda1 16G 0 16G 0% /"), "/dev/sda1 16G 0 16G 0% / /x\n"),
	   "df: more after the mount point fails");
}

TEST(findmnt_df_free)
{
	struct ns_match_shape sh;
	const char *const *exp = L("SOURCE    FSTYPE SIZE USED AVAIL USE% TARGET",
				   "/dev/sdb6 tmpfs  1.0M    0  1.0M   0% /mnt");

	memset(&sh, 0, sizeof(sh));
	sh.form = NS_MATCH_TABLE;
	sh.heading = true;
	sh.ncols = 7;
	sh.cols[2] = sh.cols[3] = sh.cols[4] = NS_MATCH_COL_SIZE;
	sh.cols[5] = NS_MATCH_COL_PERCENT;
	ok(run1(&sh, exp, "SOURCE    FSTYPE  SIZE USED AVAIL USE% TARGET\n"
			  "/dev/sdb6 tmpfs  15.6G    0 15.6G   0% /mnt\n"),
	   "findmnt -D: other sizes and their widths match");
	ok(!run1(&sh, exp, "SOURCE    FSTYPE  SIZE USED AVAIL USE% TARGET\n"
			   "/dev/sdb6 tmpfs  15.6G    0 15.6G   0% /mnt2\n"),
	   "findmnt -D: another target fails");
	ok(!run1(&sh, exp, "SOURCE    FSTYPE  SIZE USED AVAIL USE% TARGET\n"
			   "/dev/sdb6 ramfs  15.6G    0 15.6G   0% /mnt\n"),
	   "findmnt -D: another type fails");
}

/* The canonical form, which ci/ compares across kernels, shows a free
 * field as "*": no run's value. */
TEST(canonical)
{
	struct ns_match_shape sh = ls_shape();
	struct ns_canon *c = ns_canon_new(false);
	struct ns_buf a = NS_BUF_INIT, b = NS_BUF_INIT;

	ns_canon_step(c, "-rw-r--r-- 1 root root 0 Dec  7 19:04 f\n", &sh, NULL, NULL, &a);
	ns_canon_step(c, "-rw-r--r-- 1 root root 4096 Jan  1  1970 f\n", &sh, NULL, NULL, &b);
	is_str(ns_buf_str(&a), ns_buf_str(&b), "canonical: two runs' sizes and dates are one form");
	ok(strstr(ns_buf_str(&a), "root root * * f") != NULL, "canonical: free fields as *");
	ns_buf_free(&a);
	ns_buf_free(&b);
	ns_canon_free(c);
}

/* A failed step's diff writes an actual line's free fields as the line
 * it stands against writes them, so that only the real difference shows;
 * a line without its counterpart keeps its own. */
TEST(diff)
{
	struct ns_match_shape sh = ls_shape();
	struct ns_matcher *m = ns_matcher_new();
	char *diff = NULL;

	ok(!match_step(m, &sh, L("drwxr-xr-x 2 root root 40 Jan  1  1970 a"), false,
			"drwxrwxrwt 2 root root 4096 Dec  7 19:04 a\n"
			"-rw-r--r-- 1 root root 5 Dec  7 19:04 f\n", &diff),
	   "diff: a wrong mode fails");
	ok(diff && strstr(diff, "\n+drwxrwxrwt 2 root root 40 Jan  1  1970 a\n"),
	   "diff: the changed line shows the expected size and date: %s", diff ? diff : "");
	ok(diff && strstr(diff, "\n+-rw-r--r-- 1 root root 5 Dec  7 19:04 f\n"),
	   "diff: an added line keeps its own");
	free(diff);
	ns_matcher_free(m);
}
