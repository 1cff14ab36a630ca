// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the replay-file reader (src/replay_file.c):
 * every bad input the issue lists is refused with one printable line,
 * every prefix of a file is refused (truncation), an accepted file reads
 * back the same after it is written, and the run configuration built
 * from it has the file's shape whatever 'args' holds.
 */
#include <stdlib.h>
#include <string.h>
#include "ktap.h"
#include "config.h"
#include "replay.h"

#define FILE_HEAD	"hpcc-stress-replay 2\n"
#define FILE_BODY							\
	"seed 7\ncpus 8\nbatch 32\nselectors 2\nsched-seed 1\npreempt 0.05\n"	\
	"hop 0.01\nselector-share 0.25\nstutter 256-4096\nsteps 20000\n"
/* A complete file: scenario @sc, args @args, ops line @ops, then @tail. */
static char *replay_text(const char *sc, const char *args, const char *ops, const char *tail)
{
	static char buf[8192];

	snprintf(buf, sizeof(buf), FILE_HEAD "scenario %s\nargs%s%s\n" FILE_BODY "ops %s\n%s",
		 sc, *args ? " " : "", args, ops, tail);
	return buf;
}

/* One printable line, naming @what. */
static void expect_message(struct kt *t, const char *err, const char *what)
{
	size_t i, n = strlen(err);

	KT_EXPECT(t, n > 0, "empty message");
	for (i = 0; i < n; i++)
		if (err[i] < 0x20 || err[i] >= 0x7f)
			break;
	KT_EXPECT(t, i == n, "byte 0x%02x in the message '%s'", (unsigned char)err[i], err);
	KT_EXPECT(t, strstr(err, what), "'%s' not in '%s'", what, err);
}

static void expect_refused(struct kt *t, const char *buf, size_t len, const char *what)
{
	struct replay rp;
	char err[512] = "";

	KT_EXPECT(t, replay_parse(buf, len, "f", &rp, err, sizeof(err)) == -1,
		  "accepted: '%.80s'", buf);
	KT_EXPECT(t, !rp.ops, "ops left allocated");
	expect_message(t, err, what);
}

static void expect_same(struct kt *t, const struct replay *a, const struct replay *b)
{
	unsigned int i;

	KT_EXPECT(t, !strcmp(a->scenario, b->scenario) && !strcmp(a->args, b->args) &&
		  a->nr_cpus == b->nr_cpus && a->batch == b->batch && a->seed == b->seed &&
		  a->sched_seed == b->sched_seed && a->preempt == b->preempt &&
		  a->hop == b->hop && a->steps == b->steps && a->stutter_min == b->stutter_min &&
		  a->stutter_max == b->stutter_max && !a->ops == !b->ops &&
		  a->has_result == b->has_result && a->failed == b->failed &&
		  !strcmp(a->invariant, b->invariant) && a->fail_step == b->fail_step &&
		  !strcmp(a->expect, b->expect) && !strcmp(a->origin, b->origin),
		  "written back, the file reads differently");
	for (i = 0; a->ops && b->ops && i < a->nr_cpus; i++)
		KT_EXPECT_EQU(t, a->ops[i], b->ops[i]);
}

/* Accepted, written, read again: the same replay. */
static void expect_round_trip(struct kt *t, const char *buf)
{
	struct replay rp, again;
	char err[512], *text = NULL;
	size_t len = 0;
	FILE *m;

	KT_ASSERT(t, !replay_parse(buf, strlen(buf), "f", &rp, err, sizeof(err)), "%s", err);
	m = open_memstream(&text, &len);
	KT_ASSERT(t, m, "open_memstream");
	replay_write(m, &rp);
	fclose(m);
	KT_EXPECT(t, !replay_parse(text, len, "w", &again, err, sizeof(err)), "%s", err);
	expect_same(t, &rp, &again);
	free(text);
	replay_free(&rp);
	replay_free(&again);
}

