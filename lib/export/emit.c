/* emit.c - the table of ns_export_cmds: per command id, the C that carries
 * the command out with raw system calls, or the reason it is refused.
 * Each emitter writes statements into the step's block (export.c): they
 * leave 0 or an errno in `e`, and a command that prints appends to `o`. */
#include "export/export.h"

#include <fcntl.h>
#include <linux/mount.h>
#include <sched.h>
#include <stdarg.h>
#include <string.h>
#include <sys/mount.h>

#include "commands/args.h"
#include "commands/command.h"
#include "commands/filter.h"

#ifndef MS_NOSYMFOLLOW
#define MS_NOSYMFOLLOW 256
#endif
#ifndef MOUNT_ATTR_NOSYMFOLLOW
#define MOUNT_ATTR_NOSYMFOLLOW 0x00200000
#endif
#ifndef MOVE_MOUNT_SET_GROUP
#define MOVE_MOUNT_SET_GROUP 0x00000100
#endif
#ifndef MOVE_MOUNT_BENEATH
#define MOVE_MOUNT_BENEATH 0x00000200
#endif

static void put(struct ns_export_ctx *cx, const char *fmt, ...) NS_PRINTF(2, 3);

static void put(struct ns_export_ctx *cx, const char *fmt, ...)
{
	va_list ap;

	ns_buf_adds(cx->code, "\t\t");
	va_start(ap, fmt);
	ns_buf_vaddf(cx->code, fmt, ap);
	va_end(ap);
}

/* A C string literal of s, in a buffer that lives until the next call
 * but one (two can go into one statement). */
static const char *lit(const char *s)
{
	static struct ns_buf b[2];
	static int k;

	k ^= 1;
	ns_buf_reset(&b[k]);
	if (s)
		ns_export_cstr(&b[k], s);
	else
		ns_buf_adds(&b[k], "NULL");
	return ns_buf_str(&b[k]);
}

/* ---- files ---------------------------------------------------------------- */

static int no_handles(const struct ns_fs_args *a, struct ns_buf *why)
{
	for (size_t i = 0; i < a->nops; i++)
		if (ns_is_handle_path(a->ops[i], NULL)) {
			ns_buf_addf(why, "the handle path %s", a->ops[i]);
			return -1;
		}
	return 0;
}

static int emit_mkdir(struct ns_export_ctx *cx, const struct ns_stage *sg, struct ns_buf *why)
{
	const struct ns_fs_args *a = sg->args;

	if (no_handles(a, why) < 0)
		return -1;
	for (size_t i = 0; i < a->nops; i++)
		put(cx, "if (!e && %s(%s%s) < 0)\n\t\t\te = errno;\n",
		    a->parents ? "xs_mkdir_p" : "mkdir", lit(a->ops[i]), a->parents ? "" : ", 0755");
	return 0;
}

static int emit_touch(struct ns_export_ctx *cx, const struct ns_stage *sg, struct ns_buf *why)
{
	const struct ns_fs_args *a = sg->args;

	if (no_handles(a, why) < 0)
		return -1;
	for (size_t i = 0; i < a->nops; i++)
		put(cx, "if (!e && xs_touch(%s) < 0)\n\t\t\te = errno;\n", lit(a->ops[i]));
	return 0;
}

static int emit_rmdir(struct ns_export_ctx *cx, const struct ns_stage *sg, struct ns_buf *why)
{
	const struct ns_fs_args *a = sg->args;

	if (no_handles(a, why) < 0)
		return -1;
	if (a->parents) {
		ns_buf_adds(why, "rmdir -p");
		return -1;
	}
	for (size_t i = 0; i < a->nops; i++)
		put(cx, "if (!e && rmdir(%s) < 0)\n\t\t\te = errno;\n", lit(a->ops[i]));
	return 0;
}

static int emit_cd(struct ns_export_ctx *cx, const struct ns_stage *sg, struct ns_buf *why)
{
	const struct ns_fs_args *a = sg->args;

	if (no_handles(a, why) < 0)
		return -1;
	put(cx, "if (chdir(%s) < 0)\n\t\t\te = errno;\n", lit(a->nops ? a->ops[0] : "/"));
	return 0;
}

