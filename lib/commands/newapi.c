/* newapi.c - the new mount API as scenario commands, parsing side:
 *
 *   open_tree [-c|--clone] [-R|--recursive] PATH @NAME
 *   open_tree_attr [-c] [-R] [--propagation TYPE] [-o FLAGS] [--idmap TERMINAL] PATH @NAME
 *   move_mount [--beneath|--set-group] FROM TO
 *   mount_setattr [-R] [--propagation TYPE] [-o FLAGS] [--idmap TERMINAL] TARGET
 *   close @NAME...
 *   fsopen TYPE @FC
 *   fsconfig @FC set-flag KEY | set-string KEY VALUE | create | reconfigure
 *   fsmount @FC [-o FLAGS] @MNT
 *   fspick PATH @FC
 *
 * A detached or opened tree is kept under @NAME in the terminal, as many
 * as it opens; PATH, FROM, TO and TARGET are paths, such names, or places
 * in a handle's tree (@NAME/PATH), like the paths of every command whose
 * definition says .handles. */
#include "commands/command.h"

#include <linux/mount.h>
#include <string.h>
#include <sys/mount.h>

#include "base/suggest.h"
#include "commands/args.h"

/* One option word at argv[*i] (which may take the next word too). */
typedef int option_fn(struct ns_stage *st, size_t *i, void *args, struct ns_parse_err *e);

static void free_args(void *p)
{
	free(p);
}

bool ns_is_handle(const char *s)
{
	return s[0] == '@' && s[1] && s[1] != '/' && !strchr(s, '/') &&
	       strlen(s) < NS_HANDLE_NAME_MAX;
}

bool ns_handle_ref(const char *s, struct ns_handle_ref *r)
{
	/* a terminal's name, as a prompt gives it (scenario/scenario_parse.c) */
	size_t t = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-");
	const char *at = t && s[t] == ':' ? s + t + 1 : s;
	size_t n = strcspn(at, "/");

	if (at[0] != '@' || n < 2 || n >= NS_HANDLE_NAME_MAX || (size_t)(at - s) + n >= NS_HANDLE_REF_MAX)
		return false;
	if (r)
		*r = (struct ns_handle_ref){ at == s ? NULL : s, at == s ? 0 : t, at, n, at + n };
	return true;
}

bool ns_is_handle_path(const char *s, size_t *namelen)
{
	struct ns_handle_ref r;

	if (!ns_handle_ref(s, &r))
		return false;
	if (namelen)
		*namelen = (size_t)(r.rest - s);
	return true;
}

/* Split argv into options (handled by opt) and exactly nops operands,
 * which go to ops[]. */
static int operands(struct ns_stage *st, struct ns_parse_err *e, size_t nops,
		    const char **ops, void *args, option_fn *opt)
{
	size_t n = 0;

	for (size_t i = 1; i < st->argc; i++) {
		if (st->argv[i][0] == '-') {
			if (opt(st, &i, args, e) < 0)
				return -1;
		} else if (n == nops) {
			return ns_parse_fail(e, i, "%s: too many operands", st->argv[0]);
		} else {
			ops[n++] = st->argv[i];
		}
	}
	if (n < nops)
		return ns_parse_fail(e, 0, "%s: missing operand", st->argv[0]);
	return 0;
}

/* An unknown option of cmd: the nearest of its options, or else the list
 * of them (what, as the message gives it). */
static int unknown_option(struct ns_parse_err *e, size_t word, const char *cmd,
			  const char *w, const char *const *options, size_t n,
			  const char *what)
{
	const char *near = ns_closest(w, options, n);

	if (near)
		return ns_parse_fail(e, word, "%s: unknown option %s (did you mean %s?)", cmd, w, near);
	return ns_parse_fail(e, word, "%s: unknown option %s (%s)", cmd, w, what);
}

static int open_tree_opt(struct ns_stage *st, size_t *i, void *args,
			 struct ns_parse_err *e)
{
	static const char *const options[] = { "-c", "--clone", "-R", "--recursive", "--namespace" };
	struct ns_open_tree_args *a = args;
	const char *w = st->argv[*i];

