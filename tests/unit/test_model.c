/* test_model.c - the model backend (lib/model/) against the documents it
 * models: Documentation/filesystems/sharedsubtree.rst (sections named
 * "5a" to "5g" below are its "5) Detailed semantics", a) to g)),
 * propagate_umount.txt, mount_namespaces(7), proc(5) and the system
 * calls' manual pages.
 *
 * Each test plays a small scenario through model/play.h, one step at a
 * time, and checks each step as it comes (model_run.h): a listing with
 * the matcher (step.h; mount IDs, devices and peer groups are names,
 * renamed consistently across the scenario), or a failure by its errno.
 * The expected lines are written from the documents' rules, not from what
 * the model prints; a scenario whose steps are not all checked fails. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model_run.h"

/* ---- 5a: the state diagram (make-shared, -slave, -private, -unbindable) --- */

TEST(5a_make_shared_and_private)
{
	struct run *r = start("5a make-shared/make-private",
		C("# mkdir /a")
		C("# mount /dev/sdb1 /a")
		C("# " MI)
		C("# mount --make-shared /a")
		C("# " MI)
		C("# mount --make-private /a")
		C("# " MI));

	setup(r, 2);
	/* mount_namespaces(7), NOTES: the parent / is private, so is /a */
	table(r, L("20 19 8:1 / / rw,relatime", "21 20 8:17 / /a rw,relatime"),
	      "a new mount under a private parent is private");
	quiet(r, "--make-shared succeeds");
	table(r, L("20 19 8:1 / / rw,relatime", "21 20 8:17 / /a rw,relatime shared:1"),
	      "private -> make-shared -> shared in a new peer group");
	quiet(r, "--make-private succeeds");
	table(r, L("20 19 8:1 / / rw,relatime", "21 20 8:17 / /a rw,relatime"),
	      "shared -> make-private -> private");
	finish(r);
}

TEST(5a_make_slave)
{
	struct run *r = start("5a make-slave",
		C("# mkdir /a /b /c")
		C("# mount --make-shared /dev/sdb1 /a")
		C("# mount --bind /a /b")
		C("# mount --make-shared /dev/sdc1 /c")
		C("# mount --make-slave /b")
		C("# mount --make-slave /c")
		C("# " MI)
		C("# mount --make-shared /b")
		C("# " MI)
		C("# mount --make-slave /b")
		C("# " MI)
		C("# mount --make-private /b")
		C("# " MI));

	setup(r, 4);
	quiet(r, "make-slave of a shared mount with a peer");
	quiet(r, "make-slave of a shared mount alone in its group");
	/* the diagram's "*": alone in its group, slave means private */
	table(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /a rw,relatime shared:1",
		   "22 20 8:17 / /b rw,relatime master:1",
		   "23 20 8:33 / /c rw,relatime"),
	      "with a peer it becomes a slave of its group; alone it becomes private");
	quiet(r, "make-shared of a slave");
	table(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /a rw,relatime shared:1",
		   "22 20 8:17 / /b rw,relatime shared:2 master:1",
		   "23 20 8:33 / /c rw,relatime"),
	      "slave -> make-shared -> shared and slave, in a new group");
	quiet(r, "make-slave of a shared and slave mount");
	table(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /a rw,relatime shared:1",
		   "22 20 8:17 / /b rw,relatime master:1",
		   "23 20 8:33 / /c rw,relatime"),
	      "shared and slave -> make-slave -> slave (of the same master)");
	quiet(r, "make-private of a slave");
	table(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /a rw,relatime shared:1",
		   "22 20 8:17 / /b rw,relatime",
		   "23 20 8:33 / /c rw,relatime"),
	      "slave -> make-private -> private");
	finish(r);
}

TEST(5a_make_unbindable)
{
	struct run *r = start("5a make-unbindable",
		C("# mkdir /a /b /u /x")
		C("# mount --make-shared /dev/sdb1 /a")
		C("# mount --bind /a /b")
		C("# mount --make-slave /b")
		C("# mount /dev/sdc1 /u")
		C("# mount --make-unbindable /b")
		C("# mount --make-unbindable /a")
		C("# mount --make-unbindable /u")
		C("# mount --make-slave /u")
		C("# " MI)
		C("# mount --bind /u /x")
		C("# mount --make-shared /u")
		C("# " MI));

	setup(r, 5);
	quiet(r, "make-unbindable of a slave");
	quiet(r, "make-unbindable of a shared mount");
	quiet(r, "make-unbindable of a private mount");
	quiet(r, "make-slave of an unbindable mount succeeds");
	/* the diagram's "**": slaving a non-shared mount has no effect */
	table(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /a rw,relatime unbindable",
		   "22 20 8:17 / /b rw,relatime unbindable",
		   "23 20 8:33 / /u rw,relatime unbindable"),
	      "shared, slave and private all become unbindable; make-slave keeps it unbindable");
	fails(r, EINVAL, "mount", "it still cannot be bound (5b case 8)");
	quiet(r, "make-shared of an unbindable mount");
	table(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /a rw,relatime unbindable",
		   "22 20 8:17 / /b rw,relatime unbindable",
		   "23 20 8:33 / /u rw,relatime shared:1"),
	      "unbindable -> make-shared -> shared");
	finish(r);
}

/* 2b, "a slave mount": events go from the master to the slave, not back. */
TEST(2b_slave_receives_but_does_not_send)
{
	struct run *r = start("2b slave",
		C("# mkdir /a /b")
		C("# mount --make-shared /dev/sdb1 /a")
		C("# mount --bind /a /b")
		C("# mount --make-slave /b")
		C("# mkdir /a/x /a/y")
		C("# mount /dev/sdc1 /a/x")
		C("# mount /dev/sdd1 /b/y")
		C("# " MI));

	setup(r, 7);
	/* 5e is 5b with a private source; 5b case 2: the copy on the slave
	 * is in a propagation tree like /a's: a slave of the new group */
	table(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /a rw,relatime shared:1",
		   "22 20 8:17 / /b rw,relatime master:1",
		   "23 21 8:33 / /a/x rw,relatime shared:2",
		   "24 22 8:33 / /b/x rw,relatime master:2",
		   "25 22 8:49 / /b/y rw,relatime"),
	      "the master's mount reaches the slave as a slave; the slave's stays private and stays there");
	finish(r);
}

/* ---- 5b: bind semantics, the table and its eight cases -------------------- */

/* The destination for the shared cases: /d shared, with a peer /e and a
 * slave /s, so that "B's propagation tree" has both kinds. */
#define SHARED_DEST \
	C("# mkdir /d /e /s") \
	C("# mount --make-shared /dev/sdc1 /d") \
	C("# mkdir /d/t") \
	C("# mount --bind /d /e") \
	C("# mount --bind /d /s") \
	C("# mount --make-slave /s")
#define SHARED_DEST_STEPS 6
#define SHARED_DEST_LINES \
	"20 19 8:1 / / rw,relatime", \
	"31 20 8:33 / /d rw,relatime shared:11", \
	"32 20 8:33 / /e rw,relatime shared:11", \
	"33 20 8:33 / /s rw,relatime master:11"

TEST(5b_bind_shared_to_shared)
{
	struct run *r = start("5b case 1 (shared onto shared)",
		SHARED_DEST
		C("# mkdir /a")
		C("# mount --make-shared /dev/sdb1 /a")
		C("# mount --bind /a /d/t")
		C("# " MI));

	setup(r, SHARED_DEST_STEPS + 2);
	quiet(r, "the bind succeeds");
	/* C joins A's group; the copies on B's tree mirror it: C1 on the
	 * peer /e is a peer, C2 on the slave /s a slave of C's group */
	table(r, L(SHARED_DEST_LINES,
		   "21 20 8:17 / /a rw,relatime shared:1",
		   "41 31 8:17 / /d/t rw,relatime shared:1",
		   "42 32 8:17 / /e/t rw,relatime shared:1",
		   "43 33 8:17 / /s/t rw,relatime master:1"),
	      "C and its copies join A's peer group; the copy on B's slave is a slave");
	finish(r);
}

TEST(5b_bind_private_to_shared)
{
	struct run *r = start("5b case 2 (private onto shared)",
		SHARED_DEST
		C("# mkdir /a")
		C("# mount /dev/sdb1 /a")
		C("# mount --bind /a /d/t")
		C("# " MI));

	setup(r, SHARED_DEST_STEPS + 2);
	quiet(r, "the bind succeeds");
	table(r, L(SHARED_DEST_LINES,
		   "21 20 8:17 / /a rw,relatime",
		   "41 31 8:17 / /d/t rw,relatime shared:2",
		   "42 32 8:17 / /e/t rw,relatime shared:2",
		   "43 33 8:17 / /s/t rw,relatime master:2"),
	      "a new propagation tree like B's: C and C1 peers in a new group, C2 its slave; A stays private");
	finish(r);
}

TEST(5b_bind_slave_to_shared)
{
	struct run *r = start("5b case 3 (slave onto shared)",
		SHARED_DEST
		C("# mkdir /z /a")
		C("# mount --make-shared /dev/sdb1 /z")
		C("# mount --bind /z /a")
		C("# mount --make-slave /a")
		C("# mount --bind /a /d/t")
		C("# " MI));

	setup(r, SHARED_DEST_STEPS + 4);
	quiet(r, "the bind succeeds");
	table(r, L(SHARED_DEST_LINES,
		   "21 20 8:17 / /z rw,relatime shared:1",
		   "22 20 8:17 / /a rw,relatime master:1",
		   "41 31 8:17 / /d/t rw,relatime shared:2 master:1",
		   "42 32 8:17 / /e/t rw,relatime shared:2 master:1",
		   "43 33 8:17 / /s/t rw,relatime master:2"),
	      "C and its peer group are shared and slaves of Z");
	finish(r);
}

TEST(5b_bind_unbindable_is_invalid)
{
	struct run *r = start("5b cases 4 and 8 (unbindable source)",
		SHARED_DEST
		C("# mkdir /u /p")
		C("# mount --make-unbindable /dev/sdb1 /u")
		C("# mount --bind /u /d/t")
		C("# mount --bind /u /p")
		C("# mount --rbind /u /p")
		C("# " MI));

	setup(r, SHARED_DEST_STEPS + 2);
	fails(r, EINVAL, "mount", "onto a shared mount: EINVAL");
	fails(r, EINVAL, "mount", "onto a private mount: EINVAL");
	fails(r, EINVAL, "mount", "--rbind of it: EINVAL");
	table(r, L(SHARED_DEST_LINES, "21 20 8:17 / /u rw,relatime unbindable"),
	      "nothing was mounted");
	finish(r);
}

