/* mount.c - mount(8) and umount(8) in util-linux syntax, parsing side:
 * what the words ask for, as struct ns_mount_args and ns_umount_args. */
#include "commands/command.h"

#include <libmount.h>
#include <linux/mount.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>

#include "base/suggest.h"
#include "commands/args.h"

/* -t values accepted with a stand-in device; the stand-in's real type is
 * chosen by --devices, so these only say what the transcript typed. */
static const char *const standin_types[] = { "tmpfs", "ext2", "ext3", "ext4", "xfs", "btrfs", "vfat", "auto" };

/* -o flags a stand-in mount can carry (as MOUNT_ATTR_*). */
#define STANDIN_FLAGS (MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_NOATIME | \
		       MS_NODIRATIME | MS_STRICTATIME | MS_RELATIME | MS_NOSYMFOLLOW | MS_SILENT)

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

/* mount's other option words, for "did you mean" (parse_option_word reads
 * each of them). */
static const char *const other_options[] = {
	"--bind", "-B", "--rbind", "-R", "--move", "-M", "-t", "--types", "-o", "--options",
};


static void free_mount_args(void *p)
{
	struct ns_mount_args *a = p;

	free(a->data);
	free(a);
}

static const char *mount_device(const void *p, bool *ro)
{
	const struct ns_mount_args *a = p;

	*ro = a && (a->flags & MS_RDONLY);
	return a && a->standin ? a->src : NULL;
}

static int add_prop(struct ns_mount_args *a, unsigned long flag,
		    struct ns_parse_err *e, size_t word)
{
	if (a->nprop == NS_MOUNT_MAX_PROP)
		return ns_parse_fail(e, word, "mount: too many propagation changes");
	a->prop[a->nprop++] = flag;
	return 0;
}

static int set_op(struct ns_mount_args *a, enum ns_mount_op op, struct ns_parse_err *e,
		  size_t word)
{
	if (a->op != NS_MOUNT_LIST && a->op != op)
		return ns_parse_fail(e, word, "mount: --bind, --rbind and --move exclude each other");
	a->op = op;
	return 0;
}

unsigned long ns_remount_flags(const struct ns_mount_args *a, unsigned long current)
{
	if (!a->merge)
		return a->flags;
	return (current & ~a->clear) | a->flags;
}

/* The -o words of a remount that change a mount's or filesystem's flags
 * (each with its opposite), for "did you mean". */
static const char *const remount_words[] = {
	"ro", "rw", "nosuid", "suid", "nodev", "dev", "noexec", "exec",
	"noatime", "atime", "nodiratime", "diratime", "relatime", "norelatime",
	"strictatime", "nostrictatime", "nosymfollow", "symfollow",
};

/* A remount with words that are no mount flag: filesystem options, which
 * nstest does not pass on a remount, or a typo of a flag. */
static int remount_data(const char *data, struct ns_parse_err *e, size_t word)
{
	char *copy = xstrdup(data), *save = NULL;
	int r = 0;

	for (char *w = strtok_r(copy, ",", &save); w && !r; w = strtok_r(NULL, ",", &save)) {
		const char *near = ns_closest(w, remount_words, NS_ARRAY_SIZE(remount_words));

		if (near)
			r = ns_parse_fail(e, word, "mount: unknown -o remount option '%s' (did you mean %s?)", w, near);
	}
	free(copy);
	return r ? r : ns_parse_fail(e, word, "mount: filesystem options ('%s') are not supported with -o remount", data);
}

/* -o remount[,bind]: what the words set and clear, for one mount; what
 * the remount cannot be combined with. down is -o's flags read over all
 * ones: a flag it lacks was cleared by the last word about it. */
static int remount_options(struct ns_mount_args *a, unsigned long flags, unsigned long down,
			   struct ns_parse_err *e, size_t word)
{
	unsigned long known = MS_REMOUNT | MS_BIND | MS_PROPAGATION | MS_REC;
	bool bind = (flags & MS_BIND) || a->op == NS_MOUNT_BIND;

