/* fsopts.c - see model.h: the options of a filesystem mounted by type,
 * read and shown as the kernel's code for it does, written from that
 * code's behaviour (not copied):
 *
 *   tmpfs  mm/shmem.c: shmem_parse_options() splits the data at commas
 *          (not at one followed by a digit, which belongs to an mpol node
 *          list); shmem_parse_one() reads each parameter; the defaults
 *          are shmem_init_fs_context()'s and shmem_fill_super()'s;
 *          shmem_show_options() prints, in this order, size=Nk, nr_inodes,
 *          mode=%03o, uid, gid, each only when not the default, then
 *          inode64 when asked for, as a kernel built without
 *          CONFIG_TMPFS_INODE64 does (the recorded sessions' and the
 *          machines nstest is checked on are); with quirk tmpfs-inode64
 *          (Debian's kernels are built with it) 64-bit inode numbers are
 *          the default and inode64 or inode32 is shown on every tmpfs.
 *   ramfs  fs/ramfs/inode.c: ramfs_parse_param() reads mode and ignores
 *          every other parameter; ramfs_show_options() prints mode=%o when
 *          it is not 0755.
 *
 * Sizes are in pages of 4096 bytes (a kernel with bigger pages rounds to
 * those). RAM, which size=N% and the default size (half of it) depend on,
 * is the machine's, from sysinfo(2): that reads nothing of mounts.
 *
 * Every error is EINVAL, as fs_parse() and vfs_parse_fs_param() make it:
 * an unknown parameter, a value where none belongs or none where one
 * does, and a bad value ("size=lots": memparse() leaves junk). tmpfs
 * parameters the model does not model (huge, mpol, noswap, the quota
 * ones, casefold, strict_encoding) are refused with EOPNOTSUPP, which no
 * kernel says: the model cannot show what they do. */
#include "model/model.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>

#include "model/knum.h"

#define PAGE_SHIFT 12
#define BOGO_INODE_SIZE 1024u       /* mm/shmem.c: one inode's share (6.6+) */
#define TMPFS_MODE 01777u           /* 0777 | S_ISVTX */
#define RAMFS_MODE 0755u

unsigned long long m_ram_pages(void)
{
	struct sysinfo si;

	if (sysinfo(&si) < 0)
		return 0;
	return (unsigned long long)si.totalram * si.mem_unit >> PAGE_SHIFT;
}

/* shmem_default_max_blocks() and _max_inodes(): half the RAM's pages (no
 * high memory on a 64-bit machine). */
static unsigned long long default_half(unsigned long long ram_pages)
{
	return ram_pages / 2;
}

void m_fsopts_init(struct m_fsopts *o, const char *fstype, unsigned long long ram_pages,
		   bool inode64_built)
{
	memset(o, 0, sizeof(*o));
	if (!strcmp(fstype, "tmpfs")) {
		o->kind = M_FS_TMPFS;
		o->blocks = o->inodes = default_half(ram_pages);
		o->mode = TMPFS_MODE;
		/* shmem_fill_super(): full_inums defaults to the build's
		 * choice, and such a build shows it on every tmpfs */
		o->inode64 = o->inums_shown = inode64_built;
	} else if (!strcmp(fstype, "ramfs")) {
		o->kind = M_FS_RAMFS;
		o->mode = RAMFS_MODE;
	}
}

/* The next option of the list at *p, cut off in place; *p is NULL after
 * the last. With digits_join, a comma followed by a digit stays inside
 * the option (shmem_parse_options()). */
static char *next_option(char **p, bool digits_join)
{
	char *start = *p, *c = start;

	for (;;) {
		c = strchr(c, ',');
		if (!c) {
			*p = NULL;
			return start;
		}
		c++;
		if (!digits_join || !isdigit((unsigned char)*c)) {
			c[-1] = '\0';
			*p = c;
			return start;
		}
	}
}

/* The kernel id of id as the mounter's user namespace u names it
 * (make_kuid() in fs_param_is_uid()), which the filesystem's namespace,
 * the mounter's, must map (shmem_parse_one()): M_NO_ID for none. */
static unsigned id_maps(const struct m_userns *u, unsigned id, bool gid)
{
	return m_id_down(gid ? &u->gids : &u->uids, id);
}

enum tparam {
	T_SIZE, T_NR_BLOCKS, T_NR_INODES, T_MODE, T_UID, T_GID, T_INODE32, T_INODE64,
	T_UNMODELLED,
};

static const struct {
	const char *name;
	enum tparam p;
} tmpfs_params[] = {
	{ "size", T_SIZE }, { "nr_blocks", T_NR_BLOCKS }, { "nr_inodes", T_NR_INODES },
	{ "mode", T_MODE }, { "uid", T_UID }, { "gid", T_GID },
	{ "inode32", T_INODE32 }, { "inode64", T_INODE64 },
	{ "huge", T_UNMODELLED }, { "mpol", T_UNMODELLED }, { "noswap", T_UNMODELLED },
	{ "quota", T_UNMODELLED }, { "usrquota", T_UNMODELLED }, { "grpquota", T_UNMODELLED },
	{ "usrquota_block_hardlimit", T_UNMODELLED }, { "usrquota_inode_hardlimit", T_UNMODELLED },
	{ "grpquota_block_hardlimit", T_UNMODELLED }, { "grpquota_inode_hardlimit", T_UNMODELLED },
	{ "casefold", T_UNMODELLED }, { "strict_encoding", T_UNMODELLED },
};

static int tmpfs_param(const char *key)
{
	for (size_t i = 0; i < NS_ARRAY_SIZE(tmpfs_params); i++)
		if (!strcmp(key, tmpfs_params[i].name))
			return (int)tmpfs_params[i].p;
	return -1;
}