TEST(5b_bind_to_non_shared)
{
	struct run *r = start("5b cases 5, 6, 7 (onto non-shared)",
		C("# mkdir /z /sh /sl /pr /n /n/1 /n/2 /n/3 /v")
		C("# mount --make-shared /dev/sdb1 /z")
		C("# mount --bind /z /sh")
		C("# mount --bind /z /sl")
		C("# mount --make-slave /sl")
		C("# mount /dev/sdc1 /pr")
		C("# mount --make-shared /dev/sdd1 /v")
		C("# mkdir /v/1")
		C("# mount --bind /v /v")
		C("# mount --make-slave /v")
		C("# mount --bind /pr /n/1")
		C("# mount --bind /sh /n/2")
		C("# mount --bind /sl /n/3")
		C("# mount --bind /pr /v/1")
		C("# " MI));

	setup(r, 10);
	quiet(r, "case 5: private onto private");
	quiet(r, "case 6: shared onto private");
	quiet(r, "case 7: slave onto private");
	quiet(r, "case 5: private onto a slave (a non-shared mount)");
	table(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /z rw,relatime shared:1",
		   "22 20 8:17 / /sh rw,relatime shared:1",
		   "23 20 8:17 / /sl rw,relatime master:1",
		   "24 20 8:33 / /pr rw,relatime",
		   "25 20 8:49 / /v rw,relatime shared:3",
		   "26 25 8:49 / /v rw,relatime master:3",
		   "27 20 8:33 / /n/1 rw,relatime",
		   "28 20 8:17 / /n/2 rw,relatime shared:1",
		   "29 20 8:17 / /n/3 rw,relatime master:1",
		   "30 26 8:33 / /v/1 rw,relatime"),
	      "private stays private, shared joins A's group, slave becomes a slave of Z");
	finish(r);
}

/* ---- 5c: rbind ------------------------------------------------------------ */

TEST(5c_rbind_prunes_unbindable)
{
	/* the document's tree: A with B and C under it, D E under B, F G
	 * under C; C unbindable; rbound to Z only A, B, D, E arrive */
	struct run *r = start("5c rbind",
		C("# mkdir /A /Z")
		C("# mount /dev/sdb1 /A")
		C("# mkdir /A/B /A/C")
		C("# mount /dev/sdc1 /A/B")
		C("# mount /dev/sdd1 /A/C")
		C("# mkdir /A/B/D /A/B/E /A/C/F /A/C/G")
		C("# mount /dev/sdc2 /A/B/D")
		C("# mount /dev/sdc3 /A/B/E")
		C("# mount /dev/sdd2 /A/C/F")
		C("# mount /dev/sdd3 /A/C/G")
		C("# mount --make-unbindable /A/C")
		C("# mount --rbind /A /Z")
		C("# " MI " | grep /Z")
		C("# mount --bind /A /Z/B")
		C("# " MI " | grep /Z"));

	setup(r, 11);
	quiet(r, "the rbind succeeds");
	table(r, L("31 20 8:17 / /Z rw,relatime",
		   "32 31 8:33 / /Z/B rw,relatime",
		   "33 32 8:34 / /Z/B/D rw,relatime",
		   "34 32 8:35 / /Z/B/E rw,relatime"),
	      "the subtree under the unbindable C is pruned");
	quiet(r, "a plain bind succeeds");
	table(r, L("31 20 8:17 / /Z rw,relatime",
		   "32 31 8:33 / /Z/B rw,relatime",
		   "33 32 8:34 / /Z/B/D rw,relatime",
		   "34 32 8:35 / /Z/B/E rw,relatime",
		   "35 32 8:17 / /Z/B rw,relatime"),
	      "a bind copies the mount alone, none of its submounts");
	finish(r);
}

/* ---- 5d: move ------------------------------------------------------------- */

TEST(5d_move_private_into_shared)
{
	struct run *r = start("5d case 2 (private into shared)",
		SHARED_DEST
		C("# mkdir /m")
		C("# mount /dev/sdb1 /m")
		C("# mount --move /m /d/t")
		C("# " MI));

	setup(r, SHARED_DEST_STEPS + 2);
	quiet(r, "the move succeeds");
	table(r, L(SHARED_DEST_LINES,
		   "21 31 8:17 / /d/t rw,relatime shared:2",
		   "41 32 8:17 / /e/t rw,relatime shared:2",
		   "42 33 8:17 / /s/t rw,relatime master:2"),
	      "A becomes shared, with copies in a tree like B's; A keeps its ID");
	finish(r);
}

TEST(5d_move_unbindable)
{
	struct run *r = start("5d cases 4 and 8 (unbindable)",
		SHARED_DEST
		C("# mkdir /u /p")
		C("# mount --make-unbindable /dev/sdb1 /u")
		C("# mount --move /u /d/t")
		C("# mount --move /u /p")
		C("# " MI));

	setup(r, SHARED_DEST_STEPS + 2);
	fails(r, EINVAL, "mount", "into a shared mount: EINVAL");
	quiet(r, "into a private mount: allowed");
	table(r, L(SHARED_DEST_LINES, "21 20 8:17 / /p rw,relatime unbindable"),
	      "it continues to be unbindable");
	finish(r);
}

TEST(5d_move_under_shared_parent_and_loop)
{
	struct run *r = start("5d note and mount(2) ELOOP",
		C("# mkdir /d /y /a")
		C("# mount --make-shared /dev/sdb1 /d")
		C("# mkdir /d/x")
		C("# mount /dev/sdc1 /d/x")
		C("# mount /dev/sdd1 /a")
		C("# mkdir /a/sub")
		C("# mount --move /d/x /y")
		C("# mount --move /a /a/sub")
		C("# " MI));

	setup(r, 6);
	/* "moving a mount residing under a shared mount is invalid" */
	fails(r, EINVAL, "mount", "a mount whose parent is shared does not move: EINVAL");
	/* mount(2): ELOOP, the target is a descendant of the source */
	fails(r, ELOOP, "mount", "a mount moved under itself: ELOOP");
	table(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /d rw,relatime shared:1",
		   "22 21 8:33 / /d/x rw,relatime shared:2",
		   "23 20 8:49 / /a rw,relatime"),
	      "neither moved");
	finish(r);
}

/* ---- 5f: umount ----------------------------------------------------------- */

TEST(5f_umount_propagates_to_peers_and_slaves)
{
	struct run *r = start("5f umount propagation",
		C("# mkdir /p /q /s")
		C("# mount --make-shared /dev/sdb1 /p")
		C("# mount --bind /p /q")
		C("# mount --bind /p /s")
		C("# mount --make-slave /s")
		C("# mkdir /p/b")
		C("# mount /dev/sdc1 /p/b")
		C("# " MI)
		C("# umount /q/b")
		C("# " MI)
		C("# mount /dev/sdd1 /p/b")
		C("# umount /s/b")
		C("# " MI));

	setup(r, 7);
	table(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /p rw,relatime shared:1",
		   "22 20 8:17 / /q rw,relatime shared:1",
		   "23 20 8:17 / /s rw,relatime master:1",
		   "24 21 8:33 / /p/b rw,relatime shared:2",
		   "25 22 8:33 / /q/b rw,relatime shared:2",
		   "26 23 8:33 / /s/b rw,relatime master:2"),
	      "the mount reached the peer and the slave");
	quiet(r, "umount of the peer's copy");
	table(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /p rw,relatime shared:1",
		   "22 20 8:17 / /q rw,relatime shared:1",
		   "23 20 8:17 / /s rw,relatime master:1"),
	      "the umount reached every peer and the slave");
	quiet(r, "mount again");
	quiet(r, "umount of the slave's copy");
	table_anew(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /p rw,relatime shared:1",
		   "22 20 8:17 / /q rw,relatime shared:1",
		   "23 20 8:17 / /s rw,relatime master:1",
		   "27 21 8:49 / /p/b rw,relatime shared:3",
		   "28 22 8:49 / /q/b rw,relatime shared:3"),
	      "a slave's umount does not reach its master");
	finish(r);
}

TEST(5f_umount_most_recent_and_submounts)
{
	struct run *r = start("5f most recent, submounts",
		C("# mkdir /p /q")
		C("# mount --make-shared /dev/sdb1 /p")
		C("# mount --bind /p /q")
		C("# mkdir /p/b")
		C("# mount /dev/sdc1 /p/b")
		C("# mount /dev/sdd1 /p/b")
		C("# " MI)
		C("# mkdir /p/b/x")
		C("# mount /dev/sde1 /p/b/x")
		C("# umount /p/b")
		C("# umount /p/b/x")
		C("# umount /q/b")
		C("# " MI));

	setup(r, 6);
	table(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /p rw,relatime shared:1",
		   "22 20 8:17 / /q rw,relatime shared:1",
		   "23 21 8:33 / /p/b rw,relatime shared:2",
		   "24 22 8:33 / /q/b rw,relatime shared:2",
		   "25 23 8:49 / /p/b rw,relatime shared:3",
		   "26 24 8:49 / /q/b rw,relatime shared:3"),
	      "A1, A2 and C1, C2 stacked on the peers");
	setup(r, 2);
	/* "if 'C1' is told to be unmounted and 'C1' has some sub-mounts,
	 * the umount operation is failed entirely"; umount(2): EBUSY */
	fails(r, EBUSY, "umount2", "a mount with a submount: EBUSY");
	quiet(r, "its submount goes");
	quiet(r, "umount of C2");
	table(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /p rw,relatime shared:1",
		   "22 20 8:17 / /q rw,relatime shared:1",
		   "23 21 8:33 / /p/b rw,relatime shared:2",
		   "24 22 8:33 / /q/b rw,relatime shared:2"),
	      "the most recent mounts, C1 and C2, went; A1 and A2 stay");
	finish(r);
}

