// SPDX-License-Identifier: GPL-2.0
/*
 * Schedule files (docs/explore.md#schedule-files): the configuration
 * and every step of a failing execution, each named by its fiber and by
 * the access the fiber makes there (its order within the fiber, kind
 * and object), so that a replay on another tree follows the same
 * accesses or says where they are no longer made. Every line is
 * required, in this order ('#' lines and blank lines aside):
 *
 *	hpcc-stress-schedule 2
 *	harness counter_storm
 *	cpus 2, adds 3, readers 1, reads 1, batch 2, plant 0|1
 *	sizes default | sizes A,B,...
 *	tasks 2, forks 1, algo bounded
 *	chosen 13		(steps chosen; the rest is the default)
 *	preemptions 1
 *	expect planted_total
 *	steps N
 *	step FIBER ORDER KIND OBJECT	(N of them)
 *	end SUM			(FNV-1a 64 of every byte before this line)
 *
 * A truncated or edited file fails the sum and is refused (exit 2), and
 * so is a value the command line would refuse (a batch that is not a
 * power of two, an unknown algo). The file's batch and algo are the
 * replay's: --batch or --algo given with a different value is refused.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "args.h"
#include "xp.h"
#include "memmodel.h"
#include "mm/oom_algo.h"

#define XP_SCHED_MAGIC	"hpcc-stress-schedule"
#define XP_SCHED_FORMAT	2
#define XP_SCHED_BYTES	(1UL << 20)

static uint64_t fnv1a(const char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (n--) {
		h ^= (unsigned char)*p++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

struct save_arg {
	char *text;
	size_t len;
};

static int save_fill(FILE *f, const void *p)
{
	const struct save_arg *a = p;

	return fwrite(a->text, 1, a->len, f) == a->len ? 0 : -1;
}

int xp_schedule_save(const char *path, const struct xp_cfg *cfg, const struct xp_run *r)
{
	static struct xp_run full;
	struct save_arg a = { 0 };
	char obj[64], *text = NULL;
	unsigned int i, c;
	size_t len = 0;
	FILE *m;
	int ret;

	xp_run_schedule(r->choice, r->prefix_len, &full);
	m = open_memstream(&text, &len);
	if (!m) {
		fprintf(stderr, "explore: cannot write %s: out of memory\n", path);
		return -1;
	}
	fprintf(m, "%s %d\n# explore schedule (docs/explore.md#schedule-files)\n",
		XP_SCHED_MAGIC, XP_SCHED_FORMAT);
	fprintf(m, "harness %s\ncpus %u\nadds %u\nreaders %u\nreads %u\nbatch %lu\nplant %d\n",
		cfg->harness, cfg->cpus, cfg->adds, cfg->readers, cfg->reads, cfg->batch,
		cfg->plant);
	/* Only a weak model is named: a file without the line is sc. */
	if (xp_mm != XP_MM_SC)
		fprintf(m, "memory-model %s\n", xp_mm_name());
	fprintf(m, "sizes ");
	for (i = 0; i < cfg->nr_sizes; i++)
		fprintf(m, "%s%ld", i ? "," : "", cfg->sizes[i]);
	fprintf(m, "%s\ntasks %u\nforks %u\nalgo %s\nchosen %u\npreemptions %u\nexpect %s\n"
		"steps %u\n", cfg->nr_sizes ? "" : "default", cfg->tasks, cfg->forks, cfg->algo,
		r->prefix_len, full.preemptions, full.invariant, full.len);
	xp_exec_begin();
	for (i = 0; i < full.len; i++) {
		c = full.choice[i];
		fprintf(m, "step %u %u %s %s\n", c, xp_pending_order(c),
			xp_kind_name(xp_pending(c)->kind) ?: "?",
			xp_object_name(xp_pending(c), obj, sizeof(obj)));
		xp_step(c);
	}
	xp_exec_abandon();
	if (fclose(m)) {
		free(text);
		fprintf(stderr, "explore: cannot write %s: out of memory\n", path);
		return -1;
	}
	if (!full.failed || strcmp(full.invariant, r->invariant)) {
		free(text);
		fprintf(stderr, "explore: cannot write %s: the schedule does not fail %s again\n",
			path, r->invariant);
		return -1;
	}
	m = open_memstream(&a.text, &a.len);
	if (m) {
		fprintf(m, "%send %016llx\n", text, (unsigned long long)fnv1a(text, len));
		if (fclose(m))
			a.text = NULL;
	}
	free(text);
	if (!a.text) {
		fprintf(stderr, "explore: cannot write %s: out of memory\n", path);
		return -1;
	}
	ret = xp_write_file(path, save_fill, &a);
	free(a.text);
	return ret;
}

