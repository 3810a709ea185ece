/* cmd_newapi.c - the new mount API as scenario commands:
 *
 *   open_tree [-c|--clone] [-R|--recursive] PATH @NAME
 *   move_mount [--beneath|--set-group] FROM TO
 *   mount_setattr [-R] [--propagation TYPE] [-o FLAGS] TARGET
 *
 * A detached or opened tree is kept under @NAME in the terminal; FROM,
 * TO and TARGET are either such a name or a path. */
#include "scenario/command.h"

#include <errno.h>
#include <fcntl.h>
#include <libmount.h>
#include <string.h>
#include <sys/mount.h>

#include "kernel/mountapi.h"
#include "kernel/terminal.h"


struct api_args {
	unsigned flags;             /* open_tree / move_mount flags */
	bool recursive;
	unsigned long long set, clr; /* mount_setattr */
	unsigned long propagation;
	const char *a, *b;          /* operands */
};

static void free_args(void *p)
{
	free(p);
}

static bool is_handle(const char *s)
{
	return s[0] == '@' && s[1] && strlen(s) < sizeof(((struct ns_handle *)0)->name);
}

/* Split argv into options (handled by opt) and exactly nops operands. */
static int operands(struct ns_stage *st, struct ns_parse_err *e, size_t nops,
		    struct api_args *a,
		    int (*opt)(struct ns_stage *, size_t *, struct api_args *, struct ns_parse_err *))
{
	const char *ops[2] = { NULL, NULL };
	size_t n = 0;

	for (size_t i = 1; i < st->argc; i++) {
		if (st->argv[i][0] == '-') {
			if (opt(st, &i, a, e) < 0)
				return -1;
		} else if (n == nops) {
			return ns_parse_fail(e, i, "%s: too many operands", st->argv[0]);
		} else {
			ops[n++] = st->argv[i];
		}
	}
	if (n < nops)
		return ns_parse_fail(e, 0, "%s: missing operand", st->argv[0]);
	a->a = ops[0];
	a->b = ops[1];
	return 0;
}

static int open_tree_opt(struct ns_stage *st, size_t *i, struct api_args *a,
			 struct ns_parse_err *e)
{
	const char *w = st->argv[*i];

	if (!strcmp(w, "-c") || !strcmp(w, "--clone"))
		a->flags |= OPEN_TREE_CLONE;
	else if (!strcmp(w, "-R") || !strcmp(w, "--recursive"))
		a->recursive = true;
	else
		return ns_parse_fail(e, *i, "open_tree: unknown option %s (-c, -R)", w);
	return 0;
}

static int parse_open_tree(struct ns_stage *st, struct ns_parse_err *e)
{
	struct api_args *a = xcalloc(1, sizeof(*a));

	st->args = a;
	if (operands(st, e, 2, a, open_tree_opt) < 0)
		return -1;
	if (!is_handle(a->b))
		return ns_parse_fail(e, st->argc - 1, "open_tree: name the tree with @NAME, not '%s'", a->b);
	if (a->recursive && !(a->flags & OPEN_TREE_CLONE))
		return ns_parse_fail(e, 0, "open_tree: -R needs -c (AT_RECURSIVE only applies to a clone)");
	return 0;
}

static int move_mount_opt(struct ns_stage *st, size_t *i, struct api_args *a,
			  struct ns_parse_err *e)
{
	const char *w = st->argv[*i];

	if (!strcmp(w, "--beneath"))
		a->flags |= MOVE_MOUNT_BENEATH;
	else if (!strcmp(w, "--set-group"))
		a->flags |= MOVE_MOUNT_SET_GROUP;
	else
		return ns_parse_fail(e, *i, "move_mount: unknown option %s (--beneath, --set-group)", w);
	return 0;
}

static int parse_move_mount(struct ns_stage *st, struct ns_parse_err *e)
{
	struct api_args *a = xcalloc(1, sizeof(*a));

	st->args = a;
	return operands(st, e, 2, a, move_mount_opt);
}

static const struct {
	const char *name;
	unsigned long flag;
} propagations[] = {
	{ "shared", MS_SHARED }, { "slave", MS_SLAVE },
	{ "private", MS_PRIVATE }, { "unbindable", MS_UNBINDABLE },
};

/* -o: ro/rw, nosuid/suid, nodev/dev, noexec/exec, noatime, relatime,
 * strictatime, nodiratime, nosymfollow. */
static int setattr_flags(const char *optstr, struct api_args *a)
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

static int setattr_opt(struct ns_stage *st, size_t *i, struct api_args *a,
		       struct ns_parse_err *e)
{
	const char *w = st->argv[*i];

