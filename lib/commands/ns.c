/* ns.c - entering and leaving shells in new namespaces, parsing side:
 * `unshare [-m] [-U] [-r|-c] [--map-user=UID] [--map-group=GID]
 * [--map-users=OUTER,INNER,COUNT] [--map-groups=OUTER,INNER,COUNT]
 * [--propagation MODE] [sh | CMD ARGS...]` (and the id maps it writes),
 * `nsenter -t TERMINAL [-m] [-U] [-r] [-w] [sh | CMD ARGS...]` and
 * `exit`. */
#include "commands/command.h"

#include <string.h>
#include <sys/mount.h>

#include "base/suggest.h"
#include "commands/args.h"

static const char *const prop_names[] = {
	[NS_UNSHARE_PRIVATE] = "private",
	[NS_UNSHARE_SHARED] = "shared",
	[NS_UNSHARE_SLAVE] = "slave",
	[NS_UNSHARE_UNCHANGED] = "unchanged",
};

unsigned long ns_unshare_propagation(enum ns_unshare_prop p)
{
	static const unsigned long flags[] = {
		[NS_UNSHARE_PRIVATE] = MS_REC | MS_PRIVATE,
		[NS_UNSHARE_SHARED] = MS_REC | MS_SHARED,
		[NS_UNSHARE_SLAVE] = MS_REC | MS_SLAVE,
		[NS_UNSHARE_UNCHANGED] = 0,
	};

	return flags[p];
}

/* The words from argv[i] on as the command a wrapper runs: a stage that
 * shares the wrapper's words and columns; the scenario parser fills in
 * its def and args (command.h, inner). */
static struct ns_stage *inner_stage(struct ns_stage *st, size_t i)
{
	struct ns_stage *in = xcalloc(1, sizeof(*in));

	in->argv = st->argv + i;
	in->col = st->col + i;
	in->argc = st->argc - i;
	return in;
}

static void free_inner(struct ns_stage *in)
{
	if (!in)
		return;
	if (in->def && in->def->free_args && in->args)
		in->def->free_args(in->args);
	free(in);
}

/* What follows a wrapper's options: nothing or a shell (NULL, an inner
 * shell), or the command to run. */
static int wrapper_command(struct ns_stage *st, size_t i, struct ns_stage **cmd,
			   struct ns_parse_err *e)
{
	const char *name = st->argv[0];

	*cmd = NULL;
	if (i < st->argc && (!strcmp(st->argv[i], "sh") || !strcmp(st->argv[i], "bash"))) {
		if (i + 1 < st->argc)
			return ns_parse_fail(e, i + 1, "%s: a shell takes no arguments here", name);
		return 0;
	}
	if (i < st->argc)
		*cmd = inner_stage(st, i);
	return 0;
}

static int set_prop(struct ns_unshare_args *a, const char *v, struct ns_parse_err *e,
		    size_t word)
{
	const char *near;

	for (size_t i = 0; i < NS_ARRAY_SIZE(prop_names); i++) {
		if (!strcmp(v, prop_names[i])) {
			a->prop = (enum ns_unshare_prop)i;
			return 0;
		}
	}
	near = ns_closest(v, prop_names, NS_ARRAY_SIZE(prop_names));
	if (near)
		return ns_parse_fail(e, word, "unshare: unsupported propagation '%s' (did you mean %s?)", v, near);
	return ns_parse_fail(e, word, "unshare: unsupported propagation '%s' (private, shared, slave or unchanged)", v);
}

/* A long option unshare does not know; "--propagaton=shared" is compared
 * without its value. */
static int unsupported_long(struct ns_parse_err *e, size_t word, const char *w)
{
	static const char *const long_options[] = {
		"--mount", "--user", "--map-root-user", "--map-current-user", "--map-user",
		"--map-group", "--map-users", "--map-groups", "--propagation",
	};
	char *name = xstrndup(w, strcspn(w, "="));
	const char *near = ns_closest(name, long_options, NS_ARRAY_SIZE(long_options));
	int r;

	if (!strcmp(name, "--map-auto"))
		r = ns_parse_fail(e, word, "unshare: --map-auto is not supported: it maps the ranges /etc/subuid and /etc/subgid give the host's user (write them with --map-users and --map-groups)");
	else if (near)
		r = ns_parse_fail(e, word, "unshare: unsupported option %s (did you mean %s?)", w, near);
	else
		r = ns_parse_fail(e, word, "unshare: unsupported option %s (-m, -U, -r, -c, --map-user, --map-group, --map-users, --map-groups and --propagation)", w);
	free(name);
	return r;
}

