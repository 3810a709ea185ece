/* test_report.c - the report formats on output no scenario file can hold:
 * control characters and bytes that are not UTF-8, as a command may
 * print them, must still give well-formed XML and JSON. */
#include <string.h>

#include "report/report_text.h"
#include "report/reporter.h"
#include "tap.h"

static const char *json(const char *s)
{
	static struct ns_buf b;

	ns_buf_reset(&b);
	ns_json_string(&b, s);
	return ns_buf_str(&b);
}

static const char *xml(const char *s, bool attr)
{
	static struct ns_buf b;

	ns_buf_reset(&b);
	ns_xml_escape(&b, s, attr);
	return ns_buf_str(&b);
}

TEST(utf8)
{
	uint32_t cp = 0;

	ok(ns_utf8_char("A", &cp) == 1 && cp == 'A', "ASCII");
	ok(ns_utf8_char("\xC3\xA9", &cp) == 2 && cp == 0xE9, "two bytes");
	ok(ns_utf8_char("\xE2\x82\xAC", &cp) == 3 && cp == 0x20AC, "three bytes");
	ok(ns_utf8_char("\xF0\x9F\x98\x80", &cp) == 4 && cp == 0x1F600, "four bytes");
	ok(ns_utf8_char("\x80", &cp) == 0, "a stray continuation byte");
	ok(ns_utf8_char("\xC0\xAF", &cp) == 0, "an overlong '/'");
	ok(ns_utf8_char("\xE0\x80\xAF", &cp) == 0, "an overlong three-byte form");
	ok(ns_utf8_char("\xED\xA0\x80", &cp) == 0, "a surrogate");
	ok(ns_utf8_char("\xF4\x90\x80\x80", &cp) == 0, "beyond U+10FFFF");
	ok(ns_utf8_char("\xE2\x82", &cp) == 0, "cut short by the end of the string");
	ok(ns_utf8_char("\xFF", &cp) == 0, "0xFF never starts a character");
}

TEST(json)
{
	is_str(json(NULL), "null", "NULL is null");
	is_str(json(""), "\"\"", "empty string");
	is_str(json("a\"b\\c/d"), "\"a\\\"b\\\\c/d\"", "quote and backslash escaped");
	is_str(json("\b\t\n\f\r"), "\"\\b\\t\\n\\f\\r\"", "short escapes");
	is_str(json("\x01\x0b\x1f\x7f"), "\"\\u0001\\u000b\\u001f\\u007f\"", "other control characters as \\u00XX");
	is_str(json("caf\xC3\xA9 \xE2\x82\xAC"), "\"caf\xC3\xA9 \xE2\x82\xAC\"", "UTF-8 passes through");
	is_str(json("a\xFF" "b\xC3"), "\"a\\ufffdb\\ufffd\"", "bytes that are not UTF-8 become U+FFFD");
	is_str(json("\xED\xA0\x80"), "\"\\ufffd\\ufffd\\ufffd\"", "a surrogate is three bad bytes");
}

TEST(xml)
{
	is_str(xml("<a href=\"x\">'&'</a>", false),
	       "&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;", "markup escaped");
	is_str(xml("]]>", false), "]]&gt;", "']]>' cannot end a section");
	is_str(xml("a\tb\nc\rd", false), "a\tb\nc&#13;d", "text keeps tab and newline; CR as a reference");
	is_str(xml("a\tb\nc\rd", true), "a&#9;b&#10;c&#13;d", "attributes keep white space as references");
	is_str(xml("x\x01y\x1b[0m\x7f", false), "x\xEF\xBF\xBDy\xEF\xBF\xBD[0m\x7f",
	       "C0 controls, which XML 1.0 forbids, become U+FFFD");
	is_str(xml("\xEF\xBF\xBE\xEF\xBF\xBF", false), "\xEF\xBF\xBD\xEF\xBF\xBD", "U+FFFE and U+FFFF too");
	is_str(xml("\xFF\xC3\xA9", false), "\xEF\xBF\xBD\xC3\xA9", "bad bytes too; UTF-8 stays");
}

/* One failing step whose output holds what no scenario file can. */
struct fixture {
	struct ns_scenario *sc;
	struct ns_run run;
	struct ns_verdict v;
	struct ns_result r;
};

