// SPDX-License-Identifier: GPL-2.0
/*
 * Replay files: the text format (docs/regress.md), its writer and a
 * strict, bounded reader. The reader is a pure function of the bytes
 * (fuzzed by fuzz/replay_parse.c): a file it accepts describes one
 * consistent configuration (every key present once, every value in
 * range, per-CPU data sized by 'cpus', scenario options only in 'args'),
 * so nothing the replay allocates from one field is indexed by another.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "config.h"
#include "output.h"
#include "registry.h"
#include "replay.h"
#include "signals.h"

enum replay_key {
	K_SCENARIO, K_ARGS, K_SEED, K_CPUS, K_BATCH, K_SELECTORS, K_SCHED_SEED,
	K_PREEMPT, K_HOP, K_SHARE, K_STUTTER, K_STEPS, K_OPS,
	K_EXPECT, K_ORIGIN, K_OUTCOME, K_HOTPLUG, K_END, NR_KEYS
};

/* Keys before K_EXPECT are required: a file without one is truncated. */
#define REQUIRED_KEYS	((1U << K_EXPECT) - 1)

static const struct {
	const char *name;
	const char *range;	/* for the error message */
} keys[NR_KEYS] = {
	[K_SCENARIO] = { "scenario", "a registered scenario (--list)" },
	[K_ARGS] = { "args", "options of the file's scenario, --name or --name=value" },
	[K_SEED] = { "seed", "0..2^64-1" },
	[K_CPUS] = { "cpus", "1..NR_CPUS" },
	[K_BATCH] = { "batch", "a power of two, 2..2^24" },
	[K_SELECTORS] = { "selectors", "0..1024" },
	[K_SCHED_SEED] = { "sched-seed", "0..2^64-1" },
	[K_PREEMPT] = { "preempt", "a probability, 0..1" },
	[K_HOP] = { "hop", "a probability, 0..1" },
	[K_SHARE] = { "selector-share", "a probability, 0..1" },
	[K_STUTTER] = { "stutter", "off or MIN-MAX steps, 1 <= MIN <= MAX" },
	[K_STEPS] = { "steps", "1..10^12" },
	[K_OPS] = { "ops", "none, or one count per CPU, each at most 'steps'" },
	[K_EXPECT] = { "expect", "an invariant some run reports (--list-invariants)" },
	[K_ORIGIN] = { "origin", "text" },
	[K_OUTCOME] = { "outcome", "pass|fail INVARIANT|- FAIL-STEP HOPS PREEMPTS QUIESCENT" },
	[K_HOTPLUG] = { "hotplug", "a probability per quiescent point, 0..1 (absent: 0)" },
	[K_END] = { "end", "nothing" },
};

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

/* Free text goes into one line: what the reader refuses becomes '?'. */
static void write_text(FILE *out, const char *key, const char *text)
{
	fprintf(out, "%s ", key);
	for (; *text; text++)
		fputc((*text >= 0x20 && *text < 0x7f) || *text == '\t' ? *text : '?', out);
	fputc('\n', out);
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
	if (rp->hotplug)
		fprintf(out, "hotplug %.17g\n", rp->hotplug);
	fprintf(out, "steps %lu\n", rp->steps);
	fprintf(out, "ops");
	if (!rp->ops)
		fprintf(out, " none");
	for (i = 0; rp->ops && i < rp->nr_cpus; i++)
		fprintf(out, " %lu", rp->ops[i]);
	fprintf(out, "\n");
	if (rp->expect[0])
		write_text(out, "expect", rp->expect);
	if (rp->origin[0])
		write_text(out, "origin", rp->origin);
	if (rp->has_result)
		fprintf(out, "# outcome: verdict invariant fail-step hops preempts quiescent "
			"(ops above: operations started)\noutcome %s %s %lu %lu %lu %lu\n",
			rp->failed ? "fail" : "pass", rp->failed ? rp->invariant : "-",
			rp->fail_step, rp->hops, rp->preempts, rp->quiescent);
	fprintf(out, "end\n");
}

int replay_save(const char *path, const struct replay *rp)
{
	char tmp[4096];
	int err = 0;
	FILE *f;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp%d", path, (int)getpid()) >= (int)sizeof(tmp)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	errno = 0;
	replay_write(f, rp);
	if (fflush(f) || ferror(f))
		err = errno ? errno : EIO;
	if (fclose(f) && !err)
		err = errno ? errno : EIO;
	if (!err && rename(tmp, path))
		err = errno;
	if (err) {
		remove(tmp);
		errno = err;
		return -1;
	}
	return 0;
}