/* ls [-a] [-1] [DIR]: the names sorted, one a line; the block is matched
 * as names (export.c reads a block in columns down each column). */
static int emit_ls(struct ns_export_ctx *cx, const struct ns_stage *sg, struct ns_buf *why)
{
	const struct ns_fs_args *a = sg->args;

	if (no_handles(a, why) < 0)
		return -1;
	if (a->longf || a->itself) {
		/* the exported matcher knows no free fields */
		ns_buf_adds(why, "ls -l and ls -d are not exported: ls -l's sizes and dates are "
			    "matched free, which the exported matcher does not do");
		return -1;
	}
	put(cx, "if (xs_ls(%s, %d, &o) < 0)\n\t\t\te = errno;\n", lit(a->nops ? a->ops[0] : "."),
	    a->all ? 1 : 0);
	cx->prints = true;
	cx->ls = true;
	return 0;
}

static int emit_cat(struct ns_export_ctx *cx, const struct ns_stage *sg, struct ns_buf *why)
{
	const struct ns_fs_args *a = sg->args;

	if (a->nops != 1 || ns_cat_mounts_file(a->ops[0]) != NS_CAT_MOUNTINFO) {
		ns_buf_adds(why, "only cat /proc/self/mountinfo is exported");
		return -1;
	}
	put(cx, "if (xs_mountinfo(&o) < 0)\n\t\t\te = errno;\n");
	cx->prints = true;
	return 0;
}

static int emit_sleep(struct ns_export_ctx *cx, const struct ns_stage *sg, struct ns_buf *why)
{
	const struct ns_sleep_args *a = sg->args;

	(void)why;
	put(cx, "{\n\t\t\tstruct timespec ts = { %lld, %ld };\n\n"
		"\t\t\twhile (nanosleep(&ts, &ts) < 0 && errno == EINTR)\n\t\t\t\t;\n\t\t}\n",
	    (long long)a->ts.tv_sec, (long)a->ts.tv_nsec);
	return 0;
}

/* ---- mount(8) and umount(8) ------------------------------------------------- */

/* The paths of the words as C names p[0], p[1]: the words themselves,
 * or, when one names a handle, paths under the procfs handle
 * (xs_via_begin), which *via says the stage must end with xs_via_end. */
static int via_begin(struct ns_export_ctx *cx, const char *const *words, size_t n, bool *via,
		     struct ns_buf *why)
{
	int h[2] = { -1, -1 };
	const char *r[2] = { NULL, NULL };

	for (size_t i = 0; i < n; i++)
		if (ns_export_word(cx, words[i], &h[i], &r[i], why) < 0)
			return -1;
	*via = h[0] >= 0 || h[1] >= 0;
	if (!*via) {
		put(cx, "const char *p[2] = { %s, ", lit(words[0]));
		ns_buf_addf(cx->code, "%s };\n", lit(n > 1 ? words[1] : NULL));
		put(cx, "(void)p;\n");
		return 0;
	}
	put(cx, "struct xs_via via;\n");
	put(cx, "const char *p[2] = { NULL, NULL };\n");
	put(cx, "static const int vh[2] = { %d, %d };\n", h[0], h[1]);
	put(cx, "static const char *const vr[2] = { %s, ", lit(r[0]));
	ns_buf_addf(cx->code, "%s };\n", lit(r[1]));
	put(cx, "if (xs_via_begin(&via, %zu, vh, vr, p) < 0)\n\t\t\te = errno;\n", n);
	return 0;
}

static void props(struct ns_export_ctx *cx, const struct ns_mount_args *a, const char *target)
{
	for (size_t i = 0; i < a->nprop; i++)
		put(cx, "if (!e && mount(NULL, %s, NULL, %#lxUL, NULL) < 0)\n\t\t\te = errno;\n",
		    target, a->prop[i]);
}

