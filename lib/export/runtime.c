/* runtime.c - the support library every exported program starts with,
 * as text: runtime.c.in, which make turns into runtime_text.h (each line
 * a string literal). Kept as a file of its own so that it reads and
 * changes as the C it is. */
#include "export/export.h"

const char ns_export_runtime[] =
#include "export/runtime_text.h"
	;
