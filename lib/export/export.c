/* export.c - see export.h: the program's frame, its steps, and what each
 * step's expected block asks of it. */
#include "export/export.h"

#include <errno.h>
#include <string.h>

#include "commands/args.h"
#include "commands/command.h"
#include "kernel/device.h"
#include "run/ulmsg.h"
#include "run/view.h"

/* errno values looked at when an expected line is read as an error */
#define MAX_ERRNO 134

void ns_export_cstr(struct ns_buf *b, const char *s)
{
	ns_buf_addc(b, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			ns_buf_addf(b, "\\%c", *p);
		else if (*p == '\n')
			ns_buf_adds(b, "\\n");
		else if (*p == '\t')
			ns_buf_adds(b, "\\t");
		else if (*p < 0x20 || *p == 0x7f || *p == '?')
			/* '?' too: no trigraph can form */
			ns_buf_addf(b, "\\%03o", *p);
		else
			ns_buf_addc(b, (char)*p);
	}
	ns_buf_addc(b, '"');
}

/* Text inside a C comment: no "*" "/" may end it early. */
static void comment_text(struct ns_buf *b, const char *s)
{
	for (; *s; s++) {
		ns_buf_addc(b, *s);
		if (s[0] == '*' && s[1] == '/')
			ns_buf_addc(b, ' ');
	}
}

size_t ns_export_handle(struct ns_export_ctx *cx, const char *name)
{
	for (size_t i = 0; i < cx->handles.n; i++)
		if (!strcmp(cx->handles.v[i], name))
			return i;
	ns_lines_push(&cx->handles, name);
	return cx->handles.n - 1;
}

int ns_export_word(struct ns_export_ctx *cx, const char *word, int *h, const char **rest,
		   struct ns_buf *why)
{
	struct ns_handle_ref r;
	char *name;

	if (!ns_handle_ref(word, &r)) {
		*h = -1;
		*rest = word;
		return 0;
	}
	if (r.term) {
		ns_buf_addf(why, "%s names a handle of another terminal", word);
		return -1;
	}
	name = xstrndup(r.name, r.name_len);
	*h = (int)ns_export_handle(cx, name);
	free(name);
	*rest = r.rest;
	while (**rest == '/')
		(*rest)++;
	/* "@NAME/" must be a directory, as "dir/" must */
	if (!**rest && *r.rest)
		*rest = ".";
	return 0;
}

/* ---- what a block expects ---------------------------------------------- */

struct want {
	size_t nlines;        /* expected lines of output (before an error line) */
	bool fails;           /* the block ends with an error line */
	bool any;             /* ... of any errno */
	int err[MAX_ERRNO];   /* ... or of one of these */
	size_t nerr;
};

static bool is_errno_line(const char *line, const char *cmd, int *err)
{
	size_t n = strlen(cmd);

	if (strncmp(line, cmd, n) || strncmp(line + n, ": E", 3))
		return false;
	for (int e = 1; e < MAX_ERRNO; e++) {
		char *want = xasprintf("%s: %s (%s)", cmd, ns_errname(e), strerror(e));
		bool hit = !strcmp(line, want);

		free(want);
		if (hit) {
			*err = e;
			return true;
		}
	}
	return false;
}

/* The names a failing step's error line may start with: the stage's
 * command, and the command a wrapper runs. */
static void read_block(const struct ns_step *st, struct want *w)
{
	const struct ns_stage *first = &st->pipeline.stages[0];
	const struct ns_stage *inner = ns_stage_cmd(first);
	const char *last;
	size_t n = st->nexpect, idx;
	int e;

	memset(w, 0, sizeof(*w));
	w->nlines = n;
	if (!n)
		return;
	idx = n >= 2 && ns_ulmsg_is_dmesg(st->expect[n - 1].text) ? n - 2 : n - 1;
	last = st->expect[idx].text;
	for (const struct ns_stage *s = first; s; s = s == inner ? NULL : inner) {
		size_t len = strlen(s->argv[0]);

		if (!strncmp(last, s->argv[0], len) && !strcmp(last + len, ": ERROR")) {
			w->fails = w->any = true;
			w->nlines = idx;
			return;
		}
		if (is_errno_line(st->expect[n - 1].text, s->argv[0], &e)) {
			w->fails = true;
			w->err[w->nerr++] = e;
			w->nlines = n - 1;
			return;
		}
	}
	/* util-linux's words, and the other tools': every errno they fit */
	for (e = 1; e < MAX_ERRNO; e++) {
		size_t k = 0;
		struct ns_expect *alt = ns_ulmsg_translate(st, e, NULL, &k);

		if (!alt)
			continue;
		w->fails = true;
		w->err[w->nerr++] = e;
		w->nlines = k - 1;
		ns_ulmsg_free_block(alt, k);
	}
}