static int emit_mount(struct ns_export_ctx *cx, const struct ns_stage *sg, struct ns_buf *why)
{
	const struct ns_mount_args *a = sg->args;
	const char *w[2] = { a->src, a->dst };
	bool two = a->op == NS_MOUNT_BIND || a->op == NS_MOUNT_MOVE, via;
	int idx;

	switch (a->op) {
	case NS_MOUNT_LIST:
		put(cx, "if (xs_mount_list(&o) < 0)\n\t\t\te = errno;\n");
		cx->prints = true;
		return 0;
	case NS_MOUNT_REMOUNT:
		put(cx, "if (xs_remount(%s, %#lxUL, %#lxUL, %d, ", lit(a->dst), a->flags, a->clear,
		    a->merge ? 1 : 0);
		ns_buf_addf(cx->code, "%s) < 0)\n\t\t\te = errno;\n", lit(a->src));
		props(cx, a, lit(a->dst));
		return 0;
	default:
		break;
	}
	if (via_begin(cx, two ? w : w + 1, two ? 2 : 1, &via, why) < 0)
		return -1;
	put(cx, "if (!e) {\n");
	switch (a->op) {
	case NS_MOUNT_PROPAGATION:
		props(cx, a, "p[0]");
		break;
	case NS_MOUNT_BIND:
		put(cx, "if (mount(p[0], p[1], NULL, MS_BIND%s, NULL) < 0)\n\t\t\te = errno;\n",
		    a->recursive ? " | MS_REC" : "");
		if (a->flags)
			put(cx, "if (!e && mount(NULL, p[1], NULL, MS_REMOUNT | MS_BIND | %#lxUL, "
				"NULL) < 0)\n\t\t\te = errno;\n", a->flags);
		props(cx, a, "p[1]");
		break;
	case NS_MOUNT_MOVE:
		put(cx, "if (mount(p[0], p[1], NULL, MS_MOVE, NULL) < 0)\n\t\t\te = errno;\n");
		break;
	case NS_MOUNT_NEW:
		if (a->standin) {
			idx = ns_scenario_devindex(cx->sc, a->src);
			if (idx < 0) {
				ns_buf_addf(why, "%s is no stand-in of the scenario", a->src);
				return -1;
			}
			put(cx, "if (xs_standin_mount(%d, p[0], %#llxULL) < 0) /* %s */\n\t\t\te = errno;\n",
			    idx, ns_mount_attrs(a->flags), a->src);
		} else {
			put(cx, "if (mount(%s, p[0], ", lit(a->src));
			ns_buf_addf(cx->code, "%s, %#lxUL, ", lit(a->type), a->flags);
			ns_buf_addf(cx->code, "%s) < 0)\n\t\t\te = errno;\n", lit(a->data));
		}
		props(cx, a, "p[0]");
		break;
	default:
		break;
	}
	if (via)
		put(cx, "xs_via_end(&via);\n");
	put(cx, "}\n");
	return 0;
}

static int emit_umount(struct ns_export_ctx *cx, const struct ns_stage *sg, struct ns_buf *why)
{
	const struct ns_umount_args *a = sg->args;
	int flags = (a->lazy ? MNT_DETACH : 0) | (a->force ? MNT_FORCE : 0) |
		    (a->nofollow ? UMOUNT_NOFOLLOW : 0) | (a->expire ? MNT_EXPIRE : 0);

	for (size_t i = 0; i < a->ntargets; i++) {
		if (a->recursive) {
			if (ns_is_handle_path(a->targets[i], NULL)) {
				ns_buf_addf(why, "umount -R of the handle path %s", a->targets[i]);
				return -1;
			}
			put(cx, "if (!e && xs_umount_r(%s, %d) < 0)\n\t\t\te = errno;\n",
			    lit(a->targets[i]), flags);
			continue;
		}
		bool via;

		put(cx, "if (!e) {\n");
		if (via_begin(cx, &a->targets[i], 1, &via, why) < 0)
			return -1;
		put(cx, "if (!e) {\n");
		put(cx, "if (umount2(p[0], %d) < 0)\n\t\t\te = errno;\n", flags);
		if (via)
			put(cx, "xs_via_end(&via);\n");
		put(cx, "}\n");
		put(cx, "}\n");
	}
	return 0;
}

/* ---- shells ---------------------------------------------------------------- */