static int fixture_init(struct fixture *f)
{
	static const char text[] = "    sh1# ls /a\n    a<b> & \"quoted\"\n";
	struct ns_diag d = { NULL, 0 };

	memset(f, 0, sizeof(*f));
	f->sc = ns_scenario_parse("dir.x/t#1.scn", text, strlen(text), &d);
	if (!f->sc) {
		printf("# %s\n", d.msg);
		ns_diag_free(&d);
		return -1;
	}
	f->run.n = 1;
	f->run.obs = xcalloc(1, sizeof(*f->run.obs));
	f->run.obs[0].ran = true;
	f->run.obs[0].out.output = xstrdup("bell\x07 bad\xFF\n");
	ns_judge(f->sc, &f->run, NULL, &f->v);
	f->r = (struct ns_result){ f->sc, &f->run, &f->v, 0.25, "tmpfs" };
	return 0;
}

static void fixture_free(struct fixture *f)
{
	ns_verdict_free(&f->v);
	ns_run_free(&f->run);
	ns_scenario_free(f->sc);
}

/* The whole report of f in format name. */
/* The report of f alone, as shard (run --shard, "K/N") or a whole run
 * (NULL). */
static char *render_shard(const char *name, const struct fixture *f, const char *shard)
{
	const struct ns_reporter *rep = ns_reporter_find(name);
	struct ns_tally t = { 0 };
	struct ns_report_ctx c = { .total = 1, .kernel = "6.1.0-<rc>", .devices = "tmpfs",
				   .backend = "kernel", .hostname = "h&h", .version = "0.1.0",
				   .shard = shard };
	char *text = NULL;
	size_t len = 0;

	c.out = open_memstream(&text, &len);
	if (rep->begin)
		rep->begin(&c);
	rep->scenario(&c, 0, &f->r);
	ns_tally_add(&t, f->v.status);
	rep->end(&c, &t);
	fclose(c.out);
	return text;
}

static char *render(const char *name, const struct fixture *f)
{
	return render_shard(name, f, NULL);
}

/* s with the values of JUnit's time="" and timestamp="" emptied: they
 * differ from one rendering to the next. */
static char *without_times(const char *s)
{
	char *out = xstrdup(s), *w = out;

	while (*s) {
		bool timed = !strncmp(s, " time=\"", 7) || !strncmp(s, " timestamp=\"", 12);
		const char *quote = timed ? strchr(s, '"') : NULL;

		if (!quote) {
			*w++ = *s++;
			continue;
		}
		memcpy(w, s, (size_t)(quote + 1 - s));
		w += quote + 1 - s;
		s = strchrnul(quote + 1, '"');
	}
	*w = '\0';
	return out;
}

/* The calls of a one-scenario run, in order: begin, started, scenario,
 * end. */
static void report_call(const struct ns_reporter *rep, struct ns_report_ctx *c, int call,
			const struct fixture *f)
{
	struct ns_tally t = { 0 };

	switch (call) {
	case 0:
		rep->begin(c);
		break;
	case 1:
		if (rep->started)
			rep->started(c, 0, f->sc);
		break;
	case 2:
		rep->scenario(c, 0, &f->r);
		break;
	case 3:
		ns_tally_add(&t, f->v.status);
		rep->end(c, &t);
		break;
	}
}

static void report_open(struct ns_report_ctx *c, char **text, size_t *len)
{
	*c = (struct ns_report_ctx){ .total = 1, .progress = true, .kernel = "6.1.0-<rc>",
				     .devices = "tmpfs", .backend = "kernel", .hostname = "h&h",
				     .version = "0.1.0" };
	*text = NULL;
	c->out = open_memstream(text, len);
}

/* Two reports of one format written at once, as two runs in one process
 * would, the second begun before the first ends: each keeps its own
 * counts, cases and progress line in its context, so each reads as it
 * does alone. */
static void test_two_at_once(const char *name, const struct fixture *f)
{
	static const int order[][2] = { { 0, 0 }, { 0, 1 }, { 0, 2 }, { 1, 0 },
					 { 1, 1 }, { 0, 3 }, { 1, 2 }, { 1, 3 } };
	const struct ns_reporter *rep = ns_reporter_find(name);
	struct ns_report_ctx c[2], one;
	char *text[2], *alone, *want;
	size_t len[2], n;

	report_open(&one, &alone, &n);
	for (int call = 0; call < 4; call++)
		report_call(rep, &one, call, f);
	fclose(one.out);
	want = without_times(alone);
	for (int k = 0; k < 2; k++)
		report_open(&c[k], &text[k], &len[k]);
	for (size_t i = 0; i < NS_ARRAY_SIZE(order); i++)
		report_call(rep, &c[order[i][0]], order[i][1], f);
	for (int k = 0; k < 2; k++) {
		char *got;

		fclose(c[k].out);
		got = without_times(text[k]);
		is_str(got, want, "%s: report %d of two at once reads as it does alone", name, k + 1);
		free(got);
		free(text[k]);
	}
	free(want);
	free(alone);
}

