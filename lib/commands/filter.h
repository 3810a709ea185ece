/* filter.h - the text filters of pipelines: grep, sed 's///', awk print
 * and wc -l, implemented in C over a buffer of lines. Their command-table
 * entries are ns_cmd_filter[] (command.h); the functions below are the
 * pure transformations, so unit tests and fuzzers can drive them.
 *
 * What each filter accepts (argv words arrive with quotes removed):
 *   grep [-v] [-E] [-F] [-i] [-c] [--] PATTERN
 *        POSIX BRE by default; a newline in PATTERN separates patterns.
 *   sed [-E|-r] [--] 's/RE/REPL/[g]'
 *        any delimiter after 's'; & and \0..\9 in REPL; GNU sed's rules
 *        for escapes and for empty matches under g.
 *   awk '{print ITEM, ...}'
 *        an ITEM is $N, $NF or "string", or several of them side by side
 *        (concatenated); commas join with one space; no items is $0.
 *   wc [-l] [-w] [-c]
 *        one count prints as a bare number, several as GNU wc does for
 *        standard input (each right-aligned to 7 columns).
 * Options may come anywhere before "--", as with GNU getopt.
 *
 * Errors name the problem and the word at fault; the messages are
 *   "CMD: unknown option -X"             "CMD: extra operand 'W'"
 *   "grep: missing PATTERN"              "grep: conflicting matchers specified"
 *   "sed: missing script"                "sed: only s/RE/REPL/[g] is supported"
 *   "sed: unterminated s command"        "sed: unsupported flag 'F' to s"
 *   "sed: no previous regular expression"
 *   "sed: multiple 'g' flags to s"
 *   "sed: invalid reference \N on s command's RHS"
 *   "sed: unsupported escape \C"
 *   "awk: missing program"               "awk: unterminated string"
 *   "awk: only '{print $N, ...}' programs are supported"
 *   "awk: unsupported escape \C in string"
 *   "awk: field number too large"
 *   "CMD: invalid regular expression 'RE': <regerror text>"
 *        (RE is grep's pattern, or the one of several that is at fault;
 *        sed's as it stands between the delimiters, less any backslash
 *        before a delimiter)
 */
#ifndef NS_FILTER_H
#define NS_FILTER_H

#include <stddef.h>

#include "scenario/command.h"
#include "base/util.h"

/* A filter with its arguments checked and its patterns compiled. */
struct ns_filter;

/* Compile argv[0..argc), where argv[0] names the filter (grep, sed, awk
 * or wc). Returns the filter, or NULL with e->msg and e->word set. */
struct ns_filter *ns_filter_compile(size_t argc, char *const *argv,
				    struct ns_parse_err *e);
void ns_filter_free(struct ns_filter *f);

/* Whether f only selects lines, passing them on as they were (grep
 * without -c): a step's output then has the shape of the command's. */
bool ns_filter_keeps_lines(const struct ns_filter *f);

/* Run f over the lines of in[0..len) and append its output to out. A
 * last line without '\n' still counts; every output line ends in '\n'.
 * in may be NULL when len is 0. */
void ns_filter_run(const struct ns_filter *f, const char *in, size_t len,
		   struct ns_buf *out);

#endif
