/* filter_wc.c - wc [-l] [-w] [-c] [FILE] over the whole text: its lines,
 * words and bytes, printed as GNU wc (coreutils 9.1) prints them for
 * standard input, or for the one FILE it names. */
#include "commands/filter_impl.h"

#include <stdlib.h>
#include <string.h>

#include "commands/args.h"

enum { WC_L = 1, WC_W = 2, WC_C = 4 };
#define WC_OPTIONS "lwc"

struct wc_prog {
	unsigned what;           /* WC_* */
	char *file;              /* the FILE operand, or NULL */
};

static int wc_compile(void *prog, size_t argc, char *const *argv, size_t *file,
		      struct ns_parse_err *e)
{
	struct wc_prog *w = prog;
	struct ns_filter_words ws;

	if (ns_filter_split_words(argc, argv, WC_OPTIONS, &ws, e) < 0 ||
	    ns_filter_want_operands(&ws, 0, argv, "", file, e) < 0)
		return -1;
	w->what = ws.flags ? ws.flags : WC_L | WC_W | WC_C;
	w->file = *file ? xstrdup(argv[*file]) : NULL;
	return 0;
}

static bool wc_space(char c)
{
	return c && strchr(" \t\n\v\f\r", c);
}

static int digits(size_t n)
{
	int d = 1;

	for (; n >= 10; n /= 10)
		d++;
	return d;
}

static void wc_release(void *prog)
{
	free(((struct wc_prog *)prog)->file);
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
	/* GNU wc pads several counts to one width (compute_number_width()):
	 * 7 for standard input, which is no regular file; for a regular
	 * FILE the digits of its size, which is the byte count, or 1 for
	 * the files of /proc, whose size is 0. One count is not padded. */
	int width = !several ? 1 : !w->file ? 7 : ns_cat_mounts_file(w->file) != NS_CAT_FILE ? 1
		  : digits(len);

	for (unsigned i = 0; i < 3; i++) {
		if (!(w->what & (1u << i)))
			continue;
		ns_buf_addf(out, "%s%*zu", sep, width, count[i]);
		sep = " ";
	}
	if (w->file)
		ns_buf_addf(out, " %s", w->file);
	ns_buf_addc(out, '\n');
}

static bool wc_plain(const void *prog, struct ns_filter_plain *out)
{
	const struct wc_prog *w = prog;

	out->form = NS_FF_WC;
	out->what = w->what;
	return !w->file;
}

const struct ns_filter_ops ns_filter_wc = {
	.name = "wc",
	.size = sizeof(struct wc_prog),
	.compile = wc_compile,
	.run = wc_run,
	.release = wc_release,
	.plain = wc_plain,
};