	if (!strcmp(w, "-c") || !strcmp(w, "--clone"))
		a->clone = true;
	else if (!strcmp(w, "-R") || !strcmp(w, "--recursive"))
		a->recursive = true;
	else if (!strcmp(w, "--namespace"))
		a->namespace = true;
	else
		return unknown_option(e, *i, "open_tree", w, options, NS_ARRAY_SIZE(options),
				      "-c, -R, --namespace");
	return 0;
}

static int parse_open_tree(struct ns_stage *st, struct ns_parse_err *e)
{
	struct ns_open_tree_args *a = xcalloc(1, sizeof(*a));
	const char *ops[2];

	st->args = a;
	if (operands(st, e, 2, ops, a, open_tree_opt) < 0)
		return -1;
	a->path = ops[0];
	a->handle = ops[1];
	if (!ns_is_handle(a->handle))
		return ns_parse_fail(e, st->argc - 1, "open_tree: name the tree with @NAME, not '%s'", a->handle);
	if (a->recursive && !a->clone && !a->namespace)
		return ns_parse_fail(e, 0, "open_tree: -R needs -c or --namespace (AT_RECURSIVE only applies to a copy)");
	return 0;
}

static int move_mount_opt(struct ns_stage *st, size_t *i, void *args,
			  struct ns_parse_err *e)
{
	static const char *const options[] = { "--beneath", "--set-group" };
	struct ns_move_mount_args *a = args;
	const char *w = st->argv[*i];

	if (!strcmp(w, "--beneath"))
		a->beneath = true;
	else if (!strcmp(w, "--set-group"))
		a->set_group = true;
	else
		return unknown_option(e, *i, "move_mount", w, options, NS_ARRAY_SIZE(options),
				      "--beneath, --set-group");
	return 0;
}

static int parse_move_mount(struct ns_stage *st, struct ns_parse_err *e)
{
	struct ns_move_mount_args *a = xcalloc(1, sizeof(*a));
	const char *ops[2];

	st->args = a;
	if (operands(st, e, 2, ops, a, move_mount_opt) < 0)
		return -1;
	a->from = ops[0];
	a->to = ops[1];
	return 0;
}

static const struct {
	const char *name;
	unsigned long flag;
} propagations[] = {
	{ "shared", MS_SHARED }, { "slave", MS_SLAVE },
	{ "private", MS_PRIVATE }, { "unbindable", MS_UNBINDABLE },
};

/* -o: ro/rw, nosuid/suid, nodev/dev, noexec/exec, noatime, relatime,
 * strictatime, nodiratime, nosymfollow/symfollow. */
static int setattr_flags(const char *optstr, struct ns_mount_setattr_args *a)
{
	static const struct {
		const char *name;
		unsigned long long attr;
		bool set;
	} map[] = {
		{ "ro", MOUNT_ATTR_RDONLY, true }, { "rw", MOUNT_ATTR_RDONLY, false },
		{ "nosuid", MOUNT_ATTR_NOSUID, true }, { "suid", MOUNT_ATTR_NOSUID, false },
		{ "nodev", MOUNT_ATTR_NODEV, true }, { "dev", MOUNT_ATTR_NODEV, false },
		{ "noexec", MOUNT_ATTR_NOEXEC, true }, { "exec", MOUNT_ATTR_NOEXEC, false },
		{ "nodiratime", MOUNT_ATTR_NODIRATIME, true },
		{ "noatime", MOUNT_ATTR_NOATIME, true }, { "relatime", MOUNT_ATTR_RELATIME, true },
		{ "strictatime", MOUNT_ATTR_STRICTATIME, true },
		{ "nosymfollow", MOUNT_ATTR_NOSYMFOLLOW, true },
		{ "symfollow", MOUNT_ATTR_NOSYMFOLLOW, false },
	};
	char *copy = xstrdup(optstr), *save = NULL;
	int r = 0;

	for (char *o = strtok_r(copy, ",", &save); o && !r; o = strtok_r(NULL, ",", &save)) {
		size_t k = 0;
		while (k < NS_ARRAY_SIZE(map) && strcmp(map[k].name, o))
			k++;
		if (k == NS_ARRAY_SIZE(map)) {
			r = -1;
			break;
		}
		if (map[k].attr == MOUNT_ATTR_NOATIME || map[k].attr == MOUNT_ATTR_RELATIME ||
		    map[k].attr == MOUNT_ATTR_STRICTATIME)
			a->clr |= MOUNT_ATTR__ATIME;
		*(map[k].set ? &a->set : &a->clr) |= map[k].attr;
	}
	free(copy);
	return r;
}

