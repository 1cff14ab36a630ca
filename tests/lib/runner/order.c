// SPDX-License-Identifier: GPL-2.0
/*
 * ktap-run --order FILE (order.h): which program starts first. With more
 * programs than job slots, the document's order starts the slowest
 * programs wherever the alphabet puts them; started first, they overlap
 * the short ones instead of ending the run alone. The key is CPU time,
 * not wall: on a shared host the wall time of a program is mostly the
 * load it met.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "order.h"

struct rec {
	char name[256];
	double wall, cpu;
};

/* FILE's records, the last line of a name winning; NULL and 0 if none. */
static struct rec *order_read(const char *file, int *nr)
{
	struct rec *recs = NULL, r;
	int n = 0, cap = 0, i;
	char line[512];
	FILE *f = fopen(file, "re");

	*nr = 0;
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %lf %lf", r.name, &r.wall, &r.cpu) != 3 || r.cpu < 0)
			continue;
		for (i = 0; i < n && strcmp(recs[i].name, r.name); i++)
			;
		if (i == n) {
			if (n == cap) {
				struct rec *m = realloc(recs, (cap = cap ? 2 * cap : 64) * sizeof(*m));

				if (!m)
					break;
				recs = m;
			}
			n++;
		}
		recs[i] = r;
	}
	fclose(f);
	*nr = n;
	return recs;
}

static const struct rec *order_find(const struct rec *recs, int nr, const char *name)
{
	int i;

	for (i = 0; i < nr; i++)
		if (!strcmp(recs[i].name, name))
			return &recs[i];
	return NULL;
}

void order_plan(const char *file, const char *const *names, int nr, int *perm)
{
	int nr_recs, i, j;
	struct rec *recs = order_read(file, &nr_recs);
	double *key = malloc((nr ? nr : 1) * sizeof(*key));

	for (i = 0; i < nr; i++) {
		const struct rec *r = key ? order_find(recs, nr_recs, names[i]) : NULL;

		if (key)
			key[i] = r ? r->cpu : -1;	/* -1: no record, first */
		perm[i] = i;
	}
	/* Insertion sort, stable: no record first, then the longest. */
	for (i = 1; key && i < nr; i++) {
		int p = perm[i];

		for (j = i; j > 0; j--) {
			double kp = key[p], kq = key[perm[j - 1]];

			if (!(kq >= 0 && (kp < 0 || kp > kq)))
				break;
			perm[j] = perm[j - 1];
		}
		perm[j] = p;
	}
	free(key);
	free(recs);
}

int order_save(const char *file, const char *const *names, const double *wall,
	       const double *cpu, int nr)
{
	int nr_recs, i, fd, err = 0;
	struct rec *recs = order_read(file, &nr_recs);
	size_t len = strlen(file) + 16;
	char *tmp = malloc(len);
	FILE *f;

	if (!tmp) {
		free(recs);
		return -1;
	}
	snprintf(tmp, len, "%s.XXXXXX", file);
	fd = mkstemp(tmp);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		err = errno;
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		goto out;
	}
	for (i = 0; i < nr; i++)
		fprintf(f, "%s %.2f %.2f\n", names[i], wall[i], cpu[i]);
	for (i = 0; i < nr_recs; i++) {
		int k;

		for (k = 0; k < nr && strcmp(names[k], recs[i].name); k++)
			;
		if (k == nr)
			fprintf(f, "%s %.2f %.2f\n", recs[i].name, recs[i].wall, recs[i].cpu);
	}
	if (fclose(f) || rename(tmp, file)) {
		err = errno;
		unlink(tmp);
	}
out:
	free(tmp);
	free(recs);
	errno = err;
	return err ? -1 : 0;
}
