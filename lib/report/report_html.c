/* report_html.c - the run report as one self-contained HTML page (html.h):
 * a summary table of every scenario, then each failing one as `show
 * --html` draws it, with its propagation graphs when the harness can
 * draw them (struct ns_report_ctx.pictures). A run a signal stopped
 * says so under the tally, and lists each scenario without a result as
 * NOT RUN. CI systems keep it as an artifact. */
#include "report/reporter.h"

#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "report/picture.h"
#include "report/report_text.h"

static void html_begin(struct ns_report_ctx *c)
{
	c->state.html = (struct ns_html_state){ NS_BUF_INIT, NS_BUF_INIT };
}

static bool failing(const struct ns_result *r)
{
	return r->v->status == NS_FAIL || r->v->status == NS_XPASS;
}

/* A failing scenario's section. Its graphs come from a second run (the
 * harness's drawing): on the kernel that run numbers mounts and peer
 * groups its own way, so the section prints that run's output, judged
 * alike, beside them, when it ended as the first did; otherwise the
 * first run's output, without graphs, saying why. */
static void section(struct ns_report_ctx *c, const struct ns_result *r, const char *id)
{
	struct ns_html_state *h = &c->state.html;
	struct ns_drawing *d = c->pictures ? c->pictures(c->pictures_arg, r->sc) : NULL;
	struct ns_verdict v;
	struct ns_result again;

	if (!d || !d->run.n) {
		ns_html_scenario(&h->sections, r, NULL, NULL, id);
	} else {
		ns_judge(r->sc, &d->run, c->kernel, &v);
		again = (struct ns_result){ r->sc, &d->run, &v, d->seconds, d->devices };
		if (v.status == r->v->status && v.failed == r->v->failed) {
			ns_html_scenario(&h->sections, &again, d->pics, NULL, id);
			ns_buf_adds(&h->sections, "<p class=\"label\">This section's output and graphs come from a second run of the scenario, which read every mount table to draw them and failed as the first did; the table above is the first run's.</p>\n");
		} else {
			ns_html_scenario(&h->sections, r, NULL, NULL, id);
			ns_buf_addf(&h->sections, "<p class=\"notrun\">No graphs: the second run, which reads the mount tables to draw them, ended %s, not as this run; its numbers would not be this output's.</p>\n",
				    ns_status_name(v.status));
		}
		ns_verdict_free(&v);
	}
	if (d) {
		ns_drawing_free(d);
		free(d);
	}
}

static void html_scenario(struct ns_report_ctx *c, size_t index, const struct ns_result *r)
{
	struct ns_html_state *h = &c->state.html;
	const char *st = ns_status_name(r->v->status);
	char *id = xasprintf("s%zu", index + 1);

	ns_buf_addf(&h->rows, "<tr><td><span class=\"status %s\">%s</span></td><td>", st, st);
	if (failing(r) && r->run) {
		ns_buf_addf(&h->rows, "<a href=\"#%s\">", id);
		ns_html_text(&h->rows, r->sc->path);
		ns_buf_adds(&h->rows, "</a>");
	} else {
		ns_html_text(&h->rows, r->sc->path);
	}
	ns_buf_addf(&h->rows, "</td><td>%.2f s</td><td>", r->seconds);
	if (failing(r)) {
		char *why = ns_report_fail_summary(r);
		ns_html_text(&h->rows, why);
		free(why);
	} else if (r->v->reason) {
		ns_html_text(&h->rows, r->v->reason);
	}
	ns_buf_adds(&h->rows, "</td></tr>\n");
	if (failing(r) && r->run)
		section(c, r, id);
	free(id);
}

static void html_end(struct ns_report_ctx *c, const struct ns_tally *t)
{
	struct ns_html_state *h = &c->state.html;
	struct ns_buf page = NS_BUF_INIT, about = NS_BUF_INIT;

	ns_report_header(&about, c);
	if (c->hostname)
		ns_buf_addf(&about, ", on %s", c->hostname);
	ns_html_begin(&page, "nstest run report", ns_buf_str(&about));
	ns_buf_addf(&page, "<p class=\"tally\">%u passed, %u failed, %u skipped", t->passed, t->failed,
		    t->skipped);
	if (t->xfailed || t->xpassed)
		ns_buf_addf(&page, ", %u xfailed, %u xpassed", t->xfailed, t->xpassed);
	ns_buf_adds(&page, "</p>\n");
	if (c->interrupted) {
		struct ns_buf why = NS_BUF_INIT;

		ns_report_interrupted(&why, c);
		ns_buf_adds(&page, "<p class=\"interrupted\">");
		ns_html_text(&page, ns_buf_str(&why));
		ns_buf_adds(&page, "</p>\n");
		ns_buf_free(&why);
	}
	ns_buf_adds(&page, "<table class=\"summary\">\n<tr><th>result</th><th>scenario</th><th>time</th><th>why</th></tr>\n");
	ns_buf_add(&page, ns_buf_str(&h->rows), h->rows.len);
	/* a run a signal stopped: the scenarios without a result */
	for (size_t i = 0; c->interrupted && i < c->nnot_run; i++) {
		ns_buf_adds(&page, "<tr><td><span class=\"status NOTRUN\">NOT RUN</span></td><td>");
		ns_html_text(&page, c->not_run[i].sc->path);
		ns_buf_addf(&page, "</td><td></td><td>%s</td></tr>\n",
			    ns_report_not_run_why(&c->not_run[i]));
	}
	ns_buf_adds(&page, "</table>\n");
	ns_buf_add(&page, ns_buf_str(&h->sections), h->sections.len);
	ns_html_end(&page);
	fwrite(ns_buf_str(&page), 1, page.len, c->out);
	fflush(c->out);
	ns_buf_free(&page);
	ns_buf_free(&about);
	ns_buf_free(&h->rows);
	ns_buf_free(&h->sections);
}

const struct ns_reporter ns_reporter_html = {
	.name = "html",
	.begin = html_begin,
	.started = NULL,
	.scenario = html_scenario,
	.end = html_end,
};