static int emit_unshare(struct ns_export_ctx *cx, const struct ns_stage *sg, struct ns_buf *why)
{
	const struct ns_unshare_args *a = sg->args;

	if (a->user || a->map_user || a->map_group || a->map_users || a->map_groups) {
		ns_buf_adds(why, "user namespaces are not exported");
		return -1;
	}
	if (!a->mnt) {
		ns_buf_adds(why, "unshare without -m");
		return -1;
	}
	put(cx, "{\n");
	put(cx, "int pushed = xs_push() == 0;\n");
	put(cx, "if (!pushed)\n\t\t\te = errno;\n");
	put(cx, "else if (unshare(CLONE_NEWNS) < 0)\n\t\t\te = errno;\n");
	if (a->propagation)
		put(cx, "else if (mount(\"none\", \"/\", NULL, %#lxUL, NULL) < 0)\n\t\t\te = errno;\n",
		    a->propagation);
	if (a->cmd) {
		const struct ns_stage *in = a->cmd;
		const struct ns_export_cmd *c = &ns_export_cmds[in->def->id];

		if (in->def->shell != NS_SHELL_KEEPS || !c->emit) {
			ns_buf_addf(why, "unshare running %s", in->argv[0]);
			return -1;
		}
		put(cx, "if (!e) {\n");
		if (c->emit(cx, in, why) < 0)
			return -1;
		put(cx, "}\n");
		/* the inner shell ends with the command, however it went */
		put(cx, "if (pushed)\n\t\t\txs_pop();\n");
	} else {
		/* a failure ends the new shell at once: back to the outer one */
		put(cx, "if (pushed && e)\n\t\t\txs_pop();\n");
	}
	put(cx, "}\n");
	return 0;
}

static int emit_chroot(struct ns_export_ctx *cx, const struct ns_stage *sg, struct ns_buf *why)
{
	const struct ns_fs_args *a = sg->args;

	if (no_handles(a, why) < 0)
		return -1;
	put(cx, "{\n");
	put(cx, "int pushed = xs_push() == 0;\n");
	put(cx, "if (!pushed)\n\t\t\te = errno;\n");
	put(cx, "else if (chroot(%s) < 0 || chdir(\"/\") < 0)\n\t\t\te = errno;\n", lit(a->ops[0]));
	put(cx, "if (pushed && e)\n\t\t\txs_pop();\n");
	put(cx, "}\n");
	return 0;
}

/* A variable's line: the parser expanded it where it is used. */
static int emit_variable(struct ns_export_ctx *cx, const struct ns_stage *sg, struct ns_buf *why)
{
	(void)cx, (void)sg, (void)why;
	return 0;
}

static int emit_exit(struct ns_export_ctx *cx, const struct ns_stage *sg, struct ns_buf *why)
{
	(void)sg, (void)why;
	put(cx, "xs_exit();\n");
	return 0;
}

/* ---- the new mount API ----------------------------------------------------- */

/* A (dirfd, path) pair for word: C variables dN and the literal of its
 * rest; empty_flag added to flags when the path is empty. */
static int at_word(struct ns_export_ctx *cx, const char *word, const char *dvar,
		   const char **path, bool *empty, struct ns_buf *why)
{
	int h;

	if (ns_export_word(cx, word, &h, path, why) < 0)
		return -1;
	*empty = !**path;
	put(cx, "int %s = AT_FDCWD;\n", dvar);
	if (h >= 0)
		put(cx, "if (!e && (%s = xs_hfd(%d)) < 0) /* %s */\n\t\t\te = errno;\n", dvar, h, word);
	return 0;
}

