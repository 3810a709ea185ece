/* exec_fsctx.c - fsopen, fsconfig, fsmount and fspick on the model: a
 * filesystem context (struct m_fsctx) goes through the phases of the
 * kernel's fs/fs_context.c and fs/fsopen.c, with their errors in the
 * order the kernel checks them. A parameter is checked when fsconfig
 * sets it (EINVAL then, at that step), applied at create; a
 * reconfiguration applies the superblock flags (ro, sync, dirsync,
 * lazytime) and leaves the filesystem's own parameters to the kernel
 * (not modelled). */
#include "model/shell.h"

#include <errno.h>
#include <linux/mount.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>

static struct m_fsctx *ctx_of(struct m_level *lv, const char *name)
{
	struct m_handle *h = m_handle_find(lv, name, strlen(name));

	return h ? h->ctx : NULL;
}

static void keep_ctx(struct m_shell *sh, const char *name, struct m_fsctx *fc)
{
	struct m_handle h = { .ctx = fc };

	snprintf(h.name, sizeof(h.name), "%s", name);
	m_handle_keep(&sh->sb->w, m_cur(sh), h);
	fc->refs--; /* the handle holds it now */
}

static struct m_fsctx *ctx_new(struct m_shell *sh, const char *type, enum m_fc_phase phase)
{
	struct m_fsctx *fc = xcalloc(1, sizeof(*fc));

	fc->refs = 1;
	fc->phase = phase;
	fc->type = xstrdup(type);
	fc->user = m_cur(sh)->user;
	return fc;
}

/* What is left after a mount or a reconfiguration: the superblock only
 * (the kernel's vfs_clean_context()). */
static void clean(struct m_fsctx *fc)
{
	free(fc->source);
	fc->source = NULL;
	ns_buf_reset(&fc->data);
	fc->sb_set = fc->sb_mask = 0;
	fc->phase = M_FC_AWAITING_RECONF;
}

int m_exec_fsopen(struct m_shell *sh, const void *args, struct ns_buf *out,
		  struct ns_cmd_result *res)
{
	const struct ns_fsopen_args *a = args;

	(void)out;
	if (!m_may_mount(sh))
		return ns_cmd_fail(res, "fsopen", EPERM);
	keep_ctx(sh, a->handle, ctx_new(sh, a->type, M_FC_CREATE_PARAMS));
	return 0;
}

/* The superblock flags any filesystem takes by name (the kernel's
 * vfs_parse_sb_flag()); 0 for a name that is none. */
static int sb_flag(const char *key, unsigned long *flag, bool *set)
{
	static const struct {
		const char *name;
		unsigned long flag;
		bool set;
	} map[] = {
		{ "ro", MS_RDONLY, true }, { "rw", MS_RDONLY, false },
		{ "sync", MS_SYNCHRONOUS, true }, { "async", MS_SYNCHRONOUS, false },
		{ "dirsync", MS_DIRSYNC, true },
		{ "lazytime", MS_LAZYTIME, true }, { "nolazytime", MS_LAZYTIME, false },
		{ "mand", 0, true }, { "nomand", 0, false }, { "posixacl", 0, true },
		{ "silent", 0, true },
	};

	for (size_t i = 0; i < NS_ARRAY_SIZE(map); i++)
		if (!strcmp(map[i].name, key)) {
			*flag = map[i].flag;
			*set = map[i].set;
			return 1;
		}
	return 0;
}

/* FSCONFIG_SET_FLAG or FSCONFIG_SET_STRING (value NULL for a flag): the
 * superblock flags first, then the filesystem's own parameters, then
 * "source" (vfs_parse_fs_param()). */
static int set_param(struct m_shell *sh, struct m_fsctx *fc, const char *key, const char *value,
		     struct ns_cmd_result *res)
{
	struct m_fsopts scratch;
	unsigned long flag;
	char *opt;
	bool set;
	int r;

