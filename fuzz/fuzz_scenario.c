/* fuzz/fuzz_scenario.c - libFuzzer target: the scenario parser on
 * arbitrary bytes. A parse either gives a scenario or one diagnostic in
 * the "file:line:col: error: " form; both are freed. The bytes are not
 * NUL-terminated, so a read past the end is caught by AddressSanitizer. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "scenario/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ns_diag diag = { NULL };
	struct ns_scenario *sc;

	sc = ns_scenario_parse("fuzz.scn", (const char *)data, size, &diag);
	if (sc) {
		/* what the runner reads of every parsed scenario */
		for (size_t i = 0; i < sc->ndevnames; i++)
			if (ns_scenario_devindex(sc, sc->devnames[i]) != (int)i)
				__builtin_trap();
		if (diag.msg)
			__builtin_trap();
		ns_scenario_free(sc);
	} else if (!diag.msg || strncmp(diag.msg, "fuzz.scn:", 9) || !strstr(diag.msg, ": error: ")) {
		__builtin_trap();
	}
	ns_diag_free(&diag);
	return 0;
}