static int emit_open_tree(struct ns_export_ctx *cx, const struct ns_stage *sg, struct ns_buf *why)
{
	const struct ns_open_tree_args *a = sg->args;
	unsigned flags = O_CLOEXEC | (a->clone ? 1u : 0) | (a->recursive ? 0x8000u : 0);
	const char *path;
	bool empty;
	size_t h;

	if (a->namespace) {
		ns_buf_adds(why, "open_tree --namespace (Linux 7.0)");
		return -1;
	}
	if (a->with_attr && a->attr.idmap) {
		ns_buf_adds(why, "--idmap needs a user namespace");
		return -1;
	}
	put(cx, "{\n");
	if (at_word(cx, a->path, "d0", &path, &empty, why) < 0)
		return -1;
	h = ns_export_handle(cx, a->handle);
	if (empty)
		flags |= 0x1000u; /* AT_EMPTY_PATH */
	put(cx, "if (!e) {\n");
	if (a->with_attr) {
		put(cx, "struct xs_mount_attr ma = { %#llxULL, %#llxULL, %#lxUL, 0 };\n",
		    a->attr.set, a->attr.clr, a->attr.propagation);
		put(cx, "int fd = xs_open_tree_attr(d0, %s, %#xu, &ma);\n", lit(path), flags);
	} else {
		put(cx, "int fd = xs_open_tree(d0, %s, %#xu);\n", lit(path), flags);
	}
	put(cx, "if (fd < 0)\n\t\t\te = errno;\n");
	put(cx, "else\n\t\t\txs_keep(%zu, fd); /* %s */\n", h, a->handle);
	put(cx, "}\n}\n");
	return 0;
}

static int emit_move_mount(struct ns_export_ctx *cx, const struct ns_stage *sg, struct ns_buf *why)
{
	const struct ns_move_mount_args *a = sg->args;
	unsigned flags = (a->beneath ? MOVE_MOUNT_BENEATH : 0) |
			 (a->set_group ? MOVE_MOUNT_SET_GROUP : 0);
	const char *fp, *tp;
	bool fe, te;

	put(cx, "{\n");
	if (at_word(cx, a->from, "d0", &fp, &fe, why) < 0 ||
	    at_word(cx, a->to, "d1", &tp, &te, why) < 0)
		return -1;
	flags |= (fe ? MOVE_MOUNT_F_EMPTY_PATH : 0) | (te ? MOVE_MOUNT_T_EMPTY_PATH : 0);
	put(cx, "if (!e && xs_move_mount(d0, %s, d1, ", lit(fp));
	ns_buf_addf(cx->code, "%s, %#xu) < 0)\n\t\t\te = errno;\n", lit(tp), flags);
	put(cx, "}\n");
	return 0;
}

static int emit_mount_setattr(struct ns_export_ctx *cx, const struct ns_stage *sg,
			      struct ns_buf *why)
{
	const struct ns_mount_setattr_args *a = sg->args;
	unsigned flags = a->recursive ? 0x8000u : 0;
	const char *path;
	bool empty;

	if (a->idmap) {
		ns_buf_adds(why, "--idmap needs a user namespace");
		return -1;
	}
	put(cx, "{\n");
	if (at_word(cx, a->target, "d0", &path, &empty, why) < 0)
		return -1;
	if (empty)
		flags |= 0x1000u;
	put(cx, "struct xs_mount_attr ma = { %#llxULL, %#llxULL, %#lxUL, 0 };\n", a->set, a->clr,
	    a->propagation);
	put(cx, "if (!e && xs_mount_setattr(d0, %s, %#xu, &ma) < 0)\n\t\t\te = errno;\n", lit(path),
	    flags);
	put(cx, "}\n");
	return 0;
}

static int emit_close(struct ns_export_ctx *cx, const struct ns_stage *sg, struct ns_buf *why)
{
	const struct ns_close_args *a = sg->args;

	(void)why;
	for (size_t i = 0; i < a->n; i++) {
		size_t h = ns_export_handle(cx, a->handles[i]);

		put(cx, "if (!e && xs_drop(%zu) < 0) /* %s */\n\t\t\te = errno;\n", h, a->handles[i]);
	}
	return 0;
}

static int emit_fsopen(struct ns_export_ctx *cx, const struct ns_stage *sg, struct ns_buf *why)
{
	const struct ns_fsopen_args *a = sg->args;

	(void)why;
	put(cx, "{\n");
	put(cx, "int fd = xs_fsopen(%s, XS_FSOPEN_CLOEXEC);\n", lit(a->type));
	put(cx, "if (fd < 0)\n\t\t\te = errno;\n");
	put(cx, "else\n\t\t\txs_keep(%zu, fd); /* %s */\n", ns_export_handle(cx, a->handle), a->handle);
	put(cx, "}\n");
	return 0;
}