/* --idmap TERMINAL (or --idmap=TERMINAL): MOUNT_ATTR_IDMAP with the
 * user namespace of that terminal's innermost shell, named by its
 * prompt as nsenter -t names one (the parser checks it came before). */
static int idmap_opt(struct ns_stage *st, size_t *i, struct ns_mount_setattr_args *a,
		     struct ns_parse_err *e)
{
	const char *w = st->argv[*i];

	if (!strncmp(w, "--idmap=", 8)) {
		a->idmap = w + 8;
	} else {
		if (*i + 1 >= st->argc)
			return ns_parse_fail(e, *i, "%s: --idmap needs a terminal's name", st->argv[0]);
		a->idmap = st->argv[++*i];
	}
	if (!*a->idmap)
		return ns_parse_fail(e, *i, "%s: --idmap needs a terminal's name; the bare prompt's terminal has none, so give it one ('sh1# ')",
				     st->argv[0]);
	a->set |= MOUNT_ATTR_IDMAP;
	return 0;
}

static int setattr_opt(struct ns_stage *st, size_t *i, void *args,
		       struct ns_parse_err *e)
{
	static const char *const options[] = { "-R", "--recursive", "--propagation", "-o", "--idmap" };
	struct ns_mount_setattr_args *a = args;
	const char *w = st->argv[*i];

	if (!strcmp(w, "-R") || !strcmp(w, "--recursive")) {
		a->recursive = true;
		return 0;
	}
	if (!strcmp(w, "--idmap") || !strncmp(w, "--idmap=", 8))
		return idmap_opt(st, i, a, e);
	if (strcmp(w, "--propagation") && strcmp(w, "-o"))
		return unknown_option(e, *i, "mount_setattr", w, options, NS_ARRAY_SIZE(options),
				      "-R, --propagation TYPE, -o FLAGS, --idmap TERMINAL");
	if (*i + 1 >= st->argc)
		return ns_parse_fail(e, *i, "mount_setattr: option %s needs a value", w);
	++*i;
	if (!strcmp(w, "-o")) {
		if (setattr_flags(st->argv[*i], a) < 0)
			return ns_parse_fail(e, *i, "mount_setattr: unknown flag in '%s'", st->argv[*i]);
		return 0;
	}
	for (size_t k = 0; k < NS_ARRAY_SIZE(propagations); k++) {
		if (!strcmp(st->argv[*i], propagations[k].name)) {
			a->propagation = propagations[k].flag;
			return 0;
		}
	}
	return ns_parse_fail(e, *i, "mount_setattr: propagation must be shared, slave, private or unbindable");
}

/* open_tree_attr's options: open_tree's, and mount_setattr's --propagation
 * and -o, which describe the attributes (-R is both). */
static int open_tree_attr_opt(struct ns_stage *st, size_t *i, void *args,
			      struct ns_parse_err *e)
{
	static const char *const options[] = {
		"-c", "--clone", "-R", "--recursive", "--propagation", "-o", "--idmap",
	};
	struct ns_open_tree_args *a = args;
	const char *w = st->argv[*i];

