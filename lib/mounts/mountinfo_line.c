/* mountinfo_line.c - see mountinfo_line.h.
 *
 * The line is read field by field as the kernel prints it:
 *   ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS [TAG...] - FSTYPE SOURCE OPTS
 * Anything from the " - " on is kept whole as `rest`. */
#include "mounts/mountinfo_line.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS: the fields every line has. */
#define NFIXED 6

/* A decimal as the kernel prints it: digits, no sign, no leading zero. */
static bool parse_num(const char *s, unsigned long *out)
{
	unsigned long v = 0;

	if (!*s || (s[0] == '0' && s[1]))
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		unsigned long d = (unsigned long)(*s - '0');
		if (v > (ULONG_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

/* Cut the space-separated field at *p; *p moves past it, to NULL at the
 * end of the line. An empty field (two spaces) comes back as "". */
static char *cut_field(char **p)
{
	char *f = *p, *sp = strchr(f, ' ');

	if (sp) {
		*sp = '\0';
		*p = sp + 1;
	} else {
		*p = NULL;
	}
	return f;
}

/* shared:N, master:N and propagate_from:N are numbered; any other field
 * is a literal tag. */
static bool parse_tag(char *t, struct ns_mi_tag *tag)
{
	static const char *const numbered[] = { "shared", "master", "propagate_from" };
	char *colon = strchr(t, ':');

	tag->name = t;
	tag->numbered = false;
	if (!*t)
		return false;
	if (!colon || !parse_num(colon + 1, &tag->group))
		return true;
	*colon = '\0';
	for (size_t i = 0; i < NS_ARRAY_SIZE(numbered); i++)
		tag->numbered |= strcmp(t, numbered[i]) == 0;
	if (!tag->numbered)
		*colon = ':'; /* a literal tag keeps its whole text */
	return true;
}

/* The NFIXED fields, already cut. */
static bool parse_fixed(char *const f[NFIXED], struct ns_mi_line *out)
{
	char *colon = strchr(f[2], ':');

	if (!parse_num(f[0], &out->id) || !parse_num(f[1], &out->parent) || !colon)
		return false;
	*colon = '\0';
	if (!parse_num(f[2], &out->major) || !parse_num(colon + 1, &out->minor))
		return false;
	out->root = f[3];
	out->mountpoint = f[4];
	out->opts = f[5];
	return f[3][0] == '/' && f[4][0] == '/' && f[5][0];
}

/* Optional fields up to a lone "-"; from the space before it on, the line
 * is `rest`, copied after the fields in buf. */
static bool parse_optional(const char *line, size_t len, char *p,
			   struct ns_mi_line *out)
{
	char *buf = out->buf;

	out->rest = buf + len; /* the terminating NUL: "" */
	while (p) {
		char *t = cut_field(&p);
		if (strcmp(t, "-") == 0) {
			size_t off = (size_t)(t - buf) - 1;
			out->rest = buf + len + 1;
			memcpy(out->rest, line + off, len - off + 1);
			return true;
		}
		if (!parse_tag(t, &out->tags[out->ntags++]))
			return false;
	}
	return true;
}

/* One allocation holds the line cut into fields, the rest, and room for
 * as many tags as there are fields past the fixed ones. */
static void alloc_copy(const char *line, size_t len, size_t nspaces,
		       struct ns_mi_line *out)
{
	size_t align = _Alignof(struct ns_mi_tag);
	size_t text = (2 * len + 2 + align - 1) / align * align;

	out->buf = xmalloc(text + (nspaces + 1 - NFIXED) * sizeof(*out->tags) + 1);
	out->tags = (struct ns_mi_tag *)(void *)(out->buf + text);
	memcpy(out->buf, line, len + 1);
}

bool ns_mi_parse(const char *line, struct ns_mi_line *out)
{
	size_t len = strlen(line), nspaces = 0;
	char *f[NFIXED], *p;

	memset(out, 0, sizeof(*out));
	for (const char *c = line; *c; c++)
		nspaces += *c == ' ';
	if (nspaces + 1 < NFIXED)
		return false; /* fewer fields than every line has */
	alloc_copy(line, len, nspaces, out);
	p = out->buf;
	for (size_t i = 0; i < NFIXED; i++) {
		f[i] = cut_field(&p);
		if (!*f[i])
			goto fail;
	}
	if (parse_fixed(f, out) && parse_optional(line, len, p, out))
		return true;
fail:
	ns_mi_free(out);
	return false;
}

void ns_mi_free(struct ns_mi_line *l)
{
	free(l->buf); /* tags live in the same block */
	memset(l, 0, sizeof(*l));
}

void ns_mi_add_numbers(struct ns_buf *out, unsigned long id, unsigned long parent,
		       unsigned long major, unsigned long minor)
{
	ns_buf_addu(out, id);
	ns_buf_addc(out, ' ');
	ns_buf_addu(out, parent);
	ns_buf_addc(out, ' ');
	ns_buf_addu(out, major);
	ns_buf_addc(out, ':');
	ns_buf_addu(out, minor);
}

/* A number as a name: letter and number (ns_mi_format_names). */
static void add_name(struct ns_buf *out, char letter, unsigned long n)
{
	ns_buf_addc(out, letter);
	ns_buf_addu(out, n);
}

/* letters: NULL for the numbers as they are */
static void format(const struct ns_mi_line *l, const char *letters, struct ns_buf *out)
{
	/* no printf: a failing step renames every line of its diff */
	if (letters) {
		add_name(out, letters[0], l->id);
		ns_buf_addc(out, ' ');
		add_name(out, letters[0], l->parent);
		ns_buf_addc(out, ' ');
		add_name(out, letters[1], l->major);
	} else {
		ns_mi_add_numbers(out, l->id, l->parent, l->major, l->minor);
	}
	ns_buf_addc(out, ' ');
	ns_buf_adds(out, l->root);
	ns_buf_addc(out, ' ');
	ns_buf_adds(out, l->mountpoint);
	ns_buf_addc(out, ' ');
	ns_buf_adds(out, l->opts);
	for (size_t i = 0; i < l->ntags; i++) {
		ns_buf_addc(out, ' ');
		ns_buf_adds(out, l->tags[i].name);
		if (!l->tags[i].numbered)
			continue;
		ns_buf_addc(out, ':');
		if (letters)
			add_name(out, letters[2], l->tags[i].group);
		else
			ns_buf_addu(out, l->tags[i].group);
	}
	ns_buf_adds(out, l->rest);
}

void ns_mi_format(const struct ns_mi_line *l, struct ns_buf *out)
{
	format(l, NULL, out);
}

void ns_mi_format_names(const struct ns_mi_line *l, const char letters[3],
			struct ns_buf *out)
{
	format(l, letters, out);
}