	if ((flags & MS_MOVE) || a->op == NS_MOUNT_MOVE)
		return ns_parse_fail(e, word, "mount: -o remount cannot be combined with --move");
	if (a->recursive || !mnt_optstr_get_option(a->options, "rbind", NULL, NULL))
		return ns_parse_fail(e, word, "mount: -o remount with --rbind is not supported: util-linux 2.38 remounts the one mount, 2.39 and later every mount below it too");
	if (a->data && *a->data)
		return remount_data(a->data, e, word);
	if ((flags | ~down) & ~(known | STANDIN_FLAGS))
		return ns_parse_fail(e, word, "mount: options '%s': only ro, rw, nosuid, nodev, noexec, noatime, nodiratime, relatime, strictatime and nosymfollow (and their opposites) apply to -o remount", a->options);
	if (flags & MS_PROPAGATION && add_prop(a, flags & (MS_PROPAGATION | MS_REC), e, word) < 0)
		return -1;
	a->op = NS_MOUNT_REMOUNT;
	a->flags = MS_REMOUNT | (bind ? MS_BIND : 0) | (flags & STANDIN_FLAGS);
	a->clear = ~down & STANDIN_FLAGS;
	return 0;
}

/* Split -o into MS_* flags and filesystem data with libmount's option map;
 * bind, rbind and move are operations, as in mount(8). */
static int parse_options(struct ns_mount_args *a, struct ns_parse_err *e, size_t word)
{
	const struct libmnt_optmap *map = mnt_get_builtin_optmap(MNT_LINUX_MAP);
	char *vfs = NULL, *fs = NULL;
	unsigned long flags = 0, down = ~0UL;

	if (mnt_split_optstr(a->options, NULL, &vfs, &fs, 0, 0) < 0 ||
	    mnt_optstr_get_flags(a->options, &flags, map) < 0 ||
	    mnt_optstr_get_flags(a->options, &down, map) < 0) {
		free(vfs);
		free(fs);
		return ns_parse_fail(e, word, "mount: cannot parse options '%s'", a->options);
	}
	free(vfs);
	a->data = fs;
	if (flags & MS_REMOUNT)
		return remount_options(a, flags, down, e, word);
	if (flags & MS_MOVE && set_op(a, NS_MOUNT_MOVE, e, word) < 0)
		return -1;
	if (flags & MS_BIND && set_op(a, NS_MOUNT_BIND, e, word) < 0)
		return -1;
	a->recursive |= (flags & (MS_BIND | MS_REC)) == (MS_BIND | MS_REC);
	if (flags & MS_PROPAGATION && add_prop(a, flags & (MS_PROPAGATION | MS_REC), e, word) < 0)
		return -1;
	a->flags = flags & ~(MS_MOVE | MS_BIND | MS_REC | MS_PROPAGATION);
	return 0;
}

static int unknown_option(struct ns_parse_err *e, size_t word, const char *w)
{
	const char *names[NS_ARRAY_SIZE(propagation) + NS_ARRAY_SIZE(other_options)];
	const char *near;
	char *name;
	size_t n = 0;

	for (size_t k = 0; k < NS_ARRAY_SIZE(propagation); k++)
		names[n++] = propagation[k].opt;
	for (size_t k = 0; k < NS_ARRAY_SIZE(other_options); k++)
		names[n++] = other_options[k];
	/* --typo=tmpfs: the option's name is what may be misspelt */
	name = xstrndup(w, strcspn(w, "="));
	near = ns_closest(name, names, n);
	free(name);
	if (near)
		return ns_parse_fail(e, word, "mount: unknown option %s (did you mean %s?)", w, near);
	return ns_parse_fail(e, word, "mount: unknown option %s", w);
}

/* -t and -o take a value as getopt_long(3) reads mount(8)'s options: the
 * next word (`-t tmpfs`, `--types tmpfs`) or the rest of this one
 * (`-ttmpfs`, `--types=tmpfs`). True when w is one of them, with *r the
 * result (0, or -1 with *e filled). */
static bool value_option(const struct ns_stage *st, size_t *i, struct ns_mount_args *a,
			 struct ns_parse_err *e, int *r)
{
	static const struct { const char *name; char letter; } longs[] = {
		{ "--types", 't' }, { "--options", 'o' },
	};
	const char *w = st->argv[*i], *value = NULL;
	char which = 0;