/* ---- the program --------------------------------------------------------- */

static size_t term_index(struct ns_lines *terms, const char *name)
{
	for (size_t i = 0; i < terms->n; i++)
		if (!strcmp(terms->v[i], name))
			return i;
	ns_lines_push(terms, name);
	return terms->n - 1;
}

static void refusal(struct ns_buf *err, const struct ns_scenario *sc, const struct ns_step *st,
		    const struct ns_stage *sg, const char *why)
{
	ns_buf_addf(err, "nstest export: %s:%d: %s: not exportable to C (%s)", sc->path, st->line,
		    sg->argv[0], why);
}

/* Write one stage through its table entry. */
static int emit_stage(struct ns_export_ctx *cx, const struct ns_stage *sg, struct ns_buf *err)
{
	const struct ns_export_cmd *c = &ns_export_cmds[sg->def->id];
	struct ns_buf why = NS_BUF_INIT;

	if (!c->emit) {
		refusal(err, cx->sc, cx->st, sg, c->refuse);
		return -1;
	}
	if (c->emit(cx, sg, &why) < 0) {
		refusal(err, cx->sc, cx->st, sg, ns_buf_str(&why));
		ns_buf_free(&why);
		return -1;
	}
	ns_buf_free(&why);
	return 0;
}

static void emit_lines(struct ns_buf *code, char *const *v, size_t n)
{
	ns_buf_adds(code, "\t\tstatic const char *const x[] = {\n");
	for (size_t i = 0; i < n; i++) {
		ns_buf_adds(code, "\t\t\t");
		ns_export_cstr(code, v[i]);
		ns_buf_adds(code, ",\n");
	}
	if (!n)
		ns_buf_adds(code, "\t\t\tNULL\n");
	ns_buf_adds(code, "\t\t};\n");
}

/* The names of an ls block written in GNU ls's columns, in ls's order:
 * each line cut at runs of two or more blanks (or tabs), read down each
 * column. A block one name a line stays as it is. */
static void ls_names(const struct ns_step *st, size_t n, struct ns_lines *out)
{
	struct ns_lines *rows = xcalloc(n ? n : 1, sizeof(*rows));
	size_t cols = 0;

	for (size_t r = 0; r < n; r++) {
		const char *p = st->expect[r].text;

		rows[r] = (struct ns_lines)NS_LINES_INIT;
		while (*p) {
			const char *q = p;

			while (*q && *q != '\t' && !(q[0] == ' ' && q[1] == ' '))
				q++;
			if (q > p)
				ns_lines_pushn(&rows[r], p, (size_t)(q - p));
			while (*q == ' ' || *q == '\t')
				q++;
			p = q;
		}
		if (rows[r].n > cols)
			cols = rows[r].n;
	}
	for (size_t c = 0; c < cols; c++)
		for (size_t r = 0; r < n; r++)
			if (c < rows[r].n)
				ns_lines_push(out, rows[r].v[c]);
	for (size_t r = 0; r < n; r++)
		ns_lines_free(&rows[r]);
	free(rows);
}

static int emit_step(struct ns_export_ctx *cx, size_t k, struct ns_lines *terms,
		     struct ns_buf *err, struct ns_buf *notes)
{
	const struct ns_step *st = &cx->sc->steps[k];
	struct ns_buf *code = cx->code;
	struct ns_buf shown = NS_BUF_INIT;
	struct want w;
	size_t term = term_index(terms, st->terminal);