	if (!strcmp(w, "--propagation") || !strcmp(w, "-o") || !strcmp(w, "--idmap") ||
	    !strncmp(w, "--idmap=", 8))
		return setattr_opt(st, i, &a->attr, e);
	if (!strcmp(w, "-c") || !strcmp(w, "--clone") || !strcmp(w, "-R") || !strcmp(w, "--recursive"))
		return open_tree_opt(st, i, args, e);
	return unknown_option(e, *i, "open_tree_attr", w, options, NS_ARRAY_SIZE(options),
			      "-c, -R, --propagation TYPE, -o FLAGS, --idmap TERMINAL");
}

static int parse_open_tree_attr(struct ns_stage *st, struct ns_parse_err *e)
{
	struct ns_open_tree_args *a = xcalloc(1, sizeof(*a));
	const char *ops[2];

	st->args = a;
	a->with_attr = true;
	if (operands(st, e, 2, ops, a, open_tree_attr_opt) < 0)
		return -1;
	a->path = ops[0];
	a->handle = ops[1];
	a->attr.recursive = a->recursive;
	if (!ns_is_handle(a->handle))
		return ns_parse_fail(e, st->argc - 1, "open_tree_attr: name the tree with @NAME, not '%s'", a->handle);
	if (a->recursive && !a->clone)
		return ns_parse_fail(e, 0, "open_tree_attr: -R needs -c (AT_RECURSIVE only applies to a clone)");
	return 0;
}

static int parse_mount_setattr(struct ns_stage *st, struct ns_parse_err *e)
{
	struct ns_mount_setattr_args *a = xcalloc(1, sizeof(*a));

	st->args = a;
	if (operands(st, e, 1, &a->target, a, setattr_opt) < 0)
		return -1;
	if (!a->set && !a->clr && !a->propagation)
		return ns_parse_fail(e, 0, "mount_setattr: nothing to change: give --propagation, -o or --idmap");
	return 0;
}

static const char *setattr_terminal(const void *args)
{
	return ((const struct ns_mount_setattr_args *)args)->idmap;
}

static const char *open_tree_attr_terminal(const void *args)
{
	return ((const struct ns_open_tree_args *)args)->attr.idmap;
}

/* close @NAME...: each a handle; whether it is open is the run's to say
 * (EBADF, as close(2) says of an fd never opened). */
static int parse_close(struct ns_stage *st, struct ns_parse_err *e)
{
	struct ns_close_args *a = xcalloc(1, sizeof(*a));

	st->args = a;
	if (st->argc < 2)
		return ns_parse_fail(e, 0, "close: missing operand: name a tree kept by open_tree, @NAME");
	for (size_t i = 1; i < st->argc; i++) {
		if (ns_is_handle_path(st->argv[i], NULL) && !ns_is_handle(st->argv[i]) && strchr(st->argv[i], ':'))
			return ns_parse_fail(e, i, "close: '%s' is another terminal's handle: a shell closes its own (@NAME), as a process closes its own descriptors",
					     st->argv[i]);
		if (!ns_is_handle(st->argv[i]))
			return ns_parse_fail(e, i, "close: '%s' is not a handle: close takes the @NAME of a tree kept by open_tree",
					     st->argv[i]);
	}
	a->handles = (const char *const *)&st->argv[1];
	a->n = st->argc - 1;
	return 0;
}

static int no_option(struct ns_stage *st, size_t *i, void *args, struct ns_parse_err *e)
{
	(void)args;
	return ns_parse_fail(e, *i, "%s: unknown option %s", st->argv[0], st->argv[*i]);
}

/* The filesystems a sandbox may create by type (as mount -t allows). */
static const char *const fs_types[] = { "tmpfs", "ramfs" };

static int parse_fsopen(struct ns_stage *st, struct ns_parse_err *e)
{
	struct ns_fsopen_args *a = xcalloc(1, sizeof(*a));
	const char *ops[2];
	size_t k = 0;

	st->args = a;
	if (operands(st, e, 2, ops, a, no_option) < 0)
		return -1;
	a->type = ops[0];
	a->handle = ops[1];
	while (k < NS_ARRAY_SIZE(fs_types) && strcmp(fs_types[k], a->type))
		k++;
	if (k == NS_ARRAY_SIZE(fs_types))
		return ns_parse_fail(e, 1, "fsopen: filesystem type '%s' is not allowed in a sandbox (allowed: tmpfs, ramfs)", a->type);
	if (!ns_is_handle(a->handle))
		return ns_parse_fail(e, 2, "fsopen: name the context with @NAME, not '%s'", a->handle);
	return 0;
}

