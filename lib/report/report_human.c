/* report_human.c - the report for people: one line per scenario, the
 * failing steps with their diffs, and with --verbose the whole transcript
 * as it ran. On a terminal it also keeps a progress line "[n/N] FILE"
 * at the bottom while scenarios run, and colours verdicts and diffs. */
#include "report/reporter.h"

#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "report/report_text.h"

#define GREEN  "\033[32m"
#define RED    "\033[31m"
#define YELLOW "\033[33m"
#define CYAN   "\033[36m"
#define BOLD   "\033[1m"
#define RESET  "\033[m"

static const char *status_color(enum ns_status s)
{
	static const char *const colors[] = { GREEN, RED, YELLOW, YELLOW, RED };

	return colors[s];
}

static const char *prompt_of(const struct ns_step *st, char *buf, size_t n)
{
	snprintf(buf, n, "%s%c", st->terminal, st->prompt);
	return buf;
}

/* Columns of the terminal f is, or 0 when unknown. nstest's stdout is a
 * stream with no file descriptor of its own (base/outfile.h): for it,
 * ask fd 1. */
static size_t term_columns(FILE *f)
{
	struct winsize ws;

	if (ioctl(f == stdout ? STDOUT_FILENO : fileno(f), TIOCGWINSZ, &ws) < 0)
		return 0;
	return ws.ws_col;
}

/* Take the progress line off the screen before anything else is printed. */
static void progress_erase(struct ns_report_ctx *c)
{
	if (!c->state.human.shown)
		return;
	fputs("\r\033[K", c->out);
	c->state.human.shown = false;
}

/* "[n/N] FILE", cut to the terminal's width so that it never wraps (a
 * wrapped line could not be erased). */
static void progress_draw(struct ns_report_ctx *c)
{
	struct ns_human_state *p = &c->state.human;
	char head[64];
	size_t cols = term_columns(c->out), used, chars = 0;
	const char *s = p->path ? p->path : "";

	progress_erase(c);
	snprintf(head, sizeof(head), "[%zu/%zu]%s", p->index + 1, c->total, *s ? " " : "");
	used = strlen(head);
	fputs(head, c->out);
	while (*s && (!cols || used + chars + 1 < cols)) {
		uint32_t cp;
		size_t n = ns_utf8_char(s, &cp);
		fwrite(s, 1, n ? n : 1, c->out);
		s += n ? n : 1;
		chars++;
	}
	p->shown = true;
	fflush(c->out);
}

/* The head line says what ran: backend, kernel and stand-ins. */
static void human_begin(struct ns_report_ctx *c)
{
	struct ns_buf head = NS_BUF_INIT;

	memset(&c->state.human, 0, sizeof(c->state.human));
	ns_report_header(&head, c);
	fprintf(c->out, "%s\n", ns_buf_str(&head));
	ns_buf_free(&head);
}

static void human_started(struct ns_report_ctx *c, size_t index,
			  const struct ns_scenario *sc)
{
	struct ns_human_state *p = &c->state.human;

	if (!c->progress)
		return;
	p->any = true;
	p->index = index;
	p->path = sc ? sc->path : NULL;
	progress_draw(c);
}

static void print_indented(FILE *f, const char *text, const char *indent)
{
	const char *s = text;

	while (*s) {
		size_t n = strcspn(s, "\n");
		fprintf(f, "%s%.*s\n", indent, (int)n, s);
		s += n + (s[n] == '\n');
	}
}

/* A unified diff, indented, its changes in colour when c->color. */
static void print_diff(const struct ns_report_ctx *c, const char *diff)
{
	const char *s = diff ? diff : "";

	if (!c->color) {
		print_indented(c->out, s, "    ");
		return;
	}
	for (size_t line = 0; *s; line++) {
		size_t n = strcspn(s, "\n");
		bool header = line < 2 && (!strncmp(s, "--- ", 4) || !strncmp(s, "+++ ", 4));
		const char *color = header ? BOLD : *s == '-' ? RED : *s == '+' ? GREEN :
				    *s == '@' ? CYAN : NULL;

		if (color)
			fprintf(c->out, "    %s%.*s" RESET "\n", color, (int)n, s);
		else
			fprintf(c->out, "    %.*s\n", (int)n, s);
		s += n + (s[n] == '\n');
	}
}

/* The first step without a result is the one that was running when the
 * run stopped: name what stopped it. */