int replay_save_out(struct stress_out *o, const struct replay *rp)
{
	FILE *f = stress_out_begin(o);

	if (f)
		replay_write(f, rp);
	return stress_out_commit(o);
}

/* --- the reader --- */

struct parser {
	const char *name;	/* file name, for messages */
	int lineno;
	char *err;
	size_t errlen;
};

static int perr(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int perr(struct parser *p, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = p->lineno ? snprintf(p->err, p->errlen, "%s:%d: ", p->name, p->lineno) :
			snprintf(p->err, p->errlen, "%s: ", p->name);
	if (n < 0 || (size_t)n >= p->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - n, fmt, ap);
	va_end(ap);
	return -1;
}

/* @n bytes of @s for a message, as many as fit in @len: bytes not printable ASCII as \xNN. */
static const char *escaped(const char *s, size_t n, char *buf, size_t len)
{
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (o + 8 >= len) {
			memcpy(buf + o, "...", 3);
			o += 3;
			break;
		}
		if (c >= 0x20 && c < 0x7f && c != '\\')
			buf[o++] = c;
		else
			o += snprintf(buf + o, len - o, "\\x%02x", c);
	}
	buf[o] = 0;
	return buf;
}

/* Decimal digits only (no sign, no space, no base prefix), at most @max. */
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
	if (v[strspn(v, "0123456789.eE+-")])
		return -1;	/* no hex floats, nan or inf */
	errno = 0;
	*out = strtod(v, &end);
	return errno || *end || !(*out >= 0 && *out <= 1) ? -1 : 0;
}

/* "N N N ...": at most NR_CPUS counts, each at most 'steps' (checked later). */
static int parse_ops(const char *v, struct replay *rp, unsigned int *count)
{
	unsigned long long x;
	unsigned int n = 0;
	char *end;

	if (!strcmp(v, "none"))
		return 0;
	rp->ops = malloc(sizeof(*rp->ops) * NR_CPUS);
	if (!rp->ops)
		return -1;
	for (;;) {
		if (!isdigit((unsigned char)*v) || n == NR_CPUS)
			return -1;
		errno = 0;
		x = strtoull(v, &end, 10);
		if (errno || (*end && *end != ' '))
			return -1;
		rp->ops[n++] = x;
		if (!*end)
			break;
		v = end + 1;
	}
	*count = n;
	return 0;
}

static int parse_outcome(const char *v, struct replay *rp)
{
	char buf[160], *tok[7], *save;
	unsigned long long x[4];
	int n = 0, i;

	if (strlen(v) >= sizeof(buf))
		return -1;
	strcpy(buf, v);
	for (tok[n] = strtok_r(buf, " ", &save); tok[n] && n < 6; tok[++n] = strtok_r(NULL, " ", &save))
		;
	if (n != 6 || tok[6])
		return -1;
	for (i = 0; i < 4; i++)
		if (parse_u64(tok[2 + i], ~0UL, &x[i]))
			return -1;
	if (!strcmp(tok[0], "pass")) {
		if (strcmp(tok[1], "-") || x[0])
			return -1;
		rp->failed = false;
		rp->invariant[0] = 0;
	} else if (!strcmp(tok[0], "fail") && stress_invariant_known(tok[1])) {
		rp->failed = true;
		strcpy(rp->invariant, stress_invariant_canonical(tok[1]));
	} else {
		return -1;
	}
	rp->has_result = true;
	rp->fail_step = x[0];
	rp->hops = x[1];
	rp->preempts = x[2];
	rp->quiescent = x[3];
	return 0;
}