	cx->st = st;
	cx->table = ns_view_table_step(st);
	cx->prints = false;
	cx->ls = false;
	ns_buf_addf(&shown, "%s%c %s", st->terminal, st->prompt, st->cmdline);
	ns_buf_addf(code, "\n\t/* step %zu, line %d: ", k + 1, st->line);
	comment_text(code, ns_buf_str(&shown));
	ns_buf_adds(code, " */\n");
	ns_buf_addf(code, "\txs_step(%zu, %d, ", k + 1, st->line);
	ns_export_cstr(code, ns_buf_str(&shown));
	ns_buf_addf(code, ", %zu);\n\t{\n\t\tint e = 0;\n\t\tstruct xs_buf o = { NULL, 0, 0 };\n", term);
	ns_buf_free(&shown);
	if (st->nmore) {
		refusal(err, cx->sc, st, &st->pipeline.stages[0],
			"a list of commands ('&&', '||', ';') is not exported: one command a line");
		return -1;
	}
	for (size_t i = 0; i < st->pipeline.n; i++) {
		const struct ns_stage *sg = &st->pipeline.stages[i];

		if (i == 1 && cx->table)
			ns_buf_adds(code, "\t\tchar *raw = e ? NULL : strdup(xs_str(&o));\n");
		if (i > 0)
			ns_buf_adds(code, "\t\tif (!e) {\n");
		if (emit_stage(cx, sg, err) < 0)
			return -1;
		if (i > 0)
			ns_buf_adds(code, "\t\t}\n");
	}
	read_block(st, &w);
	if (w.fails && !w.any && !w.nerr)
		w.any = true;
	if (w.fails) {
		ns_buf_adds(code, "\t\txs_want(e, ");
		if (w.nerr) {
			/* by name where the C library has one (ns_errname's
			 * are glibc's), so the program reads as the kernel
			 * developer writes it */
			ns_buf_adds(code, "(const int[]){ ");
			for (size_t i = 0; i < w.nerr; i++) {
				const char *name = ns_errname(w.err[i]);

				if (name[1] >= '0' && name[1] <= '9')
					ns_buf_addf(code, "%s%d", i ? ", " : "", w.err[i]);
				else
					ns_buf_addf(code, "%s%s", i ? ", " : "", name);
			}
			ns_buf_addf(code, " }, %zu, 0);\n", w.nerr);
		} else {
			ns_buf_adds(code, "NULL, 0, 1); /* any errno */\n");
		}
	} else {
		ns_buf_adds(code, "\t\txs_want(e, NULL, 0, 0);\n");
	}
	if (w.nlines || cx->prints) {
		struct ns_lines lines = NS_LINES_INIT;
		bool dots = false;

		for (size_t i = 0; i < w.nlines; i++)
			dots |= !strcmp(st->expect[i].text, "...");
		if (cx->ls && st->pipeline.n == 1 && !dots && !st->unordered) {
			ls_names(st, w.nlines, &lines);
		} else {
			for (size_t i = 0; i < w.nlines; i++)
				ns_lines_push(&lines, st->expect[i].text);
		}
		ns_buf_adds(code, "\t\t{\n");
		emit_lines(code, lines.v, lines.n);
		ns_buf_addf(code, "\t\txs_expect(x, %zu, %d, xs_str(&o), %s);\n\t\t}\n", lines.n,
			    st->unordered ? 1 : 0,
			    cx->table && !w.fails ? (st->pipeline.n > 1 ? "raw" : "xs_str(&o)") : "NULL");
		ns_lines_free(&lines);
	}
	if (cx->table && st->pipeline.n > 1)
		ns_buf_adds(code, "\t\tfree(raw);\n");
	ns_buf_adds(code, "\t\tfree(o.p);\n\t}\n");
	(void)notes;
	return 0;
}

