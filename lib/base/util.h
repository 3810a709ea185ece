/* util.h - allocation that never returns NULL, cleanup helpers, byte buffers
 * and line lists shared by every module of the engine. */
#ifndef NS_UTIL_H
#define NS_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NS_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define NS_PRINTF(f, a) __attribute__((format(printf, f, a)))

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) NS_PRINTF(1, 2);

/* Grow *v so that it holds at least `need` elements of `size` bytes. */
void ns_grow(void **v, size_t *cap, size_t need, size_t size);

static inline void ns_freep(void *p) { free(*(void **)p); }
void ns_closep(int *fd);
void ns_fclosep(FILE **f);
#define _cleanup_free_ __attribute__((cleanup(ns_freep)))
#define _cleanup_close_ __attribute__((cleanup(ns_closep)))
#define _cleanup_fclose_ __attribute__((cleanup(ns_fclosep)))

/* A growable byte string, always NUL-terminated once anything was added.
 * max, when not 0, is the most it may hold: what an add would put past it
 * is dropped and `cut` is set (a step's output, run/pipeline.c, is kept
 * to a size; see NS_STEP_OUTPUT_MAX). Reset, detach and free clear `cut`
 * and keep max. */
struct ns_buf {
	char *data;
	size_t len, cap;
	size_t max;     /* 0: no limit */
	bool cut;       /* an add passed max */
};
#define NS_BUF_INIT { NULL, 0, 0, 0, false }
/* An empty buffer that holds at most max bytes. */
#define NS_BUF_LIMITED(max) { NULL, 0, 0, (max), false }
void ns_buf_add(struct ns_buf *b, const void *p, size_t n);
void ns_buf_adds(struct ns_buf *b, const char *s);
void ns_buf_addc(struct ns_buf *b, char c);
void ns_buf_addf(struct ns_buf *b, const char *fmt, ...) NS_PRINTF(2, 3);
void ns_buf_vaddf(struct ns_buf *b, const char *fmt, va_list ap) NS_PRINTF(2, 0);
const char *ns_buf_str(const struct ns_buf *b); /* "" when empty */
char *ns_buf_detach(struct ns_buf *b);         /* caller frees; never NULL */
void ns_buf_reset(struct ns_buf *b);
/* Append n in decimal (no printf: hot in renders and diffs). */
void ns_buf_addu(struct ns_buf *b, unsigned long long n);
/* Remove the first n bytes (n <= b->len). */
void ns_buf_drop(struct ns_buf *b, size_t n);
/* Keep the first len bytes (no-op when it holds no more). */
void ns_buf_truncate(struct ns_buf *b, size_t len);
void ns_buf_free(struct ns_buf *b);
/* How many more bytes b takes before it is cut; SIZE_MAX with no max. */
size_t ns_buf_room(const struct ns_buf *b);

/* A list of owned strings. */
struct ns_lines {
	char **v;
	size_t n, cap;
};
#define NS_LINES_INIT { NULL, 0, 0 }
void ns_lines_push(struct ns_lines *l, const char *s);
void ns_lines_pushn(struct ns_lines *l, const char *s, size_t n);
/* Split text into lines on '\n'; a final line without '\n' still counts,
 * a trailing '\n' does not add an empty line. */
void ns_lines_split(struct ns_lines *l, const char *text, size_t len);
void ns_lines_free(struct ns_lines *l);
/* Sort in byte order (as in the C locale); an empty list is fine. */
void ns_lines_sort(struct ns_lines *l);

/* Is word one of the items of the comma-separated list (NULL: none)? */
bool ns_list_has(const char *list, const char *word);

/* "EINVAL" for EINVAL; "E<number>" for an errno this table does not know. */
const char *ns_errname(int err);

/* Read a whole file (at most max bytes; EFBIG beyond). Returns 0 or -errno. */
int ns_read_file(const char *path, size_t max, char **data, size_t *len);
int ns_read_fd(int fd, size_t max, char **data, size_t *len);

/* Write all bytes, retrying on EINTR and short writes. 0 or -errno. */
int ns_write_all(int fd, const void *p, size_t n);

/* Length of the well-formed UTF-8 character at s (1 to 4) with its code
 * point in *cp, or 0 when s does not start one (stray, overlong,
 * surrogate or truncated bytes). */
size_t ns_utf8_char(const char *s, uint32_t *cp);

#endif
