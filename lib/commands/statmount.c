/* statmount.c - the statmount(2)/listmount(2) family: `statmount [-o
 * FIELD,...] PATH|@NAME` (its parser, the line both backends print, how
 * the judge reads it) and `listmount --check` (which takes no arguments
 * but the one that names what it does). */
#include "commands/statmount.h"

#include <linux/mount.h>
#include <string.h>

#include "base/suggest.h"
#include "commands/command.h"

static const char *const field_names[NS_SM__COUNT] = {
	[NS_SM_ID] = "id",
	[NS_SM_PARENT] = "parent",
	[NS_SM_DEV] = "dev",
	[NS_SM_ROOT] = "root",
	[NS_SM_POINT] = "point",
	[NS_SM_FSTYPE] = "fstype",
	[NS_SM_ATTR] = "attr",
	[NS_SM_PROPAGATION] = "propagation",
	[NS_SM_PEER_GROUP] = "peer_group",
	[NS_SM_MASTER] = "master",
	[NS_SM_PROPAGATE_FROM] = "propagate_from",
	[NS_SM_NS] = "ns",
	[NS_SM_UNIQUE] = "unique_id",
};

/* Without -o: where the mount hangs and how it propagates. */
static const enum ns_sm_field default_fields[] = {
	NS_SM_ID, NS_SM_PARENT, NS_SM_POINT, NS_SM_PROPAGATION, NS_SM_PEER_GROUP, NS_SM_MASTER,
};

static int add_fields(struct ns_statmount_args *a, const char *list, size_t word,
		      struct ns_parse_err *e)
{
	const char *p = list;

	if (!*list)
		return ns_parse_fail(e, word, "statmount: -o needs a list of fields");
	while (*p) {
		size_t len = strcspn(p, ",");
		char *name = xstrndup(p, len);
		int f = 0;

		while (f < NS_SM__COUNT && strcmp(name, field_names[f]))
			f++;
		if (f == NS_SM__COUNT) {
			const char *near = ns_closest(name, field_names, NS_SM__COUNT);
			int r = near ? ns_parse_fail(e, word, "statmount: unknown field '%s' (did you mean '%s'?)",
						     name, near)
				     : ns_parse_fail(e, word, "statmount: unknown field '%s' (nstest knows id, parent, "
						     "dev, root, point, fstype, attr, propagation, peer_group, "
						     "master, propagate_from, ns, unique_id)", name);
			free(name);
			return r;
		}
		free(name);
		if (a->nfields == NS_SM_FIELDS_MAX)
			return ns_parse_fail(e, word, "statmount: more than %d fields", NS_SM_FIELDS_MAX);
		a->fields[a->nfields++] = (enum ns_sm_field)f;
		p += len;
		if (*p == ',' && !*++p)
			return ns_parse_fail(e, word, "statmount: empty field name at the end of '%s'", list);
		if (*p == ',')
			return ns_parse_fail(e, word, "statmount: empty field name in '%s'", list);
	}
	return 0;
}

/* statmount [-o LIST | --output LIST | --output=LIST]... PATH */
static int parse_statmount(struct ns_stage *st, struct ns_parse_err *e)
{
	struct ns_statmount_args *a = xcalloc(1, sizeof(*a));
	size_t i = 1;

	st->args = a;
	for (; i < st->argc && st->argv[i][0] == '-' && st->argv[i][1]; i++) {
		const char *w = st->argv[i];

		if (!strcmp(w, "--")) {
			i++;
			break;
		}
		if (!strncmp(w, "--output=", 9)) {
			if (add_fields(a, w + 9, i, e) < 0)
				return -1;
			continue;
		}
		if (!strcmp(w, "-o") || !strcmp(w, "--output")) {
			if (i + 1 == st->argc)
				return ns_parse_fail(e, i, "statmount: option '%s' needs a list of fields", w);
			if (add_fields(a, st->argv[i + 1], i + 1, e) < 0)
				return -1;
			i++;
			continue;
		}
		if (!strncmp(w, "-o", 2)) {
			if (add_fields(a, w + 2, i, e) < 0)
				return -1;
			continue;
		}
		return ns_parse_fail(e, i, "statmount: option '%s' is not supported (nstest knows -o FIELD,...)", w);
	}
	if (i == st->argc)
		return ns_parse_fail(e, 0, "statmount: missing operand: a path or @NAME names the mount");
	if (st->argc - i > 1)
		return ns_parse_fail(e, i + 1, "statmount: extra operand '%s'", st->argv[i + 1]);
	a->path = st->argv[i];
	if (!a->nfields) {
		memcpy(a->fields, default_fields, sizeof(default_fields));
		a->nfields = NS_ARRAY_SIZE(default_fields);
	}
	return 0;
}

static void free_statmount(void *p)
{
	free(p);
}

/* mountinfo's escapes (the kernel's mangle(): " \t\n\\") */
static void add_path(struct ns_buf *out, const char *s)
{
	if (!s || !*s) {
		ns_buf_addc(out, '-');
		return;
	}
	for (; *s; s++) {
		if (strchr(" \t\n\\", *s))
			ns_buf_addf(out, "\\%03o", (unsigned char)*s);
		else
			ns_buf_addc(out, *s);
	}
}

/* mount_setattr(2)'s attributes in the words and order of mountinfo's
 * mount options (the kernel's show_mnt_opts()); strictatime shows as
 * neither noatime nor relatime, as there. */
