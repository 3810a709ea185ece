/* filter_impl.h - what the filter files share; not part of filter.h's API.
 *
 *   filter.c           the API, the command table, and option scanning
 *   filter_text.c      lines of a text, regular expressions, escapes
 *   filter_grep.c      grep
 *   filter_sed.c       sed: options, scripts, addresses and commands, run
 *   filter_sed_subst.c sed: regular expressions and the s command
 *   filter_sed_scan.c  sed: a regex or replacement cut out as GNU sed does
 *   filter_awk.c       awk: the program compiled
 *   filter_awk_run.c   awk: the program run
 *   filter_wc.c        wc
 *   filter_head.c      head and tail
 *   filter_sort.c      sort
 *   filter_cut.c       cut
 */
#ifndef NS_FILTER_IMPL_H
#define NS_FILTER_IMPL_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

#include "commands/filter.h"

/* One kind of filter. Its program is `size` bytes, zeroed before
 * compile() fills it from argv; release() frees what the program holds
 * (whether or not compile() succeeded), and is NULL when it holds
 * nothing. */
struct ns_filter_ops {
	const char *name;
	size_t size;
	/* *file: the argv index of its FILE operand, left 0 when it
	 * reads its input (see ns_filter_want_operands) */
	int (*compile)(void *prog, size_t argc, char *const *argv, size_t *file,
		       struct ns_parse_err *e);
	void (*run)(const void *prog, const char *in, size_t len,
		    struct ns_buf *out);
	void (*release)(void *prog);
	/* Whether its output lines are input lines as they were (a
	 * selection); NULL means never. */
	bool (*keeps_lines)(const void *prog);
	/* Its plain form (filter.h, ns_filter_plain), when it has one;
	 * NULL means never. */
	bool (*plain)(const void *prog, struct ns_filter_plain *out);
	/* Its exit status, given what it printed; NULL means 0 (coreutils'
	 * and sed's and awk's, on the input nstest gives them). */
	int (*status)(const void *prog, const char *out, size_t len);
};

extern const struct ns_filter_ops ns_filter_grep; /* filter_grep.c */
extern const struct ns_filter_ops ns_filter_sed;  /* filter_sed.c */
extern const struct ns_filter_ops ns_filter_awk;  /* filter_awk.c */
extern const struct ns_filter_ops ns_filter_wc;   /* filter_wc.c */
extern const struct ns_filter_ops ns_filter_head; /* filter_head.c */
extern const struct ns_filter_ops ns_filter_tail; /* filter_head.c */
extern const struct ns_filter_ops ns_filter_sort; /* filter_sort.c */
extern const struct ns_filter_ops ns_filter_cut;  /* filter_cut.c */

/* ---- filter.c: option scanning ---- */

/* A filter's argv sorted GNU getopt style: option letters anywhere
 * before "--", operands in order. */
struct ns_filter_words {
	unsigned flags;          /* bit i: option letter known[i] was given */
	size_t op[3];            /* argv index of the first three operands */
	size_t nops;
};

/* How to scan: the option letters, each followed by ':' when it takes
 * an argument (as in getopt(3)); arg() receives every such argument in
 * order, with the argv index it came from, and returns 0 or fails with
 * e. Scanning starts at argv[first] (0 means 1). */
struct ns_filter_scan {
	const char *known;
	int (*arg)(void *ctx, char opt, const char *val, size_t word,
		   struct ns_parse_err *e);
	void *ctx;
	size_t first;
};

int ns_filter_scan_words(size_t argc, char *const *argv,
			 const struct ns_filter_scan *sc,
			 struct ns_filter_words *w, struct ns_parse_err *e);

/* The same for options without arguments. */
int ns_filter_split_words(size_t argc, char *const *argv, const char *known,
			  struct ns_filter_words *w, struct ns_parse_err *e);

/* `want` (0 or 1) operands, the program (`what` names a missing one),
 * and at most one FILE operand after them, whose argv index goes to
 * *file ("-", standard input, is none). */
int ns_filter_want_operands(const struct ns_filter_words *w, size_t want,
			    char *const *argv, const char *what, size_t *file,
			    struct ns_parse_err *e);

/* ---- filter_text.c ---- */

/* The lines of a text, one at a time, each copied without its '\n' and
 * NUL-terminated for regexec(). A last line without '\n' counts. */
struct ns_filter_lines {
	const char *p, *end;
	struct ns_buf cur;
};

struct ns_filter_lines ns_filter_lines_of(const char *text, size_t len);
/* The next line in l->cur; false (with l->cur freed) after the last. */
bool ns_filter_next_line(struct ns_filter_lines *l);

/* "CMD: invalid regular expression 'PATTERN': WHY" about argv[word]. */
int ns_filter_re_fail(struct ns_parse_err *e, size_t word, const char *cmd,
		      const char *pattern, const char *why);

/* regcomp() `text`; an error names cmd and `pattern`, the regex as its
 * user wrote it (text may be a rewritten form of it). */
int ns_filter_compile_re(regex_t *re, const char *text, int cflags,
			 const char *cmd, const char *pattern, size_t word,
			 struct ns_parse_err *e);

