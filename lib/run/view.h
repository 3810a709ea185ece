/* view.h - whether a step's output shows a whole mount table: the
 * evidence the matcher needs before a number the kernel freed may stand
 * for something new (nstest-scenario(5), Reused numbers). Shared by every
 * backend through the pipeline (pipeline.c). */
#ifndef NS_VIEW_H
#define NS_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "run/result.h"
#include "scenario/scenario.h"

/* Does st's first stage print the terminal's whole mount table with its
 * numbers (`cat /proc/self/mountinfo`, that file alone)? */
bool ns_view_table_step(const struct ns_step *st);

/* The NS_VIEW_* kinds of which out[0..olen) shows every number that the
 * table[0..tlen) holds: a number shows when it is one of the renamed
 * numbers of a line of out that reads as a mountinfo record (ID and
 * PARENT are both mount IDs). 0 when a line of the table is no record,
 * since its numbers are then unknown. table may be out itself. */
unsigned ns_view_complete(const char *table, size_t tlen, const char *out,
			  size_t olen);

#endif
