// SPDX-License-Identifier: GPL-2.0
/*
 * Replay files (text, versioned; format in docs/regress.md) and
 * ./stress --replay FILE: load, run serially, report, and with
 * --replay-out write the file tightened to the failure.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/percpu_counter_tree.h>
#include <kcompat/kcompat.h>
#include "replay.h"

void replay_init(struct replay *rp)
{
	memset(rp, 0, sizeof(*rp));
	rp->nr_cpus = 8;
	rp->nr_selectors = 2;
	rp->batch = 32;
	rp->sched_seed = 1;
	rp->preempt = 0.05;
	rp->hop = 0.01;
	rp->selector_share = 0.25;
	rp->stutter_min = 256;
	rp->stutter_max = 4096;
	rp->steps = REPLAY_DEF_STEPS;
}

void replay_free(struct replay *rp)
{
	free(rp->ops);
	rp->ops = NULL;
}

int replay_copy(struct replay *dst, const struct replay *src)
{
	*dst = *src;
	dst->ops = NULL;
	if (!src->ops)
		return 0;
	dst->ops = malloc(sizeof(*dst->ops) * src->nr_cpus);
	if (!dst->ops)
		return -1;
	memcpy(dst->ops, src->ops, sizeof(*dst->ops) * src->nr_cpus);
	return 0;
}

unsigned long replay_total_ops(const struct replay *rp)
{
	unsigned long n = 0;
	unsigned int i;

	if (!rp->ops)
		return REPLAY_NO_CAP;
	for (i = 0; i < rp->nr_cpus; i++)
		n += rp->ops[i];
	return n;
}

void replay_write(FILE *out, const struct replay *rp)
{
	unsigned int i;

	fprintf(out, "# hpcc-stress replay file: ./stress --replay FILE (docs/regress.md)\n");
	fprintf(out, "hpcc-stress-replay %d\n", REPLAY_VERSION);
	fprintf(out, "scenario %s\n", rp->scenario);
	fprintf(out, "args%s%s\n", rp->args[0] && rp->args[0] != ' ' ? " " : "", rp->args);
	fprintf(out, "seed %llu\ncpus %u\nbatch %lu\nselectors %u\n", rp->seed, rp->nr_cpus,
		rp->batch, rp->nr_selectors);
	fprintf(out, "sched-seed %llu\npreempt %.17g\nhop %.17g\nselector-share %.17g\n",
		rp->sched_seed, rp->preempt, rp->hop, rp->selector_share);
	if (rp->stutter_min)
		fprintf(out, "stutter %lu-%lu\n", rp->stutter_min, rp->stutter_max);
	else
		fprintf(out, "stutter off\n");
	fprintf(out, "steps %lu\n", rp->steps);
	fprintf(out, "ops");
	if (!rp->ops)
		fprintf(out, " none");
	for (i = 0; rp->ops && i < rp->nr_cpus; i++)
		fprintf(out, " %lu", rp->ops[i]);
	fprintf(out, "\n");
	if (rp->expect[0])
		fprintf(out, "expect %s\n", rp->expect);
	if (rp->origin[0])
		fprintf(out, "origin %s\n", rp->origin);
	if (rp->has_result)
		fprintf(out, "# outcome: verdict invariant fail-step hops preempts quiescent "
			"(ops above: operations started)\noutcome %s %s %lu %lu %lu %lu\n",
			rp->failed ? "fail" : "pass", rp->failed ? rp->invariant : "-",
			rp->fail_step, rp->hops, rp->preempts, rp->quiescent);
}

int replay_save(const char *path, const struct replay *rp)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp%d", path, (int)getpid());
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	replay_write(f, rp);
	if (ferror(f) | fclose(f) || rename(tmp, path)) {
		remove(tmp);
		return -1;
	}
	return 0;
}

static int parse_u64(const char *v, unsigned long long max, unsigned long long *out)
{
	char *end;

	if (!isdigit((unsigned char)*v))
		return -1;
	errno = 0;
	*out = strtoull(v, &end, 10);
	return errno || *end || *out > max ? -1 : 0;
}

static int parse_prob(const char *v, double *out)
{
	char *end;

	if (!isdigit((unsigned char)*v) && *v != '.')
		return -1;
	errno = 0;
	*out = strtod(v, &end);
	return errno || *end || !(*out >= 0 && *out <= 1) ? -1 : 0;
}

static int parse_ops(const char *v, struct replay *rp, unsigned long *count)
{
	unsigned long *ops, n = 0, cap = 64;
	unsigned long long x;
	char *end;

	if (!strcmp(v, "none")) {
		replay_free(rp);
		return 0;
	}
	ops = malloc(sizeof(*ops) * cap);
	while (ops && *v) {
		if (!isdigit((unsigned char)*v))
			break;
		errno = 0;
		x = strtoull(v, &end, 10);
		if (errno || (*end && *end != ' '))
			break;
		if (n == cap) {
			unsigned long *p = realloc(ops, sizeof(*ops) * (cap *= 2));

			if (!p)
				break;
			ops = p;
		}
		ops[n++] = x;
		v = end;
		while (*v == ' ')
			v++;
	}
	if (!ops || *v || !n) {
		free(ops);
		return -1;
	}
	replay_free(rp);
	rp->ops = ops;
	*count = n;		/* checked against cpus by the caller */
	return 0;
}

