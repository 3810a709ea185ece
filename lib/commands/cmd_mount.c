/* cmd_mount.c - mount(8) and umount(8) in util-linux syntax, carried out
 * with mount(2), umount2(2) and the stand-in devices. */
#include "scenario/command.h"

#include <errno.h>
#include <libmount.h>
#include <linux/mount.h>
#include <string.h>
#include <sys/mount.h>

#include "kernel/device.h"
#include "mounts/snapshot.h"
#include "kernel/terminal.h"

enum mount_op { OP_LIST, OP_NEW, OP_BIND, OP_MOVE, OP_PROPAGATION };

#define MAX_PROP 4

struct mount_args {
	enum mount_op op;
	bool recursive;            /* --rbind */
	unsigned long prop[MAX_PROP]; /* --make-* in order */
	size_t nprop;
	const char *type;          /* -t */
	const char *options;       /* -o */
	size_t type_word, options_word; /* where they are, for errors */
	unsigned long flags;       /* MS_* from -o */
	char *data;                /* filesystem options from -o */
	const char *src, *dst;
	bool standin;              /* src is a /dev/ stand-in */
	bool lazy;                 /* umount -l */
};

/* -t values accepted with a stand-in device; the stand-in's real type is
 * chosen by --devices, so these only say what the transcript typed. */
static const char *const standin_types[] = { "tmpfs", "ext2", "ext3", "ext4", "xfs", "btrfs", "vfat", "auto" };

/* -o flags a stand-in mount can carry (as MOUNT_ATTR_*). */
#define STANDIN_FLAGS (MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_NOATIME | \
		       MS_NODIRATIME | MS_STRICTATIME | MS_RELATIME | MS_SILENT)

/* Filesystem types a scenario may mount by name. Anything that would show
 * the host (proc, sysfs, devtmpfs, block filesystems) is refused. */
static const char *const safe_types[] = { "tmpfs", "ramfs" };

static const struct {
	const char *opt;
	unsigned long flag;
} propagation[] = {
	{ "--make-shared", MS_SHARED },
	{ "--make-slave", MS_SLAVE },
	{ "--make-private", MS_PRIVATE },
	{ "--make-unbindable", MS_UNBINDABLE },
	{ "--make-rshared", MS_SHARED | MS_REC },
	{ "--make-rslave", MS_SLAVE | MS_REC },
	{ "--make-rprivate", MS_PRIVATE | MS_REC },
	{ "--make-runbindable", MS_UNBINDABLE | MS_REC },
};


static void free_mount_args(void *p)
{
	struct mount_args *a = p;

	free(a->data);
	free(a);
}

static const char *mount_device(const void *p)
{
	const struct mount_args *a = p;

	return a && a->standin ? a->src : NULL;
}

static int add_prop(struct mount_args *a, unsigned long flag,
		    struct ns_parse_err *e, size_t word)
{
	if (a->nprop == MAX_PROP)
		return ns_parse_fail(e, word, "mount: too many propagation changes");
	a->prop[a->nprop++] = flag;
	return 0;
}

static int set_op(struct mount_args *a, enum mount_op op, struct ns_parse_err *e,
		  size_t word)
{
	if (a->op != OP_LIST && a->op != op)
		return ns_parse_fail(e, word, "mount: --bind, --rbind and --move exclude each other");
	a->op = op;
	return 0;
}

/* Split -o into MS_* flags and filesystem data with libmount's option map;
 * bind, rbind and move are operations, as in mount(8). */
static int parse_options(struct mount_args *a, struct ns_parse_err *e, size_t word)
{
	char *vfs = NULL, *fs = NULL;
	unsigned long flags = 0;

	if (mnt_split_optstr(a->options, NULL, &vfs, &fs, 0, 0) < 0 ||
	    mnt_optstr_get_flags(a->options, &flags, mnt_get_builtin_optmap(MNT_LINUX_MAP)) < 0) {
		free(vfs);
		free(fs);
		return ns_parse_fail(e, word, "mount: cannot parse options '%s'", a->options);
	}
	free(vfs);
	a->data = fs;
	if (flags & MS_MOVE && set_op(a, OP_MOVE, e, word) < 0)
		return -1;
	if (flags & MS_BIND && set_op(a, OP_BIND, e, word) < 0)
		return -1;
	a->recursive |= (flags & (MS_BIND | MS_REC)) == (MS_BIND | MS_REC);
	if (flags & MS_PROPAGATION && add_prop(a, flags & (MS_PROPAGATION | MS_REC), e, word) < 0)
		return -1;
	a->flags = flags & ~(MS_MOVE | MS_BIND | MS_REC | MS_PROPAGATION);
	if (a->flags & MS_REMOUNT)
		return ns_parse_fail(e, word, "mount: -o remount is not supported");
	return 0;
}

static int parse_option_word(struct ns_stage *st, size_t *i, struct mount_args *a,
			     struct ns_parse_err *e)
{
	const char *w = st->argv[*i];