static void emit_header(struct ns_buf *prog, const struct ns_scenario *sc,
			const struct ns_buf *notes)
{
	ns_buf_adds(prog, "/* Generated by nstest export --c from ");
	comment_text(prog, sc->path);
	ns_buf_adds(prog, ".\n");
	if (sc->title) {
		ns_buf_adds(prog, " * ");
		comment_text(prog, sc->title);
		ns_buf_adds(prog, "\n");
	}
	ns_buf_adds(prog,
		    " *\n"
		    " * A standalone reproducer: build with `cc -O2 -Wall THIS.c` and run as root.\n"
		    " * It makes a private mount namespace (/ rprivate before any mount), a stand-in\n"
		    " * for each /dev/NAME the scenario mounts (a tmpfs, or with `devices: loop` a\n"
		    " * loop device over an ext4 image this file carries), with the root stand-in as\n"
		    " * its root (pivot_root), so the host's mount table never changes. Then it\n"
		    " * plays each step and checks its errno and output as the scenario expects.\n"
		    " * Exit status: 0 every step matched; 1 a step differed (printed: step, line,\n"
		    " * command, expected and got); 2 it could not set up (printed: why).\n"
		    " * Mount IDs, devices and peer groups are compared up to one renaming kept\n"
		    " * across the program, as nstest does (nstest-scenario(5), Matching).\n");
	for (size_t i = 0; i < sc->nxfails; i++) {
		ns_buf_addf(prog, " * xfail (line %d): ", sc->xfails[i].line);
		comment_text(prog, sc->xfails[i].reason);
		ns_buf_adds(prog, "\n *   (a known kernel deviation: inside its range the program exits 1)\n");
	}
	if (notes->len) {
		ns_buf_adds(prog, " *\n * Not checked:\n");
		for (const char *p = ns_buf_str(notes); *p;) {
			size_t n = strcspn(p, "\n");

			char *line = xstrndup(p, n);

			ns_buf_adds(prog, " *   ");
			comment_text(prog, line);
			ns_buf_adds(prog, "\n");
			free(line);
			p += n + (p[n] == '\n');
		}
	}
	ns_buf_adds(prog, " */\n#define _GNU_SOURCE\n");
}

/* The loop stand-ins' image as the program's data: the runs of 64-byte
 * blocks that are not all zero (an 8 MiB ext4 image is about 5 KiB of
 * them), their bytes in one array. */
static void emit_image(struct ns_buf *prog, const struct ns_buf *img)
{
	enum { BLOCK = 64 };
	struct ns_buf runs = NS_BUF_INIT, bytes = NS_BUF_INIT;
	size_t nruns = 0, nbytes = 0;

	for (size_t at = 0; at < img->len;) {
		size_t end = at;

		while (end < img->len) {
			size_t n = img->len - end < BLOCK ? img->len - end : BLOCK;
			bool zero = true;

			for (size_t i = 0; i < n && zero; i++)
				zero = !img->data[end + i];
			if (zero)
				break;
			end += n;
		}
		if (end == at) {
			at += BLOCK;
			continue;
		}
		ns_buf_addf(&runs, "\t{ %zu, %zu },\n", at, end - at);
		nruns++;
		for (size_t i = at; i < end; i++, nbytes++)
			ns_buf_addf(&bytes, "%s%u,", nbytes % 16 ? " " : "\n\t",
				    (unsigned char)img->data[i]);
		at = end;
	}
	ns_buf_addf(prog, "\n/* The loop stand-ins' ext4 image (mke2fs -t ext4 -O ^has_journal, %zu bytes):\n"
		    " * its non-zero runs, offset and length, and their bytes. */\n"
		    "static const struct xs_run image_runs[] = {\n", img->len);
	ns_buf_add(prog, runs.data, runs.len);
	ns_buf_adds(prog, "};\n\nstatic const unsigned char image_bytes[] = {");
	ns_buf_add(prog, bytes.data, bytes.len);
	ns_buf_addf(prog, "\n};\n\nstatic const struct xs_image image = { %zuu, %zu, image_runs, image_bytes };\n",
		    img->len, nruns);
	ns_buf_free(&runs);
	ns_buf_free(&bytes);
}

int ns_export_c(const struct ns_scenario *sc, enum ns_devices_mode devices,
		struct ns_buf *prog, struct ns_buf *err, struct ns_buf *notes)
{
	struct ns_export_ctx cx = { .sc = sc, .handles = NS_LINES_INIT };
	struct ns_lines terms = NS_LINES_INIT;
	struct ns_buf code = NS_BUF_INIT, image = NS_BUF_INIT;
	int r = 0;