TEST(5f_umount_busy_cwd_and_lazy)
{
	struct run *r = start("umount(2) EBUSY and MNT_DETACH",
		C("sh1# mkdir /a")
		C("sh1# mount /dev/sdb1 /a")
		C("sh1# mkdir /a/b")
		C("sh1# mount /dev/sdc1 /a/b")
		C("sh2# cd /a/b")
		C("sh1# umount /a/b")
		C("sh1# umount -l /a")
		C("sh1# " MI)
		C("sh2# ls"));

	setup(r, 5);
	fails(r, EBUSY, "umount2", "a mount that is a shell's working directory: EBUSY");
	quiet(r, "umount -l of the tree above it succeeds");
	table(r, L("20 19 8:1 / / rw,relatime"),
	      "umount -l detaches the mount with everything under it");
	quiet(r, "the working directory is still usable after the lazy umount");
	finish(r);
}

/* propagate_umount.txt: a copy whose only submount covers its root goes
 * with the mount unmounted (the cover moves down); in use, it makes the
 * umount EBUSY (umount(2); the kernel's propagate_mount_busy()) */
#define BUSY_UNDER_COVER \
	C("sh1# mkdir /b1 /b2") \
	C("sh1# mount --make-shared /dev/sdb1 /b1") \
	C("sh1# mkdir /b1/x") \
	C("sh1# mount --bind /b1 /b2") \
	C("sh1# mount /dev/sdc1 /b1/x") \
	C("sh1# mount --make-private /b2/x") \
	C("sh2# cd /b2/x") \
	C("sh1# mount /dev/sdc2 /b2/x") \
	C("sh1# umount /b1/x") \
	C("sh2# cd /") \
	C("sh1# umount /b1/x") \
	C("sh1# " MI)

/* A copy in use whose only submount covers its root makes umount EBUSY;
 * once the shell leaves it goes and the cover moves down. Every kernel
 * does so: with the quirk umount-busy-skips-chains too. */
static void busy_under_cover(const char *what, unsigned quirks)
{
	struct run *r = start_with(what, BUSY_UNDER_COVER, quirks, M_BREAK_NONE);

	setup(r, 8);
	fails(r, EBUSY, "umount2", "the copy C2, under D and a shell's working directory: EBUSY");
	quiet(r, "the shell leaves C2");
	quiet(r, "now the umount goes through");
	table(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /b1 rw,relatime shared:1",
		   "22 20 8:17 / /b2 rw,relatime shared:1",
		   "25 22 8:34 / /b2/x rw,relatime"),
	      "C and C2 went; D moved down to /b2 at x");
	finish(r);
}

TEST(5f_umount_busy_copy_under_a_cover)
{
	busy_under_cover("umount(2) EBUSY, a covered copy in use", 0);
}

/* ---- 5g: a copy of the namespace (unshare -m) ------------------------------ */

TEST(5g_clone_keeps_types)
{
	struct run *r = start("5g clone namespace",
		C("sh1# mkdir /sh /sl /pr /ub")
		C("sh1# mount --make-shared /dev/sdb1 /sh")
		C("sh1# mount --bind /sh /sl")
		C("sh1# mount --make-slave /sl")
		C("sh1# mount /dev/sdc1 /pr")
		C("sh1# mount --make-unbindable /dev/sdd1 /ub")
		C("sh1# " MI)
		C("sh2# unshare -m --propagation unchanged sh")
		C("sh2# " MI)
		C("sh1# mkdir /sh/n")
		C("sh1# mount /dev/sde1 /sh/n")
		C("sh2# " MI " | grep /sh/n"));

	setup(r, 6);
	table(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /sh rw,relatime shared:1",
		   "22 20 8:17 / /sl rw,relatime master:1",
		   "23 20 8:33 / /pr rw,relatime",
		   "24 20 8:49 / /ub rw,relatime unbindable"),
	      "the first namespace");
	quiet(r, "unshare -m --propagation unchanged");
	table(r, L("40 39 8:1 / / rw,relatime",
		   "41 40 8:17 / /sh rw,relatime shared:1",
		   "42 40 8:17 / /sl rw,relatime master:1",
		   "43 40 8:33 / /pr rw,relatime",
		   "44 40 8:49 / /ub rw,relatime unbindable"),
	      "each copy keeps its type: peer, slave of the same master, private, unbindable");
	setup(r, 2);
	table(r, L("45 41 8:65 / /sh/n rw,relatime shared:2"),
	      "a mount under the shared mount reaches the copy, its peer");
	finish(r);
}

TEST(5g_unshare_default_private)
{
	struct run *r = start("unshare(1) default propagation",
		C("sh1# mkdir /sh")
		C("sh1# mount --make-shared /dev/sdb1 /sh")
		C("sh2# unshare -m sh")
		C("sh2# " MI)
		C("sh1# mkdir /sh/n")
		C("sh1# mount /dev/sdc1 /sh/n")
		C("sh2# " MI)
		C("sh1# " MI));

	setup(r, 2);
	quiet(r, "unshare -m");
	/* mount_namespaces(7), NOTES: unshare(1) does mount --make-rprivate / */
	table(r, L("40 39 8:1 / / rw,relatime", "41 40 8:17 / /sh rw,relatime"),
	      "every mount of the copy is private");
	setup(r, 2);
	table(r, L("40 39 8:1 / / rw,relatime", "41 40 8:17 / /sh rw,relatime"),
	      "nothing propagates into it");
	table(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /sh rw,relatime shared:1",
		   "22 21 8:33 / /sh/n rw,relatime shared:2"),
	      "the original stays shared");
	finish(r);
}

/* ---- mount_namespaces(7), restrictions: a less privileged copy ------------- */

TEST(userns_shared_become_slaves_and_locked)
{
	struct run *r = start("mount_namespaces(7) [2] [3] [5]",
		C("sh1# mkdir /sh /ro /x")
		C("sh1# mount --make-shared /dev/sdb1 /sh")
		C("sh1# mount -o ro /dev/sdc1 /ro")
		C("sh2# unshare -U -r -m --propagation unchanged sh")
		C("sh2# " MI)
		C("sh2# umount /ro")
		C("sh2# umount /sh")
		C("sh2# mount_setattr -o rw /ro")
		C("sh2# mount /dev/sdd1 /x")
		C("sh2# mount -t tmpfs none /x")
		C("sh2# mount_setattr -o nosuid /x")
		C("sh2# umount /x")
		C("sh1# mkdir /sh/n")
		C("sh1# mount /dev/sde1 /sh/n")
		C("sh2# " MI " | grep /sh/n")
		C("sh2# umount /sh/n"));

	setup(r, 3);
	quiet(r, "unshare -U -r -m");
	/* [2] shared mounts are reduced to slave mounts */
	table(r, L("40 39 8:1 / / rw,relatime",
		   "41 40 8:17 / /sh rw,relatime master:1",
		   "42 40 8:33 / /ro ro,relatime"),
	      "the shared mount becomes a slave of its old group");
	/* [3] locked: umount2 gives EINVAL */
	fails(r, EINVAL, "umount2", "a locked mount cannot be unmounted: EINVAL");
	fails(r, EINVAL, "umount2", "nor can the slave: EINVAL");
	/* [5] flags locked: mount_setattr(2) EPERM */
	fails(r, EPERM, "mount_setattr", "clearing a locked ro: EPERM");
	/* a device belongs to the initial user namespace */
	fails(r, EPERM, "mount", "mounting a block device from the user namespace: EPERM");
	quiet(r, "a tmpfs may be mounted over a locked mount");
	quiet(r, "and its flags changed");
	quiet(r, "and unmounted again");
	setup(r, 2);
	table(r, L("44 41 8:65 / /sh/n rw,relatime master:2"),
	      "a mount propagated from the more privileged namespace arrives");
	/* [3]: what propagates as a unit may not be separated; this copy is
	 * the unit's top, which may go */
	quiet(r, "the top of a propagated unit can be unmounted");
	finish(r);
}

TEST(capsh_drop_sys_admin)
{
	struct run *r = start("capsh --drop=cap_sys_admin",
		C("# mkdir /a")
		C("# capsh --drop=cap_sys_admin --")
		C("# mount /dev/sdb1 /a")
		C("# mount --make-shared /")
		C("# umount /")
		C("# mkdir /a/b")
		C("# exit")
		C("# mount /dev/sdb1 /a"));

	setup(r, 2);
	fails(r, EPERM, "mount", "mount(2) without CAP_SYS_ADMIN: EPERM");
	fails(r, EPERM, "mount", "a propagation change too: EPERM");
	fails(r, EPERM, "umount2", "umount2(2) too: EPERM");
	quiet(r, "files are no mounts: mkdir still works");
	quiet(r, "exit");
	quiet(r, "the outer shell still has it: mount works");
	finish(r);
}

/* mount_setattr(2) asks may_mount() before it reads the attributes or
 * looks the path up, unlike mount(2), whose lookup comes first. */
TEST(capsh_drop_sys_admin_setattr_first)
{
	struct run *r = start("capsh --drop=cap_sys_admin, mount_setattr",
		C("# capsh --drop=cap_sys_admin --")
		C("# mount_setattr -o ro /nonexistent")
		C("# mount /dev/sdb1 /nonexistent"));

	setup(r, 1);
	fails(r, EPERM, "mount_setattr", "mount_setattr: EPERM before the lookup's ENOENT");
	fails(r, ENOENT, "mount", "mount(2): the lookup's ENOENT first");
	finish(r);
}

/* ---- proc(5): mount IDs and propagate_from --------------------------------- */

TEST(mount_ids_reused_lowest_first)
{
	struct run *r = start("mount IDs",
		C("# mkdir /a /b /c /d")
		C("# mount /dev/sdb1 /a")
		C("# mount /dev/sdc1 /b")
		C("# mount /dev/sdd1 /c")
		C("# cat /proc/self/mountinfo")
		C("# umount /b")
		C("# umount /a")
		C("# mount /dev/sde1 /d")
		C("# cat /proc/self/mountinfo"));
	unsigned long a, b, c, d;

	setup(r, 4);
	step(r);
	a = id_of(r->out.output, "/a");
	b = id_of(r->out.output, "/b");
	c = id_of(r->out.output, "/c");
	ok(a && b && c && a != b && b != c && a != c, "%s: three mounts, three IDs", r->what);
	setup(r, 3);
	step(r);
	d = id_of(r->out.output, "/d");
	ok(id_of(r->out.output, "/a") == 0 && id_of(r->out.output, "/b") == 0,
	   "%s: /a and /b are gone", r->what);
	ok(d == (a < b ? a : b), "%s: the next mount gets the lowest ID given back (%lu; %lu and %lu were free)",
	   r->what, d, a, b);
	ok(id_of(r->out.output, "/c") == c, "%s: a mount keeps its ID", r->what);
	finish(r);
}