static int set_key(struct replay *rp, const char *k, const char *v, unsigned long *nr_ops)
{
	unsigned long long x, y;
	const char *dash;

	if (!strcmp(k, "scenario"))
		return snprintf(rp->scenario, sizeof(rp->scenario), "%s", v) >=
		       (int)sizeof(rp->scenario) || !*v ? -1 : 0;
	if (!strcmp(k, "args"))
		return snprintf(rp->args, sizeof(rp->args), "%s%s", *v ? " " : "", v) >=
		       (int)sizeof(rp->args) ? -1 : 0;
	if (!strcmp(k, "seed"))
		return parse_u64(v, ~0ULL, &rp->seed);
	if (!strcmp(k, "sched-seed"))
		return parse_u64(v, ~0ULL, &rp->sched_seed);
	if (!strcmp(k, "cpus")) {
		if (parse_u64(v, NR_CPUS, &x) || !x)
			return -1;
		rp->nr_cpus = x;
		return 0;
	}
	if (!strcmp(k, "batch")) {
		if (parse_u64(v, STRESS_MAX_BATCH, &x) || x < 2 || (x & (x - 1)))
			return -1;
		rp->batch = x;
		return 0;
	}
	if (!strcmp(k, "selectors")) {
		if (parse_u64(v, STRESS_MAX_SELECTORS, &x))
			return -1;
		rp->nr_selectors = x;
		return 0;
	}
	if (!strcmp(k, "preempt"))
		return parse_prob(v, &rp->preempt);
	if (!strcmp(k, "hop"))
		return parse_prob(v, &rp->hop);
	if (!strcmp(k, "selector-share"))
		return parse_prob(v, &rp->selector_share);
	if (!strcmp(k, "stutter")) {
		if (!strcmp(v, "off")) {
			rp->stutter_min = rp->stutter_max = 0;
			return 0;
		}
		dash = strchr(v, '-');
		if (!dash || dash - v > 20)
			return -1;
		{
			char lo[24];

			memcpy(lo, v, dash - v);
			lo[dash - v] = 0;
			if (parse_u64(lo, ~0UL, &x) || parse_u64(dash + 1, ~0UL, &y) || !x || y < x)
				return -1;
		}
		rp->stutter_min = x;
		rp->stutter_max = y;
		return 0;
	}
	if (!strcmp(k, "steps")) {
		if (parse_u64(v, ~0UL, &x))
			return -1;
		rp->steps = x;
		return 0;
	}
	if (!strcmp(k, "ops")) {
		*nr_ops = 0;
		return parse_ops(v, rp, nr_ops);
	}
	if (!strcmp(k, "expect"))
		return snprintf(rp->expect, sizeof(rp->expect), "%s", v) >=
		       (int)sizeof(rp->expect) ? -1 : 0;
	if (!strcmp(k, "outcome")) {
		char verdict[8], inv[64];

		if (sscanf(v, "%7s %63s %lu %lu %lu %lu", verdict, inv, &rp->fail_step, &rp->hops,
			   &rp->preempts, &rp->quiescent) != 6 ||
		    (strcmp(verdict, "fail") && strcmp(verdict, "pass")))
			return -1;
		rp->has_result = true;
		rp->failed = !strcmp(verdict, "fail");
		snprintf(rp->invariant, sizeof(rp->invariant), "%s", rp->failed ? inv : "");
		return 0;
	}
	if (!strcmp(k, "origin")) {
		snprintf(rp->origin, sizeof(rp->origin), "%s", v);
		return 0;
	}
	return -2;
}