	cx.code = &code;
	if (devices == NS_DEVICES_DEFAULT)
		devices = sc->devices != NS_DEVICES_DEFAULT ? sc->devices :
			  sc->requires & NS_REQ_LOOP ? NS_DEVICES_LOOP : NS_DEVICES_TMPFS;
	if (devices == NS_DEVICES_LOOP && ns_devices_image(&image, err) < 0) {
		char *why = ns_buf_detach(err);

		ns_buf_addf(err, "nstest export: %s: loop stand-ins need their ext4 image: %s",
			    sc->path, why);
		free(why);
		return -1;
	}
	if (sc->requires & NS_REQ_USERNS) {
		ns_buf_addf(err, "nstest export: %s: requires: userns is not exportable to C "
			    "(user namespaces are refused)", sc->path);
		return -1;
	}
	for (size_t k = 0; k < sc->nsteps && r == 0; k++)
		r = emit_step(&cx, k, &terms, err, notes);
	if (r == 0) {
		emit_header(prog, sc, notes);
		ns_buf_adds(prog, ns_export_runtime);
		if (image.len)
			emit_image(prog, &image);
		ns_buf_adds(prog, "\n/* ---- the scenario ---- */\n\nstatic const char *const devices[] = {\n");
		for (size_t i = 0; i < sc->ndevnames; i++) {
			ns_buf_adds(prog, "\t");
			ns_export_cstr(prog, sc->devnames[i]);
			ns_buf_adds(prog, ",\n");
		}
		ns_buf_adds(prog, "};\n\nint main(void)\n{\n\txs_at_step.file = ");
		ns_export_cstr(prog, sc->path);
		ns_buf_adds(prog, ";\n");
		if (sc->nxfails) {
			struct ns_buf x = NS_BUF_INIT;

			for (size_t i = 0; i < sc->nxfails; i++)
				ns_buf_addf(&x, "  line %d: %s\n", sc->xfails[i].line, sc->xfails[i].reason);
			ns_buf_adds(prog, "\txs_at_step.xfail = ");
			ns_export_cstr(prog, ns_buf_str(&x));
			ns_buf_adds(prog, ";\n");
			ns_buf_free(&x);
		}
		if (sc->kernel_min[0])
			ns_buf_addf(prog, "\txs_need_kernel(%d, %d, %d);\n", sc->kernel_min[0],
				    sc->kernel_min[1], sc->kernel_min[2]);
		{
			static const struct { enum ns_cmd_id id; const char *nr, *name; } sys[] = {
				{ NS_CMD_OPEN_TREE, "SYS_open_tree", "open_tree" },
				{ NS_CMD_MOVE_MOUNT, "SYS_move_mount", "move_mount" },
				{ NS_CMD_MOUNT_SETATTR, "SYS_mount_setattr", "mount_setattr" },
				{ NS_CMD_FSOPEN, "SYS_fsopen", "fsopen" },
				{ NS_CMD_FSCONFIG, "SYS_fsconfig", "fsconfig" },
				{ NS_CMD_FSMOUNT, "SYS_fsmount", "fsmount" },
				{ NS_CMD_FSPICK, "SYS_fspick", "fspick" },
			};

			for (size_t i = 0; i < NS_ARRAY_SIZE(sys); i++)
				if (ns_cmd_set_has(&sc->commands, sys[i].id))
					ns_buf_addf(prog, "\txs_need_syscall(%s, \"%s\");\n", sys[i].nr,
						    sys[i].name);
		}
		if (image.len)
			ns_buf_adds(prog, "\txs_image = &image;\n");
		ns_buf_addf(prog, "\txs_setup(devices, %zu, %d, %zu, %zu);\n", sc->ndevnames,
			    sc->remounts ? 1 : 0, terms.n ? terms.n : 1, cx.handles.n);
		ns_buf_add(prog, code.data, code.len);
		ns_buf_adds(prog, "\n\tprintf(\"PASS ");
		ns_buf_adds(prog, "%s (%d steps)\\n\", xs_at_step.file, ");
		ns_buf_addf(prog, "%zu);\n\treturn 0;\n}\n", sc->nsteps);
	}
	ns_lines_free(&terms);
	ns_lines_free(&cx.handles);
	ns_buf_free(&code);
	ns_buf_free(&image);
	return r;
}
