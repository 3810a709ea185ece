/* report_text.c - see report_text.h */
#include "report/report_text.h"

#include <errno.h>

#include <string.h>

static void add_indented(struct ns_buf *out, const char *text, const char *indent)
{
	const char *s = text;

	while (*s) {
		size_t n = strcspn(s, "\n");
		ns_buf_addf(out, "%s%.*s\n", indent, (int)n, s);
		s += n + (s[n] == '\n');
	}
}

void ns_report_failures(struct ns_buf *out, const struct ns_result *r)
{
	const struct ns_scenario *sc = r->sc;

	for (size_t i = 0; r->run && i < r->v->n; i++) {
		const struct ns_step *st = &sc->steps[i];
		const struct ns_step_out *o = &r->run->obs[i].out;
		const struct ns_step_verdict *sv = &r->v->steps[i];

		if (!sv->ran || sv->ok)
			continue;
		ns_buf_addf(out, "%s:%d: %s%c %s\n", sc->path, st->line, st->terminal,
			    st->prompt, st->cmdline);
		if (o->err) {
			ns_buf_adds(out, "    ");
			ns_report_syscall(out, o);
			ns_buf_addc(out, '\n');
		}
		add_indented(out, sv->diff ? sv->diff : "", "    ");
	}
}

char *ns_report_fail_summary(const struct ns_result *r)
{
	if (r->v->reason)
		return xstrdup(r->v->reason);
	return xasprintf("%zu step%s did not match", r->v->failed, r->v->failed == 1 ? "" : "s");
}

#define REPLACEMENT "\xEF\xBF\xBD" /* U+FFFD */

static bool xml_char(uint32_t c)
{
	if (c < 0x20)
		return c == '\t' || c == '\n' || c == '\r';
	return c != 0xFFFE && c != 0xFFFF;
}

void ns_xml_escape(struct ns_buf *out, const char *s, bool attr)
{
	while (*s) {
		uint32_t c;
		size_t n = ns_utf8_char(s, &c);

		if (!n || !xml_char(c)) {
			ns_buf_adds(out, REPLACEMENT);
			s += n ? n : 1;
			continue;
		}
		switch (c) {
		case '&': ns_buf_adds(out, "&amp;"); break;
		case '<': ns_buf_adds(out, "&lt;"); break;
		case '>': ns_buf_adds(out, "&gt;"); break;
		case '"': ns_buf_adds(out, "&quot;"); break;
		case '\'': ns_buf_adds(out, "&apos;"); break;
		/* A parser turns a raw CR into LF, and in an attribute value
		 * any raw white space into a blank: keep them as they were. */
		case '\r': ns_buf_adds(out, "&#13;"); break;
		case '\n': ns_buf_adds(out, attr ? "&#10;" : "\n"); break;
		case '\t': ns_buf_adds(out, attr ? "&#9;" : "\t"); break;
		default: ns_buf_add(out, s, n); break;
		}
		s += n;
	}
}

void ns_json_string(struct ns_buf *out, const char *s)
{
	static const char named[] = "btn\0fr"; /* \b \t \n, \f \r at 8..13 */

	if (!s) {
		ns_buf_adds(out, "null");
		return;
	}
	ns_buf_addc(out, '"');
	while (*s) {
		uint32_t c;
		size_t n = ns_utf8_char(s, &c);

		if (!n)
			ns_buf_adds(out, "\\ufffd");
		else if (c == '"' || c == '\\')
			ns_buf_addf(out, "\\%c", (char)c);
		else if (c >= 8 && c <= 13 && named[c - 8])
			ns_buf_addf(out, "\\%c", named[c - 8]);
		else if (c < 0x20 || c == 0x7F)
			ns_buf_addf(out, "\\u%04x", (unsigned)c);
		else
			ns_buf_add(out, s, n);
		s += n ? n : 1;
	}
	ns_buf_addc(out, '"');
}

void ns_report_syscall(struct ns_buf *out, const struct ns_step_out *o)
{
	ns_buf_addf(out, "system call failed: %s: %s", o->syscall, ns_errname(o->err));
	/* bubblewrap's lesson: say what usually causes it */
	if (o->err == ENOSPC && strstr(o->syscall, "mount"))
		ns_buf_adds(out, " (the mount table is full: see /proc/sys/fs/mount-max)");
}

void ns_report_header(struct ns_buf *out, const struct ns_report_ctx *c)
{
	ns_buf_adds(out, "nstest");
	if (c->version)
		ns_buf_addf(out, " %s", c->version);
	ns_buf_addf(out, ": %s backend, ", c->backend ? c->backend : "kernel");
	/* a backend that is no kernel follows the documents, unless it
	 * imitates the running kernel (the model's --quirks=kernel) */
	if (c->kernel)
		ns_buf_addf(out, "Linux %s", c->kernel);
	else
		ns_buf_adds(out, "documented rules");
	ns_buf_addf(out, ", %s stand-ins%s", c->devices ? c->devices : "tmpfs",
		    c->rootless ? ", rootless" : "");
	if (c->shard)
		ns_buf_addf(out, ", shard %s", c->shard);
}

void ns_report_interrupted(struct ns_buf *out, const struct ns_report_ctx *c)
{
	if (!c->nnot_run)
		ns_buf_addf(out, "interrupted by %s after every scenario ran", c->interrupted);
	else
		ns_buf_addf(out, "interrupted by %s: %zu of %zu scenario%s did not run", c->interrupted,
			    c->nnot_run, c->total, c->total == 1 ? "" : "s");
}

const char *ns_report_not_run_why(const struct ns_not_run *nr)
{
	return nr->running ? "stopped while running" : "not started";
}

const char *ns_report_devices_note(const struct ns_report_ctx *c,
				   const struct ns_result *r)
{
	const struct ns_scenario *sc = r->sc;

	if (!r->run || !r->devices || !c->devices || !strcmp(r->devices, c->devices))
		return NULL;
	if (sc->devices != NS_DEVICES_DEFAULT)
		return !strcmp(r->devices, "loop") ? "loop stand-ins, as its devices: line says"
						   : "tmpfs stand-ins, as its devices: line says";
	if (sc->requires & NS_REQ_LOOP)
		return "loop stand-ins, as its requires: line says";
	/* ns_require_mode's fallbacks */
	if (sc->ro_mixed)
		return "fell back to loop stand-ins: it mounts a device name read-only and "
		       "read-write, which only a real device's superblock judges";
	return "fell back to loop stand-ins: it mounts a device name twice, "
	       "which tmpfs stand-ins allow from Linux 6.15 only";
}