	for (size_t k = 0; k < NS_ARRAY_SIZE(propagation); k++)
		if (!strcmp(w, propagation[k].opt))
			return add_prop(a, propagation[k].flag, e, *i);
	if (!strcmp(w, "--bind") || !strcmp(w, "-B"))
		return set_op(a, OP_BIND, e, *i);
	if (!strcmp(w, "--rbind") || !strcmp(w, "-R")) {
		a->recursive = true;
		return set_op(a, OP_BIND, e, *i);
	}
	if (!strcmp(w, "--move") || !strcmp(w, "-M"))
		return set_op(a, OP_MOVE, e, *i);
	if (!strcmp(w, "-t") || !strcmp(w, "--types") || !strcmp(w, "-o") ||
	    !strcmp(w, "--options")) {
		if (*i + 1 >= st->argc)
			return ns_parse_fail(e, *i, "mount: option %s needs a value", w);
		if (w[1] == 't' || w[2] == 't') {
			a->type = st->argv[++*i];
			a->type_word = *i;
		} else {
			a->options = st->argv[++*i];
			a->options_word = *i;
		}
		return 0;
	}
	return ns_parse_fail(e, *i, "mount: unknown option %s", w);
}

static bool in_list(const char *t, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(t, list[i]))
			return true;
	return false;
}

static bool safe_type(const char *t)
{
	return in_list(t, safe_types, NS_ARRAY_SIZE(safe_types));
}

/* What a new mount of a stand-in may ask for. */
static int check_standin(const struct mount_args *a, struct ns_parse_err *e)
{
	if (a->data && *a->data)
		return ns_parse_fail(e, a->options_word, "mount: filesystem options '%s' are not supported on stand-in devices", a->data);
	if (a->flags & ~(unsigned long)STANDIN_FLAGS)
		return ns_parse_fail(e, a->options_word, "mount: options '%s': only ro, rw, nosuid, nodev, noexec, noatime, nodiratime, relatime and strictatime apply to stand-in devices", a->options);
	if (a->type && !in_list(a->type, standin_types, NS_ARRAY_SIZE(standin_types)))
		return ns_parse_fail(e, a->type_word, "mount: type '%s' cannot be given to a stand-in device (its type comes from --devices)", a->type);
	return 0;
}

/* Decide what the operands mean once every option is known. */
static int check_operands(struct ns_stage *st, struct mount_args *a,
			  const char **ops, size_t nops, size_t lastword,
			  struct ns_parse_err *e)
{
	if (nops == 0) {
		if (a->op != OP_LIST || a->nprop || a->type || a->options)
			return ns_parse_fail(e, 0, "mount: missing operand");
		return 0;
	}
	if (nops > 2)
		return ns_parse_fail(e, lastword, "mount: too many operands");
	if (nops == 1) {
		if (a->op != OP_LIST || !a->nprop)
			return ns_parse_fail(e, lastword, "mount: '%s': fstab lookups are not supported; give SOURCE and TARGET", ops[0]);
		if (a->options || a->type)
			return ns_parse_fail(e, 0, "mount: -t and -o cannot be combined with --make-* alone");
		a->op = OP_PROPAGATION;
		a->dst = ops[0];
		return 0;
	}
	a->src = ops[0];
	a->dst = ops[1];
	if (a->op == OP_MOVE && (a->nprop || (a->options && a->flags)))
		return ns_parse_fail(e, 0, "mount: --move takes no other options");
	if (a->op == OP_BIND && a->data && *a->data)
		return ns_parse_fail(e, a->options_word, "mount: a bind mount takes no filesystem options ('%s')", a->data);
	if (a->op != OP_LIST)
		return 0;
	a->op = OP_NEW;
	a->standin = !strncmp(a->src, "/dev/", 5);
	if (a->standin)
		return check_standin(a, e);
	if (!a->type)
		return ns_parse_fail(e, lastword - 1, "mount: '%s' is not a stand-in device (/dev/NAME); give -t TYPE to mount a filesystem by name", a->src);
	if (!safe_type(a->type))
		return ns_parse_fail(e, a->type_word, "mount: filesystem type '%s' is not allowed in a sandbox (allowed: tmpfs, ramfs)", a->type);
	(void)st;
	return 0;
}

static int parse_mount(struct ns_stage *st, struct ns_parse_err *e)
{
	struct mount_args *a = xcalloc(1, sizeof(*a));
	const char *ops[3];
	size_t nops = 0, last = 0;

	st->args = a;
	for (size_t i = 1; i < st->argc; i++) {
		if (st->argv[i][0] == '-' && st->argv[i][1]) {
			if (parse_option_word(st, &i, a, e) < 0)
				return -1;
			continue;
		}
		if (nops < 3)
			ops[nops] = st->argv[i];
		nops++;
		last = i;
	}
	if (a->options && parse_options(a, e, a->options_word) < 0)
		return -1;
	return check_operands(st, a, ops, nops, last, e);
}

