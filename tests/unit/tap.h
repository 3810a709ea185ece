/* tap.h - the unit tests' harness, in the style of the kernel's kselftest
 * harness, writing TAP for prove (tap.c holds main()).
 *
 *   TEST(name) { ... }        a test; it registers itself at start-up
 *   ok(cond, fmt, ...)        one assertion: an "ok N - ..." line
 *   is_str(got, want, fmt, ...)   the same for two strings, and both shown
 *
 * Every test runs in a child process of its own, forked from a process
 * that ran no test, so a test sees the file's statics as the program
 * started with them, and a crash (SIGSEGV, abort(), a sanitizer), a
 * timeout or an exit before the test's end is one "not ok" line naming
 * the test and why, and the other tests still run. The assertions of all
 * tests are numbered as one TAP stream, "# RUN name" and "# OK name" (or
 * "# FAIL name: why") around each test's; a failed assertion fails its
 * test and the program's exit status.
 *
 *   tests/unit/test_X              every test, in the order of the file
 *   tests/unit/test_X -t NAME ...  only these (-t again for more); an
 *                                  unknown NAME exits 2 and lists them
 *   tests/unit/test_X -l           the names, one a line
 *
 * Exit status: 0 all passed, 1 a test failed, 2 usage. Each test gets 60
 * seconds; NSTEST_UNIT_TIMEOUT=S in the environment sets another limit,
 * 0 none (under a debugger, say). */
#ifndef NS_TAP_H
#define NS_TAP_H

#include <stdio.h>
#include <string.h>

void tap_register(const char *name, void (*fn)(void), const char *file, int line);
void tap_ok(int pass, const char *file, int line, const char *cond, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

#define TEST(name)                                                      \
	static void tap_test_##name(void);                              \
	__attribute__((constructor)) static void tap_reg_##name(void)   \
	{                                                               \
		tap_register(#name, tap_test_##name, __FILE__, __LINE__); \
	}                                                               \
	static void tap_test_##name(void)

/* "ok N - description", or "not ok N - description" and where it failed;
 * the description's arguments are evaluated after cond (strerror(errno),
 * an error buffer cond filled) */
#define ok(cond, ...)                                                   \
	do {                                                            \
		int ok_ = !!(cond);                                     \
		tap_ok(ok_, __FILE__, __LINE__, #cond, __VA_ARGS__);    \
	} while (0)

#define is_str(got, want, ...)                                          \
	do {                                                            \
		const char *g_ = (got), *w_ = (want);                   \
		int same_ = g_ && w_ && strcmp(g_, w_) == 0;            \
		ok(same_, __VA_ARGS__);                                 \
		if (!same_)                                             \
			printf("#   got:  \"%s\"\n#   want: \"%s\"\n",  \
			       g_ ? g_ : "(null)", w_ ? w_ : "(null)"); \
	} while (0)

#endif
