/* html.c - see html.h. The scenario is walked as `nstest show` walks it
 * (show.c): raw lines in file order, expected lines replaced by what ran. */
#include "report/html.h"

#include <string.h>

#include "report/dot_svg.h"
#include "report/report_text.h"
#include "run/verdict.h"

static const char style[] =
	"body{font-family:sans-serif;max-width:72rem;margin:1.5rem auto;padding:0 1rem;color:#1b1b1b;line-height:1.45}"
	"header p{color:#444;margin:.2rem 0}"
	"pre{font-family:monospace;font-size:.88rem;margin:.2rem 0;padding:.35rem .6rem;border-radius:4px;overflow-x:auto}"
	"pre.cmd{background:#1e2530;color:#e8eef6;margin-top:.8rem}"
	"pre.out{background:#f3f5f7;border-left:4px solid #7aa874}"
	"pre.bad{background:#fff4f4;border-left:4px solid #c43c3c}"
	"pre.exp{background:#f6f6ff;border-left:4px solid #6a6ac8}"
	"pre.diff{background:#fafafa;border-left:4px solid #999}"
	"pre.why{background:#fffbe6;border-left:4px solid #c9a400}"
	".cols{display:flex;gap:.6rem}.cols>div{flex:1;min-width:0}"
	".label{font-size:.8rem;color:#555;margin-top:.3rem}"
	"del{background:#ffd7d7;text-decoration:none;display:block}"
	"ins{background:#d4f7d4;text-decoration:none;display:block}"
	".status{font-weight:bold;padding:.05rem .4rem;border-radius:3px}"
	".PASS,.XFAIL{background:#d4f7d4}.FAIL,.XPASS{background:#ffd7d7}.SKIP{background:#eee}"
	".NOTRUN{background:#ffe9c7}p.interrupted{color:#8a4b00;font-weight:bold}"
	"figure.graph{margin:.8rem 0;padding:.4rem;border:1px solid #ddd;border-radius:6px;background:#fff;overflow-x:auto}"
	"figure.graph svg{max-width:100%;height:auto}"
	"figcaption{font-size:.85rem;color:#555}"
	"p.notrun{color:#8a4b00}"
	"table.summary{border-collapse:collapse}table.summary td,table.summary th{border:1px solid #ccc;padding:.2rem .5rem;text-align:left}"
	"section{border-top:2px solid #ccc;margin-top:1.5rem}";

void ns_html_text(struct ns_buf *out, const char *s)
{
	ns_xml_escape(out, s ? s : "", false);
}