TEST(propagate_from_under_chroot)
{
	/* mount_namespaces(7), "The /proc/pid/mountinfo propagate_from
	 * tag", on stand-ins: G1 at /m, G2 at /t (a slave of G1), and a
	 * slave of G2 at /m/t/x; after chroot /m, /t is out of sight */
	struct run *r = start("propagate_from (chroot)",
		C("# mkdir /m /t")
		C("# mount --make-shared /dev/sdb1 /m")
		C("# mkdir -p /m/x /m/t/x")
		C("# mount --bind /m/x /t")
		C("# mount --make-slave /t")
		C("# mount --make-shared /t")
		C("# mount --bind /t /m/t/x")
		C("# mount --make-slave /m/t/x")
		C("# " MI)
		C("# chroot /m")
		C("# " MI));

	setup(r, 8);
	table(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /m rw,relatime shared:1",
		   "22 20 8:17 /x /t rw,relatime shared:2 master:1",
		   "23 21 8:17 /x /m/t/x rw,relatime master:2"),
	      "the immediate master is in sight: master:X alone");
	quiet(r, "chroot");
	table(r, L("21 20 8:17 / / rw,relatime shared:1",
		   "23 21 8:17 /x /t/x rw,relatime master:2 propagate_from:1"),
	      "mounts outside the root are not listed; the nearest dominant group in sight is propagate_from");
	finish(r);
}

TEST(propagate_from_master_in_another_namespace)
{
	struct run *r = start("propagate_from (another namespace)",
		C("sh1# mkdir /a /b /c")
		C("sh1# mount --make-shared /dev/sdb1 /a")
		C("sh1# mount --bind /a /b")
		C("sh1# mount --make-slave /b")
		C("sh1# mount --make-shared /b")
		C("sh2# unshare -m --propagation unchanged sh")
		C("sh2# mount --bind /b /c")
		C("sh2# mount --make-slave /c")
		C("sh2# mount --make-private /b")
		C("sh2# " MI));

	setup(r, 9);
	/* /c's master, group 2, has no member in sh2's namespace any more;
	 * group 1, its master's master, has /a there */
	table(r, L("40 39 8:1 / / rw,relatime",
		   "41 40 8:17 / /a rw,relatime shared:1",
		   "42 40 8:17 / /b rw,relatime",
		   "43 40 8:17 / /c rw,relatime master:2 propagate_from:1"),
	      "a master out of the namespace is named with the dominant group in it");
	finish(r);
}

/* ---- the order of the slave lists (fs/pnode.c; no document gives one) --- */

/* sh2's copy of / (R') and of the bind on /a (A') join the ring of /'s
 * group after their originals: /, R', /a, A' (clone_mnt()). From 6.17
 * change_mnt_propagation() makes each the slave of its next peer, at the
 * head of its list: R' of /a, then A' of /. A mount on /a (on the bind)
 * reaches its peer /, then with next_group() the slaves of /a (R', at
 * /b/x, where /a's root is) before those of / (A', on its root): the
 * copies are made, and listed, in that order. Up to 6.16 do_make_slave()
 * took the peer with the copy's own root (quirk make-slave-same-root):
 * R' of /, A' of /a, so A' receives first. */
#define UNSHARE_SLAVE_PEERS \
	C("sh1# mkdir -p /a/x/x /b/x/x") \
	C("sh1# mount --make-shared /") \
	C("sh2# mount --bind /b/x /a") \
	C("sh2# unshare -m --propagation slave sh") \
	C("sh1# mount --bind /b/x/x /a") \
	C("sh2# " MI)

TEST(slave_order_after_unshare_slave)
{
	struct run *r = start("slave lists after unshare --propagation slave", UNSHARE_SLAVE_PEERS);

	setup(r, 5);
	table_in_order(r, L("40 39 0:1 / / rw,relatime master:1",
			    "41 40 0:1 /b/x /a rw,relatime master:1",
			    "42 40 0:1 /b/x/x /b/x rw,relatime master:1",
			    "43 41 0:1 /b/x/x /a rw,relatime master:1"),
		       "the slave of /a (the copy of /) receives before the slave of / (the copy of the bind)");
	finish(r);

	r = start_with("quirk make-slave-same-root", UNSHARE_SLAVE_PEERS,
		       1u << M_QUIRK_MAKE_SLAVE_SAME_ROOT, M_BREAK_NONE);
	setup(r, 5);
	table_in_order(r, L("40 39 0:1 / / rw,relatime master:1",
			    "41 40 0:1 /b/x /a rw,relatime master:1",
			    "42 41 0:1 /b/x/x /a rw,relatime master:1",
			    "43 40 0:1 /b/x/x /b/x rw,relatime master:1"),
		       "each copy the slave of the peer with its root: the copy of the bind receives first");
	finish(r);
}

/* A slave made a slave again goes to the head of its master's list, on
 * every kernel (do_make_slave(): list_move(); from 6.17
 * change_mnt_propagation(): hlist_del_init(), hlist_add_head()). /b and
 * /c become slaves of /a in turn, each at the head: /c, /b. */
TEST(make_slave_again_goes_first)
{
	struct run *r = start("make-slave on a slave",
		C("# mkdir /a /b /c")
		C("# mount --make-shared /dev/sdb1 /a")
		C("# mkdir /a/x /a/y")
		C("# mount --bind /a /b")
		C("# mount --bind /a /c")
		C("# mount --make-slave /b")
		C("# mount --make-slave /c")
		C("# mount /dev/sdc1 /a/x")
		C("# mount --make-slave /b")
		C("# mount /dev/sdc2 /a/y")
		C("# " MI));

	setup(r, 10);
	table_in_order(r, L("20 19 8:1 / / rw,relatime",
			    "21 20 8:17 / /a rw,relatime shared:1",
			    "22 20 8:17 / /b rw,relatime master:1",
			    "23 20 8:17 / /c rw,relatime master:1",
			    "24 21 8:33 / /a/x rw,relatime shared:2",
			    "25 23 8:33 / /c/x rw,relatime master:2",
			    "26 22 8:33 / /b/x rw,relatime master:2",
			    "27 21 8:34 / /a/y rw,relatime shared:3",
			    "28 22 8:34 / /b/y rw,relatime master:3",
			    "29 23 8:34 / /c/y rw,relatime master:3"),
		       "/c, made a slave last, receives /a/x first; /b, made one again, receives /a/y first");
	finish(r);
}

/* ---- files: the errors of mkdir(2), open(2), chdir(2), opendir(3) ------- */

TEST(file_errors)
{
	struct run *r = start("file errors",
		C("# mkdir /a /r")
		C("# touch /f")
		C("# mkdir /a")
		C("# mkdir /no/x")
		C("# mkdir /f/x")
		C("# touch /no/f")
		C("# cat /a")
		C("# cat /no")
		C("# cd /f")
		C("# cd /no")
		C("# ls /no")
		C("# mount -o ro /dev/sdb1 /r")
		C("# mkdir /r/d")
		C("# touch /r/f")
		C("# mkdir -p /r")
		C("# mkdir -p /a/b/c")
		C("# ls -1 /"));

	setup(r, 2);
	fails(r, EEXIST, "mkdir", "mkdir of an existing directory: EEXIST");
	fails(r, ENOENT, "mkdir", "mkdir in a missing directory: ENOENT");
	fails(r, ENOTDIR, "mkdir", "mkdir under a file: ENOTDIR");
	fails(r, ENOENT, "open", "touch in a missing directory: ENOENT");
	fails(r, EISDIR, "read", "cat of a directory: EISDIR");
	fails(r, ENOENT, "read", "cat of a missing file: ENOENT");
	fails(r, ENOTDIR, "chdir", "cd to a file: ENOTDIR");
	fails(r, ENOENT, "chdir", "cd to a missing directory: ENOENT");
	fails(r, ENOENT, "opendir", "ls of a missing directory: ENOENT");
	quiet(r, "a read-only mount");
	fails(r, EROFS, "mkdir", "mkdir on a read-only mount: EROFS");
	fails(r, EROFS, "open", "touch on a read-only mount: EROFS");
	quiet(r, "mkdir -p of an existing directory succeeds");
	quiet(r, "mkdir -p makes the parents");
	prints(r, "a\nf\nr\n", "ls -1 lists the names sorted");
	finish(r);
}

/* ---- the new mount API ----------------------------------------------------- */

TEST(open_tree_clone_and_move_mount)
{
	struct run *r = start("open_tree(2) and move_mount(2)",
		SHARED_DEST
		C("# mkdir /a /b")
		C("# mount /dev/sdb1 /a")
		C("# mkdir /a/sub")
		C("# mount /dev/sdb2 /a/sub")
		C("# open_tree -c /a @top")
		C("# open_tree -c -R /a @all")
		C("# " MI " | grep /a")
		C("# move_mount @top /b")
		C("# move_mount @all /d/t")
		C("# " MI));

	setup(r, SHARED_DEST_STEPS + 4);
	quiet(r, "open_tree -c");
	quiet(r, "open_tree -c -R");
	table(r, L("21 20 8:17 / /a rw,relatime",
		   "22 21 8:18 / /a/sub rw,relatime"),
	      "detached copies are in no namespace's table");
	quiet(r, "move_mount of the copy of one mount");
	quiet(r, "move_mount of the recursive copy onto a shared mount");
	table(r, L(SHARED_DEST_LINES,
		   "21 20 8:17 / /a rw,relatime",
		   "22 21 8:18 / /a/sub rw,relatime",
		   "41 20 8:17 / /b rw,relatime",
		   "42 31 8:17 / /d/t rw,relatime shared:2",
		   "43 42 8:18 / /d/t/sub rw,relatime shared:3",
		   "44 32 8:17 / /e/t rw,relatime shared:2",
		   "45 44 8:18 / /e/t/sub rw,relatime shared:3",
		   "46 33 8:17 / /s/t rw,relatime master:2",
		   "47 46 8:18 / /s/t/sub rw,relatime master:3"),
	      "-c copies one mount, -R the tree; moved onto a shared mount it propagates (5d case 2)");
	finish(r);
}

