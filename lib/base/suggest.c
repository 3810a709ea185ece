/* suggest.c - see suggest.h. */
#include "base/suggest.h"

#include <string.h>

#include "base/util.h"

/* Optimal string alignment distance (Damerau-Levenshtein where no
 * substring is edited twice) between a and b, or max + 1 when it is more
 * than max. The caller keeps b short (a choice from a table). */
static size_t distance(const char *a, size_t na, const char *b, size_t nb, size_t max)
{
	size_t *rows, *prev2, *prev, *cur, d;

	if ((na > nb ? na - nb : nb - na) > max)
		return max + 1;
	rows = xcalloc(3 * (nb + 1), sizeof(size_t));
	prev2 = rows;
	prev = prev2 + nb + 1;
	cur = prev + nb + 1;
	for (size_t j = 0; j <= nb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= na; i++) {
		size_t *t;

		cur[0] = i;
		for (size_t j = 1; j <= nb; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t v = prev[j - 1] + cost;

			if (prev[j] + 1 < v)
				v = prev[j] + 1;
			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			cur[j] = v;
		}
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	d = prev[nb];
	free(rows);
	return d > max ? max + 1 : d;
}

const char *ns_closest(const char *word, const char *const *choices, size_t n)
{
	size_t len = strlen(word), dashes = strspn(word, "-");
	size_t core = len - dashes;
	size_t max = core >= 6 ? 2 : core >= 3 ? 1 : 0;
	const char *best = NULL, *prefixed = NULL;
	size_t best_d = max + 1, nprefixed = 0;

	if (core < 3)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		size_t d;

		if (!strcmp(word, choices[i]))
			return NULL;
		if (!strncmp(word, choices[i], len)) {
			prefixed = choices[i];
			nprefixed++;
		}
		d = distance(word, len, choices[i], strlen(choices[i]), max);
		if (d < best_d) {
			best_d = d;
			best = choices[i];
		}
	}
	if (best)
		return best;
	return nprefixed == 1 ? prefixed : NULL;
}