static int set_key(struct replay *rp, enum replay_key k, const char *v, unsigned int *nr_ops)
{
	unsigned long long x, y;
	const char *dash;
	char lo[24];

	switch (k) {
	case K_SCENARIO:
		if (!*v || strlen(v) >= sizeof(rp->scenario) || !scenario_find(v))
			return -1;
		strcpy(rp->scenario, v);
		return 0;
	case K_ARGS:	/* words split at spaces, checked against the scenario at the end */
		if (strchr(v, '\t'))
			return -1;
		return snprintf(rp->args, sizeof(rp->args), "%s%s", *v ? " " : "", v) >=
		       (int)sizeof(rp->args) ? -1 : 0;
	case K_SEED:
		return parse_u64(v, ~0ULL, &rp->seed);
	case K_SCHED_SEED:
		return parse_u64(v, ~0ULL, &rp->sched_seed);
	case K_CPUS:
		if (parse_u64(v, NR_CPUS, &x) || !x)
			return -1;
		rp->nr_cpus = x;
		return 0;
	case K_BATCH:
		if (parse_u64(v, STRESS_MAX_BATCH, &x) || x < 2 || (x & (x - 1)))
			return -1;
		rp->batch = x;
		return 0;
	case K_SELECTORS:
		if (parse_u64(v, STRESS_MAX_SELECTORS, &x))
			return -1;
		rp->nr_selectors = x;
		return 0;
	case K_PREEMPT:
		return parse_prob(v, &rp->preempt);
	case K_HOP:
		return parse_prob(v, &rp->hop);
	case K_SHARE:
		return parse_prob(v, &rp->selector_share);
	case K_HOTPLUG:
		return parse_prob(v, &rp->hotplug);
	case K_STUTTER:
		if (!strcmp(v, "off")) {
			rp->stutter_min = rp->stutter_max = 0;
			return 0;
		}
		dash = strchr(v, '-');
		if (!dash || (size_t)(dash - v) >= sizeof(lo))
			return -1;
		memcpy(lo, v, dash - v);
		lo[dash - v] = 0;
		if (parse_u64(lo, ~0UL, &x) || parse_u64(dash + 1, ~0UL, &y) || !x || y < x)
			return -1;
		rp->stutter_min = x;
		rp->stutter_max = y;
		return 0;
	case K_STEPS:
		if (parse_u64(v, REPLAY_MAX_STEPS, &x) || !x)
			return -1;
		rp->steps = x;
		return 0;
	case K_OPS:
		return parse_ops(v, rp, nr_ops);
	case K_EXPECT:
		if (!stress_invariant_known(v))
			return -1;
		strcpy(rp->expect, stress_invariant_canonical(v));
		return 0;
	case K_ORIGIN:
		return snprintf(rp->origin, sizeof(rp->origin), "%s", v) >=
		       (int)sizeof(rp->origin) ? -1 : 0;
	case K_OUTCOME:
		return parse_outcome(v, rp);
	case K_END:
		return *v ? -1 : 0;
	case NR_KEYS:
		break;
	}
	return -1;
}

int replay_args_argv(const char *args, char *buf, size_t len, char **argv, int max)
{
	char *tok, *save, *q;
	int n = 0;

	if (snprintf(buf, len, "%s", args) >= (int)len)
		return -1;
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		/* --name='value', as cli.c quotes a value (a value has no space) */
		q = strchr(tok, '\'');
		if (q) {
			size_t l = strlen(q);

			if (q[-1] != '=' || l < 2 || q[l - 1] != '\'' || memchr(q + 1, '\'', l - 2))
				return -1;
			memmove(q, q + 1, l - 2);
			q[l - 2] = 0;
		}
		if (n == max)
			return -1;
		argv[n++] = tok;
	}
	return n;
}

/* The option of @sc that word @w ("--name" or "--name=value") names, or NULL. */
static const struct stress_opt *scenario_opt_of(const struct scenario *sc, const char *w)
{
	const char *eq = strchr(w, '=');
	size_t n;
	int j;

	if (strncmp(w, "--", 2) || !w[2])
		return NULL;
	w += 2;
	n = eq ? (size_t)(eq - w) : strlen(w);
	for (j = 0; sc->opts && sc->opts[j].name; j++)
		if (strlen(sc->opts[j].name) == n && !strncmp(sc->opts[j].name, w, n))
			return &sc->opts[j];
	return NULL;
}

int replay_args_for(const char *args, const struct scenario *sc, char *out, size_t len)
{
	char buf[1024], *argv[REPLAY_MAX_ARGS];
	int argc, i;
	size_t o = 0;

	argc = replay_args_argv(args, buf, sizeof(buf), argv, REPLAY_MAX_ARGS);
	if (argc < 0 || !len)
		return -1;
	out[0] = 0;
	for (i = 0; i < argc; i++) {
		if (!scenario_opt_of(sc, argv[i]))
			continue;
		o += snprintf(out + o, len - o, " %s", argv[i]);
		if (o >= len)
			return -1;
	}
	return 0;
}

