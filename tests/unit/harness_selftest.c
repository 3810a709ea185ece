/* harness_selftest.c - tests that pass, fail, crash, abort, hang and exit
 * early, for tests/unit/harness-check to run and judge: the harness of
 * tap.h must report each as it should. Not a test_*.c: it fails on
 * purpose, so prove never runs it directly. */
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "tap.h"

static int counter;

/* a crash, not a core file in the working directory */
static void no_core(void)
{
	struct rlimit none = { 0, 0 };

	setrlimit(RLIMIT_CORE, &none);
}

TEST(passes)
{
	counter++;
	ok(counter == 1, "a test sees the statics as the program started");
	is_str("same", "same", "two equal strings");
}

TEST(fails)
{
	counter++;
	ok(counter == 1, "... whatever ran before it");
	ok(1 + 1 == 3, "a false assertion");
	is_str("got this", "wanted that", "two different strings");
	ok(1, "the test goes on after a failed assertion");
}

TEST(crashes)
{
	/* a page no access is allowed to: a real fault, which the
	 * sanitizers' checks (a null pointer's, say) do not catch first */
	volatile int *nowhere = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	no_core();
	ok(nowhere != MAP_FAILED, "an assertion before the crash");
	*nowhere = 1;
	ok(1, "never reached");
}

TEST(aborts)
{
	no_core();
	abort();
}

TEST(exits_early)
{
	ok(1, "an assertion before exit(0)");
	exit(0);
}

TEST(hangs)
{
	for (;;)
		pause();
}

TEST(after)
{
	ok(1, "a test after the crashes still runs");
}
