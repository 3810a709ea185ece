/* fuzz/replay.c - the fuzz targets without libFuzzer: feed every file
 * named on the command line (folders: every file in them, sorted) to
 * LLVMFuzzerTestOneInput once. Built with the ordinary compiler, so that
 * `make check` replays the crash inputs of fuzz/regressions/ and the
 * seed files without clang. Prints "replay: N inputs" and exits 0; a
 * crash ends it as the crash would have ended the fuzzer. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t replayed;

static void replay_file(const char *path)
{
	char *data;
	size_t len;
	int r = ns_read_file(path, 64u << 20, &data, &len);

	if (r < 0) {
		fprintf(stderr, "replay: %s: cannot read (%d)\n", path, r);
		exit(2);
	}
	/* an exact-size copy, so that a read past the end is a real overrun */
	{
		uint8_t *exact = malloc(len ? len : 1);
		memcpy(exact, data, len);
		free(data);
		LLVMFuzzerTestOneInput(exact, len);
		free(exact);
	}
	replayed++;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static void replay_path(const char *path)
{
	struct dirent **list;
	struct stat st;
	int n;

	if (stat(path, &st) < 0) {
		fprintf(stderr, "replay: %s: no such file or folder\n", path);
		exit(2);
	}
	if (!S_ISDIR(st.st_mode)) {
		replay_file(path);
		return;
	}
	n = scandir(path, &list, NULL, by_name);
	for (int i = 0; i < n; i++) {
		if (list[i]->d_name[0] != '.') {
			char *sub = xasprintf("%s/%s", path, list[i]->d_name);
			replay_path(sub);
			free(sub);
		}
		free(list[i]);
	}
	free(list);
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		replay_path(argv[i]);
	printf("replay: %zu inputs\n", replayed);
	return 0;
}