int replay_load(const char *path, struct replay *rp, char *err, size_t errlen)
{
	char *line = NULL, *k, *v, *p;
	unsigned long nr_ops = 0;
	size_t cap = 0;
	ssize_t n;
	int lineno = 0, rc;
	bool header = false, have_seed = false;
	FILE *f = fopen(path, "r");

	replay_init(rp);
	if (!f) {
		snprintf(err, errlen, "cannot open replay file '%s': %s", path, strerror(errno));
		return -1;
	}
	while ((n = getline(&line, &cap, f)) >= 0) {
		lineno++;
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' '))
			line[--n] = 0;
		k = line;
		while (*k == ' ' || *k == '\t')
			k++;
		if (!*k || *k == '#')
			continue;
		p = k + strcspn(k, " \t");
		v = p;
		if (*p) {
			*p = 0;
			v = p + 1;
			while (*v == ' ' || *v == '\t')
				v++;
		}
		if (!header) {
			if (strcmp(k, "hpcc-stress-replay") || strcmp(v, "1")) {
				snprintf(err, errlen, "%s:%d: not a version %d replay file (first line "
					 "must be 'hpcc-stress-replay %d')", path, lineno,
					 REPLAY_VERSION, REPLAY_VERSION);
				goto fail;
			}
			header = true;
			continue;
		}
		rc = set_key(rp, k, v, &nr_ops);
		if (rc == -2) {
			snprintf(err, errlen, "%s:%d: unknown key '%s'", path, lineno, k);
			goto fail;
		}
		if (rc) {
			snprintf(err, errlen, "%s:%d: bad value for '%s': '%.60s'", path, lineno, k, v);
			goto fail;
		}
		have_seed |= !strcmp(k, "seed");
	}
	if (!header || !rp->scenario[0] || !have_seed) {
		snprintf(err, errlen, "%s: %s", path, !header ? "empty or not a replay file" :
			 "missing 'scenario' or 'seed'");
		goto fail;
	}
	if (rp->ops && nr_ops != rp->nr_cpus) {
		snprintf(err, errlen, "%s: 'ops' lists %lu CPUs, 'cpus' says %u", path, nr_ops,
			 rp->nr_cpus);
		goto fail;
	}
	free(line);
	fclose(f);
	return 0;
fail:
	free(line);
	fclose(f);
	replay_free(rp);
	return -1;
}

/* The configuration @rp describes, through the ordinary option parser. */
static int replay_config(const struct stress_config *cli, const struct replay *rp,
			 struct stress_config *cfg)
{
	char *argv[96], buf[5][32], args[sizeof(rp->args)], *tok, *save;
	enum stress_action act;
	int argc = 0;

	argv[argc++] = (char *)cli->argv0;
	argv[argc++] = "--scenario";
	argv[argc++] = (char *)rp->scenario;
	snprintf(buf[0], sizeof(buf[0]), "%u", rp->nr_cpus);
	snprintf(buf[1], sizeof(buf[1]), "%lu", rp->batch);
	snprintf(buf[2], sizeof(buf[2]), "%u", rp->nr_selectors);
	snprintf(buf[3], sizeof(buf[3]), "%llu", rp->seed);
	argv[argc++] = "--cpus";
	argv[argc++] = buf[0];
	argv[argc++] = "--batch";
	argv[argc++] = buf[1];
	argv[argc++] = "--selectors";
	argv[argc++] = buf[2];
	argv[argc++] = "--seed";
	argv[argc++] = buf[3];
	snprintf(args, sizeof(args), "%s", rp->args);
	for (tok = strtok_r(args, " ", &save); tok && argc < 94; tok = strtok_r(NULL, " ", &save)) {
		char *q = strchr(tok, '\'');

		/* --name='value' as cli.c quotes it (values without spaces) */
		if (q && tok[strlen(tok) - 1] == '\'') {
			memmove(q, q + 1, strlen(q));
			tok[strlen(tok) - 1] = 0;
		}
		argv[argc++] = tok;
	}
	argv[argc] = NULL;
	if (stress_cli_parse(argc, argv, cfg, &act))
		return -1;
	cfg->argv0 = cli->argv0;
	cfg->rcu = cli->rcu;
	cfg->report = cli->report;
	cfg->json_file = cli->json_file;
	cfg->verbose = cli->verbose;
	cfg->stall_timeout = cli->stall_timeout;
	cfg->stat_interval = 0;
	cfg->duration = 0;
	snprintf(cfg->inject.text, sizeof(cfg->inject.text), "serial");
	snprintf(cfg->stutter.text, sizeof(cfg->stutter.text), "%lu-%lu-steps",
		 rp->stutter_min, rp->stutter_max);
	return 0;
}

static void free_stress(struct stress *s)
{
	unsigned int i;

	for (i = 0; i < s->nr_failures; i++)
		free(s->failures[i].excerpt);
	free(s->sc_text);
	free(s->sc_json);
	recorder_free(s->rec);
	free(s->threads);
	free(s);
}