	for (size_t k = 0; k < NS_ARRAY_SIZE(longs) && !which; k++) {
		size_t n = strlen(longs[k].name);

		if (!strncmp(w, longs[k].name, n) && (w[n] == '\0' || w[n] == '=')) {
			which = longs[k].letter;
			value = w[n] == '=' ? w + n + 1 : NULL;
		}
	}
	if (!which && w[0] == '-' && (w[1] == 't' || w[1] == 'o')) {
		which = w[1];
		value = w[2] ? w + 2 : NULL;
	}
	if (!which)
		return false;
	*r = 0;
	if (!value) {
		if (*i + 1 >= st->argc) {
			*r = ns_parse_fail(e, *i, "mount: option %s needs a value", w);
			return true;
		}
		value = st->argv[++*i];
	} else if (!*value) {
		*r = ns_parse_fail(e, *i, "mount: option %s needs a value", w);
		return true;
	}
	if (which == 't') {
		a->type = value;
		a->type_word = *i;
	} else {
		a->options = value;
		a->options_word = *i;
	}
	return true;
}

/* One option word at argv[*i] (and its value, for -t and -o). */
static int parse_option_word(struct ns_stage *st, size_t *i, struct ns_mount_args *a,
			     struct ns_parse_err *e)
{
	const char *w = st->argv[*i];
	int r;