/* 'args': only options of @sc, each once, each accepted by its parser. */
static int check_args(struct parser *p, const struct replay *rp, const struct scenario *sc)
{
	char buf[sizeof(rp->args)], *argv[REPLAY_MAX_ARGS], why[160], esc[200];
	const struct stress_opt *used[REPLAY_MAX_ARGS];
	int argc, i, j;

	argc = replay_args_argv(rp->args, buf, sizeof(buf), argv, REPLAY_MAX_ARGS);
	if (argc < 0)
		return perr(p, "'args': more than %d words or a badly quoted value",
			    REPLAY_MAX_ARGS);
	for (i = 0; i < argc; i++) {
		const struct stress_opt *so = scenario_opt_of(sc, argv[i]);
		const char *eq = strchr(argv[i], '=');

		if (!so)
			return perr(p, "'args': '%s' is not an option of scenario %s (the keys "
				    "set the rest: cpus, batch, selectors, seed)",
				    escaped(argv[i], strlen(argv[i]), esc, sizeof(esc)), sc->name);
		for (j = 0; j < i; j++)
			if (used[j] == so)
				return perr(p, "'args': --%s given twice", so->name);
		used[i] = so;
		if (!so->arg != !eq)
			return perr(p, "'args': --%s %s", so->name,
				    so->arg ? "needs =VALUE" : "takes no value");
		snprintf(why, sizeof(why), "invalid value");
		/* The parser's message may quote the value: escape it too. */
		if (stress_opt_parse(so, sc->opt_cfg, eq ? eq + 1 : NULL, why, sizeof(why)))
			return perr(p, "'args': --%s: %s", so->name,
				    escaped(why, strlen(why), esc, sizeof(esc)));
	}
	return 0;
}

/* The file as a whole: every key present, sizes and caps consistent. */
static int check_file(struct parser *p, struct replay *rp, unsigned int seen,
		      unsigned int nr_ops, int version)
{
	struct hpcc_shape shape;
	unsigned int i;

	p->lineno = 0;
	if ((seen & REQUIRED_KEYS) != REQUIRED_KEYS || (version >= 2 && !(seen & (1U << K_END)))) {
		for (i = 0; i < NR_KEYS; i++)
			if (i != K_END && (REQUIRED_KEYS & (1U << i)) && !(seen & (1U << i)))
				break;
		return perr(p, "no '%s' line: the file is truncated or incomplete",
			    i < NR_KEYS ? keys[i].name : "end");
	}
	if (rp->ops && nr_ops != rp->nr_cpus)
		return perr(p, "'ops' lists %u CPUs, 'cpus' says %u", nr_ops, rp->nr_cpus);
	for (i = 0; rp->ops && i < rp->nr_cpus; i++)
		if (rp->ops[i] > rp->steps)
			return perr(p, "'ops': CPU %u's cap %lu is above 'steps' %lu", i,
				    rp->ops[i], rp->steps);
	if (rp->has_result && rp->fail_step > rp->steps)
		return perr(p, "'outcome': failing step %lu is above 'steps' %lu", rp->fail_step,
			    rp->steps);
	if (hpcc_shape_compute(&shape, rp->nr_cpus, rp->batch))
		return perr(p, "no hpcc tree shape for cpus %u, batch %lu", rp->nr_cpus,
			    rp->batch);
	return check_args(p, rp, scenario_find(rp->scenario));
}

/* Is byte @i of the line (length @n) text? Printable ASCII and tabs; CR only before LF. */
static bool text_byte(const char *line, size_t i, size_t n)
{
	unsigned char c = line[i];

	return (c >= 0x20 && c < 0x7f) || c == '\t' || (c == '\r' && i + 1 == n);
}

