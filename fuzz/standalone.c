// SPDX-License-Identifier: GPL-2.0
/*
 * A main() for a fuzz target without libFuzzer: runs each FILE given (or
 * each file of each DIR) through LLVMFuzzerTestOneInput() once and says
 * whether the parser accepted it. make check runs the seed corpus this
 * way with every compiler; a property that breaks aborts.
 */
#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include "fuzz.h"

static int run_file(const char *path)
{
	static uint8_t buf[(1 << 20) + 2];
	size_t n;
	FILE *f = fopen(path, "rb");

	if (!f) {
		fprintf(stderr, "fuzz: %s: %s\n", path, strerror(errno));
		return -1;
	}
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, n);
	printf("%s: %s\n", path, fuzz_accepted ? "accepted" : "refused");
	return 0;
}

int main(int argc, char **argv)
{
	char path[4096];
	struct dirent *d;
	struct stat st;
	int i, runs = 0;
	DIR *dir;

	for (i = 1; i < argc; i++) {
		if (stat(argv[i], &st) || !S_ISDIR(st.st_mode)) {
			if (run_file(argv[i]))
				return 2;
			runs++;
			continue;
		}
		dir = opendir(argv[i]);
		while (dir && (d = readdir(dir))) {
			if (d->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", argv[i], d->d_name);
			if (run_file(path))
				return 2;
			runs++;
		}
		if (dir)
			closedir(dir);
	}
	printf("fuzz: %d input(s) run\n", runs);
	return 0;
}