/* One id of a map option, in decimal as util-linux's strtoul_or_err()
 * reads it; (uid_t)-1 is no id (unshare(1) takes it for "not given"),
 * and a name would be looked up in the host's user database. */
static bool parse_id(const char *s, size_t len, unsigned *out)
{
	unsigned long long v = 0;

	if (!len || len > 10)
		return false;
	for (size_t k = 0; k < len; k++) {
		if (s[k] < '0' || s[k] > '9')
			return false;
		v = v * 10 + (unsigned)(s[k] - '0');
	}
	if (v >= 0xffffffffULL)
		return false;
	*out = (unsigned)v;
	return true;
}

/* --map-user=UID, --map-group=GID: one id, a number here. */
static int map_one(const char *opt, const char *v, unsigned *id, struct ns_parse_err *e,
		   size_t word)
{
	if (parse_id(v, strlen(v), id))
		return 0;
	if (*v && strspn(v, "0123456789") < strlen(v))
		return ns_parse_fail(e, word, "unshare: %s takes a number here, not '%s': a name would be looked up in the host's user database", opt, v);
	return ns_parse_fail(e, word, "unshare: %s '%s' is no id (0 to 4294967294)", opt, v);
}

/* --map-users=OUTER,INNER,COUNT (and --map-groups): util-linux 2.38's
 * order, three numbers (get_map_range()); 2.39 changed it to
 * INNER:OUTER:COUNT, which is refused rather than read the wrong way. */
static int map_range(const char *opt, const char *v, struct ns_id_range *r,
		     struct ns_parse_err *e, size_t word)
{
	unsigned n[3];
	const char *p = v;

	if (!strcmp(v, "auto"))
		return ns_parse_fail(e, word, "unshare: %s=auto is not supported: it maps the range %s gives the host's user (write it as OUTER,INNER,COUNT)",
				     opt, strcmp(opt, "--map-users") ? "/etc/subgid" : "/etc/subuid");
	for (size_t k = 0; k < 3; k++) {
		size_t len = strcspn(p, ",");

		if (!parse_id(p, len, &n[k]) || (k < 2 ? p[len] != ',' : p[len] != '\0')) {
			return ns_parse_fail(e, word, "unshare: %s takes OUTER,INNER,COUNT, three ids separated by commas as in util-linux 2.38 (2.39's INNER:OUTER:COUNT is not read), not '%s'",
					     opt, v);
		}
		p += len + 1;
	}
	*r = (struct ns_id_range){ n[0], n[1], n[2] };
	return 0;
}

/* The map options, each with its value in its own word after '=' or in
 * the next one, as getopt_long(3) gives a required argument. Returns 1
 * when w is none of them. */
static int map_option(struct ns_stage *st, size_t *i, struct ns_unshare_args *a,
		      struct ns_parse_err *e)
{
	static const char *const opts[] = { "--map-user", "--map-group", "--map-users", "--map-groups" };
	const char *w = st->argv[*i], *v;
	size_t len = strcspn(w, "="), k = 0;

	while (k < NS_ARRAY_SIZE(opts) && (strlen(opts[k]) != len || strncmp(w, opts[k], len)))
		k++;
	if (k == NS_ARRAY_SIZE(opts))
		return 1;
	if (w[len] == '=') {
		v = w + len + 1;
	} else {
		if (*i + 1 >= st->argc)
			return ns_parse_fail(e, *i, "unshare: %s needs a value", opts[k]);
		v = st->argv[++*i];
	}
	a->user = true;
	switch (k) {
	case 0:
		a->map_user = true;
		a->map_user_self = false;
		return map_one(opts[k], v, &a->map_uid, e, *i);
	case 1:
		a->map_group = true;
		a->map_group_self = false;
		return map_one(opts[k], v, &a->map_gid, e, *i);
	case 2:
		a->map_users = true;
		return map_range(opts[k], v, &a->users, e, *i);
	default:
		a->map_groups = true;
		return map_range(opts[k], v, &a->groups, e, *i);
	}
}

