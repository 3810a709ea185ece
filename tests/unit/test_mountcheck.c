/* test_mountcheck.c - every field `listmount --check` compares must be
 * able to disagree, and agreement must print nothing. */
#include <string.h>

#include "mounts/mountcheck.h"
#include "tap.h"

static const char mountinfo[] =
	"20 19 0:30 / / rw,relatime - tmpfs /dev/sda1 rw\n"
	"21 20 0:31 / /a rw,relatime shared:5 - tmpfs /dev/sdb1 rw\n"
	"22 20 0:31 /sub /b\\040c rw,relatime master:5 propagate_from:7 - tmpfs /dev/sdb1 rw\n";

static struct ns_sm_view views[4];

static void reset(void)
{
	views[0] = (struct ns_sm_view){ 20, 19, 0, 30, 0, 0, 0, "/", "/" };
	views[1] = (struct ns_sm_view){ 21, 20, 0, 31, 5, 0, 0, "/", "/a" };
	views[2] = (struct ns_sm_view){ 22, 20, 0, 31, 0, 5, 7, "/sub", "/b c" };
}

static void expect_n(size_t n, const char *want, const char *what)
{
	struct ns_buf out = NS_BUF_INIT;

	ns_mountcheck(mountinfo, views, n, &out);
	is_str(ns_buf_str(&out), want, "%s", what);
	ns_buf_free(&out);
	reset();
}

static void expect(const char *want, const char *what)
{
	expect_n(3, want, what);
}

TEST(each_field)
{
	reset();
	expect("", "agreement prints nothing (escaped path, propagate_from shown)");
	views[1].parent_old = 19;
	expect("mount 21: parent: mountinfo 20, statmount 19\n", "wrong parent");
	views[1].minor = 32;
	expect("mount 21: minor: mountinfo 31, statmount 32\n", "wrong device");
	views[1].peer_group = 6;
	expect("mount 21: peer group: mountinfo 5, statmount 6\n", "wrong peer group");
	views[2].master = 8;
	expect("mount 22: master: mountinfo 5, statmount 8\n", "wrong master");
	views[2].propagate_from = 5;
	expect("mount 22: propagate_from: mountinfo 7, statmount 0\n", "propagate_from equal to master is not shown by mountinfo");
	views[2].root = "/other";
	expect("mount 22: root: mountinfo /sub, statmount /other\n", "wrong root");
	views[2].mount_point = "/b";
	expect("mount 22: mount point: mountinfo /b\\040c, statmount /b\n", "wrong mount point");
	views[2].id_old = 99;
	expect("mount 22: in mountinfo but not in listmount\n"
	       "mount 99: in listmount but not in mountinfo\n", "a mount statmount does not know, and one mountinfo does not show");
}

TEST(both_directions)
{
	struct ns_buf out = NS_BUF_INIT;

	reset();
	views[3] = (struct ns_sm_view){ 23, 20, 0, 31, 0, 0, 0, "/", "/d" };
	expect_n(4, "mount 23: in listmount but not in mountinfo\n", "a mount only listmount lists");
	views[1].id_old = 20;
	expect_n(3, "mount 21: in mountinfo but not in listmount\n"
		 "mount 20: in listmount but not in mountinfo\n", "two views of one ID: the record matches one, the other is extra");
	ns_mountcheck("20 19 0:30 / / rw,relatime - tmpfs /dev/sda1 rw\n"
		      "20 19 0:30 / / rw,relatime - tmpfs /dev/sda1 rw\n", views, 1, &out);
	is_str(ns_buf_str(&out), "mount 20: twice in mountinfo\n", "a record given twice");
	ns_buf_free(&out);
}