static int emit_fsconfig(struct ns_export_ctx *cx, const struct ns_stage *sg, struct ns_buf *why)
{
	static const char *const cmds[] = {
		[NS_FSCONFIG_SET_FLAG] = "XS_FSCONFIG_SET_FLAG",
		[NS_FSCONFIG_SET_STRING] = "XS_FSCONFIG_SET_STRING",
		[NS_FSCONFIG_CREATE] = "XS_FSCONFIG_CMD_CREATE",
		[NS_FSCONFIG_RECONFIGURE] = "XS_FSCONFIG_CMD_RECONFIGURE",
	};
	const struct ns_fsconfig_args *a = sg->args;

	(void)why;
	put(cx, "if (xs_fsconfig(xs_hfd_or_max(%zu), %s, %s, ", ns_export_handle(cx, a->handle),
	    cmds[a->cmd], lit(a->key));
	ns_buf_addf(cx->code, "%s, 0) < 0) /* %s */\n\t\t\te = errno;\n", lit(a->value), a->handle);
	return 0;
}

static int emit_fsmount(struct ns_export_ctx *cx, const struct ns_stage *sg, struct ns_buf *why)
{
	const struct ns_fsmount_args *a = sg->args;

	(void)why;
	put(cx, "{\n");
	put(cx, "int fd = xs_fsmount(xs_hfd_or_max(%zu), XS_FSMOUNT_CLOEXEC, %#llxu); /* %s */\n",
	    ns_export_handle(cx, a->context), a->attr, a->context);
	put(cx, "if (fd < 0)\n\t\t\te = errno;\n");
	put(cx, "else\n\t\t\txs_keep(%zu, fd); /* %s */\n", ns_export_handle(cx, a->handle), a->handle);
	put(cx, "}\n");
	return 0;
}

static int emit_fspick(struct ns_export_ctx *cx, const struct ns_stage *sg, struct ns_buf *why)
{
	const struct ns_fspick_args *a = sg->args;
	const char *path;
	bool empty;

	put(cx, "{\n");
	if (at_word(cx, a->path, "d0", &path, &empty, why) < 0)
		return -1;
	put(cx, "if (!e) {\n");
	put(cx, "int fd = xs_fspick(d0, %s, XS_FSPICK_CLOEXEC%s);\n", lit(path),
	    empty ? " | XS_FSPICK_EMPTY_PATH" : "");
	put(cx, "if (fd < 0)\n\t\t\te = errno;\n");
	put(cx, "else\n\t\t\txs_keep(%zu, fd); /* %s */\n", ns_export_handle(cx, a->handle), a->handle);
	put(cx, "}\n}\n");
	return 0;
}

/* ---- filters ---------------------------------------------------------------- */

static int emit_filter(struct ns_export_ctx *cx, const struct ns_stage *sg, struct ns_buf *why)
{
	struct ns_filter_plain f;

	if (!ns_filter_plain(sg->args, &f)) {
		ns_buf_adds(why, "only grep with one pattern (no -w, -x), sed with one s command "
			    "(no address, no flag but g), awk '{print $N, ...}' and wc are exported");
		return -1;
	}
	switch (f.form) {
	case NS_FF_GREP:
		put(cx, "xs_grep(&o, %s, %d, %d, %d, %d);\n", lit(f.re), f.extended, f.icase,
		    f.invert, f.count);
		break;
	case NS_FF_SED_S:
		put(cx, "{\n");
		put(cx, "static const char *const t[] = {");
		for (size_t i = 0; i < f.npiece; i++) {
			char *text = xstrndup(f.text[i], f.len[i]);

			ns_buf_addf(cx->code, " %s,", lit(text));
			free(text);
		}
		ns_buf_adds(cx->code, " NULL };\n");
		put(cx, "static const size_t l[] = {");
		for (size_t i = 0; i < f.npiece; i++)
			ns_buf_addf(cx->code, " %zu,", f.len[i]);
		ns_buf_adds(cx->code, " 0 };\n");
		put(cx, "static const int g[] = {");
		for (size_t i = 0; i < f.npiece; i++)
			ns_buf_addf(cx->code, " %d,", f.group[i]);
		ns_buf_adds(cx->code, " -1 };\n");
		put(cx, "xs_sed(&o, %s, %d, %d, t, l, g, %zu);\n", lit(f.re), f.cflags, f.global,
		    f.npiece);
		put(cx, "}\n");
		break;
	case NS_FF_AWK_PRINT:
		put(cx, "{\n");
		put(cx, "static const long f[] = {");
		for (size_t i = 0; i < f.nfield; i++)
			ns_buf_addf(cx->code, " %ld,", f.field[i]);
		ns_buf_adds(cx->code, " 0 };\n");
		put(cx, "xs_awk(&o, f, %zu);\n", f.nfield);
		put(cx, "}\n");
		break;
	case NS_FF_WC:
		put(cx, "xs_wc(&o, %u);\n", f.what);
		break;
	}
	return 0;
}

