/* knum.c - see knum.h. Written from the kernel's documented behaviour of
 * these helpers (their comments in lib/kstrtox.c, lib/vsprintf.c and
 * lib/cmdline.c), not copied. */
#include "model/knum.h"

#include <ctype.h>
#include <stddef.h>
#include <string.h>

/* The value of digit c, or 16 when it is none. */
static unsigned digit(char c)
{
	if (c >= '0' && c <= '9')
		return (unsigned)(c - '0');
	c = (char)tolower((unsigned char)c);
	if (c >= 'a' && c <= 'f')
		return (unsigned)(c - 'a' + 10);
	return 16;
}

/* The base a number at s is in, when asked for 0 (the kernel's
 * _parse_integer_fixup_radix()), and where its digits start. */
static const char *radix(const char *s, unsigned *base)
{
	if (*base == 0) {
		if (s[0] != '0')
			*base = 10;
		else if (tolower((unsigned char)s[1]) == 'x' && isxdigit((unsigned char)s[2]))
			*base = 16;
		else
			*base = 8;
	}
	if (*base == 16 && s[0] == '0' && tolower((unsigned char)s[1]) == 'x')
		s += 2;
	return s;
}

/* Digits of base at s into *v (wrapping); how many were read, and
 * whether the value overflowed. */
static size_t digits(const char *s, unsigned base, uint64_t *v, bool *overflow)
{
	size_t n = 0;

	*v = 0;
	*overflow = false;
	for (unsigned d; (d = digit(s[n])) < base; n++) {
		if (*v > (UINT64_MAX - d) / base)
			*overflow = true;
		*v = *v * base + d;
	}
	return n;
}

uint64_t m_simple_strtoull(const char *s, const char **end)
{
	unsigned base = 0;
	uint64_t v;
	bool overflow;
	const char *p = radix(s, &base);
	size_t n = digits(p, base, &v, &overflow);

	*end = p + n; /* s when there is no digit: a prefix is only
			 * taken with a digit after it */
	return v;
}

bool m_kstrtouint(const char *s, unsigned base, unsigned *v)
{
	uint64_t x;
	bool overflow;
	size_t n;

	if (*s == '+')
		s++;
	s = radix(s, &base);
	n = digits(s, base, &x, &overflow);
	if (!n || overflow || x > UINT32_MAX)
		return false;
	s += n;
	if (*s == '\n')
		s++;
	if (*s)
		return false;
	*v = (unsigned)x;
	return true;
}

uint64_t m_memparse(const char *s, const char **end)
{
	static const char suffixes[] = "kmgtpe";
	uint64_t v = m_simple_strtoull(s, end);
	const char *at = **end ? strchr(suffixes, tolower((unsigned char)**end)) : NULL;

	if (at) {
		v <<= 10 * (unsigned)(at - suffixes + 1);
		(*end)++;
	}
	return v;
}
