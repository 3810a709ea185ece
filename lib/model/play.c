/* play.c - see play.h. Terminals are shells (shell.h) made when their
 * prompt first appears; `exit` at a terminal's first shell closes it, and
 * its next prompt starts a new one in the scenario's first namespace, as
 * on the kernel. */
#include "model/play.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "model/shell.h"
#include "model/viewkey.h"
#include "run/pipeline.h"

struct m_term {
	const char *name;
	struct m_shell sh;
};

/* The table the last step printed, when it was a lone `cat
 * /proc/self/mountinfo` and no other step ran since: nothing has changed
 * the world, so the same namespace seen from the same root prints the
 * same text (a round of the fuzzer's observations, several terminals in
 * one namespace). */
struct m_last_table {
	bool ok;
	struct m_ns *ns;
	struct m_path root;
	char *text;
	size_t len;
};

struct m_play {
	struct m_sandbox sb;
	struct m_term *t;
	size_t n, cap;
	size_t before;      /* mounts that existed before the step */
	bool trace;
	bool no_alive;      /* m_play_no_alive() */
	bool observing;     /* the step is a lone cat of mountinfo */
	bool fresh_tables;  /* m_play_fresh_tables() */
	struct m_last_table table;
};

/* For nsenter: the running terminal called name. */
static struct m_shell *peer(void *ctx, const char *name)
{
	struct m_play *p = ctx;

	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->t[i].name, name))
			return &p->t[i].sh;
	return NULL;
}

/* For pivot_root: every running terminal. */
static struct m_shell *shell_at(void *ctx, size_t i)
{
	struct m_play *p = ctx;

	return i < p->n ? &p->t[i].sh : NULL;
}

struct m_play *m_play_new(const struct ns_scenario *sc, unsigned quirks,
			  enum m_break broken, bool trace)
{
	struct m_play *p = xcalloc(1, sizeof(*p));

	m_sandbox_init(&p->sb, sc, quirks, broken, trace);
	p->sb.peer = peer;
	p->sb.shell_at = shell_at;
	p->sb.peer_ctx = p;
	p->trace = trace;
	return p;
}

void m_play_no_alive(struct m_play *p)
{
	p->no_alive = true;
}

void m_play_fresh_tables(struct m_play *p)
{
	p->fresh_tables = true;
	p->sb.w.fresh_tables = true;
}

/* Is step st `cat /proc/self/mountinfo` alone: no filter, no list? */
static bool lone_mountinfo(const struct ns_step *st)
{
	const struct ns_stage *c = &st->pipeline.stages[0];
	const struct ns_fs_args *a;

	if (st->nmore || st->pipeline.n != 1 || c->def->id != NS_CMD_CAT)
		return false;
	a = c->args;
	return a->nops == 1 && ns_cat_mounts_file(a->ops[0]) == NS_CAT_MOUNTINFO;
}

static void forget_table(struct m_last_table *t)
{
	free(t->text);
	memset(t, 0, sizeof(*t));
}

/* The lone cat of a step that observes: the table the last step printed
 * when it is the same view, else m_exec_cat's, remembered. */
static int observe(struct m_play *p, struct m_shell *sh, const struct ns_stage *st,
		   struct ns_buf *out, struct ns_cmd_result *res)
{
	struct m_level *lv = m_cur(sh);
	struct m_last_table *t = &p->table;
	int r;

	if (t->ok && t->ns == lv->ns && t->root.mnt == lv->root.mnt && t->root.d == lv->root.d &&
	    !out->len) {
		ns_buf_add(out, t->text, t->len);
		return 0;
	}
	forget_table(t);
	r = m_exec[st->def->id](sh, st->args, out, res);
	if (r == 0 && !out->cut) {
		*t = (struct m_last_table){ true, lv->ns, lv->root, NULL, out->len };
		t->text = xmalloc(out->len + 1);
		memcpy(t->text, out->data ? out->data : "", out->len);
	}
	return r;
}

static struct m_shell *terminal(struct m_play *p, const char *name)
{
	void *v = p->t;

	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->t[i].name, name))
			return &p->t[i].sh;
	ns_grow(&v, &p->cap, p->n + 1, sizeof(*p->t));
	p->t = v;
	p->t[p->n].name = name;
	m_shell_init(&p->t[p->n].sh, &p->sb);
	return &p->t[p->n++].sh;
}

/* A handle word of the shell's own that names no open handle: EBADF
 * before the command does anything, as on the kernel, where each handle
 * word becomes a descriptor (or its /proc/self/fd link) before the first
 * system call. The handle the command makes, a context (fsconfig and
 * fsmount check their own, after their other checks), close's names and
 * another terminal's handles (ESRCH first when it is not running) are
 * the executors' own. */