static void add_attr(struct ns_buf *out, unsigned long long attr)
{
	ns_buf_adds(out, attr & MOUNT_ATTR_RDONLY ? "ro" : "rw");
	if (attr & MOUNT_ATTR_NOSUID)
		ns_buf_adds(out, ",nosuid");
	if (attr & MOUNT_ATTR_NODEV)
		ns_buf_adds(out, ",nodev");
	if (attr & MOUNT_ATTR_NOEXEC)
		ns_buf_adds(out, ",noexec");
	if ((attr & MOUNT_ATTR__ATIME) == MOUNT_ATTR_NOATIME)
		ns_buf_adds(out, ",noatime");
	if (attr & MOUNT_ATTR_NODIRATIME)
		ns_buf_adds(out, ",nodiratime");
	if ((attr & MOUNT_ATTR__ATIME) == MOUNT_ATTR_RELATIME)
		ns_buf_adds(out, ",relatime");
	if (attr & MOUNT_ATTR_NOSYMFOLLOW)
		ns_buf_adds(out, ",nosymfollow");
	if (attr & MOUNT_ATTR_IDMAP)
		ns_buf_adds(out, ",idmapped");
}

static void add_propagation(struct ns_buf *out, unsigned long long p)
{
	static const struct { unsigned long long flag; const char *name; } words[] = {
		{ MS_SHARED, "shared" }, { MS_SLAVE, "slave" },
		{ MS_PRIVATE, "private" }, { MS_UNBINDABLE, "unbindable" },
	};
	size_t before = out->len;

	for (size_t i = 0; i < NS_ARRAY_SIZE(words); i++)
		if (p & words[i].flag)
			ns_buf_addf(out, "%s%s", out->len > before ? "," : "", words[i].name);
	if (out->len == before)
		ns_buf_addc(out, '-');
}

static void add_group(struct ns_buf *out, unsigned long long g)
{
	if (g)
		ns_buf_addf(out, "%llu", g);
	else
		ns_buf_addc(out, '-');
}

void ns_statmount_format(const struct ns_statmount_args *a,
			 const struct ns_statmount_vals *v, struct ns_buf *out)
{
	for (size_t i = 0; i < a->nfields; i++) {
		if (i)
			ns_buf_addc(out, ' ');
		switch (a->fields[i]) {
		case NS_SM_ID: ns_buf_addf(out, "%llu", v->id); break;
		case NS_SM_PARENT: ns_buf_addf(out, "%llu", v->parent); break;
		case NS_SM_DEV: ns_buf_addf(out, "%u:%u", v->major, v->minor); break;
		case NS_SM_ROOT: add_path(out, v->root); break;
		case NS_SM_POINT: add_path(out, v->point); break;
		case NS_SM_FSTYPE: ns_buf_adds(out, v->fstype && *v->fstype ? v->fstype : "-"); break;
		case NS_SM_ATTR: add_attr(out, v->attr); break;
		case NS_SM_PROPAGATION: add_propagation(out, v->propagation); break;
		case NS_SM_PEER_GROUP: add_group(out, v->peer_group); break;
		case NS_SM_MASTER: add_group(out, v->master); break;
		case NS_SM_PROPAGATE_FROM: add_group(out, v->propagate_from); break;
		case NS_SM_NS: ns_buf_addf(out, "%llu", v->ns_id); break;
		case NS_SM_UNIQUE: ns_buf_addf(out, "%llu", v->unique_id); break;
		case NS_SM__COUNT: break;
		}
	}
	ns_buf_addc(out, '\n');
}

/* The line is a template of its fields with one blank between them: IDs,
 * devices, groups and namespace IDs are renamed as in mountinfo. */
static bool statmount_shape(const void *args, struct ns_match_shape *out)
{
	const struct ns_statmount_args *a = args;
	static const enum ns_match_col col[NS_SM__COUNT] = {
		[NS_SM_ID] = NS_MATCH_COL_ID, [NS_SM_PARENT] = NS_MATCH_COL_PARENT,
		[NS_SM_DEV] = NS_MATCH_COL_DEV, [NS_SM_PEER_GROUP] = NS_MATCH_COL_GROUP,
		[NS_SM_MASTER] = NS_MATCH_COL_GROUP, [NS_SM_PROPAGATE_FROM] = NS_MATCH_COL_GROUP,
		[NS_SM_NS] = NS_MATCH_COL_NSID, [NS_SM_UNIQUE] = NS_MATCH_COL_UNIQUE,
	};
	bool numbers = false;
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	out->form = NS_MATCH_FIELDS;
	for (size_t i = 0; i < a->nfields && n + 2 <= NS_MATCH_MAX_COLS; i++) {
		if (i) {
			out->cols[n] = NS_MATCH_COL_TEXT;
			out->lit[n] = " ";
			out->litlen[n++] = 1;
		}
		out->cols[n++] = col[a->fields[i]];
		numbers |= col[a->fields[i]] != NS_MATCH_COL_TEXT;
	}
	out->ncols = n;
	return numbers;
}

static int parse_listmount(struct ns_stage *st, struct ns_parse_err *e)
{
	if (st->argc != 2 || strcmp(st->argv[1], "--check"))
		return ns_parse_fail(e, 0, "listmount: only 'listmount --check' is supported");
	return 0;
}

const struct ns_cmd_def ns_cmd_statmount[] = {
	{ .name = "statmount", .id = NS_CMD_STATMOUNT, .parse = parse_statmount,
	  .free_args = free_statmount, .handles = true, .shape = statmount_shape },
	{ .name = "listmount", .id = NS_CMD_LISTMOUNT, .parse = parse_listmount },
};
const size_t ns_cmd_statmount_count = NS_ARRAY_SIZE(ns_cmd_statmount);
