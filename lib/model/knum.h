/* knum.h - the kernel's parsers of numbers in mount options, as the
 * model needs them to read a filesystem's options the way the kernel
 * does: simple_strtoull() and kstrtouint() (lib/vsprintf.c, lib/kstrtox.c)
 * and memparse() (lib/cmdline.c). Arithmetic is modulo 2^64, as there. */
#ifndef NS_MODEL_KNUM_H
#define NS_MODEL_KNUM_H

#include <stdbool.h>
#include <stdint.h>

/* simple_strtoull(s, end, 0): "0x" makes it hex, a leading 0 octal; no
 * sign, no space; stops at the first character that is no digit, with
 * *end there (at s when there is no digit); overflow wraps. */
uint64_t m_simple_strtoull(const char *s, const char **end);

/* kstrtouint(s, base, v) (base 0, 8 or 10): an optional '+', digits, an
 * optional newline, nothing else, no more than 32 bits. False otherwise. */
bool m_kstrtouint(const char *s, unsigned base, unsigned *v);

/* memparse(s, end): a number as simple_strtoull() reads it, then one of
 * the suffixes k, m, g, t, p, e (either case), each 1024 times the one
 * before; *end after what was read. */
uint64_t m_memparse(const char *s, const char **end);

#endif