	if (sb_flag(key, &flag, &set)) {
		if (!flag)
			return ns_cmd_fail(res, "fsconfig (option not modelled)", EOPNOTSUPP);
		fc->sb_mask |= flag;
		fc->sb_set = set ? fc->sb_set | flag : fc->sb_set & ~flag;
		return 0;
	}
	if (!strcmp(key, "source")) {
		/* "VFS: Non-string source", "VFS: Multiple sources" */
		if (!value || fc->source)
			return ns_cmd_fail(res, "fsconfig", EINVAL);
		fc->source = xstrdup(value);
		return 0;
	}
	opt = value ? xasprintf("%s=%s", key, value) : xstrdup(key);
	m_fsopts_init(&scratch, fc->type, sh->sb->w.ram_pages, m_inode64_built(&sh->sb->w));
	r = m_fsopts_parse(&scratch, opt, sh->sb->w.ram_pages, m_cur(sh)->user);
	if (r == 0) {
		if (fc->data.len)
			ns_buf_addc(&fc->data, ',');
		ns_buf_adds(&fc->data, opt);
	}
	free(opt);
	if (r < 0)
		return ns_cmd_fail(res, r == -EOPNOTSUPP ? "fsconfig (option not modelled)" : "fsconfig", -r);
	return 0;
}

/* FSCONFIG_CMD_CREATE: a new superblock of the context's type, owned by
 * the opener's user namespace (vfs_cmd_create()). */
static int create(struct m_shell *sh, struct m_fsctx *fc, struct ns_cmd_result *res)
{
	struct m_world *w = &sh->sb->w;
	struct m_level *lv = m_cur(sh);
	struct m_fsopts o;
	struct m_sb *s;
	int r;

	if (fc->phase != M_FC_CREATE_PARAMS)
		return ns_cmd_fail(res, "fsconfig", EBUSY);
	if (!m_capable(lv, fc->user, lv->sys_admin))
		return ns_cmd_fail(res, "fsconfig", EPERM);
	m_fsopts_init(&o, fc->type, w->ram_pages, m_inode64_built(w));
	o.uid = lv->uid; /* the root's owner, unless uid= and gid= say */
	o.gid = lv->gid;
	r = m_fsopts_parse(&o, ns_buf_str(&fc->data), w->ram_pages, fc->user);
	if (r < 0) {
		fc->phase = M_FC_FAILED;
		return ns_cmd_fail(res, "fsconfig", -r);
	}
	s = m_sb_new(w, fc->source ? fc->source : "none", fc->type);
	s->opts = o;
	s->owner = fc->user;
	s->rdonly = fc->sb_set & MS_RDONLY;
	s->ms_flags = fc->sb_set & (MS_SYNCHRONOUS | MS_DIRSYNC | MS_LAZYTIME);
	fc->sb = s;
	fc->phase = M_FC_AWAITING_MOUNT;
	return 0;
}

/* FSCONFIG_CMD_RECONFIGURE: the superblock flags asked for change, with
 * CAP_SYS_ADMIN over the superblock's owner (vfs_cmd_reconfigure(),
 * reconfigure_super()). */
static int reconfigure(struct m_shell *sh, struct m_fsctx *fc, struct ns_cmd_result *res)
{
	struct m_level *lv = m_cur(sh);
	struct m_sb *s = fc->sb;
	unsigned long cur;

	if (fc->phase != M_FC_RECONF_PARAMS)
		return ns_cmd_fail(res, "fsconfig", EBUSY);
	if (!m_capable(lv, s->owner ? s->owner : sh->sb->user0, lv->sys_admin)) {
		fc->phase = M_FC_FAILED;
		return ns_cmd_fail(res, "fsconfig", EPERM);
	}
	if (fc->data.len)
		return ns_cmd_fail(res, "fsconfig (reconfiguring a filesystem's own parameters is not modelled)",
				   EOPNOTSUPP);
	cur = (s->rdonly ? MS_RDONLY : 0) | s->ms_flags;
	cur = (cur & ~fc->sb_mask) | (fc->sb_set & fc->sb_mask);
	s->rdonly = cur & MS_RDONLY;
	s->ms_flags = cur & (MS_SYNCHRONOUS | MS_DIRSYNC | MS_LAZYTIME);
	clean(fc);
	return 0;
}

int m_exec_fsconfig(struct m_shell *sh, const void *args, struct ns_buf *out,
		    struct ns_cmd_result *res)
{
	const struct ns_fsconfig_args *a = args;
	struct m_fsctx *fc = ctx_of(m_cur(sh), a->handle);

