/* filter.h - the text filters of pipelines: grep, sed 's///', awk print
 * and wc -l, implemented in C over a buffer of lines. Their command-table
 * entries are ns_cmd_filter[] (command.h); the functions below are the
 * pure transformations, so unit tests and fuzzers can drive them. */
#ifndef NS_FILTER_H
#define NS_FILTER_H

#include "util.h"

#endif