/* open_tree(2) with OPEN_TREE_CLONE copies as a bind does (fs/namespace.c
 * __do_loopback(), may_copy_tree(), 6.15 on): from the caller's namespace
 * or from a detached tree whose origin is the caller's namespace or none
 * (check_anonymous_mnt()). A clone records the namespace it came from, or
 * the origin of the detached tree it came from (open_detached_copy());
 * fsmount's tree records none. Before 6.15 only a mount of the caller's
 * namespace could be copied (quirk detached-ours-only). */
#define CLONE_DETACHED \
	C("# mkdir /a /b") \
	C("# mount /dev/sdb1 /a") \
	C("# mkdir /a/d") \
	C("# open_tree -c /a @t") \
	C("# open_tree -c @t @c") \
	C("# open_tree -c @t/d @cd") \
	C("# fsopen tmpfs @fc") \
	C("# fsconfig @fc create") \
	C("# fsmount @fc @m") \
	C("# open_tree -c @m @cm") \
	C("# unshare -m sh") \
	C("# open_tree -c @t @x") \
	C("# open_tree -c @c @x") \
	C("# open_tree -c @cm @x") \
	C("# exit") \
	C("# move_mount @cd /b") \
	C("# " MI)

TEST(open_tree_clone_of_detached_tree)
{
	struct run *r = start("open_tree(2) of a detached tree", CLONE_DETACHED);

	setup(r, 4);
	quiet(r, "a clone of a tree cloned from this namespace");
	quiet(r, "a clone of a directory in it");
	setup(r, 3);
	quiet(r, "a clone of fsmount's tree");
	quiet(r, "unshare -m");
	fails(r, EINVAL, "open_tree", "another namespace may not clone the tree");
	fails(r, EINVAL, "open_tree", "nor its clone, which keeps the first origin");
	quiet(r, "but may clone a clone of fsmount's tree, which has none");
	quiet(r, "exit");
	quiet(r, "the clone of the directory can be attached");
	table(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /a rw,relatime",
		   "22 20 8:17 /d /b rw,relatime"),
	      "as a mount of the directory");
	finish(r);

	r = start_with("quirk detached-ours-only", CLONE_DETACHED,
		       1u << M_QUIRK_DETACHED_OURS_ONLY, M_BREAK_NONE);
	setup(r, 4);
	fails(r, EINVAL, "open_tree", "no clone of a detached tree");
	fails(r, EINVAL, "open_tree", "nor of a directory in it");
	setup(r, 3);
	fails(r, EINVAL, "open_tree", "nor of fsmount's tree");
	quiet(r, "unshare -m");
	fails(r, EINVAL, "open_tree", "nor from another namespace");
	fails(r, EBADF, "open_tree", "@c was never made");
	fails(r, EBADF, "open_tree", "nor @cm");
	quiet(r, "exit");
	fails(r, EBADF, "move_mount", "nor @cd");
	table(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /a rw,relatime"),
	      "and nothing was attached");
	finish(r);
}

TEST(move_mount_set_group)
{
	/* move_mount(2), MOVE_MOUNT_SET_GROUP: both mount roots, one
	 * filesystem, TO's root inside FROM's, TO private, FROM shared or
	 * a slave; each failure below breaks exactly one condition */
	struct run *r = start("move_mount(2) MOVE_MOUNT_SET_GROUP",
		C("# mkdir /a /c /f /g /p /q")
		C("# mount --make-shared /dev/sdb1 /a")
		C("# mkdir /a/sub")
		C("# mount --bind /a /c")
		C("# mount --make-private /c")
		C("# mount --bind /a/sub /f")
		C("# mount --bind /a/sub /g")
		C("# mount --make-private /g")
		C("# mount /dev/sdb1 /p")
		C("# mount --make-shared /dev/sdb1 /q")
		C("# move_mount --set-group /f /c")
		C("# move_mount --set-group /p /c")
		C("# move_mount --set-group /a/sub /g")
		C("# move_mount --set-group /a /q")
		C("# move_mount --set-group /a /c")
		C("# move_mount --set-group /a /g")
		C("# move_mount --set-group /a /c")
		C("# " MI));

	setup(r, 10);
	fails(r, EINVAL, "move_mount", "TO's root outside FROM's: EINVAL");
	fails(r, EINVAL, "move_mount", "FROM private: EINVAL");
	fails(r, EINVAL, "move_mount", "FROM not a mount's root: EINVAL");
	fails(r, EINVAL, "move_mount", "TO already shared: EINVAL");
	quiet(r, "a private TO joins FROM's group");
	quiet(r, "a TO whose root lies inside FROM's joins too");
	fails(r, EINVAL, "move_mount", "once shared, TO cannot join again: EINVAL");
	table(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /a rw,relatime shared:1",
		   "22 20 8:17 / /c rw,relatime shared:1",
		   "23 20 8:17 /sub /f rw,relatime shared:1",
		   "24 20 8:17 /sub /g rw,relatime shared:1",
		   "25 20 8:17 / /p rw,relatime",
		   "26 20 8:17 / /q rw,relatime shared:2"),
	      "/c and /g became peers of /a; nothing else changed");
	finish(r);
}

TEST(quirk_set_group_not_unbindable)
{
	/* TO unbindable: neither shared nor a slave, so it may join (the
	 * rule, and every kernel up to 7.2.9); from 7.2.11 EINVAL */
#define SET_GROUP_UNBINDABLE \
	C("# mkdir /a /b /c") \
	C("# mount --make-shared /dev/sdb1 /a") \
	C("# mount --bind /a /b") \
	C("# mount --make-unbindable /b") \
	C("# mount --bind /a /c") \
	C("# mount --make-private /c") \
	C("# move_mount --set-group /a /b") \
	C("# move_mount --set-group /a /c") \
	C("# " MI)
	struct run *r = start("move_mount --set-group onto an unbindable mount", SET_GROUP_UNBINDABLE);

	setup(r, 6);
	quiet(r, "an unbindable TO joins FROM's group");
	quiet(r, "a private one too");
	table(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /a rw,relatime shared:1",
		   "22 20 8:17 / /b rw,relatime shared:1",
		   "23 20 8:17 / /c rw,relatime shared:1"),
	      "both peers of /a, /b no longer unbindable");
	finish(r);

	r = start_with("quirk set-group-not-unbindable", SET_GROUP_UNBINDABLE,
		       1u << M_QUIRK_SET_GROUP_NOT_UNBINDABLE, M_BREAK_NONE);
	setup(r, 6);
	fails(r, EINVAL, "move_mount", "an unbindable TO: EINVAL");
	quiet(r, "a private TO still joins");
	table(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /a rw,relatime shared:1",
		   "22 20 8:17 / /b rw,relatime unbindable",
		   "23 20 8:17 / /c rw,relatime shared:1"),
	      "/b stays unbindable");
	finish(r);
#undef SET_GROUP_UNBINDABLE
}

TEST(quirk_bind_onto_detached)
{
	/* mount --bind acts on the caller's namespace: a target in a
	 * detached tree is EINVAL, except on 6.17 */
#define BIND_ONTO_DETACHED \
	C("# mkdir -p /a/x /b") \
	C("# mount /dev/sdb1 /a") \
	C("# mkdir /a/x") \
	C("# open_tree -c /a @t") \
	C("# mount --bind /b @t/x") \
	C("# move_mount @t /b") \
	C("# " MI)
	struct run *r = start("mount --bind onto a detached tree", BIND_ONTO_DETACHED);

	setup(r, 4);
	fails(r, EINVAL, "mount", "a target in the detached tree: EINVAL");
	quiet(r, "the tree attaches as it was");
	table(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /a rw,relatime",
		   "22 20 8:17 / /b rw,relatime"),
	      "nothing on /b/x");
	finish(r);

	r = start_with("quirk bind-onto-detached", BIND_ONTO_DETACHED,
		       1u << M_QUIRK_BIND_ONTO_DETACHED, M_BREAK_NONE);
	setup(r, 4);
	quiet(r, "6.17: the bind goes into the detached tree");
	quiet(r, "which attaches with it");
	table(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /a rw,relatime",
		   "22 20 8:17 / /b rw,relatime",
		   "23 22 8:1 /b /b/x rw,relatime"),
	      "the bind of /b on /b/x came along");
	finish(r);
#undef BIND_ONTO_DETACHED
}

TEST(move_mount_set_group_other_superblock)
{
	struct run *r = start("move_mount(2) MOVE_MOUNT_SET_GROUP, superblocks",
		C("# mkdir /a /d")
		C("# mount --make-shared /dev/sdb1 /a")
		C("# mount /dev/sdc1 /d")
		C("# move_mount --set-group /a /d")
		C("# " MI));

	setup(r, 3);
	fails(r, EINVAL, "move_mount", "a mount of another filesystem: EINVAL");
	table(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /a rw,relatime shared:1",
		   "22 20 8:33 / /d rw,relatime"),
	      "nothing changed");
	finish(r);
}

TEST(move_mount_beneath_under_a_shared_parent)
{
	/* can_move_mount_beneath() (6.18) refuses only where propagation
	 * would overmount; F, attached under the shared /s, propagates to
	 * its peer /c, where T's copy moves onto F's copy */
	struct run *r = start("move_mount(2) MOVE_MOUNT_BENEATH, shared parent",
		C("# mkdir /s /c /src")
		C("# mount --make-shared /dev/sdb1 /s")
		C("# mkdir /s/d")
		C("# mount --bind /s /c")
		C("# mount /dev/sdc1 /s/d")
		C("# mount /dev/sdd1 /src")
		C("# open_tree -c /src @f")
		C("# move_mount --beneath @f /s/d")
		C("# " MI));

	setup(r, 8);
	table(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /s rw,relatime shared:1",
		   "22 20 8:17 / /c rw,relatime shared:1",
		   "23 26 8:33 / /s/d rw,relatime shared:2",
		   "24 27 8:33 / /c/d rw,relatime shared:2",
		   "25 20 8:49 / /src rw,relatime",
		   "26 21 8:49 / /s/d rw,relatime shared:3",
		   "27 22 8:49 / /c/d rw,relatime shared:3"),
	      "F beneath T, and F's copy beneath T's copy on the peer");
	finish(r);
}

