/* test_model_sb.c - the model's superblocks: a filesystem's own options
 * and its read-only state.
 *
 * The expectations come from the kernel's code for them, read, not run:
 * mm/shmem.c (shmem_parse_one(): size is memparse()d, with k m g t p e
 * and %, and rounded up to whole pages; nr_blocks, nr_inodes, mode in
 * octal, uid, gid; a value left with junk is "Bad value", EINVAL, and so
 * is an unknown parameter; shmem_show_options() prints size=%luk,
 * nr_inodes, mode=%03o, uid, gid in that order, each only when it is not
 * the default: half the RAM, 01777, 0), fs/ramfs/inode.c (mode, shown
 * %o when not 0755; other parameters ignored), mount(2) (MS_RDONLY makes
 * the new superblock read-only), and fs/super.c get_tree_bdev() (a block
 * device's superblock, while active, is shared and may not change its
 * read-only state: EBUSY). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model_run.h"

/* A machine with 1000 pages of RAM: tmpfs's default is 500 pages. */
#define RAM 1000ull

/* What show_options() appends for data parsed on a new filesystem of
 * type fstype (by the first user namespace), or "ERR <errno>". */
/* A kernel built with CONFIG_TMPFS_INODE64 (quirk tmpfs-inode64)? */
static bool inode64_built;

static char *shown(const char *fstype, const char *data, const struct m_userns *user)
{
	static struct m_userns first;
	struct m_fsopts o;
	struct ns_buf b = NS_BUF_INIT;
	int r;

	m_idmap_all(&first.uids);
	m_idmap_all(&first.gids);

	m_fsopts_init(&o, fstype, RAM, inode64_built);
	r = m_fsopts_parse(&o, data, RAM, user ? user : &first);
	if (r < 0)
		ns_buf_addf(&b, "ERR %d", -r);
	else
		m_fsopts_show(&o, RAM, &b);
	return ns_buf_detach(&b);
}

static void shows(const char *fstype, const char *data, const char *want, const char *why)
{
	char *got = shown(fstype, data, NULL);

	is_str(got, want, "%s -o %s: %s", fstype, data, why);
	free(got);
}

TEST(tmpfs_size)
{
	shows("tmpfs", "size=1m", ",size=1024k", "1m is 1024k");
	shows("tmpfs", "size=1", ",size=4k", "one byte is one 4096-byte page");
	shows("tmpfs", "size=4097", ",size=8k", "rounded up to whole pages");
	shows("tmpfs", "size=1G", ",size=1048576k", "suffixes in either case");
	shows("tmpfs", "size=0x10k", ",size=16k", "0x is hex (simple_strtoull base 0)");
	shows("tmpfs", "size=10%", ",size=400k", "a percentage of RAM (100 of 1000 pages)");
	shows("tmpfs", "size=50%", "", "half the RAM is the default, not shown");
	shows("tmpfs", "size=2000k", "", "so is the default given in bytes");
	shows("tmpfs", "size=0", ",size=0k", "0 (no limit) is not the default, shown");
	shows("tmpfs", "nr_blocks=10", ",size=40k", "nr_blocks counts pages, shown as size");
	shows("tmpfs", "size=1m,size=2m", ",size=2048k", "the last one counts");
	shows("tmpfs", "size=lots", "ERR 22", "junk after the number is a bad value: EINVAL");
	shows("tmpfs", "size=1x", "ERR 22", "an unknown suffix is junk");
	shows("tmpfs", "size=", "ERR 22", "an empty value is a bad value");
	shows("tmpfs", "size", "ERR 22", "size without a value is a bad value");
	shows("tmpfs", "size=-1", "ERR 22", "no sign");
}

TEST(tmpfs_mode_ids_order)
{
	shows("tmpfs", "mode=700", ",mode=700", "mode is octal, shown %03o");
	shows("tmpfs", "mode=7", ",mode=007", "with three digits at least");
	shows("tmpfs", "mode=1777", "", "01777 is the default, not shown");
	shows("tmpfs", "mode=01777", "", "a leading 0 changes nothing");
	shows("tmpfs", "mode=8", "ERR 22", "8 is no octal digit");
	shows("tmpfs", "uid=1000,gid=0x10", ",uid=1000,gid=16", "uid and gid, base 0");
	shows("tmpfs", "uid=0,gid=0", "", "root's are the default");
	shows("tmpfs", "uid=4294967295", "ERR 22", "(uid_t)-1 is no user");
	shows("tmpfs", "uid=4294967296", "ERR 22", "nor is a number past 32 bits");
	shows("tmpfs", "nr_inodes=1k", ",nr_inodes=1024", "nr_inodes with a suffix");
	shows("tmpfs", "nr_inodes=500", "", "half the RAM's pages is the default");
	shows("tmpfs", "gid=5,uid=7,inode64,mode=750,nr_inodes=9,size=2m",
	      ",size=2048k,nr_inodes=9,mode=750,uid=7,gid=5,inode64",
	      "shown in show_options()'s order, whatever the order given");
	shows("tmpfs", "inode64,inode32", "", "inode32 is not shown");
	shows("tmpfs", "inode64=1", "ERR 22", "a flag takes no value");
	shows("tmpfs", "bogus=1", "ERR 22", "an unknown parameter: EINVAL");
	shows("tmpfs", "size=1m,bogus", "ERR 22", "one bad option fails them all");
	shows("tmpfs", "huge=always", "ERR 95", "a parameter the model does not model: EOPNOTSUPP");
	shows("tmpfs", "", "", "no options, nothing shown");
}