static void replay_reads_complete_files(struct kt *t)
{
	char v1[8192];

	expect_round_trip(t, replay_text("counter_storm", "", "none", "end\n"));
	expect_round_trip(t, replay_text("oom_race", "--oom-tasks=4096 --oom-algo=v16",
					 "5 0 7 20000 1 1 1 1",
					 "expect approx_window\norigin a test\t(tab)\n"
					 "outcome fail approx_window 62 1 3 0\nend\n"));
	expect_round_trip(t, replay_text("compaction_churn", "--p5=as-posted --frag-level=0.5",
					 "none", "outcome pass - 0 0 0 9\n# after\nend\n"));
	/* CRLF line ends, comments, blank lines, spaces around values */
	expect_round_trip(t, "# c\r\n\r\nhpcc-stress-replay 2\r\nscenario counter_storm\r\n"
			  "args \r\n  seed   7 \r\ncpus 1\nbatch 2\nselectors 0\nsched-seed 0\n"
			  "preempt 1\nhop 0\nselector-share .5\nstutter off\nsteps 1\nops 1\nend\n");
	/* Version 1: no 'end' line, still read when complete. */
	snprintf(v1, sizeof(v1), "%s", replay_text("counter_storm", "", "none", ""));
	memcpy(v1, "hpcc-stress-replay 1", 20);
	expect_round_trip(t, v1);
}

/* 'args' that change the shape are refused; the keys size the run. */
static void replay_args_cannot_change_the_shape(struct kt *t)
{
	static const struct { const char *sc, *args, *ops, *what; } bad[] = {
		{ "counter_storm", "--cpus=2", "none", "'--cpus=2' is not an option" },
		{ "counter_storm", "--cpus=100", "9 9 9 9 9 9 9 9", "'--cpus=100' is not" },
		{ "oom_race", "--oom-tasks=4096 --cpus=3", "none", "'--cpus=3' is not" },
		{ "counter_storm", "--batch=64", "none", "'--batch=64' is not" },
		{ "counter_storm", "--selectors=9", "none", "'--selectors=9' is not" },
		{ "counter_storm", "--seed=9", "none", "'--seed=9' is not" },
		{ "counter_storm", "--scenario=oom_race", "none", "is not an option" },
		{ "counter_storm", "--oom-tasks=8", "none", "'--oom-tasks=8' is not an option" },
		{ "counter_storm", "--replay=x", "none", "is not an option" },
		{ "counter_storm", "-v", "none", "'-v' is not" },
		{ "counter_storm", "stray", "none", "'stray' is not" },
		{ "oom_race", "--oom-tasks=1", "none", "--oom-tasks:" },
		{ "oom_race", "--oom-tasks=8 --oom-tasks=9", "none", "given twice" },
		{ "oom_race", "--oom-tasks", "none", "needs =VALUE" },
		{ "counter_storm", "--storm-pattern='osc", "none", "badly quoted" },
		/* found by fuzzing: a parser's message quoted the tabs raw */
		{ "oom_race", "--oom-tasks=\t\t4096", "none", "bad value for 'args': "
		  "'--oom-tasks=\\x09\\x094096'" },
	};
	static struct stress_config cli, cfg;
	struct replay rp;
	const char *f;
	char err[512];
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		f = replay_text(bad[i].sc, bad[i].args, bad[i].ops, "end\n");
		expect_refused(t, f, strlen(f), bad[i].what);
	}
	/* A scenario option that sizes the scenario's own arrays is fine. */
	cli.argv0 = "stress";
	f = replay_text("oom_race", "--oom-tasks=4096 --oom-layout='hog'", "none", "end\n");
	KT_ASSERT(t, !replay_parse(f, strlen(f), "f", &rp, err, sizeof(err)), "%s", err);
	KT_ASSERT(t, !replay_to_config(&cli, &rp, &cfg), "no configuration");
	KT_EXPECT_EQU(t, cfg.nr_cpus, 8);
	KT_EXPECT_EQU(t, cfg.batch, 32);
	KT_EXPECT_EQU(t, cfg.nr_selectors, 2);
	KT_EXPECT_EQU(t, cfg.seed, 7);
	KT_EXPECT(t, cfg.nr_scenarios == 1 && !strcmp(cfg.scenarios[0]->name, "oom_race"),
		  "%u scenarios", cfg.nr_scenarios);
	KT_EXPECT(t, strstr(cfg.scenario_args, "--oom-tasks=4096"), "'%s'", cfg.scenario_args);
	replay_free(&rp);
}

