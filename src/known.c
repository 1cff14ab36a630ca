// SPDX-License-Identifier: GPL-2.0
/*
 * Known findings (docs/stress.md#known-findings). A finding's signature is
 * its scenario, invariant, class and the kernel function that answered
 * (where the check knows it). A failure whose signature --known names is
 * counted, a few of its messages kept, and the run goes on checking every
 * other invariant to its end; only a new signature fails it. --findings-out
 * writes the signatures the runs met, in the format --known reads, so that
 * one run's findings are the next one's known ones.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util/json.h"
#include "config.h"
#include "output.h"
#include "parse.h"
#include "registry.h"
#include "replay.h"
#include "run.h"
#include "known.h"

#define KNOWN_MAX		256	/* signatures in a file, and met by one invocation */
#define KNOWN_MAX_BYTES		(1 << 20)

/* The invocation's tally for --findings-out (the controller's thread only). */
static struct {
	struct stress_sig sig;
	bool known;
	unsigned long long hits;
	char first[256];
} all[KNOWN_MAX];
static unsigned int nr_all;

static bool sig_eq(const struct stress_sig *a, const struct stress_sig *b)
{
	return a->cls == b->cls && !strcmp(a->scenario, b->scenario) &&
	       !strcmp(a->invariant, b->invariant) && !strcmp(a->fn, b->fn);
}

static void sig_set(struct stress_sig *g, const char *sc, const char *inv, int cls,
		    const char *fn)
{
	snprintf(g->scenario, sizeof(g->scenario), "%s", sc);
	snprintf(g->invariant, sizeof(g->invariant), "%s", inv);
	g->cls = cls;
	snprintf(g->fn, sizeof(g->fn), "%s", fn && *fn ? fn : "-");
}

/* --- reading --known --- */

static bool ident(const char *s)
{
	if (!*s || !(islower((unsigned char)*s) || *s == '_'))
		return false;
	for (; *s; s++)
		if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) || *s == '_'))
			return false;
	return true;
}

static int parse_class(const char *s)
{
	int c;

	for (c = 0; c < NR_FAIL_CLASSES; c++)
		if (!strcmp(s, fail_class_name(c)))
			return c;
	return -1;
}

/* One "finding ..." line into @g: NULL, or what is wrong with it. */
static const char *parse_finding(char *line, struct stress_sig *g)
{
	char *f[8], *p = line, *end;
	unsigned int n = 0;
	int cls;

	while (*p) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		if (n == 8)
			return "too many fields (finding SCENARIO INVARIANT CLASS FUNCTION HITS)";
		f[n++] = p;
		while (*p && *p != ' ')
			p++;
		if (*p)
			*p++ = 0;
	}
	if (n != 6 || strcmp(f[0], "finding"))
		return "expected 'finding SCENARIO INVARIANT CLASS FUNCTION HITS'";
	if (!scenario_find(f[1]))
		return "unknown scenario (see --list)";
	if (!stress_invariant_known(f[2]))
		return "unknown invariant";
	if (!strcmp(f[2], "watchdog"))
		return "a hang (watchdog) cannot be a known finding";
	cls = parse_class(f[3]);
	if (cls < 0)
		return "class must be contract, wrong-answer or crash";
	if (strcmp(f[4], "-") && (!ident(f[4]) || strlen(f[4]) >= sizeof(g->fn)))
		return "function must be a C identifier or '-'";
	errno = 0;
	if (!isdigit((unsigned char)*f[5]) || (strtoull(f[5], &end, 10), *end) || errno)
		return "hits must be a decimal count";
	sig_set(g, f[1], stress_invariant_canonical(f[2]), cls, f[4]);
	return NULL;
}

int known_load(struct stress_config *cfg, const char *path)
{
	struct stress_sig *sigs = NULL, g;
	char line[600], esc[128];
	const char *why = NULL;
	unsigned int lineno = 0, n = 0, i;
	struct stat st;
	FILE *f;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "stress: --known %s: %s\n", stress_escape(path, esc, sizeof(esc)),
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > KNOWN_MAX_BYTES) {
		fprintf(stderr, "stress: --known %s: %s\n", stress_escape(path, esc, sizeof(esc)),
			S_ISREG(st.st_mode) ? "larger than 1 MiB" : "not a regular file");
		close(fd);
		return -1;
	}
	f = fdopen(fd, "r");
	sigs = calloc(KNOWN_MAX, sizeof(*sigs));
	if (!f || !sigs) {
		fprintf(stderr, "stress: --known: out of memory\n");
		free(sigs);
		if (f)
			fclose(f);
		else
			close(fd);
		return -1;
	}
	while (!why && fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);

		lineno++;
		if (len && line[len - 1] == '\n')
			line[--len] = 0;
		else if (!feof(f))
			why = "line longer than 512 characters";
		if (!why && (len > 512 || strlen(line) != len || !stress_printable(line)))
			why = "not a line of printable text";
		if (why)
			break;
		if (lineno == 1) {
			if (strcmp(line, STRESS_FINDINGS_HEADER))
				why = "the first line must be '" STRESS_FINDINGS_HEADER "'";
			continue;
		}
		if (!*line || *line == '#')
			continue;
		why = parse_finding(line, &g);
		if (why)
			break;
		for (i = 0; i < n; i++)
			if (sig_eq(&sigs[i], &g))
				why = "the same signature twice";
		if (!why && n == KNOWN_MAX)
			why = "more than 256 findings";
		if (!why)
			sigs[n++] = g;
	}
	if (!why && ferror(f))
		why = strerror(errno);
	if (!why && !lineno)
		why = "empty (the first line must be '" STRESS_FINDINGS_HEADER "')";
	fclose(f);
	if (why) {
		fprintf(stderr, "stress: --known %s:%u: %s\n", stress_escape(path, esc, sizeof(esc)),
			lineno, why);
		free(sigs);
		return -1;
	}
	cfg->known = sigs;
	cfg->nr_known = n;
	return 0;
}

