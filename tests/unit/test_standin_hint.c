/* test_standin_hint.c - a diff that differs only in what the stand-in mode
 * decides gets a hint naming the other mode; anything else gets none. */
#include <stdlib.h>

#include "run/standin_hint.h"
#include "tap.h"

#define TO_LOOP "the lines differ only in filesystem type and what comes with it: " \
		"written for loop stand-ins, run on tmpfs ones; try --devices=loop"
#define TO_TMPFS "the lines differ only in filesystem type and what comes with it: " \
		 "written for tmpfs stand-ins, run on loop ones; try --devices=tmpfs"

static void check(const char *diff, const char *want, const char *what)
{
	char *got = ns_standin_hint(diff);

	if (want)
		is_str(got, want, "%s", what);
	else
		ok(got == NULL, "%s: no hint (got \"%s\")", what, got ? got : "");
	free(got);
}

TEST(hints)
{
	check("--- expected\n+++ actual\n@@ -1,2 +1,2 @@\n"
	      "-1 0 7:0 / / rw,relatime - ext4 /dev/sda1 rw\n"
	      "-2 1 7:1 / /a rw,relatime - ext4 /dev/sdb1 rw\n"
	      "+48 45 0:40 / / rw,relatime - tmpfs /dev/sda1 rw,size=1024k\n"
	      "+46 48 0:41 / /a rw,relatime - tmpfs /dev/sdb1 rw\n",
	      TO_LOOP, "mountinfo: numbers, type and superblock options differ");
	check("--- expected\n+++ actual\n"
	      "-/dev/sdb1 on /a type tmpfs (rw,relatime)\n"
	      "+/dev/sdb1 on /a type ext2 (rw,relatime)\n",
	      TO_TMPFS, "mount(8) lines, the other way round");
	check("--- expected\n+++ actual\n TARGET FSTYPE\n"
	      "-/      ext4\n-└─/a   ext4\n+/      tmpfs\n+└─/a   tmpfs\n",
	      TO_LOOP, "findmnt columns of another width");
	check("--- expected\n+++ actual\n@@ -5,4 +5,4 @@\n"
	      "          \"source\": \"/dev/sdb1\",\n"
	      "-         \"fstype\": \"ext4\",\n"
	      "-         \"maj:min\": \"7:1\"\n"
	      "+         \"fstype\": \"tmpfs\",\n"
	      "+         \"maj:min\": \"0:41\"\n",
	      TO_LOOP, "findmnt -J: the type and device quoted");
	check("--- expected\n+++ actual\n"
	      "-         \"fstype\": \"ext4\",\n"
	      "+         \"fstype\": \"tmpfs\"\n",
	      NULL, "findmnt -J: a comma differs too");
	check("--- expected\n+++ actual\n"
	      "-2 1 7:1 / /a rw,relatime shared:1 - ext4 /dev/sdb1 rw\n"
	      "+46 48 0:41 / /a rw,relatime - tmpfs /dev/sdb1 rw\n",
	      NULL, "a propagation field differs too");
	check("--- expected\n+++ actual\n"
	      "-/dev/sdb1 on /a type tmpfs (rw,relatime)\n"
	      "+/dev/sdb1 on /a type tmpfs (ro,relatime)\n",
	      NULL, "the same type: the mode is not the cause");
	check("--- expected\n+++ actual\n"
	      "-/dev/sdb1 on /a type ext4 (rw,relatime)\n"
	      "-/dev/sdb2 on /b type ext4 (rw,relatime)\n"
	      "+/dev/sdb1 on /a type tmpfs (rw,relatime)\n",
	      NULL, "a line missing");
	check("--- expected\n+++ actual\n"
	      "-/dev/sdb1 on /a type ext4 (rw,relatime)\n"
	      "+/dev/sdb1 on /a type tmpfs (rw,relatime)\n"
	      "+/dev/sdb2 on /b type tmpfs (rw,relatime)\n",
	      NULL, "a line too many");
	check("--- expected\n+++ actual\n"
	      "-/dev/sdb1 on /a type ext4 (rw,relatime)\n"
	      "-/dev/sdb2 on /b type tmpfs (rw,relatime)\n"
	      "+/dev/sdb1 on /a type tmpfs (rw,relatime)\n"
	      "+/dev/sdb2 on /b type tmpfs (rw,relatime)\n",
	      NULL, "expected lines of both modes");
	check("--- expected\n+++ actual\n-a b\n+a c\n", NULL, "no type at all");
	check("", NULL, "an empty diff");
	check(NULL, NULL, "no diff");
}