/* NUL bytes, control bytes and non-ASCII are refused, shown escaped. */
static void replay_refuses_non_text(struct kt *t)
{
	static const struct { const char *from, *to; size_t len; const char *what; } bad[] = {
		{ "seed 7", "seed 7\0x", 8, "byte 0x00 at column 7 is not text: 'seed 7\\x00x'" },
		{ "seed 7", "seed \x1b[31m7", 11, "byte 0x1b at column 6 is not text: "
		  "'seed \\x1b[31m7'" },
		{ "scenario", "sc\xffnario", 9, "byte 0xff at column 3" },
		{ "cpus 8", "cpus\r8", 6, "byte 0x0d at column 5" },
		{ "hpcc-stress-replay 2", "\x01\x02garbage", 9, "byte 0x01 at column 1 is not "
		  "text: '\\x01\\x02garbage'" },
	};
	const char *f, *at;
	char buf[8192];
	unsigned int i;
	size_t n;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		f = replay_text("counter_storm", "", "none", "end\n");
		at = strstr(f, bad[i].from);
		n = at - f;
		memcpy(buf, f, n);
		memcpy(buf + n, bad[i].to, bad[i].len);
		n += bad[i].len;
		strcpy(buf + n, at + strlen(bad[i].from));
		expect_refused(t, buf, n + strlen(buf + n), bad[i].what);
	}
	expect_refused(t, "GET / HTTP/1.1\n", 15, "not a replay file (the first line must be "
		       "'hpcc-stress-replay 2'): 'GET / HTTP/1.1'");
	expect_refused(t, "", 0, "empty");
	expect_refused(t, "\n# only a comment\n", 18, "empty");
}

/* Every proper prefix of a file is refused: a cut file never runs on defaults. */
static void replay_refuses_every_truncation(struct kt *t)
{
	const char *f = replay_text("oom_race", "--oom-tasks=64", "1 2 3 4 5 6 7 8",
				    "expect set\norigin y\noutcome fail set 9 0 0 0\nend\n");
	size_t len = strlen(f), n;
	unsigned long accepted = 0;
	struct replay rp;
	char err[512];

	for (n = 0; n < len; n++) {
		if (!replay_parse(f, n, "f", &rp, err, sizeof(err))) {
			if (!accepted++)
				kt_fail(t, __FILE__, __LINE__, "a %zu-byte prefix of %zu accepted",
					n, len);
			replay_free(&rp);
		}
	}
	KT_EXPECT_EQU(t, accepted, 0);
	KT_EXPECT(t, !replay_parse(f, len, "f", &rp, err, sizeof(err)), "%s", err);
	replay_free(&rp);
}

