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
	"figure.graph svg{font-family:Helvetica,Arial,sans-serif;font-size:10px;text-anchor:middle}"
	"div.legend{font-size:.85rem;border:1px solid #ddd;border-radius:6px;padding:.3rem .6rem;margin:.6rem 0}"
	"div.legend ul{margin:.2rem 0;padding-left:1rem;columns:2}div.legend li{list-style:none;margin:.1rem 0;display:flex;align-items:baseline;break-inside:avoid}"
	"span.k{flex:0 0 8rem;text-align:center;font-family:monospace;margin-right:.5rem;padding:0 .2rem}"
	"details.unfolded{margin:.4rem 0}table.mounts{border-collapse:collapse;font-size:.85rem}"
	"table.mounts td,table.mounts th{border:1px solid #ddd;padding:.1rem .4rem;text-align:left}"
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

/* What the pictures' lines, colours and outlines mean: once a section,
 * above its first picture (a picture drawn alone, `nstest graph`, has
 * its own legend). */
static const char legend[] =
	"<div class=\"legend\"><b>How to read the graphs</b><ul>"
	"<li><span class=\"k\">&#8212;&#9654;</span> grey arrow: the mount tree, parent to child mount</li>"
	"<li><span class=\"k\" style=\"color:#2f5fb3\">- - -</span> dashed coloured line: peers, one peer group (the same shared:N)</li>"
	"<li><span class=\"k\" style=\"color:#2f5fb3\">&#8212;&#9654;</span> coloured arrow: from a master peer group to its slave</li>"
	"<li><span class=\"k\" style=\"background:#cfe2ff\">shared</span> filled: a colour per peer group</li>"
	"<li><span class=\"k\" style=\"border:1px dashed #2f5fb3\">slave</span> white with a dashed outline in its master's colour</li>"
	"<li><span class=\"k\" style=\"background:#f4f4f4\">private</span> light grey</li>"
	"<li><span class=\"k\" style=\"background:#d9d9d9\">unbindable</span> darker grey, corners hatched</li>"
	"<li><span class=\"k\" style=\"border:2px solid #d62728\">new</span> red outline: new since the step before</li>"
	"<li><span class=\"k\" style=\"border:2px solid #ff8c00\">changed</span> orange outline: changed since the step before (it says what it was)</li>"
	"<li><span class=\"k\" style=\"border:1px dashed #d62728\">gone</span> red dashed box: gone since the step before</li>"
	"<li><span class=\"k\">/dev/sda1[/dir1]</span> the source, and the directory of it a bind mount shows (mountinfo's root), as findmnt writes it</li>"
	"<li><span class=\"k\" style=\"background:#eeeeee\">&#8230;&#215;N</span> a stacked box in a big graph: N copies of a subtree drawn once, or a namespace with the same mounts as another; the list under the graph unfolds them</li>"
	"</ul></div>\n";

static void picture(struct ns_buf *out, const struct ns_scenario *sc, size_t i,
		    char *const *pictures, const char *id)
{
	const struct ns_step *st = &sc->steps[i];
	size_t same = 0;
	char *prefix;

	/* a graph drawn already above: a link to it, not a second copy */
	while (same < i && (!pictures[same] || strcmp(pictures[same], pictures[i])))
		same++;
	/* id: a link to the graph, "ID-step-N" */
	ns_buf_adds(out, "<figure class=\"graph\" id=\"");
	ns_xml_escape(out, id, true);
	ns_buf_addf(out, "-step-%zu\" data-step=\"%zu\">\n", i + 1, i + 1);
	if (same < i) {
		ns_buf_addf(out, "<p class=\"same\">The same graph as <a href=\"#");
		ns_xml_escape(out, id, true);
		ns_buf_addf(out, "-step-%zu\">after step %zu</a>.</p>\n", same + 1, same + 1);
	} else {
		prefix = xasprintf("%s-g%zu", id, i + 1);
		ns_svg_inline(out, pictures[i], prefix);
		free(prefix);
	}
	ns_buf_addf(out, "<figcaption>The propagation graph after step %zu (line %d: ", i + 1, st->line);
	ns_html_text(out, st->terminal);
	ns_buf_addf(out, "%c ", st->prompt);
	ns_html_text(out, st->cmdline);
	ns_buf_adds(out, "), drawn from the same run as the output on this page: the same mount IDs and peer groups. A box per mount namespace, a node per mount; the legend says what lines, colours and outlines mean.</figcaption>\n</figure>\n");
}

void ns_html_scenario(struct ns_buf *out, const struct ns_result *r, char *const *pictures,
		      const struct ns_show_notes *notes, const char *id)
{
	const struct ns_scenario *sc = r->sc;
	bool in_p = false, legend_done = false;

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
		if (pictures && pictures[l->step]) {
			if (!legend_done)
				ns_buf_adds(out, legend);
			legend_done = true;
			picture(out, sc, l->step, pictures, id);
		}
	}
	if (in_p)
		ns_buf_adds(out, "</p>\n");
	ns_buf_adds(out, "</section>\n");
}
