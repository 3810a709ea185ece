/* filter_wc.c - wc [-l] [-w] [-c] over the whole text: its lines, words
 * and bytes, printed as GNU wc prints them for standard input. */
#include "commands/filter_impl.h"

#include <string.h>

enum { WC_L = 1, WC_W = 2, WC_C = 4 };
#define WC_OPTIONS "lwc"

struct wc_prog {
	unsigned what;           /* WC_* */
};

static int wc_compile(void *prog, size_t argc, char *const *argv,
		      struct ns_parse_err *e)
{
	struct wc_prog *w = prog;
	struct ns_filter_words ws;

	if (ns_filter_split_words(argc, argv, WC_OPTIONS, &ws, e) < 0 ||
	    ns_filter_want_operands(&ws, 0, argv, "", e) < 0)
		return -1;
	w->what = ws.flags ? ws.flags : WC_L | WC_W | WC_C;
	return 0;
}

static bool wc_space(char c)
{
	return c && strchr(" \t\n\v\f\r", c);
}

static void wc_run(const void *prog, const char *in, size_t len,
		   struct ns_buf *out)
{
	const struct wc_prog *w = prog;
	size_t count[3] = { 0, 0, len };
	bool in_word = false, several = (w->what & (w->what - 1)) != 0;
	const char *sep = "";

	for (size_t i = 0; i < len; i++) {
		count[0] += in[i] == '\n';
		if (wc_space(in[i])) {
			in_word = false;
		} else if (!in_word) {
			in_word = true;
			count[1]++;
		}
	}
	/* GNU wc pads each of several counts of standard input to 7. */
	for (unsigned i = 0; i < 3; i++) {
		if (!(w->what & (1u << i)))
			continue;
		ns_buf_addf(out, several ? "%s%7zu" : "%s%zu", sep, count[i]);
		sep = " ";
	}
	ns_buf_addc(out, '\n');
}

const struct ns_filter_ops ns_filter_wc = {
	.name = "wc",
	.size = sizeof(struct wc_prog),
	.compile = wc_compile,
	.run = wc_run,
	.release = NULL,
};
