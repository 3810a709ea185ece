/* test_hide.c - the rows of mounts a session did not make, left out of
 * its views (scenario/hide.h), and a recording's terminals read into one
 * log (scenario/reclog.h). */
#include <string.h>

#include "base/util.h"
#include "scenario/hide.h"
#include "scenario/reclog.h"
#include "tap.h"

static char *run(const struct ns_hide *h, const char *cmd, const char *text, size_t *dropped)
{
	struct ns_lines l = NS_LINES_INIT;
	struct ns_buf b = NS_BUF_INIT;
	size_t d;

	ns_lines_split(&l, text, strlen(text));
	d = ns_hide_output(h, cmd, &l, NULL);
	if (dropped)
		*dropped = d;
	for (size_t i = 0; i < l.n; i++)
		ns_buf_addf(&b, "%s\n", l.v[i]);
	ns_lines_free(&l);
	return ns_buf_detach(&b);
}

static void tools(struct ns_hide *h)
{
	ns_lines_push(&h->targets, "/usr");
	ns_lines_push(&h->targets, "/proc");
	ns_lines_push(&h->devs, "254:0");
	ns_lines_push(&h->sources, "/dev/vda");
	ns_lines_push(&h->devs, "0:44");
	ns_lines_push(&h->sources, "nstest-proc");
}

TEST(findmnt_tree_repadded)
{
	struct ns_hide h = NS_HIDE_INIT;
	size_t d;
	char *got;

	tools(&h);
	got = run(&h, "findmnt",
		  "TARGET   SOURCE         FSTYPE OPTIONS\n"
		  "/        /dev/sda1      tmpfs  rw,relatime\n"
		  "├─/usr   /dev/vda[/usr] ext4   ro,relatime\n"
		  "├─/proc  nstest-proc    proc   rw,nosuid,nodev,noexec,relatime\n"
		  "└─/mnt/a lab            tmpfs  rw,relatime\n", &d);
	is_str(got,
	       "TARGET   SOURCE    FSTYPE OPTIONS\n"
	       "/        /dev/sda1 tmpfs  rw,relatime\n"
	       "└─/mnt/a lab       tmpfs  rw,relatime\n", "tree: rows gone, columns and glyphs again");
	ok(d == 2, "two rows dropped (%zu)", d);
	free(got);
	/* the last child gone: the sibling before it becomes the last */
	got = run(&h, "findmnt",
		  "TARGET         SOURCE      FSTYPE OPTIONS\n"
		  "/              /dev/sda1   tmpfs  rw\n"
		  "├─/a           lab         tmpfs  rw\n"
		  "│ └─/a/b       lab         tmpfs  rw\n"
		  "└─/proc        nstest-proc proc   rw\n"
		  "  └─/proc/very x           tmpfs  rw\n", &d);
	is_str(got,
	       "TARGET   SOURCE    FSTYPE OPTIONS\n"
	       "/        /dev/sda1 tmpfs  rw\n"
	       "└─/a     lab       tmpfs  rw\n"
	       "  └─/a/b lab       tmpfs  rw\n", "what hangs below a dropped row goes with it");
	free(got);
	ns_hide_free(&h);
}

TEST(findmnt_list_right_aligned)
{
	struct ns_hide h = NS_HIDE_INIT;
	char *got;

	tools(&h);
	got = run(&h, "findmnt -l -o TARGET,ID,SOURCE",
		  "TARGET      ID SOURCE\n"
		  "/            9 /dev/sda1\n"
		  "/usr/longer 10 /dev/vda[/usr]\n"
		  "/a          11 lab\n", NULL);
	is_str(got,
	       "TARGET ID SOURCE\n"
	       "/       9 /dev/sda1\n"
	       "/a     11 lab\n", "ID stays right-aligned");
	free(got);
	got = run(&h, "findmnt -no SOURCE,TARGET",
		  "/dev/sda1      /\n"
		  "/dev/vda[/usr] /usr\n"
		  "lab            /a\n", NULL);
	is_str(got, "/dev/sda1 /\nlab       /a\n", "no headings");
	free(got);
	got = run(&h, "findmnt -no TARGET,PROPAGATION",
		  "/       private\n"
		  "├─/usr  private\n"
		  "├─/proc private\n"
		  "└─/a    private\n", NULL);
	is_str(got, "/      private\n└─/a   private\n",
	       "no headings: a column is still as wide as its heading, as findmnt pads it");
	free(got);
	got = run(&h, "findmnt -no PROPAGATION,TARGET",
		  "private /\n"
		  "private /usr\n"
		  "shared  /a\n", NULL);
	is_str(got, "private     /\nshared      /a\n", "no headings, -o: TARGET found in the list");
	free(got);
	got = run(&h, "findmnt | grep a",
		  "/dev/vda[/usr] /usr\nlab   /a\n", NULL);
	is_str(got, "lab   /a\n", "piped: the line goes, as it was");
	free(got);
	ns_hide_free(&h);
}