	(void)out;
	if (!fc)
		return ns_cmd_fail(res, "fsconfig", EBADF);
	/* a context a mount or a reconfiguration left is made ready to
	 * reconfigure again by whatever comes next (finish_clean_context()) */
	if (fc->phase == M_FC_AWAITING_RECONF)
		fc->phase = M_FC_RECONF_PARAMS;
	switch (a->cmd) {
	case NS_FSCONFIG_CREATE:
		return create(sh, fc, res);
	case NS_FSCONFIG_RECONFIGURE:
		return reconfigure(sh, fc, res);
	case NS_FSCONFIG_SET_FLAG:
	case NS_FSCONFIG_SET_STRING:
		break;
	}
	if (fc->phase != M_FC_CREATE_PARAMS && fc->phase != M_FC_RECONF_PARAMS)
		return ns_cmd_fail(res, "fsconfig", EBUSY);
	return set_param(sh, fc, a->key, a->cmd == NS_FSCONFIG_SET_STRING ? a->value : NULL, res);
}

/* fsmount(2): the created superblock's root as a mount of its own, alone
 * in a new anonymous namespace that any namespace may attach (its origin
 * is none), kept as a handle. */
int m_exec_fsmount(struct m_shell *sh, const void *args, struct ns_buf *out,
		   struct ns_cmd_result *res)
{
	const struct ns_fsmount_args *a = args;
	struct m_world *w = &sh->sb->w;
	struct m_level *lv = m_cur(sh);
	unsigned long long atime = a->attr & MOUNT_ATTR__ATIME;
	struct m_handle h = { .ctx = NULL };
	struct m_fsctx *fc;
	struct m_mount *m;
	struct m_ns *anon;

	(void)out;
	if (!m_may_mount(sh))
		return ns_cmd_fail(res, "fsmount", EPERM);
	if (atime != MOUNT_ATTR_RELATIME && atime != MOUNT_ATTR_NOATIME && atime != MOUNT_ATTR_STRICTATIME)
		return ns_cmd_fail(res, "fsmount", EINVAL);
	fc = ctx_of(lv, a->context);
	if (!fc)
		return ns_cmd_fail(res, "fsmount", EBADF);
	if (!fc->sb)
		return ns_cmd_fail(res, "fsmount", EINVAL);
	if (fc->phase != M_FC_AWAITING_MOUNT)
		return ns_cmd_fail(res, "fsmount", EBUSY);
	m = m_mount_new(w, fc->sb, fc->sb->root);
	m->flags = m_attr_flags(a->attr) |
		   (atime == MOUNT_ATTR_NOATIME ? M_NOATIME : atime == MOUNT_ATTR_RELATIME ? M_RELATIME : 0);
	anon = m_ns_new(w, lv->ns->owner);
	anon->anon = true;
	anon->root = m;
	anon->mounts = 1;
	m->ns = anon;
	m_why(w, m, "made by fsmount (fsmount(2): a detached mount of the new superblock)");
	clean(fc);
	h.at = (struct m_path){ m, m->root };
	h.anon = anon;  /* fsmount's descriptor keeps it, as a clone's does */
	snprintf(h.name, sizeof(h.name), "%s", a->handle);
	m_handle_keep(w, lv, h);
	return 0;
}

/* fspick(2): a context to reconfigure the superblock of the mount whose
 * root the path is. */
int m_exec_fspick(struct m_shell *sh, const void *args, struct ns_buf *out,
		  struct ns_cmd_result *res)
{
	const struct ns_fspick_args *a = args;
	struct m_fsctx *fc;
	struct m_path at;
	int r;

	(void)out;
	if (!m_may_mount(sh))
		return ns_cmd_fail(res, "fspick", EPERM);
	r = m_lookup(sh, a->path, &at);
	if (r < 0)
		return ns_cmd_fail(res, "fspick", -r);
	if (at.d != at.mnt->root)
		return ns_cmd_fail(res, "fspick", EINVAL);
	fc = ctx_new(sh, at.mnt->sb->fstype, M_FC_RECONF_PARAMS);
	fc->sb = at.mnt->sb;
	keep_ctx(sh, a->handle, fc);
	return 0;
}