/* f's result, then f's scenario again as one a signal left without a
 * result (running: stopped while it ran), in format name. */
static char *render_interrupted(const char *name, const struct fixture *f, bool running)
{
	const struct ns_reporter *rep = ns_reporter_find(name);
	struct ns_not_run nr = { f->sc, running };
	struct ns_tally t = { 0 };
	struct ns_report_ctx c = { .total = 2, .kernel = "6.1.0", .devices = "tmpfs",
				   .backend = "kernel", .hostname = "h", .version = "0.1.0" };
	char *text = NULL;
	size_t len = 0;

	c.out = open_memstream(&text, &len);
	if (rep->begin)
		rep->begin(&c);
	rep->scenario(&c, 0, &f->r);
	ns_tally_add(&t, f->v.status);
	c.interrupted = "SIGTERM";
	c.not_run = &nr;
	c.nnot_run = 1;
	rep->end(&c, &t);
	fclose(c.out);
	return text;
}

TEST(interrupted)
{
	struct fixture f;
	char *s;

	if (fixture_init(&f) < 0) {
		ok(0, "fixture scenario parses");
		return;
	}
	s = render_interrupted("json", &f, true);
	ok(strstr(s, "\"xpassed\":0},\"interrupted\":{\"signal\":\"SIGTERM\",\"not_run\":[\n"
		  "{\"path\":\"dir.x/t#1.scn\",\"name\":\"t#1\",\"running\":true}]}}\n") != NULL,
	   "json: the signal and what did not run, after the summary");
	free(s);
	s = render("json", &f);
	ok(strstr(s, "\"xpassed\":0},\"interrupted\":null}\n") != NULL, "json: interrupted is null otherwise");
	free(s);

	s = render_interrupted("junit", &f, true);
	ok(strstr(s, "tests=\"2\" failures=\"1\" errors=\"1\" skipped=\"0\"") != NULL,
	   "junit: a scenario stopped while running is an error");
	ok(strstr(s, "<property name=\"interrupted\" value=\"SIGTERM\"/>") != NULL,
	   "junit: the signal as a property");
	ok(strstr(s, "<error message=\"stopped while running: the run was interrupted by SIGTERM\" type=\"interrupted\"/>") != NULL,
	   "junit: its error names the signal");
	free(s);
	s = render_interrupted("junit", &f, false);
	ok(strstr(s, "tests=\"2\" failures=\"1\" errors=\"0\" skipped=\"1\"") != NULL,
	   "junit: a scenario never started is skipped");
	ok(strstr(s, "<skipped message=\"not started: the run was interrupted by SIGTERM\"/>") != NULL,
	   "junit: its message names the signal");
	free(s);

	s = render_interrupted("tap", &f, true);
	ok(strstr(s, "\nnot ok 1 - dir.x/t\\#1.scn\n# 0 passed, 1 failed, 0 skipped\n"
		  "# not run: dir.x/t#1.scn (stopped while running)\n"
		  "Bail out! interrupted by SIGTERM: 1 of 2 scenarios did not run\n") != NULL,
	   "tap: what did not run, then Bail out! naming the signal");
	free(s);

	s = render_interrupted("human", &f, false);
	ok(strstr(s, "\ninterrupted by SIGTERM: 1 of 2 scenarios did not run:\n"
		  "  dir.x/t#1.scn (not started)\n0 passed, 1 failed, 0 skipped\n") != NULL,
	   "human: what did not run, before the tally");
	free(s);

	s = render_interrupted("html", &f, true);
	ok(strstr(s, "<p class=\"interrupted\">interrupted by SIGTERM: 1 of 2 scenarios did not run</p>") != NULL,
	   "html: the interruption under the tally");
	ok(strstr(s, "NOT RUN</span></td><td>dir.x/t#1.scn</td><td></td><td>stopped while running</td>") != NULL,
	   "html: a row for what did not run");
	free(s);
	fixture_free(&f);
}