TEST(move_mount_beneath_refusals)
{
	/* each refusal breaks one condition of can_move_mount_beneath()
	 * (6.18); the same move goes through once it holds */
	struct run *r = start("move_mount(2) MOVE_MOUNT_BENEATH, refusals",
		C("# mkdir /p /src /o /t /q /x")
		C("# mount --make-shared /dev/sdb1 /p")
		C("# mkdir /p/e")
		C("# mount --bind /p/e /p/e")
		C("# mount /dev/sdc1 /src")
		C("# open_tree -c /src @g")
		C("# move_mount --beneath @g /p/e")
		C("# mount --make-slave /p/e")
		C("# move_mount --beneath @g /p/e")
		C("# mount /dev/sdd1 /o")
		C("# open_tree /o @o")
		C("# mount /dev/sde1 /o")
		C("# mount /dev/sdf1 /t")
		C("# move_mount --beneath @o /t")
		C("# umount /o")
		C("# move_mount --beneath @o /t")
		C("# mount /dev/sdg1 /q")
		C("# mkdir /q/m")
		C("# mount --bind /q/m /x")
		C("# mount /dev/sdh1 /q/m")
		C("# mount --make-shared /q")
		C("# move_mount --set-group /q /x")
		C("# move_mount --beneath /x /q/m")
		C("# mount --make-private /x")
		C("# move_mount --beneath /x /q/m")
		C("# " MI));

	setup(r, 6);
	fails(r, EINVAL, "move_mount", "the top, a peer of the parent, has its root at the mount point: EINVAL");
	quiet(r, "the top becomes a slave of the parent's group");
	fails(r, EINVAL, "move_mount", "so it still receives there: EINVAL");
	setup(r, 4);
	fails(r, EINVAL, "move_mount", "the source is overmounted: EINVAL");
	quiet(r, "the cover goes");
	quiet(r, "and the source goes beneath");
	setup(r, 6);
	fails(r, EINVAL, "move_mount",
	      "a source of the shell's namespace receiving from the parent, its root at the mount point: EINVAL");
	quiet(r, "the source made private");
	quiet(r, "goes beneath");
	table(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /p rw,relatime shared:1",
		   "22 21 8:17 /e /p/e rw,relatime master:1",
		   "23 20 8:33 / /src rw,relatime",
		   "25 20 8:49 / /t rw,relatime",
		   "27 25 8:81 / /t rw,relatime",
		   "26 20 8:97 / /q rw,relatime shared:2",
		   "28 26 8:97 /m /q/m rw,relatime shared:3",
		   "29 28 8:113 / /q/m rw,relatime"),
	      "the two moves that went through, nothing of the refused ones");
	finish(r);
}

/* From 7.1.3 (C. Brauner's patches "move_mount: allow MOVE_MOUNT_BENEATH
 * on the rootfs" and "move_mount: transfer MNT_LOCKED", 2026; selftest
 * filesystems/move_mount) MOVE_MOUNT_BENEATH may go beneath the shell's
 * root mount, which sits on the namespace's root, and beneath a locked
 * mount, whose lock the mount beneath takes; before, both were EINVAL
 * (quirks beneath-not-root and beneath-not-locked). */
#define BENEATH_ROOT \
	C("# open_tree -c / @t") \
	C("# cd @t") \
	C("# move_mount --beneath @t /")

TEST(move_mount_beneath_the_root)
{
	struct run *r = start("move_mount(2) MOVE_MOUNT_BENEATH of the root",
		BENEATH_ROOT
		C("# chroot .")
		C("# " MI)
		C("# umount -l .")
		C("# " MI));

	setup(r, 2);
	quiet(r, "the clone goes beneath the shell's root, onto the namespace's root");
	quiet(r, "chroot . into the clone");
	table(r, L("21 19 8:1 / / rw,relatime", "20 21 8:1 / / rw,relatime"),
	      "the old root sits on the clone, which is where the old root was");
	quiet(r, "the old root goes through \".\"");
	table(r, L("21 19 8:1 / / rw,relatime"), "and the clone is the root");
	finish(r);

	r = start_with("quirk beneath-not-root", BENEATH_ROOT, 1u << M_QUIRK_BENEATH_NOT_ROOT, M_BREAK_NONE);
	setup(r, 2);
	fails(r, EINVAL, "move_mount", "nothing goes beneath the shell's root");
	finish(r);
}

#define BENEATH_LOCKED \
	C("sh1# mkdir /d") \
	C("sh1# mount /dev/sdb1 /d") \
	C("sh1# mount /dev/sdc1 /d") \
	C("sh2# unshare -Urm sh") \
	C("sh2# fsopen tmpfs @fc") \
	C("sh2# fsconfig @fc create") \
	C("sh2# fsmount @fc @n") \
	C("sh2# umount /d") \
	C("sh2# move_mount --beneath @n /d")

TEST(move_mount_beneath_a_locked_mount)
{
	struct run *r = start("move_mount(2) MOVE_MOUNT_BENEATH of a locked mount",
		BENEATH_LOCKED
		C("sh2# umount /d")
		C("sh2# " MI)
		C("sh2# umount /d"));

	setup(r, 7);
	fails(r, EINVAL, "umount2", "the copy of the top is locked");
	quiet(r, "a new mount goes beneath it all the same");
	quiet(r, "and takes its lock: the top may go");
	table(r, L("40 39 8:1 / / rw,relatime",
		   "41 40 8:17 / /d rw,relatime",
		   "43 41 0:10 / /d rw,relatime"),
	      "the new mount shows on the copy of the first");
	fails(r, EINVAL, "umount2", "and may not be unmounted itself");
	finish(r);

	r = start_with("quirk beneath-not-locked", BENEATH_LOCKED, 1u << M_QUIRK_BENEATH_NOT_LOCKED, M_BREAK_NONE);
	setup(r, 7);
	fails(r, EINVAL, "umount2", "the copy of the top is locked");
	fails(r, EINVAL, "move_mount", "nothing goes beneath a locked mount");
	finish(r);
}

/* A mount at /p/y reaches /c's copy in sh2, less privileged, where the
 * locked copy of /c/y goes on top of it (attach_recursive_mnt()). The
 * copy hides what the locked mount hid and is locked too; the mount on
 * top stays locked (7.2.11 and 7.3). 7.1.3 to 7.2.9 moved the lock to the
 * copy (quirk copy-under-lock-takes-lock); kernels before left the copy
 * unlocked (quirk copy-under-lock-unlocked). A plain bind of /c, which
 * would leave the copy out, tells whether the copy is locked. */
#define TUCK_LOCKED \
	C("sh1# mkdir /p /c /z") \
	C("sh1# mount --make-shared /dev/sdb1 /p") \
	C("sh1# mkdir /p/y") \
	C("sh1# mount --bind /p /c") \
	C("sh1# mount --make-slave /c") \
	C("sh1# mount /dev/sdc1 /c/y") \
	C("sh2# unshare -Urm --propagation unchanged sh") \
	C("sh1# mount /dev/sdd1 /p/y") \
	C("sh2# mount --bind /c /z") \
	C("sh2# umount /c/y") \
	C("sh2# umount /c/y")

TEST(propagated_copy_under_a_locked_mount)
{
	struct run *r = start("a copy propagated under a locked mount", TUCK_LOCKED);

	setup(r, 8);
	fails(r, EINVAL, "mount", "the copy is locked: no plain bind of its parent");
	fails(r, EINVAL, "umount2", "the mount on top keeps its lock");
	fails(r, EINVAL, "umount2", "still");
	finish(r);

	r = start_with("quirk copy-under-lock-takes-lock", TUCK_LOCKED,
		       1u << M_QUIRK_COPY_UNDER_LOCK_TAKES_LOCK, M_BREAK_NONE);
	setup(r, 8);
	fails(r, EINVAL, "mount", "the copy is locked");
	quiet(r, "and the mount on top is not: it may go");
	fails(r, EINVAL, "umount2", "then the copy, locked, may not");
	finish(r);

	r = start_with("quirk copy-under-lock-unlocked", TUCK_LOCKED,
		       1u << M_QUIRK_COPY_UNDER_LOCK_UNLOCKED, M_BREAK_NONE);
	setup(r, 8);
	quiet(r, "the copy is not locked: a plain bind of its parent goes through");
	fails(r, EINVAL, "umount2", "the mount on top keeps its lock");
	fails(r, EINVAL, "umount2", "still");
	finish(r);
}

TEST(mount_setattr_recursive)
{
	struct run *r = start("mount_setattr(2) AT_RECURSIVE",
		C("# mkdir /a /b")
		C("# mount /dev/sdb1 /a")
		C("# mkdir /a/x")
		C("# mount /dev/sdc1 /a/x")
		C("# mount /dev/sdd1 /b")
		C("# mkdir /b/x")
		C("# mount /dev/sde1 /b/x")
		C("# mount_setattr -o ro,nosuid /a")
		C("# mount_setattr -R -o ro --propagation shared /b")
		C("# " MI)
		C("# mount_setattr -R -o rw /b")
		C("# " MI " | grep /b"));

	setup(r, 7);
	quiet(r, "without -R");
	quiet(r, "with -R");
	table(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /a ro,nosuid,relatime",
		   "22 21 8:33 / /a/x rw,relatime",
		   "23 20 8:49 / /b ro,relatime shared:1",
		   "24 23 8:65 / /b/x ro,relatime shared:2"),
	      "without -R one mount changes; with -R the tree, propagation included");
	quiet(r, "-R -o rw");
	table(r, L("23 20 8:49 / /b rw,relatime shared:1",
		   "24 23 8:65 / /b/x rw,relatime shared:2"),
	      "rw clears ro on the whole tree");
	finish(r);
}

/* ---- quirks.c and the test-only broken rule --------------------------------- */