/* size=: bytes (memparse), or a percentage of RAM; up to whole pages. */
static int tmpfs_size(const char *val, unsigned long long ram_pages, unsigned long long *blocks)
{
	const char *rest;
	unsigned long long size = m_memparse(val, &rest);

	if (*rest == '%') {
		size <<= PAGE_SHIFT;
		size *= ram_pages;
		size /= 100;
		rest++;
	}
	if (*rest)
		return -EINVAL;
	*blocks = (size + (1u << PAGE_SHIFT) - 1) >> PAGE_SHIFT;
	return 0;
}

/* A count (memparse) no larger than max. */
static int tmpfs_count(const char *val, uint64_t max, unsigned long long *n)
{
	const char *rest;
	unsigned long long v = m_memparse(val, &rest);

	if (*rest || v > max)
		return -EINVAL;
	*n = v;
	return 0;
}

/* A uid or gid (fsparam_u32 or _uid: base 0) that maps, kept as the
 * kernel id. */
static int tmpfs_id(const char *val, const struct m_userns *user, bool gid, unsigned *id)
{
	unsigned v;

	if (!m_kstrtouint(val, 0, &v) || (v = id_maps(user, v, gid)) == M_NO_ID)
		return -EINVAL;
	*id = v;
	return 0;
}

static int tmpfs_mode(const char *val, unsigned *mode)
{
	if (!m_kstrtouint(val, 8, mode))
		return -EINVAL;
	*mode &= 07777;
	return 0;
}

/* shmem_parse_one(): one parameter, val NULL for a bare key. */
static int tmpfs_one(struct m_fsopts *o, const char *key, const char *val,
		     unsigned long long ram_pages, const struct m_userns *user)
{
	int p = tmpfs_param(key);
	bool flag = p == T_INODE32 || p == T_INODE64;

	if (p < 0)
		return -EINVAL;            /* unknown: "Unknown parameter" */
	if (p == T_UNMODELLED)
		return -EOPNOTSUPP;
	if (flag != !val || (val && !*val))
		return -EINVAL;            /* "Unexpected value", "Bad value" */
	switch ((enum tparam)p) {
	case T_SIZE:
		return tmpfs_size(val, ram_pages, &o->blocks);
	case T_NR_BLOCKS:
		return tmpfs_count(val, INT64_MAX, &o->blocks);
	case T_NR_INODES:
		return tmpfs_count(val, UINT64_MAX / BOGO_INODE_SIZE, &o->inodes);
	case T_MODE:
		return tmpfs_mode(val, &o->mode);
	case T_UID:
		return tmpfs_id(val, user, false, &o->uid);
	case T_GID:
		return tmpfs_id(val, user, true, &o->gid);
	case T_INODE32:
	case T_INODE64:
		o->inode64 = p == T_INODE64;
		return 0;
	case T_UNMODELLED:
		break;
	}
	return -EOPNOTSUPP;
}

/* ramfs_parse_param(): mode, and nothing else matters ("source" is the
 * VFS's, and mount(2) has given it already: "Multiple sources"). */
static int ramfs_one(struct m_fsopts *o, const char *key, const char *val)
{
	if (!strcmp(key, "source"))
		return -EINVAL;
	if (strcmp(key, "mode"))
		return 0;
	if (!val || !m_kstrtouint(val, 8, &o->mode))
		return -EINVAL;
	o->mode &= 07777;
	return 0;
}

static int parse_one(struct m_fsopts *o, char *opt, unsigned long long ram_pages,
		     const struct m_userns *user)
{
	char *val = strchr(opt, '=');

	if (val)
		*val++ = '\0';
	if (o->kind == M_FS_TMPFS)
		return tmpfs_one(o, opt, val, ram_pages, user);
	return o->kind == M_FS_RAMFS ? ramfs_one(o, opt, val) : 0;
}

int m_fsopts_parse(struct m_fsopts *o, const char *data, unsigned long long ram_pages,
		   const struct m_userns *user)
{
	char *copy, *p;
	struct m_fsopts n = *o;
	int r = 0;

	if (!data || !*data)
		return 0;
	copy = p = xstrdup(data);
	while (p && r == 0) {
		char *opt = next_option(&p, n.kind == M_FS_TMPFS);

		if (*opt)
			r = parse_one(&n, opt, ram_pages, user);
	}
	free(copy);
	if (r == 0)
		*o = n;
	return r;
}

void m_fsopts_show(const struct m_fsopts *o, unsigned long long ram_pages, struct ns_buf *out)
{
	if (o->kind == M_FS_RAMFS && o->mode != RAMFS_MODE)
		ns_buf_addf(out, ",mode=%o", o->mode);
	if (o->kind != M_FS_TMPFS)
		return;
	if (o->blocks != default_half(ram_pages))
		ns_buf_addf(out, ",size=%lluk", o->blocks << (PAGE_SHIFT - 10));
	if (o->inodes != default_half(ram_pages))
		ns_buf_addf(out, ",nr_inodes=%llu", o->inodes);
	if (o->mode != TMPFS_MODE)
		ns_buf_addf(out, ",mode=%03o", o->mode);
	if (o->uid)
		ns_buf_addf(out, ",uid=%u", o->uid);
	if (o->gid)
		ns_buf_addf(out, ",gid=%u", o->gid);
	/* shmem_show_options(): inode64 or inode32 when the build has
	 * CONFIG_TMPFS_INODE64 (quirk tmpfs-inode64), else inode64 only
	 * when asked for */
	if (o->inums_shown || o->inode64)
		ns_buf_addf(out, ",inode%d", o->inode64 ? 64 : 32);
}
