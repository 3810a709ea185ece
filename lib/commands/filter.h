/* filter.h - the text filters of pipelines: grep, sed, awk, wc, head,
 * tail, sort and cut, implemented in C over a buffer of lines as the
 * tools of Debian 12 (GNU grep 3.8, GNU sed 4.9, mawk 1.3.4, coreutils
 * 9.1) behave in the C and C.UTF-8 locales. Their command-table entries
 * are ns_cmd_filter[] (command.h); the functions below are the pure
 * transformations, so unit tests and fuzzers can drive them.
 *
 * What each filter accepts (argv words arrive with quotes removed):
 *   grep [-vEFicwx] [-e PATTERN]... [PATTERN] [FILE]
 *        POSIX BRE by default; a newline in a pattern separates
 *        patterns; with -e there is no PATTERN operand.
 *   sed [-n] [-E|-r] [-e SCRIPT]... [SCRIPT] [FILE]
 *        commands s p d q Q, separated by ';' or newlines, each with no
 *        address, N, $, /RE/ or \cREc (flag I), or a range of two
 *        (0,/RE/ too), and '!'; s flags g p I and a number.
 *   awk 'RULE...' [FILE]
 *        a rule is PATTERN, {print ITEM, ...} or both; PATTERN is /RE/,
 *        $N == "S", $N != "S" or NR == N; an ITEM is $N, $NF, NF, NR or
 *        "string", or several side by side; no items is $0.
 *   wc [-l] [-w] [-c] [FILE]  (with FILE: "COUNTS FILE")
 *   head [-n [-]N | -c [-]N | -N] [FILE]
 *   tail [-n [+]N | -c [+]N | -N | +N] [FILE]
 *   sort [-bfnrsu] [-t C] [-k F[.C][bfnr][,F[.C][bfnr]]]... [FILE]
 *        byte order, as in the C and C.UTF-8 locales of glibc 2.36
 *   cut -f LIST [-d C] [-s] | -b LIST | -c LIST  [-n] [FILE]
 * One FILE at most ("-" is none): the filter reads it instead of its
 * input; ns_filter_file() tells which word it is, and the scenario
 * parser turns `grep X FILE` into `cat FILE | grep X`.
 * Options may come anywhere before "--", as with GNU getopt; an option's
 * argument is the rest of its word or the next word. Long options are
 * refused: one of the tool's is named with its short form, and one close
 * to such a name gets "did you mean" (filter.c's table).
 *
 * Output: grep, awk, sort, cut and wc end every line they print with
 * '\n'; head, tail and sed pass a last line without one as it is, as
 * the real tools do.
 *
 * Errors name the problem and the word at fault, in the tools' words
 * where they have one ("CMD: unknown option -X",
 * "CMD: option requires an argument -- 'X'", "grep: conflicting matchers
 * specified", "CMD: invalid regular expression 'RE': <regerror text>",
 * "cut: invalid decreasing range", "sort: multi-character tab 'ab'" ...);
 * what nstest does not support is named as such ("sed: the command 'y'
 * is not supported", "awk: unsupported pattern at 'length > 3'", "head:
 * the suffix 'K' of the number of lines '1K' is not supported"). The unit
 * tests (tests/unit/test_filter*.c) list every message.
 */
#ifndef NS_FILTER_H
#define NS_FILTER_H

#include <stddef.h>

#include "commands/command.h"
#include "base/util.h"

/* A filter with its arguments checked and its patterns compiled. */
struct ns_filter;

/* Compile argv[0..argc), where argv[0] names the filter (grep, sed, awk
 * or wc). Returns the filter, or NULL with e->msg and e->word set. */
struct ns_filter *ns_filter_compile(size_t argc, char *const *argv,
				    struct ns_parse_err *e);
void ns_filter_free(struct ns_filter *f);

/* The argv index of f's FILE operand (grep PATTERN FILE), or 0 when it
 * reads its input: a filter that starts a pipeline reads FILE as
 * `cat FILE | ...` would give it (the scenario parser puts that cat
 * before it), and no filter after a pipe may have one. */
size_t ns_filter_file(const struct ns_filter *f);

/* Whether f only selects lines, passing them on as they were (grep
 * without -c): a step's output then has the shape of the command's. */
bool ns_filter_keeps_lines(const struct ns_filter *f);

/* The filter's exit status, given its output, as a shell's && and ||
 * see it: grep's 1 when it selected no line (with -c, when it counted
 * none), and 0 for every other filter. */
int ns_filter_status(const struct ns_filter *f, const char *out, size_t len);

/* Run f over the lines of in[0..len) and append its output to out. A
 * last line without '\n' still counts; every output line ends in '\n'.
 * in may be NULL when len is 0. */
void ns_filter_run(const struct ns_filter *f, const char *in, size_t len,
		   struct ns_buf *out);

/* A filter as plain data, in the forms a program outside nstest carries
 * out with the C library alone (nstest export, lib/export/): grep with
 * one pattern, sed with one s command and no address, awk printing
 * fields, wc without FILE. Strings point into the filter. */
enum ns_filter_form { NS_FF_GREP, NS_FF_SED_S, NS_FF_AWK_PRINT, NS_FF_WC };
#define NS_FF_MAX 16

struct ns_filter_plain {
	enum ns_filter_form form;
	/* grep: the pattern as the regex engine takes it (-F's quoted), read
	 * with GNU grep's basic syntax, or POSIX extended with -E */
	const char *re;
	bool extended, icase, invert, count;
	/* sed: the regex for regcomp(3) with cflags, g, and the replacement:
	 * each piece's text, then its group (0-9, or -1 for none) */
	int cflags;
	bool global;
	const char *text[NS_FF_MAX];
	size_t len[NS_FF_MAX];
	int group[NS_FF_MAX];
	size_t npiece;
	/* awk '{print $N, ...}': the fields (0: the line), joined by " " */
	long field[NS_FF_MAX];
	size_t nfield;
	/* wc: the counts, bit 0 lines, 1 words, 2 bytes */
	unsigned what;
};

/* Fill *out and return true when f has one of those forms. */
bool ns_filter_plain(const struct ns_filter *f, struct ns_filter_plain *out);

#endif