	for (size_t k = 0; k < NS_ARRAY_SIZE(propagation); k++) {
		if (!strcmp(w, propagation[k].opt)) {
			a->make_option = true;
			return add_prop(a, propagation[k].flag, e, *i);
		}
	}
	if (!strcmp(w, "--bind") || !strcmp(w, "-B"))
		return set_op(a, NS_MOUNT_BIND, e, *i);
	if (!strcmp(w, "--rbind") || !strcmp(w, "-R")) {
		a->recursive = true;
		return set_op(a, NS_MOUNT_BIND, e, *i);
	}
	if (!strcmp(w, "--move") || !strcmp(w, "-M"))
		return set_op(a, NS_MOUNT_MOVE, e, *i);
	if (value_option(st, i, a, e, &r))
		return r;
	return unknown_option(e, *i, w);
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
static int check_standin(const struct ns_mount_args *a, struct ns_parse_err *e)
{
	if (a->data && *a->data)
		return ns_parse_fail(e, a->options_word, "mount: filesystem options '%s' are not supported on stand-in devices", a->data);
	if (a->flags & ~(unsigned long)STANDIN_FLAGS)
		return ns_parse_fail(e, a->options_word, "mount: options '%s': only ro, rw, nosuid, nodev, noexec, noatime, nodiratime, relatime, strictatime and nosymfollow apply to stand-in devices", a->options);
	if (a->type && !in_list(a->type, standin_types, NS_ARRAY_SIZE(standin_types)))
		return ns_parse_fail(e, a->type_word, "mount: type '%s' cannot be given to a stand-in device (its type comes from --devices)", a->type);
	return 0;
}

/* The operands of a mount command, with the argv index of each. */
struct operands {
	const char *word[2];
	size_t at[2];
	size_t n;                  /* how many there were (may exceed 2) */
	size_t last;               /* index of the last one */
};

/* `mount` alone lists the table; options without operands are an error. */
static int no_operands(const struct ns_mount_args *a, struct ns_parse_err *e)
{
	if (a->op != NS_MOUNT_LIST || a->nprop || a->type || a->options)
		return ns_parse_fail(e, 0, "mount: missing operand");
	return 0;
}

/* `mount --make-* TARGET`: a propagation change and nothing else. */
static int one_operand(struct ns_mount_args *a, const struct operands *o,
		       struct ns_parse_err *e)
{
	if (a->op == NS_MOUNT_REMOUNT) {
		/* mount(8) reads the mount's options from the table and
		 * applies -o to them; it does not with a --make-* option */
		a->dst = o->word[0];
		a->merge = !a->make_option;
		return 0;
	}
	if (a->op != NS_MOUNT_LIST || !a->nprop)
		return ns_parse_fail(e, o->last, "mount: '%s': fstab lookups are not supported; give SOURCE and TARGET", o->word[0]);
	if (a->options || a->type)
		return ns_parse_fail(e, 0, "mount: -t and -o cannot be combined with --make-* alone");
	a->op = NS_MOUNT_PROPAGATION;
	a->dst = o->word[0];
	return 0;
}

/* `mount [-t TYPE] [-o OPTS] SOURCE TARGET`: a stand-in device, or a
 * filesystem by type that shows nothing of the host. */
static int new_mount(struct ns_mount_args *a, size_t src_word, struct ns_parse_err *e)
{
	a->op = NS_MOUNT_NEW;
	a->standin = !strncmp(a->src, "/dev/", 5);
	if (a->standin)
		return check_standin(a, e);
	if (!a->type)
		return ns_parse_fail(e, src_word, "mount: '%s' is not a stand-in device (/dev/NAME); give -t TYPE to mount a filesystem by name", a->src);
	if (!safe_type(a->type))
		return ns_parse_fail(e, a->type_word, "mount: filesystem type '%s' is not allowed in a sandbox (allowed: tmpfs, ramfs)", a->type);
	return 0;
}

static int two_operands(struct ns_mount_args *a, const struct operands *o,
			struct ns_parse_err *e)
{
	a->src = o->word[0];
	a->dst = o->word[1];
	switch (a->op) {
	case NS_MOUNT_MOVE:
		if (a->nprop || (a->options && a->flags))
			return ns_parse_fail(e, 0, "mount: --move takes no other options");
		return 0;
	case NS_MOUNT_BIND:
		if (a->data && *a->data)
			return ns_parse_fail(e, a->options_word, "mount: a bind mount takes no filesystem options ('%s')", a->data);
		return 0;
	case NS_MOUNT_LIST:
		return new_mount(a, o->at[0], e);
	case NS_MOUNT_REMOUNT:
		/* SOURCE TARGET: "all old mount options are replaced"
		 * (mount(8), remount) */
		return 0;
	case NS_MOUNT_NEW:
	case NS_MOUNT_PROPAGATION:
		break; /* set only below */
	}
	return 0;
}

static int parse_mount(struct ns_stage *st, struct ns_parse_err *e)
{
	struct ns_mount_args *a = xcalloc(1, sizeof(*a));
	struct operands o = { .n = 0 };

	st->args = a;
	for (size_t i = 1; i < st->argc; i++) {
		if (st->argv[i][0] == '-' && st->argv[i][1]) {
			if (parse_option_word(st, &i, a, e) < 0)
				return -1;
			continue;
		}
		if (o.n < 2) {
			o.word[o.n] = st->argv[i];
			o.at[o.n] = i;
		}
		o.n++;
		o.last = i;
	}
	if (a->options && parse_options(a, e, a->options_word) < 0)
		return -1;
	if (o.n > 2)
		return ns_parse_fail(e, o.last, "mount: too many operands");
	if ((o.n == 2 ? two_operands(a, &o, e) : o.n ? one_operand(a, &o, e) : no_operands(a, e)) < 0)
		return -1;
	/* a remount reads the target's entry in the table by its path,
	 * which a place in a handle's tree may not have */
	for (size_t k = 0; a->op == NS_MOUNT_REMOUNT && k < o.n && k < 2; k++)
		if (ns_is_handle_path(o.word[k], NULL))
			return ns_parse_fail(e, o.at[k], "mount: -o remount does not take a handle ('%s'): use mount_setattr -o", o.word[k]);
	return 0;
}

/* `mount2 FLAG[,FLAG...] TARGET`: nstest's own, one mount(2) call with
 * exactly these flags (source, type and data NULL), for the rules about
 * the call itself that no util-linux tool makes: mount(8) makes a call
 * per propagation change. At least one propagation flag, so that the
 * call is a propagation change and not a new mount without a type. */
static int parse_mount2(struct ns_stage *st, struct ns_parse_err *e)
{
	static const struct {
		const char *name;
		unsigned long flag;
	} flags[] = {
		{ "MS_SHARED", MS_SHARED }, { "MS_PRIVATE", MS_PRIVATE },
		{ "MS_SLAVE", MS_SLAVE }, { "MS_UNBINDABLE", MS_UNBINDABLE },
		{ "MS_REC", MS_REC }, { "MS_SILENT", MS_SILENT },
	};
	const char *names[NS_ARRAY_SIZE(flags)];
	struct ns_mount_args *a = xcalloc(1, sizeof(*a));
	unsigned long all = 0;
	char *list;

	st->args = a;
	for (size_t k = 0; k < NS_ARRAY_SIZE(flags); k++)
		names[k] = flags[k].name;
	if (st->argc != 3)
		return ns_parse_fail(e, st->argc > 3 ? 3 : 0, "mount2: usage: mount2 FLAG[,FLAG...] TARGET");
	list = xstrdup(st->argv[1]);
	for (char *save = NULL, *w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		size_t k = 0;
		const char *near;

		while (k < NS_ARRAY_SIZE(flags) && strcmp(w, flags[k].name))
			k++;
		if (k < NS_ARRAY_SIZE(flags)) {
			all |= flags[k].flag;
			continue;
		}
		near = ns_closest(w, names, NS_ARRAY_SIZE(names));
		ns_parse_fail(e, 1, "mount2: unknown flag '%s'%s%s%s (known: MS_SHARED, MS_PRIVATE, MS_SLAVE, MS_UNBINDABLE, MS_REC, MS_SILENT)",
			      w, near ? " (did you mean " : "", near ? near : "", near ? "?)" : "");
		free(list);
		return -1;
	}
	free(list);
	if (!(all & (MS_SHARED | MS_PRIVATE | MS_SLAVE | MS_UNBINDABLE)))
		return ns_parse_fail(e, 1, "mount2: name at least one of MS_SHARED, MS_PRIVATE, MS_SLAVE, MS_UNBINDABLE");
	a->op = NS_MOUNT_PROPAGATION;
	a->prop[0] = all;
	a->nprop = 1;
	a->dst = st->argv[2];
	return 0;
}

static void free_umount_args(void *p)
{
	struct ns_umount_args *a = p;

	free(a->targets);
	free(a);
}

static int parse_umount(struct ns_stage *st, struct ns_parse_err *e)
{
	static const char *const options[] = {
		"-l", "--lazy", "-R", "--recursive", "-f", "--force", "--no-follow", "--expire",
	};
	struct ns_umount_args *a = xcalloc(1, sizeof(*a));
	const char *near, *w;

	st->args = a;
	a->targets = xcalloc(st->argc, sizeof(*a->targets));
	/* util-linux takes options anywhere on the line, short ones grouped */
	for (size_t i = 1; i < st->argc; i++) {
		w = st->argv[i];
		if (w[0] != '-') {
			a->targets[a->ntargets++] = w;
		} else if (!strcmp(w, "--lazy")) {
			a->lazy = true;
		} else if (!strcmp(w, "--recursive")) {
			a->recursive = true;
		} else if (!strcmp(w, "--force")) {
			a->force = true;
		} else if (!strcmp(w, "--no-follow")) {
			a->nofollow = true;
		} else if (!strcmp(w, "--expire")) {
			a->expire = true;
		} else if (w[1] && w[1] != '-' && strspn(w + 1, "lRf") == strlen(w + 1)) {
			a->lazy |= strchr(w, 'l') != NULL;
			a->recursive |= strchr(w, 'R') != NULL;
			a->force |= strchr(w, 'f') != NULL;
		} else if ((near = ns_closest(w, options, NS_ARRAY_SIZE(options)))) {
			return ns_parse_fail(e, i, "umount: unknown option %s (did you mean %s?)", w, near);
		} else {
			return ns_parse_fail(e, i, "umount: unknown option %s", w);
		}
	}
	if (!a->ntargets)
		return ns_parse_fail(e, 0, "umount: missing operand");
	/* -R is util-linux's walk over the table, one umount2(2) a mount;
	 * an expiry is a handshake of two calls on one mount */
	if (a->recursive && a->expire)
		return ns_parse_fail(e, 0, "umount: --expire cannot be combined with -R");
	/* -R finds the submounts in the table by the target's path, which
	 * a place in a handle's tree may not have */
	for (size_t i = 1; a->recursive && i < st->argc; i++)
		if (ns_is_handle_path(st->argv[i], NULL))
			return ns_parse_fail(e, i, "umount: -R does not take a handle ('%s')", st->argv[i]);
	return 0;
}

/* mount(8)'s messages depend on what the line does; `mount` alone lists
 * and fails in no words of its own. */
static bool mount_messages(const struct ns_stage *st, struct ns_msg_ctx *c)
{
	static const unsigned ops[] = {
		[NS_MOUNT_LIST] = 0, [NS_MOUNT_NEW] = NS_ULMSG_NEW,
		[NS_MOUNT_BIND] = NS_ULMSG_BIND, [NS_MOUNT_MOVE] = NS_ULMSG_MOVE,
		[NS_MOUNT_PROPAGATION] = NS_ULMSG_PROP,
		[NS_MOUNT_REMOUNT] = NS_ULMSG_REMOUNT,
	};
	_Static_assert(NS_ARRAY_SIZE(ops) == NS_MOUNT_REMOUNT + 1, "a bit for every mount operation");
	const struct ns_mount_args *a = st->args;

	c->cmd = "mount";
	c->what = ops[a->op];
	if (a->flags & MS_RDONLY)
		c->what |= NS_ULMSG_RDONLY;
	if (a->flags & MS_REMOUNT)
		c->what |= NS_ULMSG_REMOUNT;
	c->targets = &a->dst;
	c->ntargets = a->dst ? 1 : 0;
	c->src = a->src;
	c->type = a->type;
	return c->what != 0;
}

static bool umount_messages(const struct ns_stage *st, struct ns_msg_ctx *c)
{
	const struct ns_umount_args *a = st->args;

	c->cmd = "umount";
	c->what = a->recursive ? NS_ULMSG_UMOUNT | NS_ULMSG_UMOUNT_R : NS_ULMSG_UMOUNT;
	c->targets = a->targets;
	c->ntargets = a->ntargets;
	return true;
}

const struct ns_cmd_def ns_cmd_mount[] = {
	{ .name = "mount", .id = NS_CMD_MOUNT, .parse = parse_mount, .handles = true,
	  .free_args = free_mount_args, .device = mount_device, .messages = mount_messages },
	{ .name = "umount", .id = NS_CMD_UMOUNT, .parse = parse_umount, .handles = true,
	  .free_args = free_umount_args, .messages = umount_messages },
	/* the same executors as mount: a propagation change; nstest's own
	 * command, which util-linux prints nothing for */
	{ .name = "mount2", .id = NS_CMD_MOUNT, .parse = parse_mount2, .handles = true,
	  .free_args = free_mount_args },
};
const size_t ns_cmd_mount_count = NS_ARRAY_SIZE(ns_cmd_mount);

unsigned long long ns_mount_attrs(unsigned long flags)
{
	static const struct {
		unsigned long ms;
		unsigned long long attr;
	} map[] = {
		{ MS_RDONLY, MOUNT_ATTR_RDONLY }, { MS_NOSUID, MOUNT_ATTR_NOSUID },
		{ MS_NODEV, MOUNT_ATTR_NODEV }, { MS_NOEXEC, MOUNT_ATTR_NOEXEC },
		{ MS_NODIRATIME, MOUNT_ATTR_NODIRATIME }, { MS_NOSYMFOLLOW, MOUNT_ATTR_NOSYMFOLLOW },
	};
	unsigned long long attr = 0;

	for (size_t i = 0; i < NS_ARRAY_SIZE(map); i++)
		if (flags & map[i].ms)
			attr |= map[i].attr;
	if (flags & MS_NOATIME)
		attr |= MOUNT_ATTR_NOATIME;
	else if (flags & MS_STRICTATIME)
		attr |= MOUNT_ATTR_STRICTATIME;
	return attr;
}