int findings_prepare(struct stress_config *cfg)
{
	static struct stress_out out;

	if (!cfg->findings_file)
		return 0;
	if (stress_out_prepare(&out, cfg->findings_file))
		return -1;
	cfg->findings_out = &out;
	return 0;
}

/* --- counting --- */

static bool is_known(const struct stress_config *cfg, const struct stress_sig *g)
{
	unsigned int i;

	for (i = 0; i < cfg->nr_known; i++)
		if (sig_eq(&cfg->known[i], g))
			return true;
	return false;
}

bool known_count(struct stress *s, int cls, const char *invariant, const char *fn,
		 const char *msg, bool wd)
{
	struct stress_found *fd = NULL;
	struct stress_sig g;
	unsigned int i;
	bool known;

	sig_set(&g, s->run.sc->name, invariant, cls, fn);
	/* A hang is never known: the run cannot go on past it. */
	known = !wd && s->run.cfg && is_known(s->run.cfg, &g);
	for (i = 0; i < s->found.nr; i++)
		if (sig_eq(&s->found.sigs[i].sig, &g))
			fd = &s->found.sigs[i];
	if (!fd && s->found.nr < STRESS_MAX_FOUND) {
		fd = &s->found.sigs[s->found.nr++];
		fd->sig = g;
		fd->known = known;
	}
	if (!fd)
		return known;
	if (!fd->hits++ && known)
		fprintf(stderr, "stress: %s: known finding %s/%s/%s (counted, the run goes on): "
			"%s\n", s->run.sc->name, g.invariant, fail_class_name(cls), g.fn, msg);
	if (fd->nr_sample < (known ? STRESS_KNOWN_SAMPLE : 1))
		snprintf(fd->sample[fd->nr_sample++], sizeof(fd->sample[0]), "%s", msg);
	return known;
}

unsigned int known_hits(const struct stress *s, unsigned long *hits)
{
	unsigned int i, n = 0;

	*hits = 0;
	for (i = 0; i < s->found.nr; i++) {
		if (!s->found.sigs[i].known)
			continue;
		n++;
		*hits += s->found.sigs[i].hits;
	}
	return n;
}

void known_verdict(const struct stress *s, char *buf, size_t len, int n)
{
	unsigned long hits;
	unsigned int k = known_hits(s, &hits);

	if (k && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - n, " known=%u (%lu hits)", k, hits);
}

void known_report(const struct stress *s, FILE *out)
{
	const struct stress_found *fd;
	unsigned int i, j;

	for (i = 0; i < s->found.nr; i++) {
		fd = &s->found.sigs[i];
		if (!fd->known)
			continue;
		fprintf(out, "# known %s/%s/%s hits=%lu (counted; every other check went on)\n",
			fd->sig.invariant, fail_class_name(fd->sig.cls), fd->sig.fn, fd->hits);
		for (j = 0; j < fd->nr_sample; j++)
			fprintf(out, "#   e.g. %s\n", fd->sample[j]);
	}
}

void known_report_json(const struct stress *s, struct json *j)
{
	const struct stress_found *fd;
	unsigned int i, k;

	json_karr_begin(j, "known");
	for (i = 0; i < s->found.nr; i++) {
		fd = &s->found.sigs[i];
		if (!fd->known)
			continue;
		json_obj_begin(j);
		json_kstr(j, "invariant", fd->sig.invariant);
		json_kstr(j, "class", fail_class_name(fd->sig.cls));
		json_kstr(j, "function", fd->sig.fn);
		json_ku64(j, "hits", fd->hits);
		json_karr_begin(j, "sample");
		for (k = 0; k < fd->nr_sample; k++)
			json_str(j, fd->sample[k]);
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
}

/* --- --findings-out --- */

void findings_collect(const struct stress *s)
{
	const struct stress_found *fd;
	unsigned int i, k;

	for (i = 0; i < s->found.nr; i++) {
		fd = &s->found.sigs[i];
		for (k = 0; k < nr_all && !sig_eq(&all[k].sig, &fd->sig); k++)
			;
		if (k == nr_all) {
			if (nr_all == KNOWN_MAX)
				continue;
			nr_all++;
			all[k].sig = fd->sig;
			all[k].known = fd->known;
			snprintf(all[k].first, sizeof(all[k].first), "%s",
				 fd->nr_sample ? fd->sample[0] : "");
		}
		all[k].hits += fd->hits;
	}
}

int findings_save(const struct stress_config *cfg)
{
	char esc[300];
	unsigned int k;
	FILE *f;

	if (!cfg->findings_out)
		return 0;
	f = stress_out_begin(cfg->findings_out);
	if (!f)
		return -1;
	fprintf(f, STRESS_FINDINGS_HEADER "\n"
		"# finding SCENARIO INVARIANT CLASS FUNCTION HITS; read by ./stress --known\n");
	for (k = 0; k < nr_all; k++) {
		fprintf(f, "# %s: %s\n", all[k].known ? "known" : "new",
			stress_escape(all[k].first, esc, sizeof(esc)));
		fprintf(f, "finding %s %s %s %s %llu\n", all[k].sig.scenario, all[k].sig.invariant,
			fail_class_name(all[k].sig.cls), all[k].sig.fn, all[k].hits);
	}
	return stress_out_commit(cfg->findings_out);
}
