/* test_fuzz_canon.c - the canonical form of mountinfo tables (fuzz/canon.h):
 * tables that differ only in numbering and order are equal, and each
 * rule has a case that would fail without it; tables that differ in a
 * propagation field, a root, an option or a parent are not. */
#include <stdlib.h>
#include <string.h>

#include "fuzz/canon.h"
#include "tap.h"

static char *canon(const char *text)
{
	struct ns_fuzz_groups g = NS_FUZZ_GROUPS_INIT;
	struct ns_buf b = NS_BUF_INIT;

	ns_fuzz_canon_mountinfo(text, &g, &b, NULL);
	ns_fuzz_groups_free(&g);
	return ns_buf_detach(&b);
}

static bool same(const char *x, const char *y)
{
	char *a = canon(x), *b = canon(y);
	bool r = !strcmp(a, b);

	free(a);
	free(b);
	return r;
}

static const char base[] =
	"61 60 0:40 / / rw,relatime shared:1 - tmpfs /dev/sda1 rw\n"
	"70 61 0:41 / /a rw,relatime shared:2 - tmpfs /dev/d1 rw\n"
	"71 61 0:42 / /b rw,relatime master:2 - tmpfs /dev/d2 rw\n"
	"72 70 0:41 /x /a/x rw,relatime shared:2 - tmpfs /dev/d1 rw\n";

TEST(numbering_and_order)
{
	/* every number different, lines in another order */
	ok(same(base,
		"990 5 0:99 / / rw,relatime shared:17 - tmpfs /dev/sda1 rw\n"
		"993 991 0:97 /x /a/x rw,relatime shared:40 - tmpfs /dev/d1 rw\n"
		"992 990 0:98 / /b rw,relatime master:40 - tmpfs /dev/d2 rw\n"
		"991 990 0:97 / /a rw,relatime shared:40 - tmpfs /dev/d1 rw\n"),
	   "numbering and order do not count");
}

/* Each rule alone. */
TEST(each_rule)
{
	ok(same(base,
		"61 60 0:40 / / rw,relatime shared:1 - tmpfs /dev/sda1 rw\n"
		"70 61 0:51 / /a rw,relatime shared:2 - tmpfs /dev/d1 rw\n"
		"71 61 0:52 / /b rw,relatime master:2 - tmpfs /dev/d2 rw\n"
		"72 70 0:51 /x /a/x rw,relatime shared:2 - tmpfs /dev/d1 rw\n"),
	   "MAJ:MIN is dropped");
	ok(same(base,
		"72 70 0:41 /x /a/x rw,relatime shared:2 - tmpfs /dev/d1 rw\n"
		"71 61 0:42 / /b rw,relatime master:2 - tmpfs /dev/d2 rw\n"
		"70 61 0:41 / /a rw,relatime shared:2 - tmpfs /dev/d1 rw\n"
		"61 60 0:40 / / rw,relatime shared:1 - tmpfs /dev/sda1 rw\n"),
	   "lines are sorted");
	ok(same(base,
		"161 60 0:40 / / rw,relatime shared:1 - tmpfs /dev/sda1 rw\n"
		"170 161 0:41 / /a rw,relatime shared:2 - tmpfs /dev/d1 rw\n"
		"171 161 0:42 / /b rw,relatime master:2 - tmpfs /dev/d2 rw\n"
		"172 170 0:41 /x /a/x rw,relatime shared:2 - tmpfs /dev/d1 rw\n"),
	   "mount IDs are renamed");
	ok(same(base,
		"61 60 0:40 / / rw,relatime shared:1 - tmpfs /dev/sda1 rw\n"
		"70 61 0:41 / /a rw,relatime shared:2 - tmpfs /dev/d1 rw\n"
		"71 61 0:42 / /b rw,relatime master:2 - tmpfs /dev/d2 rw\n"
		"72 70 0:41 /x /a/x rw,relatime shared:2 - tmpfs /dev/d1 rw\n"),
	   "a table equals itself");
	ok(same(base,
		"61 9 0:40 / / rw,relatime shared:1 - tmpfs /dev/sda1 rw\n"
		"70 61 0:41 / /a rw,relatime shared:2 - tmpfs /dev/d1 rw\n"
		"71 61 0:42 / /b rw,relatime master:2 - tmpfs /dev/d2 rw\n"
		"72 70 0:41 /x /a/x rw,relatime shared:2 - tmpfs /dev/d1 rw\n"),
	   "a parent outside the table is renamed");
	ok(same(base,
		"61 60 0:40 / / rw,relatime shared:8 - tmpfs /dev/sda1 rw\n"
		"70 61 0:41 / /a rw,relatime shared:3 - tmpfs /dev/d1 rw\n"
		"71 61 0:42 / /b rw,relatime master:3 - tmpfs /dev/d2 rw\n"
		"72 70 0:41 /x /a/x rw,relatime shared:3 - tmpfs /dev/d1 rw\n"),
	   "peer groups are renamed");
	/* two mounts at one mount point, told apart by their ancestry: the
	 * order they are listed in must not matter */
	ok(same("1 0 0:1 / / rw - tmpfs /dev/sda1 rw\n"
		"2 1 0:2 / /a rw shared:5 - tmpfs /dev/d1 rw\n"
		"3 2 0:3 / /a rw shared:6 - tmpfs /dev/d2 rw\n"
		"4 3 0:3 / /a/x rw - tmpfs /dev/d3 rw\n"
		"5 2 0:2 / /a/x rw - tmpfs /dev/d3 rw\n",
		"1 0 0:1 / / rw - tmpfs /dev/sda1 rw\n"
		"3 2 0:3 / /a rw shared:9 - tmpfs /dev/d2 rw\n"
		"5 2 0:2 / /a/x rw - tmpfs /dev/d3 rw\n"
		"2 1 0:2 / /a rw shared:7 - tmpfs /dev/d1 rw\n"
		"4 3 0:3 / /a/x rw - tmpfs /dev/d3 rw\n"),
	   "stacked mounts are ordered by their ancestry");
}