/* fsconfig @FC VERB [KEY [VALUE]]: words, not options, so that a KEY or
 * VALUE may start with '-'. */
static int parse_fsconfig(struct ns_stage *st, struct ns_parse_err *e)
{
	static const struct {
		const char *verb;
		enum ns_fsconfig_cmd cmd;
		size_t words;       /* after the verb */
	} verbs[] = {
		{ "set-flag", NS_FSCONFIG_SET_FLAG, 1 },
		{ "set-string", NS_FSCONFIG_SET_STRING, 2 },
		{ "create", NS_FSCONFIG_CREATE, 0 },
		{ "reconfigure", NS_FSCONFIG_RECONFIGURE, 0 },
	};
	static const char *const names[] = { "set-flag", "set-string", "create", "reconfigure" };
	struct ns_fsconfig_args *a = xcalloc(1, sizeof(*a));
	const char *near;
	size_t k = 0;

	st->args = a;
	if (st->argc < 3)
		return ns_parse_fail(e, 0, "fsconfig: usage: fsconfig @FC set-flag KEY | set-string KEY VALUE | create | reconfigure");
	a->handle = st->argv[1];
	if (!ns_is_handle(a->handle))
		return ns_parse_fail(e, 1, "fsconfig: name the context with @NAME, not '%s'", a->handle);
	while (k < NS_ARRAY_SIZE(verbs) && strcmp(verbs[k].verb, st->argv[2]))
		k++;
	if (k == NS_ARRAY_SIZE(verbs)) {
		near = ns_closest(st->argv[2], names, NS_ARRAY_SIZE(names));
		return ns_parse_fail(e, 2, "fsconfig: unknown command '%s'%s%s%s (known: set-flag, set-string, create, reconfigure)",
				     st->argv[2], near ? " (did you mean " : "", near ? near : "", near ? "?)" : "");
	}
	if (st->argc != 3 + verbs[k].words)
		return ns_parse_fail(e, st->argc > 3 + verbs[k].words ? 3 + verbs[k].words : 0,
				     "fsconfig: %s takes %s", verbs[k].verb,
				     verbs[k].words == 0 ? "nothing more" : verbs[k].words == 1 ? "a KEY" : "a KEY and a VALUE");
	a->cmd = verbs[k].cmd;
	a->key = verbs[k].words ? st->argv[3] : NULL;
	a->value = verbs[k].words > 1 ? st->argv[4] : NULL;
	return 0;
}

static int fsmount_opt(struct ns_stage *st, size_t *i, void *args, struct ns_parse_err *e)
{
	struct ns_fsmount_args *a = args;
	struct ns_mount_setattr_args flags = { 0 };
	const char *w = st->argv[*i];

	if (strcmp(w, "-o"))
		return ns_parse_fail(e, *i, "fsmount: unknown option %s (-o FLAGS)", w);
	if (*i + 1 >= st->argc)
		return ns_parse_fail(e, *i, "fsmount: option -o needs a value");
	++*i;
	if (setattr_flags(st->argv[*i], &flags) < 0)
		return ns_parse_fail(e, *i, "fsmount: unknown flag in '%s'", st->argv[*i]);
	a->attr |= flags.set;
	return 0;
}

static int parse_fsmount(struct ns_stage *st, struct ns_parse_err *e)
{
	struct ns_fsmount_args *a = xcalloc(1, sizeof(*a));
	const char *ops[2];

	st->args = a;
	if (operands(st, e, 2, ops, a, fsmount_opt) < 0)
		return -1;
	a->context = ops[0];
	a->handle = ops[1];
	if (!ns_is_handle(a->context))
		return ns_parse_fail(e, 1, "fsmount: name the context with @NAME, not '%s'", a->context);
	if (!ns_is_handle(a->handle))
		return ns_parse_fail(e, st->argc - 1, "fsmount: name the new mount with @NAME, not '%s'", a->handle);
	return 0;
}