/* -r: uid and gid 0; -c: the caller's own (--map-user=0 --map-group=0,
 * and the same with $(id -ru) and $(id -rg), as unshare(1) says). */
static void map_root_or_self(struct ns_unshare_args *a, bool self)
{
	a->user = a->map_user = a->map_group = true;
	a->map_user_self = a->map_group_self = self;
	a->map_uid = a->map_gid = 0;
}

/* One option word: long options, or bundled short ones such as -Urm. */
static int unshare_option(struct ns_stage *st, size_t *i, struct ns_unshare_args *a,
			  struct ns_parse_err *e)
{
	const char *w = st->argv[*i];
	int r;

	if (!strcmp(w, "--mount"))
		a->mnt = true;
	else if (!strcmp(w, "--user"))
		a->user = true;
	else if (!strcmp(w, "--map-root-user"))
		map_root_or_self(a, false);
	else if (!strcmp(w, "--map-current-user"))
		map_root_or_self(a, true);
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
			else if (*f == 'r' || *f == 'c')
				map_root_or_self(a, *f == 'c');
			else
				return ns_parse_fail(e, *i, "unshare: unsupported option -%c (-m, -U, -r, -c, --map-user, --map-group, --map-users, --map-groups and --propagation)", *f);
		}
	} else if ((r = map_option(st, i, a, e)) <= 0) {
		return r;
	} else {
		return unsupported_long(e, *i, w);
	}
	return 0;
}

/* util-linux 2.38's map_ids(): the range, and the single id (outer, the
 * caller's, as inner) when one is given, with a hole cut so that they do
 * not overlap; the sums wrap as its unsigned ints do. */
static void range_map(unsigned outer, unsigned inner, bool single, struct ns_id_range map,
		      struct ns_id_map *out)
{
	struct ns_id_range lo, mid, hi;
	unsigned outer_off, inner_off;

	out->helper = true;
	if (!single) {
		out->v[out->n++] = (struct ns_id_extent){ map.inner, map.outer, map.count };
		return;
	}
	if ((outer >= map.outer && outer <= map.outer + map.count) ||
	    (inner >= map.inner && inner <= map.inner + map.count))
		map.count--;
	outer_off = outer > map.outer ? outer - map.outer : 0;
	if (outer_off > map.count)
		outer_off = map.count;
	inner_off = inner > map.inner ? inner - map.inner : 0;
	if (inner_off > map.count)
		inner_off = map.count;
	lo = (struct ns_id_range){ map.outer, map.inner, inner_off < outer_off ? inner_off : outer_off };
	mid.outer = lo.outer + lo.count;
	mid.outer += mid.outer == outer;
	mid.inner = lo.inner + lo.count;
	mid.inner += mid.inner == inner;
	mid.count = outer_off > inner_off ? outer_off - inner_off : inner_off - outer_off;
	hi.outer = mid.outer + mid.count;
	hi.outer += hi.outer == outer;
	hi.inner = mid.inner + mid.count;
	hi.inner += hi.inner == inner;
	hi.count = map.count - lo.count - mid.count;
	out->v[out->n++] = (struct ns_id_extent){ inner, outer, 1 };
	/* newuidmap(1) refuses empty lines: they are left out */
	if (lo.count)
		out->v[out->n++] = (struct ns_id_extent){ lo.inner, lo.outer, lo.count };
	if (mid.count)
		out->v[out->n++] = (struct ns_id_extent){ mid.inner, mid.outer, mid.count };
	if (hi.count)
		out->v[out->n++] = (struct ns_id_extent){ hi.inner, hi.outer, hi.count };
}

static void one_map(bool single, bool self, unsigned id, unsigned caller, bool ranged,
		    struct ns_id_range range, struct ns_id_map *out)
{
	unsigned inner = self ? caller : id;

	*out = (struct ns_id_map){ .n = 0 };
	if (ranged)
		range_map(caller, inner, single, range, out);
	else if (single)
		out->v[out->n++] = (struct ns_id_extent){ inner, caller, 1 };
}

void ns_unshare_id_maps(const struct ns_unshare_args *a, unsigned euid, unsigned egid,
			struct ns_id_map *uids, struct ns_id_map *gids)
{
	one_map(a->map_user, a->map_user_self, a->map_uid, euid, a->map_users, a->users, uids);
	one_map(a->map_group, a->map_group_self, a->map_gid, egid, a->map_groups, a->groups, gids);
}

