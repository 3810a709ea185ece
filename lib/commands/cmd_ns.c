/* cmd_ns.c - entering and leaving shells in new namespaces:
 * `unshare [-m] [-U [-r]] [--propagation MODE] [sh]` and `exit`. */
#include "scenario/command.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "kernel/terminal.h"

enum prop_mode { PROP_PRIVATE, PROP_SHARED, PROP_SLAVE, PROP_UNCHANGED };

struct unshare_args {
	enum prop_mode prop;
	bool mnt, user, map_root;
};

static const char *const prop_names[] = {
	[PROP_PRIVATE] = "private",
	[PROP_SHARED] = "shared",
	[PROP_SLAVE] = "slave",
	[PROP_UNCHANGED] = "unchanged",
};

static void free_args(void *a)
{
	free(a);
}

static int set_prop(struct unshare_args *a, const char *v, struct ns_parse_err *e,
		    size_t word)
{
	for (size_t i = 0; i < NS_ARRAY_SIZE(prop_names); i++) {
		if (!strcmp(v, prop_names[i])) {
			a->prop = (enum prop_mode)i;
			return 0;
		}
	}
	return ns_parse_fail(e, word, "unshare: unsupported propagation '%s' (private, shared, slave or unchanged)", v);
}

/* One option word: long options, or bundled short ones such as -Urm. */
static int unshare_option(struct ns_stage *st, size_t *i, struct unshare_args *a,
			  struct ns_parse_err *e)
{
	const char *w = st->argv[*i];

	if (!strcmp(w, "--mount"))
		a->mnt = true;
	else if (!strcmp(w, "--user"))
		a->user = true;
	else if (!strcmp(w, "--map-root-user"))
		a->user = a->map_root = true;
	else if (!strncmp(w, "--propagation=", 14))
		return set_prop(a, w + 14, e, *i);
	else if (!strcmp(w, "--propagation")) {
		if (*i + 1 >= st->argc)
			return ns_parse_fail(e, *i, "unshare: --propagation needs a value");
		++*i;
		return set_prop(a, st->argv[*i], e, *i);
	} else if (w[1] != '-') {
		for (const char *f = w + 1; *f; f++) {
			if (*f == 'm')
				a->mnt = true;
			else if (*f == 'U')
				a->user = true;
			else if (*f == 'r')
				a->user = a->map_root = true;
			else
				return ns_parse_fail(e, *i, "unshare: unsupported option -%c (-m, -U, -r and --propagation)", *f);
		}
	} else {
		return ns_parse_fail(e, *i, "unshare: unsupported option %s (-m, -U, -r and --propagation)", w);
	}
	return 0;
}

static int parse_unshare(struct ns_stage *st, struct ns_parse_err *e)
{
	/* unshare(1) makes the new namespace's mounts private unless told */
	struct unshare_args *a = xcalloc(1, sizeof(*a));
	size_t i = 1;

	st->args = a;
	for (; i < st->argc && st->argv[i][0] == '-'; i++)
		if (unshare_option(st, &i, a, e) < 0)
			return -1;
	if (!a->mnt && !a->user)
		return ns_parse_fail(e, 0, "unshare: give -m (a mount namespace), -U (a user namespace) or both");
	if (i < st->argc && strcmp(st->argv[i], "sh") && strcmp(st->argv[i], "bash"))
		return ns_parse_fail(e, i, "unshare: can only start a shell (sh), not '%s'", st->argv[i]);
	if (i + 1 < st->argc)
		return ns_parse_fail(e, i + 1, "unshare: a shell takes no arguments here");
	return 0;
}

/* unshare -r: uid and gid 0 of the new user namespace are the ids this
 * shell had, as unshare(1) maps them. */
static int map_root(struct ns_term *t, uid_t uid, gid_t gid, struct ns_cmd_result *res)
{
	static const char *const files[] = { "self/uid_map", "self/setgroups", "self/gid_map" };
	char text[3][32];

	snprintf(text[0], sizeof(text[0]), "0 %u 1\n", (unsigned)uid);
	snprintf(text[1], sizeof(text[1]), "deny");
	snprintf(text[2], sizeof(text[2]), "0 %u 1\n", (unsigned)gid);
	for (size_t i = 0; i < NS_ARRAY_SIZE(files); i++) {
		int fd = openat(t->procfd, files[i], O_WRONLY | O_CLOEXEC);
		int r = fd < 0 ? -errno : ns_write_all(fd, text[i], strlen(text[i]));
		if (fd >= 0)
			close(fd);
		if (r < 0)
			return ns_cmd_fail(res, "write id map", -r);
	}
	return 0;
}

/* A process cannot go back to the user namespace it came from. */
static bool unshare_one_way(const void *args)
{
	const struct unshare_args *a = args;

	return a->user;
}

static int exec_unshare(struct ns_term *t, const struct ns_stage *st,
			const struct ns_buf *in, struct ns_buf *out,
			struct ns_cmd_result *res)
{
	static const unsigned long flags[] = {
		[PROP_PRIVATE] = MS_REC | MS_PRIVATE,
		[PROP_SHARED] = MS_REC | MS_SHARED,
		[PROP_SLAVE] = MS_REC | MS_SLAVE,
		[PROP_UNCHANGED] = 0,
	};
	const struct unshare_args *a = st->args;
	uid_t uid = getuid();
	gid_t gid = getgid();
	int r;

	(void)in, (void)out;
	r = ns_term_enter_shell(t, res);
	if (r <= 0)
		return r;
	/* the inner shell: if anything fails it reports and ends, and the
	 * outer shell carries on as unshare(1) would never have started it */
	t->closing = true;
	if (unshare((a->mnt ? CLONE_NEWNS : 0) | (a->user ? CLONE_NEWUSER : 0)) < 0)
		return ns_cmd_fail(res, "unshare", errno);
	if (a->map_root && map_root(t, uid, gid, res) < 0)
		return -1;
	if (a->mnt && flags[a->prop] && mount("none", "/", NULL, flags[a->prop], NULL) < 0)
		return ns_cmd_fail(res, "mount", errno);
	t->closing = false;
	return 0;
}

static int parse_exit(struct ns_stage *st, struct ns_parse_err *e)
{
	if (st->argc > 1)
		return ns_parse_fail(e, 1, "exit: an exit status is not supported");
	return 0;
}

static int exec_exit(struct ns_term *t, const struct ns_stage *st,
		     const struct ns_buf *in, struct ns_buf *out,
		     struct ns_cmd_result *res)
{
	(void)st, (void)in, (void)out;
	(void)res;
	/* An inner shell ends and its outer one carries on; the terminal's
	 * first shell ending closes the terminal, and its next command
	 * starts a new one in the scenario's first namespace. */
	t->closing = true;
	return 0;
}

const struct ns_cmd_def ns_cmd_ns[] = {
	{ .name = "unshare", .parse = parse_unshare, .exec = exec_unshare, .free_args = free_args,
	  .one_way = unshare_one_way },
	{ .name = "exit", .parse = parse_exit, .exec = exec_exit },
};
const size_t ns_cmd_ns_count = NS_ARRAY_SIZE(ns_cmd_ns);