TEST(reports)
{
	struct fixture f;
	char *s;

	if (fixture_init(&f) < 0) {
		ok(0, "fixture scenario parses");
		return;
	}
	ok(f.v.status == NS_FAIL, "the fixture fails");

	s = render("json", &f);
	ok(strstr(s, "\"output\":\"bell\\u0007 bad\\ufffd\\n\"") != NULL, "json: output escaped");
	ok(strstr(s, "\"command\":\"ls /a\",\"ran\"") != NULL, "json: the command as typed");
	ok(strstr(s, "\"path\":\"dir.x/t#1.scn\",\"name\":\"t#1\",\"status\":\"fail\",\"reason\":null,\"seconds\":0.250") != NULL,
	   "json: path, name, status");
	ok(strstr(s, "\"summary\":{\"passed\":0,\"failed\":1,") != NULL, "json: summary");
	ok(strstr(s, "\"devices\":\"tmpfs\",\"backend\":\"kernel\",\"rootless\":false,\"shard\":null,\"scenarios\":[") != NULL,
	   "json: the backend at the top, and no shard");
	free(s);

	s = render("junit", &f);
	ok(strstr(s, "+bell\xEF\xBF\xBD bad\xEF\xBF\xBD\n") != NULL, "junit: control and bad bytes replaced");
	ok(strstr(s, "-a&lt;b&gt; &amp; &quot;quoted&quot;\n") != NULL, "junit: expected line escaped");
	ok(strstr(s, "dir.x/t#1.scn:1: sh1# ls /a\n") != NULL, "junit: failing step named");
	ok(strstr(s, "classname=\"nstest.dir_x\" name=\"t#1\"") != NULL, "junit: class from the folder");
	ok(strstr(s, "hostname=\"h&amp;h\"") != NULL, "junit: hostname escaped");
	ok(strstr(s, "value=\"6.1.0-&lt;rc&gt;\"") != NULL, "junit: kernel property escaped");
	ok(strstr(s, "<property name=\"backend\" value=\"kernel\"/>") != NULL, "junit: backend property");
	free(s);

	s = render("tap", &f);
	ok(strstr(s, "\nnot ok 1 - dir.x/t\\#1.scn\n") != NULL, "tap: '#' in a description escaped");
	ok(strstr(s, "\n#     +bell\x07 bad\xFF\n") != NULL, "tap: diagnostics as '#' lines");
	ok(strstr(s, "\n1..1\n# nstest 0.1.0: kernel backend, Linux 6.1.0-<rc>, tmpfs stand-ins\n") != NULL,
	   "tap: what ran, as a comment after the plan");
	free(s);

	s = render("human", &f);
	ok(!strncmp(s, "nstest 0.1.0: kernel backend, Linux 6.1.0-<rc>, tmpfs stand-ins\n", 64),
	   "human: the head line names backend, kernel and stand-ins");
	free(s);

	/* run --shard 2/3: every format says which shard it was */
	s = render_shard("json", &f, "2/3");
	ok(strstr(s, "\"rootless\":false,\"shard\":\"2/3\",\"scenarios\":[") != NULL,
	   "json: the shard at the top");
	free(s);
	s = render_shard("junit", &f, "2/3");
	ok(strstr(s, "<property name=\"shard\" value=\"2/3\"/>\n    </properties>") != NULL,
	   "junit: the shard, the last property");
	free(s);
	s = render("junit", &f);
	ok(strstr(s, "name=\"shard\"") == NULL, "junit: no shard property for a whole run");
	free(s);
	s = render_shard("tap", &f, "2/3");
	ok(strstr(s, "\n1..1\n# nstest 0.1.0: kernel backend, Linux 6.1.0-<rc>, tmpfs stand-ins, shard 2/3\n") != NULL,
	   "tap: the shard in the comment after the plan");
	free(s);
	s = render_shard("human", &f, "2/3");
	ok(!strncmp(s, "nstest 0.1.0: kernel backend, Linux 6.1.0-<rc>, tmpfs stand-ins, shard 2/3\n", 75),
	   "human: the shard in the head line");
	free(s);

	test_two_at_once("human", &f);
	test_two_at_once("json", &f);
	test_two_at_once("junit", &f);
	test_two_at_once("tap", &f);
	fixture_free(&f);
}