static int parse_fspick(struct ns_stage *st, struct ns_parse_err *e)
{
	struct ns_fspick_args *a = xcalloc(1, sizeof(*a));
	const char *ops[2];

	st->args = a;
	if (operands(st, e, 2, ops, a, no_option) < 0)
		return -1;
	a->path = ops[0];
	a->handle = ops[1];
	if (!ns_is_handle(a->handle))
		return ns_parse_fail(e, st->argc - 1, "fspick: name the context with @NAME, not '%s'", a->handle);
	return 0;
}

static const char *const *close_closes(const void *args, size_t *n)
{
	const struct ns_close_args *a = args;

	*n = a->n;
	return a->handles;
}

static const char *open_tree_makes(const void *args, enum ns_handle_kind *kind)
{
	const struct ns_open_tree_args *a = args;

	*kind = a->namespace ? NS_HANDLE_NAMESPACE : NS_HANDLE_MOUNT;
	return a->handle;
}

static const char *fsopen_makes(const void *args, enum ns_handle_kind *kind)
{
	*kind = NS_HANDLE_CONTEXT;
	return ((const struct ns_fsopen_args *)args)->handle;
}

static const char *fspick_makes(const void *args, enum ns_handle_kind *kind)
{
	*kind = NS_HANDLE_CONTEXT;
	return ((const struct ns_fspick_args *)args)->handle;
}

static const char *fsmount_makes(const void *args, enum ns_handle_kind *kind)
{
	*kind = NS_HANDLE_MOUNT;
	return ((const struct ns_fsmount_args *)args)->handle;
}

static const char *fsconfig_context(const void *args)
{
	return ((const struct ns_fsconfig_args *)args)->handle;
}

static const char *fsmount_context(const void *args)
{
	return ((const struct ns_fsmount_args *)args)->context;
}

const struct ns_cmd_def ns_cmd_newapi[] = {
	{ .name = "open_tree", .id = NS_CMD_OPEN_TREE, .handles = true, .parse = parse_open_tree, .free_args = free_args,
	  .makes = open_tree_makes },
	/* the same executors as open_tree, which look at with_attr */
	{ .name = "open_tree_attr", .id = NS_CMD_OPEN_TREE, .handles = true, .parse = parse_open_tree_attr,
	  .free_args = free_args, .makes = open_tree_makes, .terminal = open_tree_attr_terminal,
	  .terminal_option = "--idmap" },
	{ .name = "move_mount", .id = NS_CMD_MOVE_MOUNT, .handles = true, .parse = parse_move_mount, .free_args = free_args },
	{ .name = "mount_setattr", .id = NS_CMD_MOUNT_SETATTR, .handles = true, .parse = parse_mount_setattr, .free_args = free_args,
	  .terminal = setattr_terminal, .terminal_option = "--idmap" },
	{ .name = "close", .id = NS_CMD_CLOSE, .handles = true, .handle_any = true, .parse = parse_close,
	  .free_args = free_args, .closes = close_closes },
	{ .name = "fsopen", .id = NS_CMD_FSOPEN, .handles = true, .parse = parse_fsopen, .free_args = free_args,
	  .makes = fsopen_makes },
	{ .name = "fsconfig", .id = NS_CMD_FSCONFIG, .handles = true, .parse = parse_fsconfig, .free_args = free_args,
	  .needs_context = fsconfig_context },
	{ .name = "fsmount", .id = NS_CMD_FSMOUNT, .handles = true, .parse = parse_fsmount, .free_args = free_args,
	  .makes = fsmount_makes, .needs_context = fsmount_context },
	{ .name = "fspick", .id = NS_CMD_FSPICK, .handles = true, .parse = parse_fspick, .free_args = free_args,
	  .makes = fspick_makes },
};
const size_t ns_cmd_newapi_count = NS_ARRAY_SIZE(ns_cmd_newapi);