static bool bad_handle(struct m_shell *sh, const struct ns_stage *st)
{
	const struct ns_cmd_def *d = st->def;
	enum ns_handle_kind kind;
	const char *made = d->makes ? d->makes(st->args, &kind) : NULL;
	const char *ctx = d->needs_context ? d->needs_context(st->args) : NULL;

	if (!d->handles || d->handle_any)
		return false;
	for (size_t i = 1; i < st->argc; i++) {
		struct ns_handle_ref ref;
		const char *w = st->argv[i];
		if (w == made || w == ctx || !ns_handle_ref(w, &ref) || ref.term)
			continue;
		if (!m_handle_find(m_cur(sh), ref.name, ref.name_len))
			return true;
	}
	return false;
}

/* A lone cat of mountinfo played without the shared pipeline, for a play
 * that leaves out what only the judge reads (m_play_no_alive): out as
 * ns_pipeline_run makes it but for view.complete, which is left 0.
 * False, and out untouched, when the table cannot be read or passes
 * the output's limit: the pipeline then plays the step (reading a table
 * changes nothing) and says so as it does. */
static bool observe_alone(struct m_play *p, struct m_shell *sh, const struct ns_step *st,
			  struct ns_step_out *out)
{
	struct ns_buf text = NS_BUF_LIMITED(NS_STEP_OUTPUT_MAX);
	struct ns_cmd_result res = { .err = 0 };

	if (observe(p, sh, &st->pipeline.stages[0], &text, &res) < 0 || text.cut ||
	    res.status) {
		ns_buf_free(&text);
		return false;
	}
	memset(out, 0, sizeof(*out));
	out->output = ns_buf_detach(&text);
	return true;
}

static int exec_stage(void *term, const struct ns_stage *st, struct ns_buf *out,
		      struct ns_cmd_result *res)
{
	struct m_shell *sh = term;
	struct m_play *p = (struct m_play *)(void *)((char *)sh->sb - offsetof(struct m_play, sb));

	if (bad_handle(term, st))
		return ns_cmd_fail(res, st->def->name, EBADF);
	if (p->observing)
		return observe(p, sh, st, out, res);
	return m_exec[st->def->id](term, st->args, out, res);
}

/* The shell's working directory as getcwd(3) gives it (m_exec_pwd's
 * rule), or NULL. */
static char *shell_cwd(struct m_shell *sh)
{
	struct m_level *lv = m_cur(sh);
	struct ns_buf path = NS_BUF_INIT;

	if (lv->cwd.d->gone || !m_path_string(lv->cwd, lv->root, &path)) {
		ns_buf_free(&path);
		return NULL;
	}
	return ns_buf_detach(&path);
}

void m_play_step(struct m_play *p, size_t i, struct ns_step_out *out)
{
	const struct ns_step *st = &p->sb.sc->steps[i];
	struct m_shell *sh = terminal(p, st->terminal);
	char *cwd;

	ns_lines_free(&p->sb.w.events);
	p->before = p->sb.w.nmounts;
	/* any other step may change the world: the table is read again */
	p->observing = !p->fresh_tables && lone_mountinfo(st);
	if (!p->observing)
		forget_table(&p->table);
	sh->closing = false;
	m_watch_step_done(&p->sb.w);
	cwd = shell_cwd(sh);
	if (!p->observing || !p->no_alive || !observe_alone(p, sh, st, out))
		ns_pipeline_run(st, exec_stage, sh, out);
	out->cwd = cwd;
	for (size_t k = 0; k < p->n; k++)
		m_watch_after_step(&p->t[k].sh);
	m_watch_step_done(&p->sb.w);
	m_view_key(sh, &out->view);
	/* a shell that ends leaves its place: what only it held is gone */
	if (out->view.key[0] && !p->no_alive && sh->closing)
		out->alive.known = true;
	else if (out->view.key[0] && !p->no_alive)
		m_alive(&p->sb.w, m_cur(sh)->ns, m_cur(sh)->root, &out->alive);
	if (!sh->closing)
		return;
	sh->closing = false;
	if (sh->n > 1) {
		m_shell_pop(sh);
		return;
	}
	/* the terminal's first shell ended */
	out->closed = true;
	m_shell_free(sh);
	for (size_t k = 0; k < p->n; k++)
		if (&p->t[k].sh == sh) {
			p->t[k] = p->t[--p->n];
			break;
		}
}

void m_play_causes(struct m_play *p, struct ns_buf *out)
{
	struct m_world *w = &p->sb.w;
	struct ns_buf at = NS_BUF_INIT;

	for (size_t i = p->before; i < w->nmounts; i++) {
		struct m_mount *m = w->mounts[i];
		if (m->dead || !m->why)
			continue;
		ns_buf_reset(&at);
		m_mount_where(m, &at);
		ns_buf_addf(out, "mount %u on %s (%s): %s\n", m->id, ns_buf_str(&at), m->sb->source, m->why);
	}
	for (size_t i = 0; i < w->events.n; i++)
		ns_buf_addf(out, "%s\n", w->events.v[i]);
	ns_buf_free(&at);
}

void m_play_free(struct m_play *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++)
		m_shell_free(&p->t[i].sh);
	free(p->t);
	forget_table(&p->table);
	m_sandbox_free(&p->sb);
	free(p);
}