/* ---- the table -------------------------------------------------------------- */

const struct ns_export_cmd ns_export_cmds[NS_CMD__COUNT] = {
	[NS_CMD_MKDIR] = { emit_mkdir, NULL },
	[NS_CMD_TOUCH] = { emit_touch, NULL },
	[NS_CMD_LS] = { emit_ls, NULL },
	[NS_CMD_CD] = { emit_cd, NULL },
	[NS_CMD_CAT] = { emit_cat, NULL },
	[NS_CMD_CHROOT] = { emit_chroot, NULL },
	[NS_CMD_MOUNT] = { emit_mount, NULL },
	[NS_CMD_UMOUNT] = { emit_umount, NULL },
	[NS_CMD_UNSHARE] = { emit_unshare, NULL },
	[NS_CMD_EXIT] = { emit_exit, NULL },
	[NS_CMD_SLEEP] = { emit_sleep, NULL },
	[NS_CMD_CAPSH] = { NULL, "capabilities need libcap or capset(2) with a process per shell" },
	[NS_CMD_OPEN_TREE] = { emit_open_tree, NULL },
	[NS_CMD_MOVE_MOUNT] = { emit_move_mount, NULL },
	[NS_CMD_MOUNT_SETATTR] = { emit_mount_setattr, NULL },
	[NS_CMD_LISTMOUNT] = { NULL, "listmount's output is not exported" },
	[NS_CMD_FINDMNT] = { NULL, "findmnt's tables are not exported" },
	[NS_CMD_NSENTER] = { NULL, "entering another terminal's namespaces is not exported" },
	[NS_CMD_CLOSE] = { emit_close, NULL },
	[NS_CMD_FSOPEN] = { emit_fsopen, NULL },
	[NS_CMD_FSCONFIG] = { emit_fsconfig, NULL },
	[NS_CMD_FSMOUNT] = { emit_fsmount, NULL },
	[NS_CMD_FSPICK] = { emit_fspick, NULL },
	[NS_CMD_RMDIR] = { emit_rmdir, NULL },
	[NS_CMD_MV] = { NULL, "mv is not exported" },
	[NS_CMD_LN] = { NULL, "ln is not exported" },
	[NS_CMD_PWD] = { NULL, "pwd is not exported" },
	[NS_CMD_ECHO] = { NULL, "echo is not exported" },
	[NS_CMD_STAT] = { NULL, "stat's output is not exported" },
	[NS_CMD_MOUNTPOINT] = { NULL, "mountpoint is not exported" },
	[NS_CMD_DIFF] = { NULL, "diff is not exported" },
	[NS_CMD_DF] = { NULL, "df is not exported: its sizes are matched free, which the exported matcher does not do" },
	[NS_CMD_READLINK] = { NULL, "readlink is not exported" },
	[NS_CMD_REALPATH] = { NULL, "realpath is not exported" },
	[NS_CMD_PIVOT_ROOT] = { NULL, "pivot_root is not exported" },
	[NS_CMD_STATMOUNT] = { NULL, "statmount's output is not exported" },
	[NS_CMD_EXEC] = { NULL, "exec's descriptors are not exported" },
	[NS_CMD_WATCH] = { NULL, "mount notifications (fanotify) are not exported" },
	[NS_CMD_VARIABLE] = { emit_variable, NULL },
	[NS_CMD_FILTER] = { emit_filter, NULL },
};
