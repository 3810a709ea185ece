/* fuzz/fuzz_matcher.c - libFuzzer target: mountinfo lines and the matcher.
 *
 * Input: one flag byte, then blocks separated by NUL bytes, taken in
 * pairs as the expected and the actual output of up to 8 steps matched
 * one after another by one matcher (so the renaming carries across
 * steps, as in a scenario). Bit i of the flag byte marks step i's block
 * unordered. Every line of every block also goes through ns_mi_parse,
 * and every actual line through ns_matcher_rename; every actual block
 * through the canonical form (match/canonical.h), read as mountinfo, as
 * a findmnt tree with its TARGET column last (the sibling sort of
 * match_tree.c) and as a JSON tree. The comparison budget is kept small
 * so that a slow input shows as a give-up, not a timeout. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "match/canonical.h"
#include "match/match.h"
#include "mounts/mountinfo_line.h"
#include "base/util.h"

#define MAX_STEPS 8
#define MAX_LINES 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Cut text (modified in place) into lines, as expected lines. */
static size_t cut_lines(char *text, struct ns_expect *exp, size_t max)
{
	size_t n = 0;

	if (!*text)
		return 0;
	for (char *s = text; s && n < max; ) {
		char *nl = strchr(s, '\n');
		if (nl)
			*nl = '\0';
		exp[n].text = s;
		exp[n].line = (int)n + 1;
		n++;
		s = nl ? nl + 1 : NULL;
	}
	return n;
}

static void parse_lines(const struct ns_expect *exp, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct ns_mi_line l;
		if (ns_mi_parse(exp[i].text, &l))
			ns_mi_free(&l);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ns_expect exp[MAX_LINES], act[MAX_LINES];
	char *blocks[2 * MAX_STEPS];
	size_t nblocks = 0, pos = 1;
	struct ns_matcher *m;
	unsigned flags;

	if (size < 1)
		return 0;
	flags = data[0];
	/* the blocks: each NUL-separated piece, copied on its own */
	while (pos <= size && nblocks < 2 * MAX_STEPS) {
		const uint8_t *nul = pos < size ? memchr(data + pos, 0, size - pos) : NULL;
		size_t end = nul ? (size_t)(nul - data) : size;
		blocks[nblocks++] = xstrndup((const char *)data + pos, end - pos);
		pos = end + 1;
		if (!nul)
			break;
	}

	m = ns_matcher_new();
	ns_matcher_set_budget(m, 20000);
	for (size_t form = 0; form < 3; form++) {
		static const struct ns_match_shape tree = {
			.form = NS_MATCH_TABLE, .tree = true, .tree_col = 3, .ncols = 4,
			.cols = { NS_MATCH_COL_ID, NS_MATCH_COL_PARENT, NS_MATCH_COL_DEV },
		};
		static const struct ns_match_shape json = {
			.form = NS_MATCH_JSON, .tree = true, .ncols = 2,
			.cols = { NS_MATCH_COL_TEXT, NS_MATCH_COL_ID },
		};
		const struct ns_match_shape *sh = form == 1 ? &tree : form == 2 ? &json : NULL;
		struct ns_canon *c = ns_canon_new(form == 0);
		struct ns_buf canon = NS_BUF_INIT;

		for (size_t s = 1; s < nblocks; s += 2)
			ns_canon_step(c, blocks[s], sh, sh, NULL, &canon);
		ns_buf_free(&canon);
		ns_canon_free(c);
	}
	for (size_t s = 0; s + 1 < nblocks; s += 2) {
		struct ns_buf diff = NS_BUF_INIT, renamed = NS_BUF_INIT;
		char *actual = xstrdup(blocks[s + 1]);
		size_t ne = cut_lines(blocks[s], exp, MAX_LINES);
		size_t na = cut_lines(blocks[s + 1], act, MAX_LINES);

		parse_lines(exp, ne);
		parse_lines(act, na);
		if (!ns_matcher_step(m, exp, ne, flags >> (s / 2) & 1, actual, &diff) && !diff.len)
			__builtin_trap(); /* a failed step always explains itself */
		for (size_t i = 0; i < na; i++)
			ns_matcher_rename(m, act[i].text, &renamed);
		ns_buf_free(&diff);
		ns_buf_free(&renamed);
		free(actual);
	}
	ns_matcher_free(m);
	for (size_t i = 0; i < nblocks; i++)
		free(blocks[i]);
	return 0;
}