TEST(mountinfo_and_mount)
{
	struct ns_hide h = NS_HIDE_INIT;
	char *got;

	tools(&h);
	got = run(&h, "cat /proc/self/mountinfo",
		  "66 45 0:40 / / rw,relatime - tmpfs /dev/sda1 rw\n"
		  "67 66 254:0 /usr /usr ro,relatime - ext4 /dev/vda rw\n"
		  "68 66 0:44 / /proc rw - proc nstest-proc rw\n"
		  "70 66 0:45 / /mnt/a rw,relatime shared:1 - tmpfs lab rw\n", NULL);
	is_str(got,
	       "66 45 0:40 / / rw,relatime - tmpfs /dev/sda1 rw\n"
	       "70 66 0:45 / /mnt/a rw,relatime shared:1 - tmpfs lab rw\n", "mountinfo by device");
	free(got);
	got = run(&h, "mount",
		  "/dev/sda1 on / type tmpfs (rw,relatime)\n"
		  "/dev/vda on /usr type ext4 (ro,relatime)\n"
		  "nstest-proc on /proc type proc (rw)\n", NULL);
	is_str(got, "/dev/sda1 on / type tmpfs (rw,relatime)\n", "mount by source");
	free(got);
	ns_hide_free(&h);
}

TEST(scratch_directory)
{
	struct ns_hide h = NS_HIDE_INIT;
	char *got;

	h.keep = xstrdup("/mnt");
	h.ellipsis = true;
	got = run(&h, "findmnt",
		  "TARGET                    SOURCE   FSTYPE OPTIONS\n"
		  "/                         /dev/vda ext4   rw,relatime\n"
		  "├─/proc                   proc     proc   rw,relatime\n"
		  "├─/mnt                    scratch  tmpfs  rw,relatime\n"
		  "│ └─/mnt/lab/a            none     tmpfs  rw,relatime\n"
		  "│   └─/mnt/lab/a/b        none     tmpfs  rw,relatime\n"
		  "└─/var/lib/something-long x        tmpfs  rw\n", NULL);
	is_str(got,
	       "TARGET           SOURCE    FSTYPE OPTIONS\n"
	       "...\n"
	       "└─/mnt/lab/a     none      tmpfs  rw,relatime\n"
	       "  └─/mnt/lab/a/b none      tmpfs  rw,relatime\n"
	       "...\n", "scratch: the session's rows under the root, '...' for the host's, "
	       "SOURCE as wide as the sandbox's root row that '...' stands for");
	free(got);
	got = run(&h, "cat /proc/self/mountinfo",
		  "27 1 254:0 / / rw - ext4 /dev/vda rw\n"
		  "80 27 0:50 / /mnt rw - tmpfs scratch rw\n"
		  "81 80 0:51 / /mnt/lab/a rw - tmpfs none rw\n", NULL);
	is_str(got, "...\n81 80 0:51 / /mnt/lab/a rw - tmpfs none rw\n", "mountinfo below the scratch");
	free(got);
	ns_hide_free(&h);
}

static void feed(struct ns_reclog *r, size_t t, const char *s)
{
	ns_reclog_feed(r, t, s, strlen(s));
}

TEST(reclog_orders_by_entry)
{
	struct ns_reclog *r = ns_reclog_new();
	size_t a = ns_reclog_terminal(r), b = ns_reclog_terminal(r);
	char *text;

	feed(r, a, "banner\r\n" NS_RECLOG_MARK "sh1# ");
	feed(r, b, NS_RECLOG_MARK "sh2# ");
	/* sh2's command is entered first, sh1's while sh2's still prints */
	feed(r, b, "echo x\r\n");
	feed(r, a, "echh\b\033[Ko y\r\n\033[?2004l\r");
	feed(r, b, "x\r\n");
	/* a mark cut in two by the reads */
	feed(r, a, "y\r\n\033[?2004h\033]77");
	feed(r, a, "71;P\asy1# \rsh1# ");
	feed(r, b, "\033[?2004h" NS_RECLOG_MARK "sh2# abc^C\r\n" NS_RECLOG_MARK "sh2# ");
	feed(r, a, "exit\r\nexit\r\n");
	ns_reclog_end(r, a);
	ns_reclog_end(r, b);
	ok(ns_reclog_steps(r) == 4, "four command lines entered (%zu)", ns_reclog_steps(r));
	text = ns_reclog_text(r);
	is_str(text, "sh2# echo x\nx\nsh1# echo y\ny\nsh1# exit\nexit\n",
	       "entry order, line editing applied, ^C left out");
	free(text);
	ns_reclog_free(r);
}
