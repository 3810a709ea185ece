/* suggest.h - "did you mean": the closest of a table of known words to a
 * word that is in none of them, for error messages. */
#ifndef NS_SUGGEST_H
#define NS_SUGGEST_H

#include <stddef.h>

/* The choice closest to word, or NULL when none is close enough to be a
 * likely typo. Close means, with the leading dashes of an option not
 * counted in word's length L: an edit distance (insertions, deletions,
 * substitutions, swaps of two neighbours) of at most 1 when L is 3 to 5
 * and at most 2 when L is 6 or more (a word of 1 or 2 characters gets no
 * suggestion: too many words are that close); or else, when L is 3 or
 * more, word is the start of exactly one choice ("--prop" for
 * "--propagation"). The first of the nearest choices wins. A word that is
 * itself one of the choices gets NULL: it needs no correction. */
const char *ns_closest(const char *word, const char *const *choices, size_t n);

#endif
