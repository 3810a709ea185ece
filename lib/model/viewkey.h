/* viewkey.h - see viewkey.c. */
#ifndef NS_MODEL_VIEWKEY_H
#define NS_MODEL_VIEWKEY_H

#include "model/shell.h"
#include "match/view.h"

/* Fill v->key for the shell's innermost level; all zero when it has no
 * namespace or root. */
void m_view_key(struct m_shell *sh, struct ns_view *v);

#endif