TEST(differences)
{
	ok(!same(base,
		 "61 60 0:40 / / rw,relatime shared:1 - tmpfs /dev/sda1 rw\n"
		 "70 61 0:41 / /a rw,relatime shared:2 - tmpfs /dev/d1 rw\n"
		 "71 61 0:42 / /b rw,relatime - tmpfs /dev/d2 rw\n"
		 "72 70 0:41 /x /a/x rw,relatime shared:2 - tmpfs /dev/d1 rw\n"),
	   "a propagation field that differs");
	ok(!same(base,
		 "61 60 0:40 / / rw,relatime shared:1 - tmpfs /dev/sda1 rw\n"
		 "70 61 0:41 / /a rw,relatime shared:2 - tmpfs /dev/d1 rw\n"
		 "71 61 0:42 / /b rw,relatime master:2 - tmpfs /dev/d2 rw\n"
		 "72 70 0:41 /x /a/x rw,relatime shared:3 - tmpfs /dev/d1 rw\n"),
	   "a peer group that differs");
	ok(!same(base,
		 "61 60 0:40 / / rw,relatime shared:1 - tmpfs /dev/sda1 rw\n"
		 "70 61 0:41 / /a rw,relatime shared:2 - tmpfs /dev/d1 rw\n"
		 "71 61 0:42 / /b rw,relatime master:2 - tmpfs /dev/d2 rw\n"
		 "72 70 0:41 / /a/x rw,relatime shared:2 - tmpfs /dev/d1 rw\n"),
	   "a root that differs");
	ok(!same(base,
		 "61 60 0:40 / / rw,relatime shared:1 - tmpfs /dev/sda1 rw\n"
		 "70 61 0:41 / /a ro,relatime shared:2 - tmpfs /dev/d1 rw\n"
		 "71 61 0:42 / /b rw,relatime master:2 - tmpfs /dev/d2 rw\n"
		 "72 70 0:41 /x /a/x rw,relatime shared:2 - tmpfs /dev/d1 rw\n"),
	   "an option that differs");
	ok(!same(base,
		 "61 60 0:40 / / rw,relatime shared:1 - tmpfs /dev/sda1 rw\n"
		 "70 61 0:41 / /a rw,relatime shared:2 - tmpfs /dev/d1 rw\n"
		 "71 61 0:42 / /b rw,relatime master:2 - tmpfs /dev/d2 rw\n"
		 "72 71 0:41 /x /a/x rw,relatime shared:2 - tmpfs /dev/d1 rw\n"),
	   "a parent that differs");
	ok(!same(base,
		 "61 60 0:40 / / rw,relatime shared:1 - tmpfs /dev/sda1 rw\n"
		 "70 61 0:41 / /a rw,relatime shared:2 - tmpfs /dev/d1 rw\n"
		 "71 61 0:42 / /b rw,relatime master:2 - tmpfs /dev/d3 rw\n"
		 "72 70 0:41 /x /a/x rw,relatime shared:2 - tmpfs /dev/d1 rw\n"),
	   "a source that differs");
	ok(!same(base,
		 "61 60 0:40 / / rw,relatime shared:1 - tmpfs /dev/sda1 rw\n"
		 "70 61 0:41 / /a rw,relatime shared:2 - tmpfs /dev/d1 rw\n"
		 "71 61 0:42 / /b rw,relatime master:2 - tmpfs /dev/d2 rw\n"),
	   "a mount missing");
}

/* One renaming of peer groups and mount IDs for the tables of a round. */
TEST(groups_across_tables)
{
	const char *t1 = "1 0 0:1 / / rw shared:5 - tmpfs /dev/sda1 rw\n";
	struct ns_fuzz_groups g = NS_FUZZ_GROUPS_INIT, h = NS_FUZZ_GROUPS_INIT;
	struct ns_buf a = NS_BUF_INIT, b = NS_BUF_INIT;

	ns_fuzz_canon_mountinfo(t1, &g, &a, NULL);
	ns_fuzz_canon_mountinfo("7 0 0:1 / / rw shared:5 - tmpfs /dev/sda1 rw\n", &g, &a, NULL);
	ns_fuzz_canon_mountinfo(t1, &h, &b, NULL);
	ns_fuzz_canon_mountinfo("7 0 0:1 / / rw shared:6 - tmpfs /dev/sda1 rw\n", &h, &b, NULL);
	ok(strcmp(ns_buf_str(&a), ns_buf_str(&b)) != 0,
	   "the same peer group in two tables is not a new one");
	is_str(ns_buf_str(&a), "1 p1 / / rw shared:g1 - stand-in /dev/sda1 rw\n2 p1 / / rw shared:g1 - stand-in /dev/sda1 rw\n",
	       "the canonical text: another mount, another name");
	ns_buf_free(&a);
	ns_buf_free(&b);
	ns_fuzz_groups_free(&g);
	ns_fuzz_groups_free(&h);
}