static bool tsan_build(void)
{
#ifdef KC_TSAN
	return true;
#else
	return false;
#endif
}

int stress_replay_main(const struct stress_config *cli)
{
	static struct stress_config cfg;
	struct replay rp, out;
	struct stress *s;
	FILE *body = NULL, *human;
	char *body_buf = NULL, err[512];
	size_t body_len = 0;
	int rc;

	if (tsan_build()) {
		fprintf(stderr, "stress: --replay is not supported in ThreadSanitizer builds "
			"(fibers); use a plain or ASan build\n");
		return STRESS_EXIT_USAGE;
	}
	if (replay_load(cli->replay_file, &rp, err, sizeof(err))) {
		fprintf(stderr, "stress: %s\n", err);
		return STRESS_EXIT_USAGE;
	}
	if (!scenario_find(rp.scenario)) {
		fprintf(stderr, "stress: %s: unknown scenario '%s' (see --list)\n",
			cli->replay_file, rp.scenario);
		replay_free(&rp);
		return STRESS_EXIT_USAGE;
	}
	if (replay_config(cli, &rp, &cfg)) {
		replay_free(&rp);
		return STRESS_EXIT_USAGE;
	}
	if (kc_set_nr_cpu_ids(cfg.nr_cpus) || percpu_counter_tree_subsystem_init()) {
		fprintf(stderr, "stress: hpcc subsystem init failed for %u CPUs\n", cfg.nr_cpus);
		return STRESS_EXIT_INTERNAL;
	}
	kc_set_cpu(0);
	kc_rcu_register_thread();
	human = cfg.report == REPORT_JSON ? stderr : stdout;
	if (cfg.json_file || cfg.report == REPORT_JSON) {
		body = open_memstream(&body_buf, &body_len);
		if (!body)
			return STRESS_EXIT_INTERNAL;
		report_json_begin(&cfg, body);
	}
	report_begin(&cfg, 1, stdout);
	fprintf(human, "%sstress: replay %s: serial, sched-seed=%llu steps=%lu preempt=%g hop=%g "
		"selector-share=%g ops-cap=%s\n", cfg.report == REPORT_KTAP ? "# " : "",
		cli->replay_file, rp.sched_seed, rp.steps, rp.preempt, rp.hop, rp.selector_share,
		rp.ops ? "per-cpu" : "none");
	s = calloc(1, sizeof(*s));
	if (!s)
		return STRESS_EXIT_INTERNAL;
	s->cfg = &cfg;
	s->sc = scenario_find(rp.scenario);
	s->seed = rp.seed;
	if (replay_copy(&out, &rp))
		return STRESS_EXIT_INTERNAL;
	rc = serial_run(s, &out);
	snprintf(s->reproducer, sizeof(s->reproducer), "%s --replay %s", cfg.argv0,
		 cli->replay_file);
	fprintf(human, "%sstress: replay outcome: %s%s%s at step %lu of %lu; ops=%lu hops=%lu "
		"preempts=%lu quiescent=%lu%s%s\n", cfg.report == REPORT_KTAP ? "# " : "",
		out.failed ? "FAIL" : "PASS", out.failed ? " invariant=" : "", out.invariant,
		out.fail_step, rp.steps, replay_total_ops(&out), out.hops, out.preempts,
		out.quiescent, rp.expect[0] && strcmp(rp.expect, out.invariant) ?
		" (expected invariant " : "", rp.expect[0] && strcmp(rp.expect, out.invariant) ?
		rp.expect : "");
	report_run(s, 1, stdout);
	if (body) {
		report_json_run(s, true, body);
		report_json_end(rc, body);
		fclose(body);
		if (cfg.report == REPORT_JSON)
			fwrite(body_buf, 1, body_len, stdout);
		if (cfg.json_file) {
			FILE *f = fopen(cfg.json_file, "w");

			if (!f || fwrite(body_buf, 1, body_len, f) != body_len || fclose(f)) {
				fprintf(stderr, "stress: cannot write %s\n", cfg.json_file);
				rc = STRESS_EXIT_INTERNAL;
			}
		}
		free(body_buf);
	}
	if (cli->replay_out) {
		snprintf(out.origin, sizeof(out.origin), "replay of %s%s", cli->replay_file,
			 out.failed ? ", tightened to the failure" : "");
		if (replay_save(cli->replay_out, &out)) {
			fprintf(stderr, "stress: cannot write %s\n", cli->replay_out);
			rc = STRESS_EXIT_INTERNAL;
		}
	}
	fflush(stdout);
	replay_free(&rp);
	replay_free(&out);
	free_stress(s);
	return rc;
}