/* Values out of range, or out of line with the rest of the file. */
static void replay_checks_every_value(struct kt *t)
{
	static const struct { const char *from, *to, *what; } bad[] = {
		{ "cpus 8", "cpus 0", "bad value for 'cpus'" },
		{ "cpus 8", "cpus 8193", "bad value for 'cpus'" },
		{ "cpus 8", "cpus -8", "bad value for 'cpus'" },
		{ "cpus 8", "cpus +8", "bad value for 'cpus'" },
		{ "cpus 8", "cpus 0x8", "bad value for 'cpus'" },
		{ "cpus 8", "cpus 3", "'ops' lists 8 CPUs, 'cpus' says 3" },
		{ "batch 32", "batch 48", "bad value for 'batch'" },
		{ "batch 32", "batch 33554432", "bad value for 'batch'" },
		{ "selectors 2", "selectors 1025", "bad value for 'selectors'" },
		{ "seed 7", "seed 18446744073709551616", "bad value for 'seed'" },
		{ "seed 7", "seed", "bad value for 'seed'" },
		{ "preempt 0.05", "preempt 1.5", "bad value for 'preempt'" },
		{ "preempt 0.05", "preempt nan", "bad value for 'preempt'" },
		{ "preempt 0.05", "preempt 0x1p-3", "bad value for 'preempt'" },
		{ "hop 0.01", "hop 1e-400", "bad value for 'hop'" },
		{ "stutter 256-4096", "stutter 9-3", "bad value for 'stutter'" },
		{ "stutter 256-4096", "stutter 0-3", "bad value for 'stutter'" },
		{ "steps 20000", "steps 0", "bad value for 'steps'" },
		{ "steps 20000", "steps 4", "CPU 0's cap 5 is above 'steps' 4" },
		{ "ops 5 1 1 1 1 1 1 1", "ops 5 1 1 1 1 1 1", "'ops' lists 7 CPUs" },
		{ "ops 5 1 1 1 1 1 1 1", "ops 5  1 1 1 1 1 1 1", "bad value for 'ops'" },
		{ "outcome fail set 9 0 0 0", "outcome fail set 20001 0 0 0", "failing step 20001" },
		{ "outcome fail set 9 0 0 0", "outcome pass x 9 0 0 0", "bad value for 'outcome'" },
		{ "outcome fail set 9 0 0 0", "outcome fail set 9 0 0", "bad value for 'outcome'" },
		{ "outcome fail set 9 0 0 0", "outcome fail set 9 0 0 0 0", "bad value for 'outcome'" },
		{ "outcome fail set 9 0 0 0", "outcome fail set -9 0 0 0", "bad value for 'outcome'" },
		{ "expect set", "expect a b", "bad value for 'expect'" },
		{ "expect set", "expect nosuch", "bad value for 'expect'" },
		{ "outcome fail set 9 0 0 0", "outcome fail nosuch 9 0 0 0", "bad value for 'outcome'" },
		{ "scenario counter_storm", "scenario nosuch", "bad value for 'scenario'" },
		{ "end", "end now", "bad value for 'end'" },
		{ "end", "bogus 1\nend", "unknown key 'bogus'" },
		{ "end", "cpus 8\nend", "'cpus' given twice" },
		{ "end", "end\ncpus 8", "'cpus' after 'end'" },
		{ "end", "", "no 'end' line" },
		{ "steps 20000\n", "", "no 'steps' line" },
		{ "hpcc-stress-replay 2", "hpcc-stress-replay 3", "not a replay file" },
	};
	char buf[8192];
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *f = replay_text("counter_storm", "", "5 1 1 1 1 1 1 1",
					    "expect set\noutcome fail set 9 0 0 0\nend\n");
		const char *at = strstr(f, bad[i].from);

		KT_ASSERT(t, at, "'%s' not in the file", bad[i].from);
		snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(at - f), f, bad[i].to,
			 at + strlen(bad[i].from));
		expect_refused(t, buf, strlen(buf), bad[i].what);
	}
}

/* Size and line limits: checked before anything grows. */
static void replay_bounds_its_input(struct kt *t)
{
	size_t big = REPLAY_MAX_BYTES + 1, i;
	char *buf = malloc(big), err[512];
	struct replay rp;

	KT_ASSERT(t, buf, "malloc");
	memset(buf, '\n', big);
	expect_refused(t, buf, big, "larger than 1048576 bytes");
	for (i = 0; i < REPLAY_MAX_LINES + 1; i++)
		memcpy(buf + 2 * i, "#\n", 2);
	expect_refused(t, buf, 2 * (REPLAY_MAX_LINES + 1), "more than 256 lines");
	/* An ops line of NR_CPUS + 1 counts is refused without growing past NR_CPUS. */
	i = snprintf(buf, big, FILE_HEAD "scenario counter_storm\nargs\n" FILE_BODY "ops");
	while (i < big - 16 && (i < 2 * (NR_CPUS + 1) + 200))
		i += snprintf(buf + i, big - i, " 1");
	i += snprintf(buf + i, big - i, "\nend\n");
	expect_refused(t, buf, i, "bad value for 'ops'");
	free(buf);
	/* The loader reads at most the limit + 1 bytes, whatever the file. */
	KT_EXPECT(t, replay_load("/dev/zero", &rp, err, sizeof(err)) == -1, "accepted");
	expect_message(t, err, "/dev/zero: larger than");
	KT_EXPECT(t, replay_load("/nonexistent/x", &rp, err, sizeof(err)) == -1, "accepted");
	expect_message(t, err, "cannot open replay file '/nonexistent/x'");
	KT_EXPECT(t, replay_load("/", &rp, err, sizeof(err)) == -1, "accepted");
	expect_message(t, err, "cannot read replay file '/'");
}

static const struct kt_case cases[] = {
	KT_CASE(replay_reads_complete_files),
	KT_CASE(replay_args_cannot_change_the_shape),
	KT_CASE(replay_refuses_non_text),
	KT_CASE(replay_refuses_every_truncation),
	KT_CASE(replay_checks_every_value),
	KT_CASE(replay_bounds_its_input),
};

KT_MAIN("stress_replay", cases);