int replay_parse(const char *buf, size_t len, const char *name, struct replay *rp,
		 char *err, size_t errlen)
{
	struct parser p = { .name = name, .err = err, .errlen = errlen };
	char *text = NULL, *line, *next, *k, *v, esc[80];
	unsigned int seen = 0, nr_ops = 0, key;
	int version = 0;
	size_t n, i;

	replay_init(rp);
	if (len > REPLAY_MAX_BYTES) {
		perr(&p, "larger than %lu bytes: not a replay file", REPLAY_MAX_BYTES);
		goto fail;
	}
	text = malloc(len + 1);
	if (!text) {
		perr(&p, "out of memory");
		goto fail;
	}
	memcpy(text, buf, len);
	text[len] = 0;
	for (line = text; line < text + len; line = next) {
		next = memchr(line, '\n', text + len - line);
		p.lineno++;
		if (!next) {
			perr(&p, "no newline at the end: the file is truncated");
			goto fail;
		}
		n = next - line;
		*next++ = 0;
		for (i = 0; i < n; i++) {
			if (!text_byte(line, i, n)) {
				perr(&p, "byte 0x%02x at column %zu is not text: '%s'",
				     (unsigned char)line[i], i + 1, escaped(line, n, esc, sizeof(esc)));
				goto fail;
			}
		}
		if (p.lineno > REPLAY_MAX_LINES) {
			perr(&p, "more than %d lines: not a replay file", REPLAY_MAX_LINES);
			goto fail;
		}
		while (n && (line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '\t'))
			line[--n] = 0;
		k = line + strspn(line, " \t");
		if (!*k || *k == '#')
			continue;
		v = k + strcspn(k, " \t");
		if (*v) {
			*v++ = 0;
			v += strspn(v, " \t");
		}
		if (!version) {
			if (strcmp(k, "hpcc-stress-replay") || (strcmp(v, "1") && strcmp(v, "2"))) {
				perr(&p, "not a replay file (the first line must be "
				     "'hpcc-stress-replay %d'): '%s'", REPLAY_VERSION,
				     escaped(buf + (line - text), n, esc, sizeof(esc)));
				goto fail;
			}
			version = *v - '0';
			continue;
		}
		if (seen & (1U << K_END)) {
			perr(&p, "'%s' after 'end'", escaped(k, strlen(k), esc, sizeof(esc)));
			goto fail;
		}
		for (key = 0; key < NR_KEYS && strcmp(k, keys[key].name); key++)
			;
		if (key == NR_KEYS || (key == K_END && version < 2)) {
			perr(&p, "unknown key '%s'", escaped(k, strlen(k), esc, sizeof(esc)));
			goto fail;
		}
		if (seen & (1U << key)) {
			perr(&p, "'%s' given twice", k);
			goto fail;
		}
		seen |= 1U << key;
		if (set_key(rp, key, v, &nr_ops)) {
			perr(&p, "bad value for '%s': '%s' (expected %s)", k,
			     escaped(v, strlen(v), esc, sizeof(esc)), keys[key].range);
			goto fail;
		}
	}
	if (!version) {
		perr(&p, "empty: not a replay file");
		goto fail;
	}
	if (check_file(&p, rp, seen, nr_ops, version))
		goto fail;
	free(text);
	return 0;
fail:
	free(text);
	replay_free(rp);
	return -1;
}

int replay_load(const char *path, struct replay *rp, char *err, size_t errlen)
{
	size_t len = 0;
	char *buf;
	ssize_t n;
	int fd, rc;

	replay_init(rp);
	/*
	 * A FIFO waits here for its writer, as any reader does; a signal ends
	 * the wait (no SA_RESTART) and the caller exits with the signal's
	 * status (stress_signalled), not with a usage error.
	 */
	do
		fd = open(path, O_RDONLY | O_CLOEXEC);
	while (fd < 0 && errno == EINTR && !stress_signalled);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open replay file '%s': %s", path, strerror(errno));
		return -1;
	}
	/* One byte past the limit tells "too large" from "at the limit". */
	buf = malloc(REPLAY_MAX_BYTES + 1);
	if (!buf) {
		close(fd);
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	while (len <= REPLAY_MAX_BYTES) {
		n = read(fd, buf + len, REPLAY_MAX_BYTES + 1 - len);
		if (n < 0 && errno == EINTR && !stress_signalled)
			continue;
		if (n < 0) {
			snprintf(err, errlen, "cannot read replay file '%s': %s", path,
				 strerror(errno));
			free(buf);
			close(fd);
			return -1;
		}
		if (!n)
			break;
		len += n;
	}
	close(fd);
	rc = replay_parse(buf, len, path, rp, err, errlen);
	free(buf);
	return rc;
}