/* Two terminals in one namespace show the same mounts; in two, others. */
TEST(shared_namespaces)
{
	const char *t = "61 60 0:40 / / rw shared:1 - tmpfs /dev/sda1 rw\n"
			"70 61 0:41 / /a rw shared:2 - tmpfs /dev/d1 rw\n";
	const char *copy = "81 80 0:40 / / rw shared:1 - tmpfs /dev/sda1 rw\n"
			   "90 81 0:41 / /a rw shared:2 - tmpfs /dev/d1 rw\n";
	struct ns_fuzz_groups g = NS_FUZZ_GROUPS_INIT, h = NS_FUZZ_GROUPS_INIT;
	struct ns_buf one = NS_BUF_INIT, two = NS_BUF_INIT;

	ns_fuzz_canon_mountinfo(t, &g, &one, NULL);
	ns_fuzz_canon_mountinfo(t, &g, &one, NULL);
	ns_fuzz_canon_mountinfo(t, &h, &two, NULL);
	ns_fuzz_canon_mountinfo(copy, &h, &two, NULL);
	ok(strcmp(ns_buf_str(&one), ns_buf_str(&two)) != 0,
	   "a shared namespace and a copy of it do not look alike");
	is_str(ns_buf_str(&two), "1 p1 / / rw shared:g1 - stand-in /dev/sda1 rw\n2 1 / /a rw shared:g2 - stand-in /dev/d1 rw\n"
				 "3 p2 / / rw shared:g1 - stand-in /dev/sda1 rw\n4 3 / /a rw shared:g2 - stand-in /dev/d1 rw\n",
	       "the copy's mounts get names of their own");
	ns_buf_free(&one);
	ns_buf_free(&two);
	ns_fuzz_groups_free(&g);
	ns_fuzz_groups_free(&h);
}

/* The order of the lines, apart. */
TEST(order)
{
	struct ns_fuzz_groups g = NS_FUZZ_GROUPS_INIT;
	struct ns_buf c1 = NS_BUF_INIT, o1 = NS_BUF_INIT, c2 = NS_BUF_INIT, o2 = NS_BUF_INIT;

	ns_fuzz_canon_mountinfo(base, &g, &c1, &o1);
	ns_fuzz_groups_free(&g);
	ns_fuzz_canon_mountinfo("61 60 0:40 / / rw,relatime shared:1 - tmpfs /dev/sda1 rw\n"
				"72 70 0:41 /x /a/x rw,relatime shared:2 - tmpfs /dev/d1 rw\n"
				"70 61 0:41 / /a rw,relatime shared:2 - tmpfs /dev/d1 rw\n"
				"71 61 0:42 / /b rw,relatime master:2 - tmpfs /dev/d2 rw\n", &g, &c2, &o2);
	ns_fuzz_groups_free(&g);
	is_str(ns_buf_str(&c1), ns_buf_str(&c2), "the same mounts in another order: one canonical table");
	is_str(ns_buf_str(&o1), "1 2 4 3\n", "the order of the table as printed, by canonical name");
	is_str(ns_buf_str(&o2), "1 3 2 4\n", "another order, another line");
	ns_buf_free(&c1);
	ns_buf_free(&o1);
	ns_buf_free(&c2);
	ns_buf_free(&o2);
}

/* A stand-in's type and superblock options are the run's, not a mount's. */
TEST(standins)
{
	ok(same("61 60 0:40 / / rw,relatime - tmpfs /dev/sda1 rw,inode64\n",
		"61 60 7:0 / / rw,relatime - ext4 /dev/sda1 rw\n"),
	   "a tmpfs stand-in and a loop one of the same device are alike");
	ok(!same("61 60 0:40 / / rw,relatime - tmpfs /dev/sda1 rw\n",
		 "61 60 7:0 / / rw,relatime - ext4 /dev/sda1 ro\n"),
	   "but not in their read-only state");
	ok(!same("61 60 0:40 / / rw,relatime - tmpfs tmpfs rw\n",
		 "61 60 7:0 / / rw,relatime - ramfs tmpfs rw\n"),
	   "and a filesystem mounted by type keeps its type");
}

TEST(other_lines)
{
	char *c = canon("cat: ENOENT (No such file or directory)\n");

	is_str(c, "cat: ENOENT (No such file or directory)\n", "a line that is no record is kept");
	free(c);
	c = canon("");
	is_str(c, "", "an empty table");
	free(c);
}