static const char *not_run_reason(const struct ns_run *run, const struct ns_verdict *v,
				  size_t i)
{
	if (i > 0 && !v->steps[i - 1].ran)
		return "not run";
	return run->timed_out ? "killed by the watchdog" : run->aborted ? "interrupted" : "not run";
}

static void verbose_mark(const struct ns_report_ctx *c, const struct ns_step_verdict *sv)
{
	if (c->color)
		fprintf(c->out, "  %s%s" RESET, sv->ok ? GREEN : RED, sv->ok ? "ok" : "XX");
	else
		fprintf(c->out, "  %s", sv->ok ? "ok" : "XX");
}

static void report_step(const struct ns_report_ctx *c, const struct ns_result *r, size_t i)
{
	FILE *f = c->out;
	const struct ns_scenario *sc = r->sc;
	const struct ns_step *st = &sc->steps[i];
	const struct ns_obs *o = &r->run->obs[i];
	const struct ns_step_verdict *sv = &r->v->steps[i];
	char p[64];

	if (!sv->ran) {
		if (c->verbose)
			fprintf(f, "  --  %s %s   (%s)\n", prompt_of(st, p, sizeof(p)), st->cmdline,
				not_run_reason(r->run, r->v, i));
		return;
	}
	if (sv->ok && !c->verbose)
		return;
	if (c->verbose) {
		verbose_mark(c, sv);
		fprintf(f, "  %s %s\n", prompt_of(st, p, sizeof(p)), st->cmdline);
		if (sv->ok)
			print_indented(f, o->out.output, "          ");
		else
			fprintf(f, "    at %s:%d\n", sc->path, st->line);
	} else {
		fprintf(f, "%s:%d: %s %s\n", sc->path, st->line, prompt_of(st, p, sizeof(p)), st->cmdline);
	}
	if (sv->ok)
		return;
	if (o->out.err) {
		struct ns_buf b = NS_BUF_INIT;
		ns_report_syscall(&b, &o->out);
		fprintf(f, "    %s\n", ns_buf_str(&b));
		ns_buf_free(&b);
	}
	print_diff(c, sv->diff);
}

/* "PASS  FILE", "SKIP  FILE (reason)", "XFAIL FILE (reason)", ... */
static void result_line(const struct ns_report_ctx *c, const struct ns_result *r)
{
	FILE *f = c->out;
	enum ns_status s = r->v->status;

	if (c->color)
		fprintf(f, "%s%-5s" RESET " %s", status_color(s), ns_status_name(s), r->sc->path);
	else
		fprintf(f, "%-5s %s", ns_status_name(s), r->sc->path);
	if (r->v->reason)
		fprintf(f, " (%s)", r->v->reason);
	if (ns_report_devices_note(c, r))
		fprintf(f, " [%s]", ns_report_devices_note(c, r));
	fputc('\n', f);
}

static void human_scenario(struct ns_report_ctx *c, size_t index,
			   const struct ns_result *r)
{
	FILE *f = c->out;
	const struct ns_scenario *sc = r->sc;

	progress_erase(c);
	if (c->verbose && r->v->status != NS_SKIP)
		fprintf(f, "=== %s%s%s\n", sc->path, sc->title ? ": " : "",
			sc->title ? sc->title : "");
	for (size_t i = 0; r->run && i < r->v->n; i++)
		report_step(c, r, i);
	result_line(c, r);
	if (c->verbose)
		fputc('\n', f);
	/* A later scenario is still running: bring its line back. */
	if (c->progress && c->state.human.any && c->state.human.index > index)
		progress_draw(c);
	fflush(f);
}

/* A run a signal stopped: what did not run, before the tally. */
static void print_interrupted(struct ns_report_ctx *c)
{
	struct ns_buf head = NS_BUF_INIT;

	ns_report_interrupted(&head, c);
	fprintf(c->out, "%s%s\n", ns_buf_str(&head), c->nnot_run ? ":" : "");
	for (size_t i = 0; i < c->nnot_run; i++)
		fprintf(c->out, "  %s (%s)\n", c->not_run[i].sc->path,
			ns_report_not_run_why(&c->not_run[i]));
	ns_buf_free(&head);
}

static void human_end(struct ns_report_ctx *c, const struct ns_tally *t)
{
	progress_erase(c);
	if (c->interrupted)
		print_interrupted(c);
	ns_tally_print(c->out, t);
	fflush(c->out);
}

const struct ns_reporter ns_reporter_human = {
	.name = "human",
	.begin = human_begin,
	.started = human_started,
	.scenario = human_scenario,
	.end = human_end,
};