	if (!strcmp(w, "-R") || !strcmp(w, "--recursive")) {
		a->recursive = true;
		return 0;
	}
	if ((strcmp(w, "--propagation") && strcmp(w, "-o")) || *i + 1 >= st->argc)
		return ns_parse_fail(e, *i, "mount_setattr: unknown option %s (-R, --propagation TYPE, -o FLAGS)", w);
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

static int parse_mount_setattr(struct ns_stage *st, struct ns_parse_err *e)
{
	struct api_args *a = xcalloc(1, sizeof(*a));

	st->args = a;
	if (operands(st, e, 1, a, setattr_opt) < 0)
		return -1;
	if (!a->set && !a->clr && !a->propagation)
		return ns_parse_fail(e, 0, "mount_setattr: nothing to change: give --propagation or -o");
	return 0;
}

/* ---- execution ------------------------------------------------------- */

static struct ns_handle *find_handle(struct ns_term *t, const char *name)
{
	for (size_t i = 0; i < t->nhandles; i++)
		if (!strcmp(t->handles[i].name, name))
			return &t->handles[i];
	return NULL;
}

/* A path or @NAME as a (dirfd, path, flags) triple for the *at calls. */
static int resolve(struct ns_term *t, const char *s, int *dfd, const char **path,
		   unsigned *empty)
{
	struct ns_handle *h;

	if (!is_handle(s)) {
		*dfd = AT_FDCWD;
		*path = s;
		return 0;
	}
	h = find_handle(t, s);
	if (!h) {
		errno = EBADF;
		return -1;
	}
	*dfd = h->fd;
	*path = "";
	*empty = 1;
	return 0;
}

static int exec_open_tree(struct ns_term *t, const struct ns_stage *st,
			  const struct ns_buf *in, struct ns_buf *out,
			  struct ns_cmd_result *res)
{
	const struct api_args *a = st->args;
	struct ns_handle *h = find_handle(t, a->b);
	unsigned flags = a->flags | OPEN_TREE_CLOEXEC | (a->recursive ? AT_RECURSIVE : 0);
	int fd;

	(void)in, (void)out;
	if (!h && t->nhandles == NS_ARRAY_SIZE(t->handles))
		return ns_cmd_fail(res, "open_tree", EMFILE);
	fd = ns_open_tree(AT_FDCWD, a->a, flags);
	if (fd < 0)
		return ns_cmd_fail(res, "open_tree", errno);
	if (h) {
		close(h->fd);
	} else {
		h = &t->handles[t->nhandles++];
		snprintf(h->name, sizeof(h->name), "%s", a->b);
	}
	h->fd = fd;
	return 0;
}

static int exec_move_mount(struct ns_term *t, const struct ns_stage *st,
			   const struct ns_buf *in, struct ns_buf *out,
			   struct ns_cmd_result *res)
{
	const struct api_args *a = st->args;
	unsigned fe = 0, te = 0;
	const char *fp, *tp;
	int fd, td;

	(void)in, (void)out;
	if (resolve(t, a->a, &fd, &fp, &fe) < 0 || resolve(t, a->b, &td, &tp, &te) < 0)
		return ns_cmd_fail(res, "move_mount", errno);
	if (ns_move_mount(fd, fp, td, tp, a->flags | (fe ? MOVE_MOUNT_F_EMPTY_PATH : 0) |
			  (te ? MOVE_MOUNT_T_EMPTY_PATH : 0)) < 0)
		return ns_cmd_fail(res, "move_mount", errno);
	return 0;
}

static int exec_mount_setattr(struct ns_term *t, const struct ns_stage *st,
			      const struct ns_buf *in, struct ns_buf *out,
			      struct ns_cmd_result *res)
{
	const struct api_args *a = st->args;
	struct mount_attr ma = { .attr_set = a->set, .attr_clr = a->clr,
				 .propagation = a->propagation };
	unsigned empty = 0;
	const char *path;
	int dfd;

	(void)in, (void)out;
	if (resolve(t, a->a, &dfd, &path, &empty) < 0)
		return ns_cmd_fail(res, "mount_setattr", errno);
	if (ns_mount_setattr(dfd, path, (a->recursive ? AT_RECURSIVE : 0) | (empty ? AT_EMPTY_PATH : 0),
			     &ma, sizeof(ma)) < 0)
		return ns_cmd_fail(res, "mount_setattr", errno);
	return 0;
}

const struct ns_cmd_def ns_cmd_newapi[] = {
	{ .name = "open_tree", .parse = parse_open_tree, .exec = exec_open_tree, .free_args = free_args },
	{ .name = "move_mount", .parse = parse_move_mount, .exec = exec_move_mount, .free_args = free_args },
	{ .name = "mount_setattr", .parse = parse_mount_setattr, .exec = exec_mount_setattr, .free_args = free_args },
};
const size_t ns_cmd_newapi_count = NS_ARRAY_SIZE(ns_cmd_newapi);