TEST(quirks_parse)
{
	unsigned shifts = 1u << M_QUIRK_UMOUNT_SHIFTS;
	unsigned drops = 1u << M_QUIRK_COPY_DROPS_UNBINDABLE;
	unsigned chains = 1u << M_QUIRK_UMOUNT_BUSY_SKIPS_CHAINS;
	/* up to 7.1.3: copy-under-lock-unlocked, and from 6.5, where
	 * MOVE_MOUNT_BENEATH came, beneath-not-root and beneath-not-locked;
	 * then copy-under-lock-takes-lock up to 7.2.11 */
#define LOCK (1u << M_QUIRK_COPY_UNDER_LOCK_UNLOCKED)
#define ROOT (1u << M_QUIRK_BENEATH_NOT_ROOT | 1u << M_QUIRK_BENEATH_NOT_LOCKED)
#define TAKES (1u << M_QUIRK_COPY_UNDER_LOCK_TAKES_LOCK)
#define ORDER (1u << M_QUIRK_MOUNTINFO_ATTACH_ORDER)
	/* make-slave-same-root: every kernel before 6.17 */
#define SLAVE (1u << M_QUIRK_MAKE_SLAVE_SAME_ROOT)
	/* the campaign's two: 6.17 only, and from 7.2.11 */
#define ONTO (1u << M_QUIRK_BIND_ONTO_DETACHED)
#define SETG (1u << M_QUIRK_SET_GROUP_NOT_UNBINDABLE)
	static const struct { const char *release; unsigned want; } kernel[] = {
		/* the ranges measured on Debian's kernels (docs/kernels.md) */
		{ "6.1.0-18-amd64", 1u << M_QUIRK_UMOUNT_SHIFTS | 1u << M_QUIRK_UNMOUNTED_TARGET_EINVAL |
				    1u << M_QUIRK_DETACHED_OURS_ONLY | 1u << M_QUIRK_UMOUNT_BUSY_SKIPS_CHAINS | LOCK | ORDER | SLAVE },
		{ "6.1.158", 1u << M_QUIRK_UMOUNT_SHIFTS | 1u << M_QUIRK_UNMOUNTED_TARGET_EINVAL |
			     1u << M_QUIRK_DETACHED_OURS_ONLY | 1u << M_QUIRK_UMOUNT_BUSY_SKIPS_CHAINS | LOCK | ORDER | SLAVE },
		{ "6.0.19", 0 },
		{ "6.2.0", 1u << M_QUIRK_UMOUNT_SHIFTS | 1u << M_QUIRK_DETACHED_OURS_ONLY |
			   1u << M_QUIRK_UMOUNT_BUSY_SKIPS_CHAINS | LOCK | ORDER | SLAVE },
		{ "6.4.16", 1u << M_QUIRK_UMOUNT_SHIFTS | 1u << M_QUIRK_DETACHED_OURS_ONLY |
			    1u << M_QUIRK_UMOUNT_BUSY_SKIPS_CHAINS | LOCK | ORDER | SLAVE },
		{ "6.5.0", 1u << M_QUIRK_UMOUNT_SHIFTS | 1u << M_QUIRK_DETACHED_OURS_ONLY |
			   1u << M_QUIRK_UMOUNT_BUSY_SKIPS_CHAINS | LOCK | ROOT | ORDER | SLAVE },
		/* mountinfo-attach-order ends at 6.8 */
		{ "6.7.12", 1u << M_QUIRK_UMOUNT_SHIFTS | 1u << M_QUIRK_DETACHED_OURS_ONLY |
			    1u << M_QUIRK_UMOUNT_BUSY_SKIPS_CHAINS | LOCK | ROOT | ORDER | SLAVE },
		{ "6.8.0", 1u << M_QUIRK_UMOUNT_SHIFTS | 1u << M_QUIRK_DETACHED_OURS_ONLY |
			   1u << M_QUIRK_UMOUNT_BUSY_SKIPS_CHAINS | LOCK | ROOT | SLAVE },
		{ "6.12.43+deb12-cloud-amd64", 1u << M_QUIRK_UMOUNT_SHIFTS | 1u << M_QUIRK_MOVE_TARGET_FIRST |
					       1u << M_QUIRK_CHANGE_TYPE_OURS_ONLY | 1u << M_QUIRK_DETACHED_OURS_ONLY |
					       1u << M_QUIRK_UMOUNT_BUSY_SKIPS_CHAINS | LOCK | ROOT | SLAVE },
		{ "6.12.48", 1u << M_QUIRK_UMOUNT_SHIFTS | 1u << M_QUIRK_MOVE_TARGET_FIRST |
			     1u << M_QUIRK_CHANGE_TYPE_OURS_ONLY | 1u << M_QUIRK_DETACHED_OURS_ONLY |
			     1u << M_QUIRK_UMOUNT_BUSY_SKIPS_CHAINS | LOCK | ROOT | SLAVE },
		{ "6.12.57", 1u << M_QUIRK_UMOUNT_SHIFTS | 1u << M_QUIRK_MOVE_TARGET_FIRST | 1u << M_QUIRK_DETACHED_OURS_ONLY |
			     1u << M_QUIRK_UMOUNT_BUSY_SKIPS_CHAINS | LOCK | ROOT | SLAVE },
		/* the first stretch of umount-busy-skips-chains ends there */
		{ "6.12.116+deb13-cloud-amd64", 1u << M_QUIRK_UMOUNT_SHIFTS | 1u << M_QUIRK_MOVE_TARGET_FIRST |
						1u << M_QUIRK_DETACHED_OURS_ONLY | 1u << M_QUIRK_UMOUNT_BUSY_SKIPS_CHAINS |
						LOCK | ROOT | SLAVE },
		{ "6.12.117+deb13-cloud-amd64", 1u << M_QUIRK_UMOUNT_SHIFTS | 1u << M_QUIRK_MOVE_TARGET_FIRST |
						1u << M_QUIRK_DETACHED_OURS_ONLY | LOCK | ROOT | SLAVE },
		/* the second stretch of change-type-ours-only, after "; " */
		{ "6.16.3+deb13-cloud-amd64", 1u << M_QUIRK_UMOUNT_SHIFTS | 1u << M_QUIRK_MOVE_TARGET_FIRST |
					      1u << M_QUIRK_CHANGE_TYPE_OURS_ONLY | 1u << M_QUIRK_UMOUNT_BUSY_SKIPS_CHAINS |
					      LOCK | ROOT | SLAVE },
		{ "6.16.12+deb13-cloud-amd64", 1u << M_QUIRK_UMOUNT_SHIFTS | 1u << M_QUIRK_MOVE_TARGET_FIRST |
					       1u << M_QUIRK_UMOUNT_BUSY_SKIPS_CHAINS | LOCK | ROOT | SLAVE },
		{ "6.17.8", 1u << M_QUIRK_COPY_DROPS_UNBINDABLE | 1u << M_QUIRK_MOVE_TARGET_FIRST |
			    1u << M_QUIRK_UMOUNT_BUSY_SKIPS_CHAINS | LOCK | ROOT | ONTO },
		{ "6.17.13+deb13-cloud-amd64", 1u << M_QUIRK_COPY_DROPS_UNBINDABLE | 1u << M_QUIRK_MOVE_TARGET_FIRST |
					       1u << M_QUIRK_UMOUNT_BUSY_SKIPS_CHAINS | LOCK | ROOT | ONTO },
		{ "6.18.44-fc-v1252", 1u << M_QUIRK_COPY_DROPS_UNBINDABLE | 1u << M_QUIRK_UMOUNT_BUSY_SKIPS_CHAINS |
				      LOCK | ROOT },
		{ "6.18", 1u << M_QUIRK_COPY_DROPS_UNBINDABLE | 1u << M_QUIRK_UMOUNT_BUSY_SKIPS_CHAINS | LOCK | ROOT },
		{ "6.19.0", 1u << M_QUIRK_COPY_DROPS_UNBINDABLE | 1u << M_QUIRK_UMOUNT_BUSY_SKIPS_CHAINS | LOCK | ROOT },
		/* namespace-of-a-file: 7.0 up to 7.0.12 */
		{ "7.0.4+deb13-cloud-amd64", 1u << M_QUIRK_COPY_DROPS_UNBINDABLE | 1u << M_QUIRK_UMOUNT_BUSY_SKIPS_CHAINS |
					     1u << M_QUIRK_NAMESPACE_OF_A_FILE | LOCK | ROOT },
		{ "7.0.12", 1u << M_QUIRK_COPY_DROPS_UNBINDABLE | 1u << M_QUIRK_UMOUNT_BUSY_SKIPS_CHAINS |
			    1u << M_QUIRK_NAMESPACE_OF_A_FILE | LOCK | ROOT },
		{ "7.0.13", 1u << M_QUIRK_COPY_DROPS_UNBINDABLE | 1u << M_QUIRK_UMOUNT_BUSY_SKIPS_CHAINS | LOCK | ROOT },
		{ "7.1.2", 1u << M_QUIRK_COPY_DROPS_UNBINDABLE | 1u << M_QUIRK_UMOUNT_BUSY_SKIPS_CHAINS | LOCK | ROOT },
		{ "7.1.3+deb13-cloud-amd64", 1u << M_QUIRK_COPY_DROPS_UNBINDABLE | 1u << M_QUIRK_UMOUNT_BUSY_SKIPS_CHAINS |
					     TAKES },
		{ "7.1.13", 1u << M_QUIRK_COPY_DROPS_UNBINDABLE | 1u << M_QUIRK_UMOUNT_BUSY_SKIPS_CHAINS | TAKES },
		{ "7.2.9+deb13-cloud-amd64", 1u << M_QUIRK_COPY_DROPS_UNBINDABLE | 1u << M_QUIRK_UMOUNT_BUSY_SKIPS_CHAINS |
					     TAKES },
		{ "7.2.11", SETG },
		{ "7.3.4", SETG },
		{ "garbage", 0 },
	};
#undef LOCK
#undef ROOT
#undef TAKES
#undef ORDER
#undef SLAVE
#undef ONTO
#undef SETG
	struct ns_buf err = NS_BUF_INIT;
	unsigned mask = 99;

	for (size_t i = 0; i < NS_ARRAY_SIZE(kernel); i++) {
		mask = 99;
		ok(m_quirks_parse("kernel", kernel[i].release, &mask, &err) == 0 &&
		   mask == kernel[i].want, "quirks: \"kernel\" on %s gives %#x (got %#x)",
		   kernel[i].release, kernel[i].want, mask);
	}
	mask = 99;
	ok(m_quirks_parse("kernel", NULL, &mask, &err) == 0 && mask == 0,
	   "quirks: \"kernel\" without a release gives none");
	mask = 99;
	ok(m_quirks_parse("umount-shifts-stacks", "6.18.0", &mask, &err) == 0 && mask == shifts,
	   "quirks: a name holds whatever the release");
	mask = 99;
	ok(m_quirks_parse("copy-drops-unbindable,umount-shifts-stacks", NULL, &mask, &err) == 0 &&
	   mask == (shifts | drops), "quirks: two names");
	mask = 99;
	ok(m_quirks_parse("umount-busy-skips-chains", NULL, &mask, &err) == 0 && mask == chains,
	   "quirks: the newest name");
	mask = 99;
	ok(m_quirks_parse("beneath-not-locked,beneath-not-root", NULL, &mask, &err) == 0 &&
	   mask == (1u << M_QUIRK_BENEATH_NOT_LOCKED | 1u << M_QUIRK_BENEATH_NOT_ROOT),
	   "quirks: the two of MOVE_MOUNT_BENEATH before 7.1.3");
	mask = 99;
	ok(m_quirks_parse("", NULL, &mask, &err) == 0 && mask == 0, "quirks: empty is none");
	mask = 99;
	ok(m_quirks_parse(NULL, NULL, &mask, &err) == 0 && mask == 0, "quirks: NULL is none");
	ok(err.len == 0, "quirks: no message for a good spec");
	mask = 99;
	ok(m_quirks_parse("kernel", "6.18.0", &mask, &err) == 0 &&
	   !(mask & 1u << M_QUIRK_TMPFS_INODE64),
	   "quirks: kernel never takes a build option from the release");
	ok(m_quirks_parse("tmpfs-inode64", NULL, &mask, &err) == 0 &&
	   mask == 1u << M_QUIRK_TMPFS_INODE64, "quirks: a build option by its name");

	ok(m_quirks_parse("bogus", "6.18.0", &mask, &err) < 0, "quirks: an unknown name fails");
	is_str(ns_buf_str(&err),
	       "unknown quirk 'bogus' (known: umount-shifts-stacks, copy-drops-unbindable, unmounted-target-einval, move-target-first, change-type-ours-only, detached-ours-only, umount-busy-skips-chains, namespace-of-a-file, beneath-not-root, beneath-not-locked, copy-under-lock-unlocked, copy-under-lock-takes-lock, mountinfo-attach-order, make-slave-same-root, bind-onto-detached, set-group-not-unbindable, tmpfs-inode64; or kernel)",
	       "quirks: the message names it and every known one");
	ns_buf_reset(&err);
	ok(m_quirks_parse("umount-shifts-stacks,kernelx", "6.18.0", &mask, &err) < 0 &&
	   strstr(ns_buf_str(&err), "'kernelx'") != NULL,
	   "quirks: a name that only starts like one is unknown");
	ns_buf_free(&err);

	for (int i = 0; i < M_QUIRK__COUNT; i++)
		ok(m_quirks[i].name && m_quirks[i].range && m_quirks[i].what &&
		   strstr(m_quirks[i].what, ".scn") != NULL,
		   "quirks: %s says what it breaks and where it was seen", m_quirks[i].name);
}