/* The keys of the configuration part, in file order. */
enum { K_HARNESS, K_CPUS, K_ADDS, K_READERS, K_READS, K_BATCH, K_PLANT, K_SIZES, K_TASKS,
	K_FORKS, K_ALGO, K_CHOSEN, K_PREEMPTIONS, K_EXPECT, K_STEPS, NR_KEYS };

static const struct {
	const char *name, *range;
	long min, max;
} keys[NR_KEYS] = {
	[K_HARNESS] = { "harness", "a harness of --help", 0, 0 },
	[K_CPUS] = { "cpus", "2..4", 2, 4 },
	[K_ADDS] = { "adds", "1..8", 1, XP_MAX_ADDS },
	[K_READERS] = { "readers", "0..2", 0, 2 },
	[K_READS] = { "reads", "0..16", 0, 16 },
	[K_BATCH] = { "batch", "a power of two, 2..2^20", 2, 1L << 20 },
	[K_PLANT] = { "plant", "0 or 1", 0, 1 },
	[K_SIZES] = { "sizes", "default, or 1..8 sizes, each within +-2^52", 0, 0 },
	[K_TASKS] = { "tasks", "2..20", 2, XP_OOM_MAX_TASKS },
	[K_FORKS] = { "forks", "0 or 1", 0, 1 },
	[K_ALGO] = { "algo", "a name --algo takes", 0, 0 },
	[K_CHOSEN] = { "chosen", "0..steps", 0, XP_MAX_STEPS },
	[K_PREEMPTIONS] = { "preemptions", "0..4096", 0, XP_MAX_STEPS },
	[K_EXPECT] = { "expect", "an invariant's name", 0, 0 },
	[K_STEPS] = { "steps", "1..4096", 1, XP_MAX_STEPS },
};

/* A decimal number in [min, max] and nothing else. */
static int parse_num(const char *v, long min, long max, long *out)
{
	char *end;

	if (!*v || (*v != '-' && (*v < '0' || *v > '9')))
		return -1;
	errno = 0;
	*out = strtol(v, &end, 10);
	return errno || *end || *out < min || *out > max ? -1 : 0;
}

static bool is_word(const char *v, bool dash)
{
	if (!*v)
		return false;
	for (; *v; v++)
		if (!((*v >= 'a' && *v <= 'z') || (*v >= 'A' && *v <= 'Z') || (*v >= '0' && *v <= '9') ||
		      strchr("_.[]", *v) || (dash && *v == '-')))
			return false;
	return true;
}

/* The values --algo takes: a file's must be one, as the command line's. */
static const char *const algo_names[OOM_NR_ALGOS] = OOM_ALGO_NAMES;

static const char *const old_keys[] = {
	"harness", "tasks", "forks", "algo", "cpus", "adds", "readers", "reads", "batch",
	"plant", "sizes", "schedule", "preemptions", "expect", NULL,
};

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf;

	if (!f)
		return NULL;
	buf = malloc(XP_SCHED_BYTES + 1);
	if (buf) {
		*len = fread(buf, 1, XP_SCHED_BYTES + 1, f);
		if (ferror(f)) {
			free(buf);
			buf = NULL;
		} else {
			buf[*len > XP_SCHED_BYTES ? XP_SCHED_BYTES : *len] = '\0';
		}
	}
	fclose(f);
	return buf;
}