/* mm/shmem.c with CONFIG_TMPFS_INODE64: full_inums is on by default and
 * shmem_show_options() shows inode64 or inode32 on every tmpfs (its
 * comment's table: "TMPFS_INODE64=y: show" whatever full_inums is). */
TEST(tmpfs_inode64_built)
{
	inode64_built = true;
	shows("tmpfs", "", ",inode64", "no options: 64-bit inode numbers, shown");
	shows("tmpfs", "size=1m", ",size=1024k,inode64", "after the other options");
	shows("tmpfs", "inode32", ",inode32", "inode32 asked for is shown too");
	shows("tmpfs", "inode32,inode64", ",inode64", "the last one counts");
	shows("ramfs", "mode=700", ",mode=700", "ramfs has no inode numbers option");
	inode64_built = false;
	shows("tmpfs", "", "", "without the build option: nothing shown");
}

TEST(tmpfs_ids_in_a_user_namespace)
{
	static struct m_userns first, mapped, unmapped;
	char *got;

	m_idmap_all(&first.uids);
	m_idmap_all(&first.gids);
	/* unshare -r: 0 0 1 in both maps; unshare -U: none */
	mapped = (struct m_userns){ .parent = &first,
				    .uids = { .v = { { 0, 0, 1 } }, .n = 1 },
				    .gids = { .v = { { 0, 0, 1 } }, .n = 1 } };
	unmapped = (struct m_userns){ .parent = &first };

	got = shown("tmpfs", "uid=0,gid=0", &mapped);
	is_str(got, "", "tmpfs: uid=0 in a namespace that maps root (unshare -r) is root");
	free(got);
	got = shown("tmpfs", "uid=1", &mapped);
	is_str(got, "ERR 22", "tmpfs: uid=1 is mapped nowhere there: EINVAL");
	free(got);
	got = shown("tmpfs", "gid=0", &unmapped);
	is_str(got, "ERR 22", "tmpfs: without a mapping even 0 is no group: EINVAL");
	free(got);
}

TEST(ramfs)
{
	shows("ramfs", "mode=700", ",mode=700", "ramfs shows mode %o");
	shows("ramfs", "mode=1777", ",mode=1777", "four digits when it has them");
	shows("ramfs", "mode=755", "", "0755 is ramfs's default");
	shows("ramfs", "size=1m,whatever", "", "ramfs ignores what it does not know");
	shows("ramfs", "mode=9", "ERR 22", "but a bad mode is EINVAL");
}

/* The part of mountinfo's line for dir after " - ": type, source, super
 * options. */
#define SUPER(dir) "cat /proc/self/mountinfo | grep ' " dir " ' | sed 's/.* - //'"

TEST(tmpfs_options_shown)
{
	struct run *r = start("tmpfs options",
		C("# mkdir /d /x")
		C("# mount -t tmpfs -o size=1m,mode=700 data /d")
		C("# " SUPER("/d"))
		C("# findmnt -no OPTIONS /d")
		C("# findmnt -no FS-OPTIONS /d")
		C("# mount | grep ' /d '")
		C("# mount -t tmpfs -o size=lots none /x")
		C("# mount -t tmpfs -o nosuchthing none /x")
		C("# cat /proc/self/mountinfo | grep -c ' /x '")
		C("# mount -t ramfs -o mode=700 r /x")
		C("# " SUPER("/x")));

	setup(r, 2);
	prints(r, "tmpfs data rw,size=1024k,mode=700\n", "mountinfo's super options");
	prints(r, "rw,relatime,size=1024k,mode=700\n", "findmnt's OPTIONS: the mount's, then the superblock's");
	prints(r, "rw,size=1024k,mode=700\n", "findmnt's FS-OPTIONS");
	prints(r, "data on /d type tmpfs (rw,relatime,size=1024k,mode=700)\n", "mount's merged options");
	fails(r, EINVAL, "mount", "size=lots is a bad value: EINVAL");
	fails(r, EINVAL, "mount", "an unknown parameter: EINVAL");
	prints(r, "0\n", "neither mounted anything");
	quiet(r, "ramfs with a mode");
	prints(r, "ramfs r rw,mode=700\n", "ramfs shows its mode");
	finish(r);
}

