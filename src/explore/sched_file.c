// SPDX-License-Identifier: GPL-2.0
/*
 * Schedule files: the configuration and the fiber chosen at each step,
 * up to where the rest is the default (non-preemptive, lowest fiber
 * first). "key value" lines; '#' starts a comment.
 *
 *	harness counter_storm
 *	cpus 2
 *	adds 3
 *	readers 1
 *	reads 1
 *	batch 2
 *	sizes 1,-2,3,4		(only when given)
 *	tasks 2, forks 1, algo bounded	(oom only)
 *	schedule 0 0 1 2 ...
 *	preemptions 1
 *	expect settled_window
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "xp.h"
#include "memmodel.h"

int xp_schedule_save(const char *path, const struct xp_cfg *cfg, const struct xp_run *r)
{
	FILE *f = fopen(path, "w");
	unsigned int i;

	if (!f)
		return -1;
	fprintf(f, "# hpcc-stress explore schedule (docs/explore.md)\n");
	fprintf(f, "harness %s\ncpus %u\nadds %u\nreaders %u\nreads %u\nbatch %lu\n",
		cfg->harness, cfg->cpus, cfg->adds, cfg->readers, cfg->reads, cfg->batch);
	if (cfg->plant)
		fprintf(f, "plant 1\n");
	if (xp_mm != XP_MM_SC)
		fprintf(f, "memory-model %s\n", xp_mm_name());
	if (!strcmp(cfg->harness, "oom"))
		fprintf(f, "tasks %u\nforks %u\nalgo %s\n", cfg->tasks, cfg->forks, cfg->algo);
	if (cfg->nr_sizes) {
		fprintf(f, "sizes ");
		for (i = 0; i < cfg->nr_sizes; i++)
			fprintf(f, "%s%ld", i ? "," : "", cfg->sizes[i]);
		fprintf(f, "\n");
	}
	fprintf(f, "schedule");
	for (i = 0; i < r->prefix_len; i++)
		fprintf(f, " %u", r->choice[i]);
	fprintf(f, "\npreemptions %u\nexpect %s\n", r->preemptions, r->invariant);
	return fclose(f) ? -1 : 0;
}

int xp_parse_sizes(const char *s, struct xp_cfg *cfg);

static int parse_uint(const char *v, unsigned long max, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(v, &end, 10);
	return errno || end == v || (*end && *end != '\n') || *out > max || *v == '-' ? -1 : 0;
}

int xp_schedule_load(const char *path, struct xp_cfg *cfg, struct xp_run *r)
{
	FILE *f = fopen(path, "r");
	char line[16384], *key, *val, *tok;
	unsigned long u;
	int lineno = 0;

	if (!f) {
		fprintf(stderr, "explore: cannot read %s\n", path);
		return -1;
	}
	memset(r, 0, sizeof(*r));
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		line[strcspn(line, "\n#")] = '\0';
		key = strtok(line, " \t");
		if (!key)
			continue;
		val = strtok(NULL, "");
		if (!val && !strcmp(key, "schedule"))
			continue;	/* the default schedule */
		if (!val)
			goto bad;
		val += strspn(val, " \t");
		if (!strcmp(key, "harness")) {
			const struct xp_harness *h = xp_harness_find(val);

			if (!h)
				goto bad;
			cfg->harness = h->name;
		} else if (!strcmp(key, "tasks") && !parse_uint(val, 3, &u) && u >= 2) {
			cfg->tasks = (unsigned int)u;
		} else if (!strcmp(key, "forks") && !parse_uint(val, 1, &u)) {
			cfg->forks = (unsigned int)u;
		} else if (!strcmp(key, "algo")) {
			/* Checked by the harness's init; kept past this line's buffer. */
			cfg->algo = strdup(val);
			if (!cfg->algo)
				goto bad;
		} else if (!strcmp(key, "cpus") && !parse_uint(val, 64, &u)) {
			cfg->cpus = (unsigned int)u;
		} else if (!strcmp(key, "adds") && !parse_uint(val, XP_MAX_ADDS, &u)) {
			cfg->adds = (unsigned int)u;
		} else if (!strcmp(key, "readers") && !parse_uint(val, XP_MAX_FIBERS, &u)) {
			cfg->readers = (unsigned int)u;
		} else if (!strcmp(key, "reads") && !parse_uint(val, 64, &u)) {
			cfg->reads = (unsigned int)u;
		} else if (!strcmp(key, "batch") && !parse_uint(val, 1UL << 30, &u)) {
			cfg->batch = u;
		} else if (!strcmp(key, "plant") && !parse_uint(val, 1, &u)) {
			cfg->plant = u;
		} else if (!strcmp(key, "memory-model") && xp_mm_parse(val) >= 0) {
			xp_mm = (enum xp_model)xp_mm_parse(val);
		} else if (!strcmp(key, "sizes")) {
			if (xp_parse_sizes(val, cfg))
				goto bad;
		} else if (!strcmp(key, "schedule")) {
			for (tok = strtok(val, " \t"); tok; tok = strtok(NULL, " \t")) {
				if (parse_uint(tok, XP_MAX_FIBERS - 1, &u) || r->len >= XP_MAX_STEPS)
					goto bad;
				r->choice[r->len++] = (unsigned char)u;
			}
			r->prefix_len = r->len;
		} else if (!strcmp(key, "preemptions") && !parse_uint(val, XP_MAX_STEPS, &u)) {
			r->preemptions = (unsigned int)u;
		} else if (!strcmp(key, "expect")) {
			snprintf(r->invariant, sizeof(r->invariant), "%s", val);
		} else {
			goto bad;
		}
	}
	fclose(f);
	return 0;
bad:
	fprintf(stderr, "explore: %s:%d: bad line\n", path, lineno);
	fclose(f);
	return -1;
}
