/* fuzz/fuzz_scenario.c - libFuzzer target: the scenario parser on
 * arbitrary bytes. A parse either gives a scenario or diagnostics: one
 * "file:line:col: error: " line per error, up to NS_DIAG_MAX, then one
 * line counting the rest; both are freed. The bytes are not
 * NUL-terminated, so a read past the end is caught by AddressSanitizer. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "scenario/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The diagnostics have the documented shape. */
static int diag_ok(const struct ns_diag *d)
{
	size_t shown = d->n < NS_DIAG_MAX ? d->n : NS_DIAG_MAX, lines = 0;
	const char *s = d->msg;

	if (!s || !d->n)
		return 0;
	for (;;) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		const char *err = memmem(s, len, ": error: ", 9);

		if (strncmp(s, "fuzz.scn:", 9))
			return 0;
		lines++;
		if (lines <= shown ? !err : !memmem(s, len, " more errors not shown", 22))
			return 0;
		if (!nl)
			break;
		s = nl + 1;
	}
	return lines == shown + (d->n > shown);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ns_diag diag = { NULL, 0 };
	struct ns_scenario *sc;

	sc = ns_scenario_parse("fuzz.scn", (const char *)data, size, &diag);
	if (sc) {
		/* what the runner reads of every parsed scenario */
		for (size_t i = 0; i < sc->ndevnames; i++)
			if (ns_scenario_devindex(sc, sc->devnames[i]) != (int)i)
				__builtin_trap();
		if (diag.msg || diag.n)
			__builtin_trap();
		ns_scenario_free(sc);
	} else if (!diag_ok(&diag)) {
		__builtin_trap();
	}
	ns_diag_free(&diag);
	return 0;
}
