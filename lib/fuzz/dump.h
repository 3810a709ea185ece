/* dump.h - runs as a byte stream, for a side played in another kernel (a
 * VM): the guest prints each scenario's run with ns_fuzz_dump_run, the
 * host reads them back with ns_fuzz_undump. Every variable part is
 * length-framed, so output with any bytes in it goes through:
 *
 *   run INDEX SKIPPED SETUP_FAILED TIMED_OUT NSTEPS ABORTED_LEN\n
 *   ABORTED_BYTES\n
 *   step RAN ERR OUTPUT_LEN\n        (NSTEPS times)
 *   OUTPUT_BYTES\n
 *
 * ABORTED_LEN is -1 when nothing was aborted. */
#ifndef NS_FUZZ_DUMP_H
#define NS_FUZZ_DUMP_H

#include <stddef.h>

#include "base/util.h"
#include "run/result.h"

/* Append scenario index's run (NULL: skipped) of nsteps steps to out. */
void ns_fuzz_dump_run(struct ns_buf *out, size_t index, const struct ns_run *run,
		      size_t nsteps);

/* Read n runs from text into runs[0..n) (each freed with ns_run_free;
 * skipped[i] set for a skipped one). 0, or -1 with err naming what is
 * wrong; runs read so far stay filled. */
int ns_fuzz_undump(const char *text, size_t len, struct ns_run *runs, bool *skipped,
		   size_t n, struct ns_buf *err);

#endif