static int parse_unshare(struct ns_stage *st, struct ns_parse_err *e)
{
	/* unshare(1) makes the new namespace's mounts private unless told */
	struct ns_unshare_args *a = xcalloc(1, sizeof(*a));
	size_t i = 1;

	st->args = a;
	/* options end at the first word that is not one, as for
	 * unshare(1), or at "--" */
	for (; i < st->argc && st->argv[i][0] == '-'; i++) {
		if (!strcmp(st->argv[i], "--")) {
			i++;
			break;
		}
		if (unshare_option(st, &i, a, e) < 0)
			return -1;
	}
	if (!a->mnt && !a->user)
		return ns_parse_fail(e, 0, "unshare: give -m (a mount namespace), -U (a user namespace) or both");
	a->propagation = ns_unshare_propagation(a->prop);
	return wrapper_command(st, i, &a->cmd, e);
}

static void free_unshare(void *p)
{
	struct ns_unshare_args *a = p;

	free_inner(a->cmd);
	free(a);
}

static struct ns_stage *unshare_inner(void *args)
{
	return ((struct ns_unshare_args *)args)->cmd;
}

/* A process cannot go back to the user namespace it came from. */
static bool unshare_one_way(const void *args)
{
	const struct ns_unshare_args *a = args;

	return a->user;
}

/* ---- nsenter ---------------------------------------------------------- */

static const char *const nsenter_long[] = {
	"--target", "--mount", "--user", "--root", "--wd",
};

/* A namespace file, -r DIR or -w DIR: each names what is at a path,
 * which a transcript has no way to point at in another terminal. */
static int nsenter_no_value(struct ns_parse_err *e, size_t word, const char *w)
{
	return ns_parse_fail(e, word, "nsenter: %s with a value is not supported: name the terminal with -t and use -m, -U, -r or -w alone (nsenter -t sh1 -m)", w);
}

static int nsenter_long_option(struct ns_stage *st, size_t *i, struct ns_nsenter_args *a,
			       struct ns_parse_err *e)
{
	const char *w = st->argv[*i];
	size_t len = strcspn(w, "=");
	const char *near;
	char *name;
	int r;

	if (!strncmp(w, "--target", len) && len == 8) {
		if (w[len] == '=') {
			a->target = w + len + 1;
			return 0;
		}
		if (*i + 1 >= st->argc)
			return ns_parse_fail(e, *i, "nsenter: --target needs a terminal's name");
		a->target = st->argv[++*i];
		return 0;
	}
	for (size_t k = 1; k < NS_ARRAY_SIZE(nsenter_long); k++) {
		if (strlen(nsenter_long[k]) != len || strncmp(w, nsenter_long[k], len))
			continue;
		/* --mount=FILE: here a namespace open_tree --namespace made */
		if (k == 1 && w[len] == '=') {
			if (!ns_is_handle(w + len + 1))
				return ns_parse_fail(e, *i, "nsenter: --mount=FILE takes a mount namespace handle here, @NAME made by open_tree --namespace, not '%s'",
						     w + len + 1);
			a->mount_ns = w + len + 1;
			a->mnt = true;
			return 0;
		}
		if (w[len] == '=')
			return nsenter_no_value(e, *i, nsenter_long[k]);
		*(k == 1 ? &a->mnt : k == 2 ? &a->user : k == 3 ? &a->root : &a->wd) = true;
		return 0;
	}
	name = xstrndup(w, len);
	near = ns_closest(name, nsenter_long, NS_ARRAY_SIZE(nsenter_long));
	if (near)
		r = ns_parse_fail(e, *i, "nsenter: unsupported option %s (did you mean %s?)", w, near);
	else
		r = ns_parse_fail(e, *i, "nsenter: unsupported option %s (-t, -m, -U, -r and -w)", w);
	free(name);
	return r;
}

/* Bundled short options (-mU); -t takes the rest of the word or the
 * next one, as getopt gives it. */
static int nsenter_short_options(struct ns_stage *st, size_t *i, struct ns_nsenter_args *a,
				 struct ns_parse_err *e)
{
	const char *w = st->argv[*i];