static int parse_umount(struct ns_stage *st, struct ns_parse_err *e)
{
	struct mount_args *a = xcalloc(1, sizeof(*a));
	size_t i = 1, targets = 0;

	st->args = a;
	/* util-linux takes options anywhere on the line */
	for (; i < st->argc; i++) {
		if (st->argv[i][0] != '-')
			targets++;
		else if (!strcmp(st->argv[i], "-l") || !strcmp(st->argv[i], "--lazy"))
			a->lazy = true;
		else
			return ns_parse_fail(e, i, "umount: unknown option %s", st->argv[i]);
	}
	if (!targets)
		return ns_parse_fail(e, 0, "umount: missing operand");
	return 0;
}

/* MOUNT_ATTR_* for a stand-in mount from the MS_* flags of -o. */
static unsigned long long mount_attrs(unsigned long flags)
{
	unsigned long long attr = 0;

	if (flags & MS_RDONLY)
		attr |= MOUNT_ATTR_RDONLY;
	if (flags & MS_NOSUID)
		attr |= MOUNT_ATTR_NOSUID;
	if (flags & MS_NODEV)
		attr |= MOUNT_ATTR_NODEV;
	if (flags & MS_NOEXEC)
		attr |= MOUNT_ATTR_NOEXEC;
	if (flags & MS_NODIRATIME)
		attr |= MOUNT_ATTR_NODIRATIME;
	if (flags & MS_NOATIME)
		attr |= MOUNT_ATTR_NOATIME;
	else if (flags & MS_STRICTATIME)
		attr |= MOUNT_ATTR_STRICTATIME;
	return attr;
}

static int apply_propagation(const struct mount_args *a, struct ns_cmd_result *res)
{
	for (size_t i = 0; i < a->nprop; i++)
		if (mount(NULL, a->dst, NULL, a->prop[i], NULL) < 0)
			return ns_cmd_fail(res, "mount", errno);
	return 0;
}

static int exec_bind(const struct mount_args *a, struct ns_cmd_result *res)
{
	unsigned long rec = a->recursive ? MS_REC : 0;

	if (mount(a->src, a->dst, NULL, MS_BIND | rec, NULL) < 0)
		return ns_cmd_fail(res, "mount", errno);
	/* As mount(8) does: per-mount flags need a second call. */
	if (a->flags && mount(NULL, a->dst, NULL, MS_REMOUNT | MS_BIND | a->flags, NULL) < 0)
		return ns_cmd_fail(res, "mount", errno);
	return apply_propagation(a, res);
}

static int exec_mount(struct ns_term *t, const struct ns_stage *st,
		      const struct ns_buf *in, struct ns_buf *out,
		      struct ns_cmd_result *res)
{
	const struct mount_args *a = st->args;
	struct ns_snapshot *snap;
	const char *sys = "mount";
	int r, idx;

	(void)in;
	switch (a->op) {
	case OP_LIST:
		r = ns_snapshot_read(t->procfd, &snap);
		if (r < 0)
			return ns_cmd_fail(res, "read mountinfo", -r);
		ns_snapshot_render_mount(snap, out);
		ns_snapshot_free(snap);
		return 0;
	case OP_PROPAGATION:
		return apply_propagation(a, res);
	case OP_BIND:
		return exec_bind(a, res);
	case OP_MOVE:
		if (mount(a->src, a->dst, NULL, MS_MOVE, NULL) < 0)
			return ns_cmd_fail(res, "mount", errno);
		return 0;
	case OP_NEW:
		break;
	}
	if (!a->standin) {
		if (mount(a->src, a->dst, a->type, a->flags, a->data) < 0)
			return ns_cmd_fail(res, "mount", errno);
		return apply_propagation(a, res);
	}
	idx = ns_scenario_devindex(t->sc, a->src);
	if (idx < 0)
		return ns_cmd_fail(res, "stand-in lookup", ENODEV);
	if (ns_devices_mount(t->devs, (size_t)idx, a->dst, mount_attrs(a->flags), &sys) < 0)
		return ns_cmd_fail(res, sys, errno);
	return apply_propagation(a, res);
}

static int exec_umount(struct ns_term *t, const struct ns_stage *st,
		       const struct ns_buf *in, struct ns_buf *out,
		       struct ns_cmd_result *res)
{
	const struct mount_args *a = st->args;

	(void)t, (void)in, (void)out;
	for (size_t i = 1; i < st->argc; i++) {
		if (st->argv[i][0] == '-')
			continue;
		if (umount2(st->argv[i], a->lazy ? MNT_DETACH : 0) < 0)
			return ns_cmd_fail(res, "umount2", errno);
	}
	return 0;
}

const struct ns_cmd_def ns_cmd_mount[] = {
	{ .name = "mount", .parse = parse_mount, .exec = exec_mount,
	  .free_args = free_mount_args, .device = mount_device },
	{ .name = "umount", .parse = parse_umount, .exec = exec_umount,
	  .free_args = free_mount_args },
};
const size_t ns_cmd_mount_count = NS_ARRAY_SIZE(ns_cmd_mount);
