/* test_df.c - df's choice of rows (commands/df.c), which both backends
 * share: coreutils 9.1's filter_mount_list() with no FILE, get_point()
 * per FILE, and the table's columns. Each rule has a case that shows it
 * deciding. */
#include <string.h>
#include <sys/sysmacros.h>

#include "commands/args.h"
#include "tap.h"

#define GIB (1024ULL * 1024 * 1024 / 4096) /* 4096-byte blocks in a GiB */

static const struct ns_fs_usage tmpfs_use = { true, 4096, 2 * GIB, 2 * GIB, 2 * GIB };
static const struct ns_fs_usage empty_use = { true, 4096, 0, 0, 0 };

/* a mount: its device is stat(2)'s too unless st says otherwise */
static struct ns_df_mount m(const char *src, const char *target, const char *type,
			    unsigned minor, unsigned st_minor)
{
	return (struct ns_df_mount){ src, target, type, "/", makedev(0, minor), true,
				     makedev(0, st_minor), tmpfs_use };
}

static char *render(const struct ns_df_args *a, const struct ns_df_mount *v, size_t n,
		    const struct ns_df_file *f, size_t nf)
{
	struct ns_buf out = NS_BUF_INIT;

	ns_df_render(a, v, n, f, nf, &out);
	return ns_buf_detach(&out);
}

/* the Mounted on column of each row but the heading, joined by ' ' */
static char *targets(const char *table)
{
	struct ns_buf b = NS_BUF_INIT;
	const char *line = strchr(table, '\n');

	while (line && line[1]) {
		const char *end = strchr(line + 1, '\n'), *sp = end;

		while (sp > line && sp[-1] != ' ')
			sp--;
		ns_buf_addf(&b, "%s%.*s", b.len ? " " : "", (int)(end - sp), sp);
		line = end;
	}
	return ns_buf_detach(&b);
}

#define IS_TARGETS(a, v, n, f, nf, want, ...)                  \
	do {                                                   \
		char *t_ = render(a, v, n, f, nf), *x_ = targets(t_); \
		is_str(x_, want, __VA_ARGS__);                 \
		free(x_);                                      \
		free(t_);                                      \
	} while (0)

TEST(all_filesystems)
{
	struct ns_df_args a = { 0 };
	struct ns_df_mount v[] = {
		m("/dev/sda1", "/", "tmpfs", 1, 1),
		m("proc", "/proc", "proc", 2, 2),
		m("/dev/sdb1", "/a", "tmpfs", 3, 3),
		m("/dev/sdb1", "/b", "tmpfs", 3, 3),   /* a bind of /a */
		m("r", "/c", "ramfs", 4, 4),
	};

	v[4].use = empty_use;
	IS_TARGETS(&a, v, 5, NULL, 0, "/ /a",
		   "no FILE: dummies, a second mount of a device and empty filesystems are left out");
	v[2].target = "/a/deep";
	IS_TARGETS(&a, v, 5, NULL, 0, "/ /b",
		   "of one device, the mount point nearer the root is kept, where the device was first seen");
	v[3].root = "/sub";
	IS_TARGETS(&a, v, 5, NULL, 0, "/ /a/deep",
		   "unless its root in the filesystem is deeper");
	v[3] = m("x", "/b", "tmpfs", 3, 3);
	v[2].target = "/a";
	IS_TARGETS(&a, v, 5, NULL, 0, "/ /a", "a source with a '/' beats one without");
	v[2].source = "y";
	v[3] = m("x", "/a", "tmpfs", 5, 5);
	v[2].st_dev = makedev(0, 5);            /* /a is covered by x */
	IS_TARGETS(&a, v, 4, NULL, 0, "/ /a", "a mount over the same mount point replaces the covered one");
	{
		char *t = render(&a, v, 4, NULL, 0);

		ok(strstr(t, "\nx ") != NULL && !strstr(t, "\ny "),
		   "the covering mount's source is shown, not the covered one's");
		free(t);
	}
}

TEST(files)
{
	struct ns_df_args a = { .human = true, .type = true };
	struct ns_df_mount v[] = {
		m("/dev/sda1", "/", "tmpfs", 1, 1),
		m("/dev/sdb1", "/a", "tmpfs", 3, 3),
		m("/dev/sdb1", "/b", "tmpfs", 3, 3),
		m("r", "/c", "ramfs", 4, 4),
	};
	struct ns_df_file f[] = {
		{ "/b/x", makedev(0, 3), "/b/x", tmpfs_use },
		{ "/c", makedev(0, 4), "/c", empty_use },
		{ "/ab", makedev(0, 1), "/ab", tmpfs_use },
		{ "/a/l", makedev(0, 3), "/a/t", tmpfs_use },
	};
	char *t;

	IS_TARGETS(&a, v, 4, f, 4, "/b /c / /a",
		   "FILEs: the longest mount point prefix of each, empty filesystems too, /ab not under /a");
	v[2].st_dev = makedev(0, 1);            /* /b stats elsewhere now */
	IS_TARGETS(&a, v, 4, f, 1, "/a",
		   "a prefix whose mount point is on another device gives way to a mount of the FILE's device");
	t = render(&a, v, 4, f, 1);
	is_str(t, "Filesystem     Type   Size  Used Avail Use% Mounted on\n"
		  "/dev/sdb1      tmpfs  2.0G     0  2.0G   0% /a\n",
	       "-hT: the columns, their widths and alignment");
	free(t);
}

TEST(sizes)
{
	struct ns_df_args a = { 0 };
	struct ns_df_mount v[] = { m("/dev/sda1", "/", "tmpfs", 1, 1) };
	char *t;

	v[0].use = (struct ns_fs_usage){ true, 4096, 1000, 250, 200 };
	t = render(&a, v, 1, NULL, 0);
	is_str(t, "Filesystem     1K-blocks  Used Available Use% Mounted on\n"
		  "/dev/sda1           4000  3000       800  79% /\n",
	       "1K blocks; Use%% is used over used and available, rounded up");
	free(t);
	v[0].use = empty_use;
	v[0].fstype = "ramfs";
	{
		struct ns_df_file f = { "/", makedev(0, 1), "/", empty_use };

		t = render(&a, v, 1, &f, 1);
		ok(strstr(t, "0     0         0    - /\n") != NULL, "no blocks: Use%% is -");
		free(t);
	}
}

TEST(findmnt_cells)
{
	struct ns_fs_usage u = { true, 4096, 3096576, 3096576, 3096576 };
	char *s = ns_findmnt_size_cell(NS_FINDMNT_SIZE, &u), *p;

	is_str(s, "11.8G", "findmnt SIZE: one decimal, rounded");
	free(s);
	s = ns_findmnt_size_cell(NS_FINDMNT_USED, &u);
	is_str(s, "0", "findmnt USED: 0 is 0");
	p = ns_findmnt_size_cell(NS_FINDMNT_USEPERC, &empty_use);
	is_str(p, "-", "findmnt USE%%: - without blocks");
	free(s);
	free(p);
	u.blocks = 1;
	s = ns_findmnt_size_cell(NS_FINDMNT_SIZE, &u);
	is_str(s, "4K", "findmnt SIZE: a whole unit has no decimal");
	free(s);
}