	for (const char *f = w + 1; *f; f++) {
		switch (*f) {
		case 'm':
			a->mnt = true;
			break;
		case 'U':
			a->user = true;
			break;
		case 'r':
		case 'w':
			if (f[1])
				return nsenter_no_value(e, *i, *f == 'r' ? "-r" : "-w");
			*(*f == 'r' ? &a->root : &a->wd) = true;
			break;
		case 't':
			if (f[1]) {
				a->target = f + 1;
				return 0;
			}
			if (*i + 1 >= st->argc)
				return ns_parse_fail(e, *i, "nsenter: -t needs a terminal's name");
			a->target = st->argv[++*i];
			return 0;
		default:
			return ns_parse_fail(e, *i, "nsenter: unsupported option -%c (-t, -m, -U, -r and -w)", *f);
		}
	}
	return 0;
}

static int parse_nsenter(struct ns_stage *st, struct ns_parse_err *e)
{
	struct ns_nsenter_args *a = xcalloc(1, sizeof(*a));
	size_t i = 1;

	st->args = a;
	for (; i < st->argc && st->argv[i][0] == '-' && st->argv[i][1]; i++) {
		int r;

		if (!strcmp(st->argv[i], "--")) {
			i++;
			break;
		}
		r = st->argv[i][1] == '-' ? nsenter_long_option(st, &i, a, e)
					  : nsenter_short_options(st, &i, a, e);
		if (r < 0)
			return -1;
	}
	if (a->mount_ns) {
		if (a->target || a->user || a->root || a->wd)
			return ns_parse_fail(e, 0, "nsenter: --mount=@NS enters a namespace handle's mount namespace alone: not with -t, -U, -r or -w");
		return wrapper_command(st, i, &a->cmd, e);
	}
	if (!a->target)
		return ns_parse_fail(e, 0, "nsenter: give -t TERMINAL, the prompt name of the terminal whose namespaces to enter (nsenter -t sh1 -m), or --mount=@NS");
	if (!*a->target)
		return ns_parse_fail(e, 0, "nsenter: -t needs a terminal's name; the bare prompt's terminal has none, so give it one ('sh1# ')");
	if (!a->mnt && !a->user)
		return ns_parse_fail(e, 0, "nsenter: give -m (its mount namespace), -U (its user namespace) or both");
	if ((a->root || a->wd) && !a->mnt)
		return ns_parse_fail(e, 0, "nsenter: -r and -w need -m here: a root or directory in another terminal's mount namespace, seen from this one's, is not supported");
	return wrapper_command(st, i, &a->cmd, e);
}

static void free_nsenter(void *p)
{
	struct ns_nsenter_args *a = p;

	free_inner(a->cmd);
	free(a);
}

static struct ns_stage *nsenter_inner(void *args)
{
	return ((struct ns_nsenter_args *)args)->cmd;
}

static const char *nsenter_namespace(const void *args)
{
	return ((const struct ns_nsenter_args *)args)->mount_ns;
}

static const char *nsenter_terminal(const void *args)
{
	return ((const struct ns_nsenter_args *)args)->target;
}

/* Entering a user namespace cannot be undone either. */
static bool nsenter_one_way(const void *args)
{
	return ((const struct ns_nsenter_args *)args)->user;
}

static int parse_exit(struct ns_stage *st, struct ns_parse_err *e)
{
	if (st->argc > 1)
		return ns_parse_fail(e, 1, "exit: an exit status is not supported");
	return 0;
}

const struct ns_cmd_def ns_cmd_ns[] = {
	{ .name = "unshare", .id = NS_CMD_UNSHARE, .parse = parse_unshare,
	  .free_args = free_unshare, .one_way = unshare_one_way, .inner = unshare_inner,
	  .shell = NS_SHELL_STARTS },
	{ .name = "exit", .id = NS_CMD_EXIT, .parse = parse_exit, .shell = NS_SHELL_ENDS,
	  .builtin = true },
	{ .name = "nsenter", .id = NS_CMD_NSENTER, .parse = parse_nsenter,
	  .free_args = free_nsenter, .one_way = nsenter_one_way, .inner = nsenter_inner,
	  .terminal = nsenter_terminal, .terminal_option = "-t",
	  .needs_namespace = nsenter_namespace, .shell = NS_SHELL_STARTS },
};
const size_t ns_cmd_ns_count = NS_ARRAY_SIZE(ns_cmd_ns);
