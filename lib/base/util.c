/* util.c - see util.h */
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void oom(void)
{
	static const char msg[] = "nstest: out of memory\n";
	ssize_t r = write(2, msg, sizeof(msg) - 1);
	(void)r;
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	struct ns_buf b = NS_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	ns_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	return ns_buf_detach(&b);
}

void ns_grow(void **v, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 8;

	if (need <= *cap)
		return;
	while (c < need) {
		if (c > ((size_t)-1) / 2 / size)
			oom();
		c *= 2;
	}
	*v = xrealloc(*v, c * size);
	*cap = c;
}

void ns_closep(int *fd)
{
	if (*fd >= 0) {
		int saved = errno;
		close(*fd);
		errno = saved;
	}
}

void ns_fclosep(FILE **f)
{
	if (*f) {
		int saved = errno;
		fclose(*f);
		errno = saved;
	}
}

static void buf_reserve(struct ns_buf *b, size_t extra)
{
	void *d = b->data;

	size_t need;

	if (extra > ((size_t)-1) - b->len - 1)
		oom();
	need = b->len + extra + 1;
	/* most buffers take a word at a time: start at a line, not at 8 */
	if (!b->cap && need < 64)
		need = 64;
	ns_grow(&d, &b->cap, need, 1);
	b->data = d;
}

/* How much of n bytes b takes: all, or what fits under its max (cut). */
static size_t buf_room(struct ns_buf *b, size_t n)
{
	size_t room = ns_buf_room(b);

	if (n <= room)
		return n;
	b->cut = true;
	return room;
}

void ns_buf_add(struct ns_buf *b, const void *p, size_t n)
{
	n = buf_room(b, n);
	buf_reserve(b, n);
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void ns_buf_truncate(struct ns_buf *b, size_t len)
{
	if (len >= b->len)
		return;
	b->len = len;
	b->data[len] = '\0';
}

void ns_buf_adds(struct ns_buf *b, const char *s)
{
	ns_buf_add(b, s, strlen(s));
}

void ns_buf_addu(struct ns_buf *b, unsigned long long n)
{
	char digits[20], *d = digits + sizeof(digits);

	do
		*--d = (char)('0' + n % 10);
	while (n /= 10);
	ns_buf_add(b, d, (size_t)(digits + sizeof(digits) - d));
}

void ns_buf_drop(struct ns_buf *b, size_t n)
{
	if (!n)
		return;
	memmove(b->data, b->data + n, b->len - n);
	b->len -= n;
	b->data[b->len] = '\0';
}

void ns_buf_addc(struct ns_buf *b, char c)
{
	ns_buf_add(b, &c, 1);
}

void ns_buf_vaddf(struct ns_buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	if ((size_t)n > ns_buf_room(b)) {
		/* past the limit: what fits of it, through ns_buf_add */
		char *t = xmalloc((size_t)n + 1);

		vsnprintf(t, (size_t)n + 1, fmt, ap);
		ns_buf_add(b, t, (size_t)n);
		free(t);
		return;
	}
	buf_reserve(b, (size_t)n);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void ns_buf_addf(struct ns_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ns_buf_vaddf(b, fmt, ap);
	va_end(ap);
}

const char *ns_buf_str(const struct ns_buf *b)
{
	return b->data ? b->data : "";
}

char *ns_buf_detach(struct ns_buf *b)
{
	char *p = b->data ? b->data : xstrdup("");

	b->data = NULL;
	b->len = b->cap = 0;
	b->cut = false;
	return p;
}

void ns_buf_reset(struct ns_buf *b)
{
	b->len = 0;
	b->cut = false;
	if (b->data)
		b->data[0] = '\0';
}

size_t ns_buf_room(const struct ns_buf *b)
{
	if (!b->max)
		return SIZE_MAX;
	return b->len < b->max ? b->max - b->len : 0;
}

void ns_buf_free(struct ns_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
	b->cut = false;
}

void ns_lines_pushn(struct ns_lines *l, const char *s, size_t n)
{
	void *v = l->v;

	ns_grow(&v, &l->cap, l->n + 1, sizeof(char *));
	l->v = v;
	l->v[l->n++] = xstrndup(s, n);
}

void ns_lines_push(struct ns_lines *l, const char *s)
{
	ns_lines_pushn(l, s, strlen(s));
}

void ns_lines_split(struct ns_lines *l, const char *text, size_t len)
{
	size_t start = 0;

	for (size_t i = 0; i < len; i++) {
		if (text[i] == '\n') {
			ns_lines_pushn(l, text + start, i - start);
			start = i + 1;
		}
	}
	if (start < len)
		ns_lines_pushn(l, text + start, len - start);
}

static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void ns_lines_sort(struct ns_lines *l)
{
	if (l->n > 1)
		qsort(l->v, l->n, sizeof(char *), cmp_strp);
}

void ns_lines_free(struct ns_lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}

int ns_read_fd(int fd, size_t max, char **data, size_t *len)
{
	struct ns_buf b = NS_BUF_INIT;
	char chunk[65536];

	for (;;) {
		ssize_t r = read(fd, chunk, sizeof(chunk));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			ns_buf_free(&b);
			return -e;
		}
		if (r == 0)
			break;
		if (b.len + (size_t)r > max) {
			ns_buf_free(&b);
			return -EFBIG;
		}
		ns_buf_add(&b, chunk, (size_t)r);
	}
	*len = b.len;
	*data = ns_buf_detach(&b);
	return 0;
}

int ns_read_file(const char *path, size_t max, char **data, size_t *len)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	return ns_read_fd(fd, max, data, len);
}

int ns_write_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		ssize_t w = write(fd, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

size_t ns_utf8_char(const char *str, uint32_t *cp)
{
	const unsigned char *s = (const unsigned char *)str;
	static const uint32_t min[] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t len;
	uint32_t c;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if ((s[0] & 0xE0) == 0xC0) {
		len = 2;
		c = s[0] & 0x1F;
	} else if ((s[0] & 0xF0) == 0xE0) {
		len = 3;
		c = s[0] & 0x0F;
	} else if ((s[0] & 0xF8) == 0xF0) {
		len = 4;
		c = s[0] & 0x07;
	} else {
		return 0;
	}
	for (size_t k = 1; k < len; k++) {
		if ((s[k] & 0xC0) != 0x80)
			return 0; /* also stops at the terminating NUL */
		c = c << 6 | (s[k] & 0x3F);
	}
	if (c < min[len] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	*cp = c;
	return len;
}

bool ns_list_has(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list ? list : ""; *p; ) {
		size_t len = strcspn(p, ",");

		if (len == n && !strncmp(p, word, n))
			return true;
		p += len + (p[len] == ',');
	}
	return false;
}