#define CLONE_UNBINDABLE \
	C("sh1# mkdir /ub /x") \
	C("sh1# mount --make-unbindable /dev/sdb1 /ub") \
	C("sh2# unshare -m --propagation unchanged sh") \
	C("sh2# " MI) \
	C("sh2# mount --bind /ub /x")

TEST(quirk_copy_drops_unbindable)
{
	struct run *r = start("5g unbindable copy", CLONE_UNBINDABLE);

	setup(r, 3);
	table(r, L("40 39 8:1 / / rw,relatime", "41 40 8:17 / /ub rw,relatime unbindable"),
	      "without the quirk the copy of an unbindable mount is unbindable");
	fails(r, EINVAL, "mount", "and cannot be bound");
	finish(r);

	r = start_with("quirk copy-drops-unbindable", CLONE_UNBINDABLE,
		       1u << M_QUIRK_COPY_DROPS_UNBINDABLE, M_BREAK_NONE);
	setup(r, 3);
	table(r, L("40 39 8:1 / / rw,relatime", "41 40 8:17 / /ub rw,relatime"),
	      "with it the copy is private");
	quiet(r, "and can be bound");
	finish(r);
}

/* propagate_umount.txt, "Maximal non-shifting subsets": T2 (the copy of
 * T on the peer /q2) stays, since D, which stays, sits strictly inside it
 * through C2; C2 goes and D goes down to where C2 was. */
#define SHIFT_STACK \
	C("# mkdir /q /q2") \
	C("# mount --make-shared /dev/sdb1 /q") \
	C("# mkdir /q/t") \
	C("# mount --bind /q /q2") \
	C("# mount /dev/sdb2 /q/t") \
	C("# mkdir /q/t/x") \
	C("# mount /dev/sdc1 /q/t/x") \
	C("# mount --make-private /q2/t/x") \
	C("# mount /dev/sdc2 /q2/t/x") \
	C("# umount -l /q/t") \
	C("# " MI)

TEST(quirk_umount_shifts_stacks)
{
	struct run *r = start("propagate_umount.txt non-shifting", SHIFT_STACK);

	setup(r, 10);
	table(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /q rw,relatime shared:1",
		   "22 20 8:17 / /q2 rw,relatime shared:1",
		   "24 22 8:18 / /q2/t rw,relatime shared:2",
		   "27 24 8:34 / /q2/t/x rw,relatime"),
	      "T2 stays; C2 goes and D moves down onto T2 at x");
	finish(r);

	r = start_with("quirk umount-shifts-stacks", SHIFT_STACK,
		       1u << M_QUIRK_UMOUNT_SHIFTS, M_BREAK_NONE);
	setup(r, 10);
	/* the quirk's own description (quirks.c) and the xfail: reason of
	 * scenarios/sharedsubtree/46: "T2 is unmounted as well and D, E and
	 * F shift down to /q2/t" */
	table(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /q rw,relatime shared:1",
		   "22 20 8:17 / /q2 rw,relatime shared:1",
		   "27 22 8:34 / /q2/t rw,relatime"),
	      "with the quirk T2 goes too and D shifts down to /q2/t");
	finish(r);
}

/* A receiver that is itself a peer of the parent, at the place of the
 * mount unmounted, holds the next copy of the chain: C (at x on /c2, a
 * peer of /c1) and D (at x on C) are both copies of D2. D goes, so C
 * goes with it (propagate_umount.txt), and a shell works in C. */
#define BUSY_CHAIN \
	C("sh1# mkdir /c1 /c2") \
	C("sh1# mount --make-shared /dev/sdb1 /c1") \
	C("sh1# mkdir /c1/x") \
	C("sh1# mount --bind /c1 /c2") \
	C("sh1# mount --make-private /c2") \
	C("sh1# mount --bind /c1 /c2/x") \
	C("sh1# mount /dev/sdc1 /c2/x/x") \
	C("sh1# move_mount --set-group /c1 /c2") \
	C("sh2# cd /c2/x") \
	C("sh1# umount /c1/x") \
	C("sh1# " MI)

TEST(quirk_umount_busy_skips_chains)
{
	struct run *r = start("umount(2) EBUSY along a chain of copies", BUSY_CHAIN);

	setup(r, 9);
	fails(r, EBUSY, "umount2", "C, in use, would go with D: EBUSY");
	table(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /c1 rw,relatime shared:1",
		   "22 20 8:17 / /c2 rw,relatime shared:1",
		   "23 22 8:17 / /c2/x rw,relatime shared:1",
		   "24 23 8:33 / /c2/x/x rw,relatime shared:2",
		   "25 21 8:33 / /c1/x rw,relatime shared:2"),
	      "nothing changed");
	finish(r);

	r = start_with("quirk umount-busy-skips-chains", BUSY_CHAIN,
		       1u << M_QUIRK_UMOUNT_BUSY_SKIPS_CHAINS, M_BREAK_NONE);
	setup(r, 9);
	/* the quirk's own description (quirks.c): C has a submount that does
	 * not cover its root, so it is not looked at, and goes */
	quiet(r, "with the quirk the umount goes through");
	table(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /c1 rw,relatime shared:1",
		   "22 20 8:17 / /c2 rw,relatime shared:1"),
	      "and takes D2, C and D, C from under the shell");
	finish(r);

	/* what the older check does look at: a copy whose only submount
	 * covers its root */
	busy_under_cover("quirk umount-busy-skips-chains, a covered copy",
			 1u << M_QUIRK_UMOUNT_BUSY_SKIPS_CHAINS);
}

TEST(break_slaves_receive_nothing)
{
	static const char *const both[] = {
		"20 19 8:1 / / rw,relatime",
		"21 20 8:17 / /a rw,relatime shared:1",
		"22 20 8:17 / /b rw,relatime master:1",
		"23 21 8:33 / /a/x rw,relatime shared:2",
		"24 22 8:33 / /b/x rw,relatime master:2",
		NULL,
	};
#define SLAVE_GETS \
	C("# mkdir /a /b") \
	C("# mount --make-shared /dev/sdb1 /a") \
	C("# mount --bind /a /b") \
	C("# mount --make-slave /b") \
	C("# mkdir /a/x") \
	C("# mount /dev/sdc1 /a/x") \
	C("# " MI) \
	C("# umount /a/x") \
	C("# " MI)
	struct run *r = start("slave propagation", SLAVE_GETS);

	setup(r, 6);
	table(r, both, "unbroken, the slave receives the mount");
	quiet(r, "umount");
	table(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /a rw,relatime shared:1",
		   "22 20 8:17 / /b rw,relatime master:1"),
	      "and the umount");
	finish(r);

	r = start_with("broken: slaves-receive-nothing", SLAVE_GETS, 0,
		       M_BREAK_SLAVES_RECEIVE_NOTHING);
	setup(r, 6);
	not_table(r, both, "the slave's copy is missing");
	ok(id_of(r->out.output, "/b/x") == 0 && id_of(r->out.output, "/a/x") != 0,
	   "%s: /a/x is there, /b/x is not", r->what);
	quiet(r, "umount");
	table(r, L("20 19 8:1 / / rw,relatime",
		   "21 20 8:17 / /a rw,relatime shared:1",
		   "22 20 8:17 / /b rw,relatime master:1"),
	      "peers still work");
	finish(r);
#undef SLAVE_GETS
}