static int kind_parse(const char *v)
{
	int k;

	for (k = 0; k < 64 && (k == 0 || xp_kind_name((enum kc_xp_kind)k)); k++)
		if (xp_kind_name((enum kc_xp_kind)k) && !strcmp(v, xp_kind_name((enum kc_xp_kind)k)))
			return k;
	return -1;
}

int xp_schedule_load(const char *path, struct xp_cfg *cfg, struct xp_sched *s)
{
	const struct xp_harness *h;
	unsigned int key = 0, lineno = 0, i;
	char *buf, *line, *next, *val, *end_line = NULL;
	size_t len = 0, end_off;
	bool magic = false;
	uint64_t sum;
	long n;

	buf = slurp(path, &len);
	if (!buf) {
		fprintf(stderr, "explore: cannot read %s: %s\n", path, strerror(errno));
		return -1;
	}
	memset(s, 0, sizeof(*s));
	xp_mm = XP_MM_SC;	/* the file names its model, sc when it names none */
	if (len > XP_SCHED_BYTES || strlen(buf) != len) {
		fprintf(stderr, "explore: %s: not a schedule file (%s)\n", path,
			len > XP_SCHED_BYTES ? "over 1 MiB" : "a NUL byte");
		goto fail;
	}
	/* The sum covers every byte before the last line, read before the lines are split. */
	for (end_off = len > 1 ? len - 1 : 0; end_off && buf[end_off - 1] != '\n'; end_off--)
		;
	sum = fnv1a(buf, end_off);
	for (line = buf; *line; line = next) {
		next = strchr(line, '\n');
		if (!next) {
			fprintf(stderr, "explore: %s:%u: truncated (no newline at the end)\n", path,
				lineno + 1);
			goto fail;
		}
		*next++ = '\0';
		lineno++;
		if (!*line || *line == '#')
			continue;
		val = strchr(line, ' ');
		if (val)
			*val++ = '\0';
		if (!magic) {
			if (strcmp(line, XP_SCHED_MAGIC)) {
				for (i = 0; old_keys[i] && strcmp(line, old_keys[i]); i++)
					;
				if (old_keys[i])
					fprintf(stderr, "explore: %s: a schedule of the first format (steps "
						"by index only, no '%s %d' line): not replayed; run the "
						"search again with --save (docs/explore.md#schedule-files)\n",
						path, XP_SCHED_MAGIC, XP_SCHED_FORMAT);
				else
					fprintf(stderr, "explore: %s:%u: not a schedule file (want '%s %d')\n",
						path, lineno, XP_SCHED_MAGIC, XP_SCHED_FORMAT);
				goto fail;
			}
			if (!val || parse_num(val, XP_SCHED_FORMAT, XP_SCHED_FORMAT, &n)) {
				fprintf(stderr, "explore: %s:%u: schedule format '%s', this explorer reads "
					"%d\n", path, lineno, val ? val : "", XP_SCHED_FORMAT);
				goto fail;
			}
			magic = true;
			continue;
		}
		if (key == K_SIZES && !strcmp(line, "memory-model")) {
			if (!val || xp_mm_parse(val) <= 0) {
				fprintf(stderr, "explore: %s:%u: want 'memory-model tso or pso' here\n",
					path, lineno);
				goto fail;
			}
			xp_mm = (enum xp_model)xp_mm_parse(val);
			continue;
		}
		if (key < NR_KEYS) {
			if (strcmp(line, keys[key].name) || !val) {
				fprintf(stderr, "explore: %s:%u: want '%s %s' here, got '%s'\n", path,
					lineno, keys[key].name, keys[key].range, line);
				goto fail;
			}
			switch (key) {
			case K_HARNESS:
				h = xp_harness_find(val);
				if (!h || strcmp(h->name, val))
					goto bad_value;
				cfg->harness = h->name;
				break;
			case K_SIZES:
				cfg->nr_sizes = 0;
				if (strcmp(val, "default") && xp_parse_sizes(val, cfg))
					goto bad_value;
				break;
			case K_ALGO:
				for (i = 0; i < OOM_NR_ALGOS && strcmp(val, algo_names[i]); i++)
					;
				if (i == OOM_NR_ALGOS)
					goto bad_value;
				cfg->algo = algo_names[i];
				break;
			case K_EXPECT:
				if (!is_word(val, false) || strlen(val) >= sizeof(s->expect))
					goto bad_value;
				snprintf(s->expect, sizeof(s->expect), "%s", val);
				break;
			default:
				if (parse_num(val, keys[key].min, keys[key].max, &n))
					goto bad_value;
				switch (key) {
				case K_CPUS: cfg->cpus = (unsigned int)n; break;
				case K_ADDS: cfg->adds = (unsigned int)n; break;
				case K_READERS: cfg->readers = (unsigned int)n; break;
				case K_READS: cfg->reads = (unsigned int)n; break;
				case K_BATCH:
					if (n & (n - 1))
						goto bad_value;
					cfg->batch = (unsigned long)n;
					break;
				case K_PLANT: cfg->plant = n; break;
				case K_TASKS: cfg->tasks = (unsigned int)n; break;
				case K_FORKS: cfg->forks = (unsigned int)n; break;
				case K_CHOSEN: s->chosen = (unsigned int)n; break;
				case K_PREEMPTIONS: s->preemptions = (unsigned int)n; break;
				case K_STEPS: s->nr_steps = (unsigned int)n; break;
				}
			}
			key++;
			continue;
		}
		if (!strcmp(line, "step") && val && key - NR_KEYS < s->nr_steps) {
			struct xp_sched_step *st = &s->step[key - NR_KEYS];
			char *f = strtok(val, " "), *o = strtok(NULL, " "), *k = strtok(NULL, " "),
			     *obj = strtok(NULL, " ");
			long fiber, order;
			int kind;

			if (!obj || strtok(NULL, " ") || parse_num(f, 0, XP_MAX_FIBERS - 1, &fiber) ||
			    parse_num(o, 0, XP_MAX_STEPS - 1, &order) || (kind = kind_parse(k)) < 0 ||
			    strlen(obj) >= sizeof(st->object) || (strcmp(obj, "-") && !is_word(obj, true))) {
				fprintf(stderr, "explore: %s:%u: want 'step FIBER ORDER KIND OBJECT' "
					"(fiber 0..%d, a point's kind and object)\n", path, lineno,
					XP_MAX_FIBERS - 1);
				goto fail;
			}
			st->fiber = (unsigned char)fiber;
			st->order = (unsigned int)order;
			st->kind = (unsigned char)kind;
			snprintf(st->object, sizeof(st->object), "%s", obj);
			key++;
			continue;
		}
		if (!strcmp(line, "end") && key - NR_KEYS == s->nr_steps) {
			end_line = line;
			if (*next) {
				fprintf(stderr, "explore: %s:%u: text after the end line\n", path,
					lineno + 1);
				goto fail;
			}
			if (!val || strlen(val) != 16 || !is_word(val, false) ||
			    (size_t)(end_line - buf) != end_off || strtoull(val, NULL, 16) != sum) {
				fprintf(stderr, "explore: %s:%u: the sum does not match: the file was "
					"changed after --save wrote it\n", path, lineno);
				goto fail;
			}
			break;
		}
		fprintf(stderr, "explore: %s:%u: want '%s' here, got '%s'\n", path, lineno,
			key - NR_KEYS < s->nr_steps ? "step FIBER ORDER KIND OBJECT" : "end SUM", line);
		goto fail;
	}
	if (!end_line) {
		fprintf(stderr, "explore: %s: truncated: no '%s' line\n", path,
			!magic ? XP_SCHED_MAGIC : key < NR_KEYS ? keys[key].name :
			key - NR_KEYS < s->nr_steps ? "step" : "end");
		goto fail;
	}
	if (s->chosen > s->nr_steps) {
		fprintf(stderr, "explore: %s: chosen %u of %u steps\n", path, s->chosen,
			s->nr_steps);
		goto fail;
	}
	free(buf);
	return 0;
bad_value:
	fprintf(stderr, "explore: %s:%u: bad %s '%s' (%s)\n", path, lineno, keys[key].name, val,
		keys[key].range);
fail:
	free(buf);
	return -1;
}