void ns_html_begin(struct ns_buf *out, const char *title, const char *about)
{
	ns_buf_adds(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
	ns_html_text(out, title);
	ns_buf_addf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n<header>\n<h1>", style);
	ns_html_text(out, title);
	ns_buf_adds(out, "</h1>\n<p class=\"about\">");
	ns_html_text(out, about);
	ns_buf_adds(out, "</p>\n</header>\n<main>\n");
}

void ns_html_end(struct ns_buf *out)
{
	ns_buf_adds(out, "</main>\n</body>\n</html>\n");
}

static void pre(struct ns_buf *out, const char *cls, const char *text)
{
	ns_buf_addf(out, "<pre class=\"%s\">", cls);
	ns_html_text(out, text);
	ns_buf_adds(out, "</pre>\n");
}

/* The diff, "-" lines (expected) and "+" lines (this run) marked. */
static void diff(struct ns_buf *out, const char *d)
{
	const char *s = d ? d : "";

	ns_buf_adds(out, "<pre class=\"diff\">");
	while (*s) {
		size_t n = strcspn(s, "\n");
		char *line = xstrndup(s, n);
		const char *tag = *line == '-' && strncmp(line, "---", 3) ? "del" :
				  *line == '+' && strncmp(line, "+++", 3) ? "ins" : NULL;

		if (tag)
			ns_buf_addf(out, "<%s>", tag);
		ns_html_text(out, line);
		if (tag)
			ns_buf_addf(out, "</%s>", tag);
		else
			ns_buf_addc(out, '\n');
		free(line);
		s += n + (s[n] == '\n');
	}
	ns_buf_adds(out, "</pre>\n");
}

static void step_block(struct ns_buf *out, const struct ns_result *r, size_t i)
{
	const struct ns_scenario *sc = r->sc;
	const struct ns_step *st = &sc->steps[i];
	const struct ns_step_verdict *sv = &r->v->steps[i];
	const struct ns_obs *o = &r->run->obs[i];
	struct ns_buf exp = NS_BUF_INIT, b = NS_BUF_INIT;
	char *got;

	if (!sv->ran) {
		ns_buf_adds(out, "<p class=\"notrun\">not run</p>\n");
		return;
	}
	got = ns_judge_output(sc, st, o->out.err, o->out.output);
	if (sv->ok) {
		if (*got)
			pre(out, "out", got);
		free(got);
		return;
	}
	for (size_t k = 0; k < st->nexpect; k++)
		ns_buf_addf(&exp, "%s\n", st->expect[k].text);
	ns_buf_adds(out, "<div class=\"label\">");
	ns_html_text(out, sc->path);
	ns_buf_addf(out, ":%d: this run differs from the transcript", st->line);
	if (o->out.err) {
		ns_report_syscall(&b, &o->out);
		ns_buf_adds(out, " (");
		ns_html_text(out, ns_buf_str(&b));
		ns_buf_adds(out, ")");
	}
	ns_buf_adds(out, "</div>\n<div class=\"cols\"><div><div class=\"label\">this run</div>\n");
	pre(out, "bad", got);
	ns_buf_adds(out, "</div><div><div class=\"label\">expected</div>\n");
	pre(out, "exp", ns_buf_str(&exp));
	ns_buf_adds(out, "</div></div>\n<div class=\"label\">differences (- expected, + this run)</div>\n");
	diff(out, sv->diff);
	free(got);
	ns_buf_free(&exp);
	ns_buf_free(&b);
}

static void picture(struct ns_buf *out, const struct ns_scenario *sc, size_t i, const char *svg,
		    const char *id)
{
	const struct ns_step *st = &sc->steps[i];

	/* id: a link to the graph, "ID-step-N" */
	ns_buf_adds(out, "<figure class=\"graph\" id=\"");
	ns_xml_escape(out, id, true);
	ns_buf_addf(out, "-step-%zu\" data-step=\"%zu\">\n", i + 1, i + 1);
	ns_buf_adds(out, ns_svg_element(svg));
	ns_buf_addf(out, "<figcaption>The propagation graph after step %zu (line %d: ", i + 1, st->line);
	ns_html_text(out, st->terminal);
	ns_buf_addf(out, "%c ", st->prompt);
	ns_html_text(out, st->cmdline);
	ns_buf_adds(out, "): a box per mount namespace, a node per mount; colours are peer groups, dashed lines join peers, arrows go from a master to its slaves.</figcaption>\n</figure>\n");
}

void ns_html_scenario(struct ns_buf *out, const struct ns_result *r, char *const *pictures,
		      const struct ns_show_notes *notes, const char *id)
{
	const struct ns_scenario *sc = r->sc;
	bool in_p = false;

	ns_buf_adds(out, "<section id=\"");
	ns_xml_escape(out, id, true);
	ns_buf_adds(out, "\">\n<h2>");
	ns_html_text(out, sc->title ? sc->title : sc->name);
	ns_buf_addf(out, "</h2>\n<p><span class=\"status %s\">%s</span> ", ns_status_name(r->v->status),
		    ns_status_name(r->v->status));
	ns_html_text(out, sc->path);
	if (r->v->reason) {
		ns_buf_adds(out, ": ");
		ns_html_text(out, r->v->reason);
	}
	if (r->v->failed)
		ns_buf_addf(out, " (%zu of %zu steps differ from the transcript)", r->v->failed, r->v->n);
	ns_buf_adds(out, "</p>\n");
	for (size_t k = 0; r->run && k < sc->nraw; k++) {
		const struct ns_raw_line *l = &sc->raw[k];
		bool blank = l->kind == NS_LINE_PROSE && !l->text[strspn(l->text, " \t")];

		if (in_p && (l->kind != NS_LINE_PROSE || blank)) {
			ns_buf_adds(out, "</p>\n");
			in_p = false;
		}
		if (l->kind == NS_LINE_EXPECT || l->kind == NS_LINE_BLANK_SESSION || blank)
			continue;
		if (l->kind == NS_LINE_PROSE) {
			ns_buf_adds(out, in_p ? "\n" : "<p>");
			in_p = true;
			ns_html_text(out, l->text);
			continue;
		}
		if (l->kind == NS_LINE_DIRECTIVE) {
			pre(out, "dir", l->text);
			continue;
		}
		pre(out, "cmd", l->text + strspn(l->text, " \t"));
		if (l->step >= r->v->n)
			continue;
		step_block(out, r, l->step);
		if (notes && l->step < notes->n && notes->why && notes->why[l->step])
			pre(out, "why", notes->why[l->step]);
		if (pictures && pictures[l->step])
			picture(out, sc, l->step, pictures[l->step], id);
	}
	if (in_p)
		ns_buf_adds(out, "</p>\n");
	ns_buf_adds(out, "</section>\n");
}