/* fs/ramfs/inode.c: ramfs_mknod() and ramfs_mkdir() never change the
 * directory's i_size (shmem_mknod() adds BOGO_DIRENT_SIZE), so a ramfs
 * directory's size stays 0; its link count is kept as tmpfs's. */
TEST(ramfs_directory_size)
{
	struct run *r = start("stat of ramfs directories",
		C("# mkdir /r /t")
		C("# mount -t ramfs ramfs /r")
		C("# mount -t tmpfs tmpfs /t")
		C("# mkdir /r/a /r/b /t/a /t/b")
		C("# touch /r/f")
		C("# stat -c %n:%h:%s /r /r/a /r/f /t /t/a"));

	setup(r, 5);
	prints(r, "/r:4:0\n/r/a:2:0\n/r/f:1:0\n/t:4:80\n/t/a:2:40\n",
	       "ramfs directories are 0 bytes; tmpfs's 40 and 20 an entry");
	finish(r);
}

TEST(typed_ro_superblock)
{
	struct run *r = start("mount -o ro of a tmpfs",
		C("# mkdir /r")
		C("# mount -t tmpfs -o ro,size=8k none /r")
		C("# findmnt -no VFS-OPTIONS,FS-OPTIONS /r")
		C("# " SUPER("/r"))
		C("# touch /r/f"));

	setup(r, 2);
	prints(r, "ro,relatime ro,size=8k\n", "MS_RDONLY: the mount and the new superblock are read-only");
	prints(r, "tmpfs none ro,size=8k\n", "mountinfo's super options start with ro");
	fails(r, EROFS, "open", "nothing is written on it");
	finish(r);
}

TEST(standin_ro_state)
{
	struct run *r = start("stand-in ro state",
		C("# mkdir /a /b /c")
		C("# mount /dev/sdd1 /a")
		C("# touch /a/f")
		C("# umount /a")
		C("# mount -o ro /dev/sdd1 /a")
		C("# findmnt -no FS-OPTIONS /a")
		C("# ls /a")
		C("# mount /dev/sdd1 /b")
		C("# mount -o ro /dev/sdd1 /b")
		C("# findmnt -no VFS-OPTIONS,FS-OPTIONS /b")
		C("# mount --bind /b /c")
		C("# umount /a /b /c")
		C("# mount /dev/sdd1 /a")
		C("# findmnt -no FS-OPTIONS /a")
		C("# touch /a/g"));

	setup(r, 4);
	quiet(r, "a stand-in mounted -o ro after its last mount went");
	prints(r, "ro\n", "its superblock is read-only (FS-OPTIONS ro)");
	prints(r, "f\n", "and holds the files it had: the device is the same");
	fails(r, EBUSY, "mount", "a rw mount of it while it is mounted ro: EBUSY");
	quiet(r, "a ro one shares it");
	prints(r, "ro,relatime ro\n", "read-only, mount and superblock");
	quiet(r, "a bind mount makes no superblock");
	quiet(r, "every mount of it goes");
	quiet(r, "then mounting it rw makes the superblock afresh");
	prints(r, "rw\n", "read-write");
	quiet(r, "and writable");
	finish(r);
}

/* A superblock lives while any mount of it does, wherever it is. */
TEST(standin_alive_elsewhere)
{
	struct run *r = start("stand-in alive elsewhere",
		C("sh1# mkdir /a /b")
		C("sh1# mount -o ro /dev/sdd1 /a")
		C("sh2# unshare -m sh")
		C("sh1# umount /a")
		C("sh1# mount /dev/sdd1 /b")
		C("sh2# exit")
		C("sh1# mount /dev/sdd1 /b")
		C("sh1# umount /b")
		C("sh1# mount -o ro /dev/sdd1 /a")
		C("sh1# cd /a")
		C("sh1# umount -l /a")
		C("sh1# mount /dev/sdd1 /b")
		C("sh1# cd /")
		C("sh1# mount /dev/sdd1 /b")
		C("sh1# mount -o remount,ro /b")
		C("sh1# open_tree -c /b @t")
		C("sh1# umount /b")
		C("sh1# mount /dev/sdd1 /a"));

	setup(r, 4);
	fails(r, EBUSY, "mount", "its copy in another namespace keeps it ro: EBUSY");
	quiet(r, "that namespace ends");
	quiet(r, "then it can be mounted rw");
	setup(r, 4);
	fails(r, EBUSY, "mount", "a working directory in a lazily unmounted mount keeps it ro: EBUSY");
	quiet(r, "the working directory leaves");
	quiet(r, "then it can be mounted rw");
	quiet(r, "remount,ro without bind makes the superblock ro");
	quiet(r, "open_tree -c copies the mount");
	quiet(r, "umount");
	fails(r, EBUSY, "mount", "the detached copy keeps it ro: EBUSY");
	finish(r);
}