static void step_name(const struct xp_sched_step *st, char *buf, size_t len)
{
	snprintf(buf, len, "point %u, %s %s", st->order,
		 xp_kind_name((enum kc_xp_kind)st->kind) ?: "?", st->object);
}

/* Each fiber's steps must be its points 0, 1, ...: a file that says otherwise is bad input. */
int xp_schedule_check(const char *path, const struct xp_sched *s)
{
	unsigned int next[XP_MAX_FIBERS] = { 0 }, i, f;

	for (i = 0; i < s->nr_steps; i++) {
		f = s->step[i].fiber;
		if (f >= xp_nr_fibers()) {
			fprintf(stderr, "explore: %s: step %u: fiber %u, the configuration has %u\n",
				path, i, f, xp_nr_fibers());
			return -1;
		}
		if (s->step[i].order != next[f]++) {
			fprintf(stderr, "explore: %s: step %u: fiber %u's point %u, want %u\n", path,
				i, f, s->step[i].order, next[f] - 1);
			return -1;
		}
	}
	return 0;
}

int xp_schedule_replay(const char *path, const struct xp_sched *s, struct xp_run *out)
{
	char obj[64], want[96], got[96];
	const struct xp_access *a;
	unsigned int en = 0, i, f;
	int prev = -1;

	memset(out, 0, sizeof(*out));
	xp_exec_begin();
	for (i = 0; i < s->nr_steps && !xp_failed(); i++) {
		const struct xp_sched_step *st = &s->step[i];

		en = xp_enabled();
		f = st->fiber;
		a = xp_pending(f);
		if (!(en & (1U << f)) || a->kind != st->kind || xp_pending_order(f) != st->order ||
		    strcmp(xp_object_name(a, obj, sizeof(obj)), st->object)) {
			step_name(st, want, sizeof(want));
			if (en & (1U << f))
				snprintf(got, sizeof(got), "point %u, %s %s", xp_pending_order(f),
					 xp_kind_name(a->kind) ?: "?", xp_object_name(a, obj, sizeof(obj)));
			else
				snprintf(got, sizeof(got), "%s", xp_live() & (1U << f) ? "blocked" :
					 "done");
			snprintf(out->message, sizeof(out->message),
				 "step %u: fiber %u is at %s, the schedule has %s", i, f, got, want);
			xp_exec_abandon();
			return 0;
		}
		out->preemptions += prev >= 0 && (int)f != prev && (en & (1U << prev));
		out->choice[out->len++] = (unsigned char)f;
		xp_step(f);
		prev = (int)f;
	}
	/* Past the file's steps (the failure was in the final checks): the default. */
	while (!xp_failed() && (en = xp_enabled()) && out->len < XP_MAX_STEPS) {
		f = prev >= 0 && (en & (1U << prev)) ? (unsigned int)prev :
		    (unsigned int)__builtin_ctz(en);
		out->choice[out->len++] = (unsigned char)f;
		xp_step(f);
		prev = (int)f;
	}
	if (en && !xp_failed())
		xp_fail("step_limit", "more than %d steps", XP_MAX_STEPS);
	xp_exec_end();
	out->failed = xp_failed();
	snprintf(out->invariant, sizeof(out->invariant), "%s", xp_fail_invariant());
	if (out->failed)
		snprintf(out->message, sizeof(out->message), "%s", xp_fail_message());
	else
		snprintf(out->message, sizeof(out->message), "its %u steps ran and every check "
			 "passed", s->nr_steps);
	out->prefix_len = out->len;
	return out->failed ? 1 : 0;
}
