/* collect.c - turn the PATH operands into a sorted list of scenario files,
 * and parse them all */
#include "harness.h"

#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "scenario/scenario.h"

static bool is_scn(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && !strcmp(name + n - 4, ".scn");
}

static int walk(const char *dir, struct ns_lines *out)
{
	struct ns_lines names = NS_LINES_INIT;
	struct dirent *de;
	DIR *d = opendir(dir);
	int r = 0;

	if (!d) {
		fprintf(stderr, "nstest: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			ns_lines_push(&names, de->d_name);
	closedir(d);
	ns_lines_sort(&names);
	for (size_t i = 0; i < names.n && r == 0; i++) {
		char *p = xasprintf("%s/%s", dir, names.v[i]);
		struct stat st;
		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode))
			r = walk(p, out);
		else if (is_scn(names.v[i]))
			ns_lines_push(out, p);
		free(p);
	}
	ns_lines_free(&names);
	return r;
}

/* A relative operand that does not exist here may name an installed
 * scenario or folder: `nstest run article`. */
static char *resolve(const char *path)
{
	struct stat st;
	char *installed;

	if (path[0] == '/' || stat(path, &st) == 0)
		return xstrdup(path);
	installed = xasprintf("%s/scenarios/%s", NS_DATADIR, path);
	if (stat(installed, &st) == 0)
		return installed;
	free(installed);
	return xstrdup(path);
}

int collect_scenarios(char **paths, int n, struct ns_lines *out)
{
	for (int i = 0; i < n; i++) {
		struct stat st;
		char *p = resolve(paths[i]);
		size_t len = strlen(p);

		while (len > 1 && p[len - 1] == '/')
			p[--len] = '\0';
		if (stat(p, &st) < 0) {
			fprintf(stderr, "nstest: %s: %s\n", p, strerror(errno));
			free(p);
			return -1;
		}
		if (S_ISDIR(st.st_mode)) {
			if (walk(p, out) < 0) {
				free(p);
				return -1;
			}
		} else {
			ns_lines_push(out, p);
		}
		free(p);
	}
	return 0;
}

struct ns_scenario **parse_scenarios(const struct ns_lines *files)
{
	struct ns_scenario **sc = xcalloc(files->n, sizeof(*sc));
	bool bad = false;

	for (size_t i = 0; i < files->n; i++) {
		struct ns_diag d = { NULL, 0 };
		sc[i] = ns_scenario_load(files->v[i], &d);
		if (!sc[i]) {
			fprintf(stderr, "%s\n", d.msg);
			bad = true;
		}
		ns_diag_free(&d);
	}
	if (!bad)
		return sc;
	for (size_t i = 0; i < files->n; i++)
		ns_scenario_free(sc[i]);
	free(sc);
	return NULL;
}

void free_scenarios(struct ns_scenario **sc, struct ns_lines *files)
{
	for (size_t i = 0; sc && i < files->n; i++)
		ns_scenario_free(sc[i]);
	free(sc);
	ns_lines_free(files);
}
