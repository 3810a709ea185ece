/* test_filter.h - what the filter tests share: a filter compiled from
 * words and run over a text, its parse error checked, and the same words
 * run through the real tool for comparison. */
#ifndef NS_TEST_FILTER_H
#define NS_TEST_FILTER_H

#include "commands/filter.h"
#include "tap.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WORDS(...) ((const char *const[]){ __VA_ARGS__, NULL })

static inline size_t nwords(const char *const *w)
{
	size_t n = 0;

	while (w[n])
		n++;
	return n;
}

static inline struct ns_filter *compile(const char *const *words, struct ns_parse_err *e)
{
	size_t n = nwords(words);
	char **argv = xcalloc(n + 1, sizeof(*argv));
	struct ns_filter *f;

	for (size_t i = 0; i < n; i++)
		argv[i] = xstrdup(words[i]);
	f = ns_filter_compile(n, argv, e);
	for (size_t i = 0; i < n; i++)
		free(argv[i]);
	free(argv);
	return f;
}

/* The filter's output for input, or NULL when it does not compile. */
static inline char *run(const char *input, const char *const *words)
{
	struct ns_parse_err e = { NULL, 0 };
	struct ns_filter *f = compile(words, &e);
	struct ns_buf out = NS_BUF_INIT;

	if (!f) {
		printf("# compile error: %s\n", e.msg);
		free(e.msg);
		return NULL;
	}
	ns_filter_run(f, input, input ? strlen(input) : 0, &out);
	ns_filter_free(f);
	return ns_buf_detach(&out);
}

#define IS_RUN(input, want, ...)                                          \
	do {                                                              \
		char *got_ = run(input, WORDS(__VA_ARGS__));              \
		is_str(got_, want, "%s", #__VA_ARGS__);                   \
		free(got_);                                               \
	} while (0)

/* Compiling must fail with exactly this message about this word. */
#define IS_ERR(want_msg, want_word, ...)                                  \
	do {                                                              \
		struct ns_parse_err e_ = { NULL, 99 };                    \
		struct ns_filter *f_ = compile(WORDS(__VA_ARGS__), &e_);  \
		is_str(f_ ? "(compiled)" : e_.msg, want_msg, "error for %s", \
		       #__VA_ARGS__);                                     \
		ok(!f_ && e_.word == (want_word), "  ... about word %d (got %zu)", \
		   want_word, e_.word);                                   \
		ns_filter_free(f_);                                       \
		free(e_.msg);                                             \
	} while (0)

/* Compiling must succeed, with FILE the operand at argv[want_word] (0:
 * none, the filter reads its input). */
#define IS_FILE(want_word, ...)                                           \
	do {                                                              \
		struct ns_parse_err e_ = { NULL, 0 };                     \
		struct ns_filter *f_ = compile(WORDS(__VA_ARGS__), &e_);  \
		ok(f_ && ns_filter_file(f_) == (want_word),               \
		   "%s: FILE is word %d (got %zu%s%s)", #__VA_ARGS__, want_word, \
		   f_ ? ns_filter_file(f_) : 0, e_.msg ? ", " : "",       \
		   e_.msg ? e_.msg : "");                                 \
		ns_filter_free(f_);                                       \
		free(e_.msg);                                             \
	} while (0)

/* ---- differential: the same cases through the real tools ------------- */

static inline char *shell_quote(const char *s)
{
	struct ns_buf b = NS_BUF_INIT;

	ns_buf_addc(&b, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			ns_buf_adds(&b, "'\\''");
		else
			ns_buf_addc(&b, *s);
	}
	ns_buf_addc(&b, '\'');
	return ns_buf_detach(&b);
}

/* What the real tool prints for this input in this locale (LC_ALL),
 * or NULL if it failed. */
static inline char *run_real_in(const char *locale, const char *input,
				const char *const *words)
{
	char path[] = "/tmp/nstest-filter.XXXXXX";
	int fd = mkstemp(path);
	struct ns_buf cmd = NS_BUF_INIT, got = NS_BUF_INIT;
	char chunk[4096];
	size_t n;
	FILE *p;

	if (fd < 0 || ns_write_all(fd, input, strlen(input)) < 0)
		return NULL;
	close(fd);
	ns_buf_addf(&cmd, "cat %s | LC_ALL=%s", path, locale);
	for (size_t i = 0; words[i]; i++) {
		char *q = shell_quote(words[i]);

		ns_buf_addf(&cmd, " %s", q);
		free(q);
	}
	/* from a pipe, as in a scenario: wc pads differently for a file */
	ns_buf_adds(&cmd, " 2>/dev/null");
	p = popen(cmd.data, "r");
	while (p && (n = fread(chunk, 1, sizeof(chunk), p)) > 0)
		ns_buf_add(&got, chunk, n);
	if (!p || pclose(p) == -1)
		ns_buf_free(&got);
	unlink(path);
	ns_buf_free(&cmd);
	return got.data ? ns_buf_detach(&got) : xstrdup("");
}

static inline char *run_real(const char *input, const char *const *words)
{
	return run_real_in("C", input, words);
}

static inline bool have_gnu(const char *tool)
{
	char *cmd = xasprintf("%s --version 2>/dev/null | grep -q GNU", tool);
	bool yes = system(cmd) == 0;

	free(cmd);
	return yes;
}

/* The filter's output is the real tool's, for this input in locale. */
static inline void differ_in(const char *locale, const char *input,
			     const char *const *words)
{
	char *mine = run(input, words);
	char *real = run_real_in(locale, input, words);
	struct ns_buf name = NS_BUF_INIT;

	for (size_t i = 0; words[i]; i++) {
		ns_buf_adds(&name, i ? " " : "");
		for (const char *c = words[i]; *c; c++) /* one line of TAP */
			ns_buf_adds(&name, *c == '\n' ? "\\n" : (char[]){ *c, 0 });
	}
	is_str(mine, real, "same as the real %s (LC_ALL=%s)", name.data, locale);
	free(mine);
	free(real);
	ns_buf_free(&name);
}

static inline void differ(const char *input, const char *const *words)
{
	differ_in("C", input, words);
}

#endif