/* Search line[0..len) for re from offset `from` on, with what lies
 * before `from` still visible as context (so '^' does not match there,
 * as in GNU sed). Offsets in m are from the start of the line. */
bool ns_filter_search(const regex_t *re, const char *line, size_t len,
		      size_t from, regmatch_t *m, size_t nm);
/* The same within line[0..to) only, as if the line ended there. */
bool ns_filter_search_in(const regex_t *re, const char *line, size_t from,
			 size_t to, regmatch_t *m, size_t nm);

/* The digits at *p as a count, *p moved past them: false when there is
 * no digit; *big when the count does not fit (it is then left short). */
bool ns_filter_digits(const char **p, unsigned long long *v, bool *big);

/* GNU sed's escapes for control characters (awk's strings share them);
 * 0 when c names none. */
char ns_filter_control_escape(char c);

/* ---- filter_sed_subst.c ---- */

/* What the sed command being compiled needs to know of its script. */
struct ns_sed_ctx {
	size_t word;             /* the argv word the script came from */
	int cflags;              /* REG_EXTENDED with -E or -r */
	bool seen_regex;         /* a regex came before, in this or an
				  * earlier script */
};

/* An empty regex, which means the last one used: GNU sed's error when
 * none came before, and unsupported otherwise (filter_sed.c). */
int ns_sed_empty_regex(const struct ns_sed_ctx *cx, struct ns_parse_err *e);

/* Compile a regex as it was scanned out of a script (see
 * ns_filter_sed_scan_part), with GNU sed's escapes. */
int ns_sed_regex(regex_t *re, const char *raw, int cflags, size_t word,
		 struct ns_parse_err *e);

struct ns_sed_subst;

/* The s command from its delimiter at p on: *out is set (to be freed
 * with ns_sed_subst_free) even on an error. Returns where the command
 * ends (at ';', a newline, '#', '}' or the end), or NULL on an error. */
const char *ns_sed_subst_compile(struct ns_sed_subst **out, const char *p,
				 const struct ns_sed_ctx *cx,
				 struct ns_parse_err *e);
/* Whether it has the p flag. */
bool ns_sed_subst_prints(const struct ns_sed_subst *s);
/* Its plain form (filter.h) when it has no flag but g. */
bool ns_sed_subst_plain(const struct ns_sed_subst *s, struct ns_filter_plain *out);
/* Substitute in the pattern space; true when something was replaced. */
bool ns_sed_subst_apply(const struct ns_sed_subst *s, struct ns_buf *ps);
void ns_sed_subst_free(struct ns_sed_subst *s);

/* ---- filter_sed_scan.c ---- */

/* Copy the text up to the next unescaped delimiter into out, as GNU
 * sed's match_slash() does (see there). Returns what follows the
 * delimiter, or NULL when there is none. */
const char *ns_filter_sed_scan_part(const char *p, char delim, bool regex,
				    struct ns_buf *out);

/* Copy a bracket expression from just after its '[' to out, as GNU sed
 * steps over one (see there); returns what follows its ']', or NULL
 * when it does not end (before a newline). */
const char *ns_filter_copy_bracket(const char *p, struct ns_buf *out);

/* re has a ')' that closes no group, outside bracket expressions. */
bool ns_filter_sed_stray_paren(const char *re);

/* ---- filter_awk.c, filter_awk_run.c ---- */

/* What a part of a print item, or a pattern's field, is besides $N. */
enum {
	NS_AWK_NF = -1,          /* $NF */
	NS_AWK_TEXT = -2,        /* a string */
	NS_AWK_COUNT_NF = -3,    /* NF */
	NS_AWK_COUNT_NR = -4,    /* NR */
};

/* One print item: parts printed side by side. */
struct ns_awk_part {
	long field;              /* N for $N, or one of NS_AWK_* */
	char *text;
};

struct ns_awk_item {
	struct ns_awk_part *part;
	size_t npart, cap;
};

enum ns_awk_pat {
	NS_AWK_PAT_ALL, NS_AWK_PAT_RE, NS_AWK_PAT_EQ, NS_AWK_PAT_NE, NS_AWK_PAT_NR,
	NS_AWK_PAT_MATCH, NS_AWK_PAT_NOMATCH,  /* $N ~ /RE/, $N !~ /RE/ */
};

/* A rule: its pattern, and the items of its print (none: $0). */
struct ns_awk_rule {
	enum ns_awk_pat pat;
	regex_t re;              /* NS_AWK_PAT_RE, _MATCH, _NOMATCH */
	long field;              /* NS_AWK_PAT_EQ, _NE, _MATCH, _NOMATCH: N of
				  * $N, or NS_AWK_NF */
	char *text;              /* ... and the string */
	unsigned long long nr;   /* NS_AWK_PAT_NR */
	struct ns_awk_item *item;
	size_t nitem, cap;
};

struct ns_awk_prog {
	struct ns_awk_rule *rule;
	size_t nrule, cap;
};

/* The filter's run, release and keeps_lines (filter_awk_run.c). */
void ns_awk_run(const void *prog, const char *in, size_t len, struct ns_buf *out);
void ns_awk_release(void *prog);
bool ns_awk_keeps_lines(const void *prog);
bool ns_awk_plain(const void *prog, struct ns_filter_plain *out);

#endif
