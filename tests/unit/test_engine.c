// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of engine parts that need no threads: the option-value
 * parsers, the ground-truth bookkeeping behind counter_storm's exact
 * windows (src/truth.h) and the watchdog's starvation test (src/sched.c).
 * The sources are compiled in directly: src/ is not part of libsuite.a.
 */
#include <limits.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "ktap.h"
#include "shape/hpcc_shape.h"
#include "../../src/parse.c"
#include "../../src/truth.c"
#include "../../src/sched.c"

static void parse_durations(struct kt *t)
{
	static const struct { const char *s; double v; } good[] = {
		{ "0", 0 }, { "30", 30 }, { "30s", 30 }, { "5m", 300 }, { "2h", 7200 },
		{ "1d", 86400 }, { "500ms", 0.5 }, { "1.5s", 1.5 }, { ".25", 0.25 },
	};
	static const char *const bad[] = {
		"", "s", "-1", "5x", "1s2", "1 s", "ms", "1e400", "inf", "nan", "400d", "+3",
	};
	char err[128];
	double v;
	unsigned int i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		KT_EXPECT(t, stress_parse_duration(good[i].s, &v, err, sizeof(err)) == 0,
			  "'%s': %s", good[i].s, err);
		KT_EXPECT(t, v == good[i].v, "'%s' gave %g", good[i].s, v);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		KT_EXPECT(t, stress_parse_duration(bad[i], &v, err, sizeof(err)) == -1 &&
			  strlen(err) > 0, "'%s' accepted", bad[i]);
}

static void parse_integers(struct kt *t)
{
	unsigned long long v;
	char err[128];

	KT_EXPECT(t, !stress_parse_ulong("8192", 1, 8192, &v, err, sizeof(err)) && v == 8192, "max");
	KT_EXPECT(t, !stress_parse_ulong("1", 1, 8192, &v, err, sizeof(err)) && v == 1, "min");
	KT_EXPECT(t, stress_parse_ulong("0", 1, 8192, &v, err, sizeof(err)), "below");
	KT_EXPECT(t, stress_parse_ulong("8193", 1, 8192, &v, err, sizeof(err)), "above");
	KT_EXPECT(t, stress_parse_ulong("-1", 0, ~0ULL, &v, err, sizeof(err)), "negative");
	KT_EXPECT(t, stress_parse_ulong("12x", 0, ~0ULL, &v, err, sizeof(err)), "junk");
	KT_EXPECT(t, stress_parse_ulong(" 1", 0, ~0ULL, &v, err, sizeof(err)), "space");
	KT_EXPECT(t, stress_parse_ulong("", 0, ~0ULL, &v, err, sizeof(err)), "empty");
	KT_EXPECT(t, stress_parse_ulong("18446744073709551616", 0, ~0ULL, &v, err, sizeof(err)),
		  "overflow");
	KT_EXPECT(t, !stress_parse_ulong("18446744073709551615", 0, ~0ULL, &v, err, sizeof(err)) &&
		  v == ~0ULL, "ULLONG_MAX");
}

static void parse_inject_stutter(struct kt *t)
{
	struct inject_spec in;
	struct stutter_spec st;
	char err[160];

	KT_ASSERT(t, !stress_parse_inject("hop=0.5,delay=0.25,yield=1", &in, err, sizeof(err)),
		  "%s", err);
	KT_EXPECT(t, in.hop == 0.5 && in.delay == 0.25 && in.yield == 1, "values");
	KT_ASSERT(t, !stress_parse_inject("off", &in, err, sizeof(err)), "%s", err);
	KT_EXPECT(t, !in.hop && !in.delay && !in.yield, "off is all zero");
	KT_EXPECT(t, stress_parse_inject("hop=1.5", &in, err, sizeof(err)), "p > 1");
	KT_EXPECT(t, stress_parse_inject("hop=-0.1", &in, err, sizeof(err)), "p < 0");
	KT_EXPECT(t, stress_parse_inject("hops=0.1", &in, err, sizeof(err)), "unknown key");
	KT_EXPECT(t, stress_parse_inject("hop=0.1,", &in, err, sizeof(err)), "trailing comma");
	KT_EXPECT(t, stress_parse_inject("hop", &in, err, sizeof(err)), "no value");
	KT_EXPECT(t, stress_parse_inject("hop=", &in, err, sizeof(err)), "empty value");

	KT_ASSERT(t, !stress_parse_stutter("100ms-2s", &st, err, sizeof(err)), "%s", err);
	KT_EXPECT(t, st.min == 0.1 && st.max == 2, "range %g-%g", st.min, st.max);
	KT_ASSERT(t, !stress_parse_stutter("1s", &st, err, sizeof(err)), "%s", err);
	KT_EXPECT(t, st.min == 1 && st.max == 1, "fixed");
	KT_ASSERT(t, !stress_parse_stutter("off", &st, err, sizeof(err)), "%s", err);
	KT_EXPECT(t, st.min == 0, "off");
	KT_EXPECT(t, stress_parse_stutter("2s-1s", &st, err, sizeof(err)), "reversed");
	KT_EXPECT(t, stress_parse_stutter("0.5ms", &st, err, sizeof(err)), "below 1ms");
	KT_EXPECT(t, stress_parse_stutter("1s-", &st, err, sizeof(err)), "open range");
}

/* The window of truth.h, replayed by hand: before/after reads around updates in flight. */
static void truth_windows(struct kt *t)
{
	struct truth *tr = truth_new(3, 2, 1);
	struct truth_window w;
	struct truth_op a, b, c;
	unsigned int who;

	KT_ASSERT(t, tr != NULL, "alloc");
	a = truth_begin(tr, 0, 1, 100);
	truth_end(tr, &a, 0, 1, 100, 0);
	b = truth_begin(tr, 1, 1, -30);
	truth_end(tr, &b, 1, 1, -30, 2);		/* made as CPU 2 */
	KT_EXPECT(t, truth_settled(tr, 1, &who), "settled");
	truth_read_done_bounded(tr, 1, &w, 0, 32);
	/*
	 * In flight from here: +7 on thread 2, -5 on thread 0; thread 1
	 * makes +40, then +3 is in flight. One update per thread can be
	 * mid-carry: roundup(7) + roundup(5) + roundup(max(43, 0)), by 32.
	 */
	b = truth_begin(tr, 2, 1, 7);
	a = truth_begin(tr, 0, 1, -5);
	c = truth_begin(tr, 1, 1, 40);
	truth_end(tr, &c, 1, 1, 40, 1);
	c = truth_begin(tr, 1, 1, 3);
	truth_read_started(tr, 1, &w);
	KT_EXPECT_EQ(t, truth_exact(&w), 70);
	KT_EXPECT_EQU(t, truth_dpos(&w), 50);
	KT_EXPECT_EQU(t, truth_dneg(&w), 5);
	KT_EXPECT_EQU(t, truth_dbound(&w), 32 + 32 + 64);
	/* An unbounded read has none. */
	truth_read_done(tr, 1, &w);
	truth_read_started(tr, 1, &w);
	KT_EXPECT_EQU(t, truth_dbound(&w), 0);
	truth_end(tr, &c, 1, 1, 3, 1);
	KT_EXPECT(t, !truth_quiet(&w), "updates in flight");
	KT_EXPECT(t, !truth_settled(tr, 1, &who) && who == 0, "thread 0 in flight first");
	truth_end(tr, &b, 2, 1, 7, 2);
	truth_end(tr, &a, 0, 1, -5, 0);
	KT_EXPECT(t, truth_settled(tr, 1, &who), "settled again");
	truth_read_done(tr, 1, &w);
	truth_read_started(tr, 1, &w);
	KT_EXPECT(t, truth_quiet(&w), "quiet");
	KT_EXPECT_EQ(t, truth_exact(&w), 115);
	/*
	 * Per-CPU words: CPU 0 got 100 - 5, CPU 1 got 40 + 3, CPU 2 got -30
	 * (made by thread 1) + 7.
	 */
	KT_EXPECT_EQ(t, truth_cpu_word(tr, 1, 0), 95);
	KT_EXPECT_EQ(t, truth_cpu_word(tr, 1, 1), 43);
	KT_EXPECT_EQ(t, truth_cpu_word(tr, 1, 2), -23);
	KT_EXPECT_EQ(t, truth_cpu_word(tr, 0, 0), 0);	/* the other counter untouched */
	/* A set() at a quiescent point moves the base, not the sums. */
	tr->base[1] = (unsigned long)1000 - 115;
	truth_read_done(tr, 1, &w);
	KT_EXPECT_EQ(t, truth_exact(&w), 1000);
	truth_free(tr);
}

/* Sums wrap: only differences matter, also across LONG_MAX. */
static void truth_wraps(struct kt *t)
{
	struct truth *tr = truth_new(1, 1, 1);
	struct truth_window w;
	struct truth_op a;
	int i;

	KT_ASSERT(t, tr != NULL, "alloc");
	tr->base[0] = LONG_MAX - 10;
	for (i = 0; i < 4; i++) {
		a = truth_begin(tr, 0, 0, LONG_MAX / 2);
		truth_end(tr, &a, 0, 0, LONG_MAX / 2, 0);
	}
	truth_read_done(tr, 0, &w);
	truth_read_started(tr, 0, &w);
	KT_EXPECT_EQ(t, truth_exact(&w),
		     (long)((unsigned long)(LONG_MAX - 10) + 4 * (unsigned long)(LONG_MAX / 2)));
	KT_EXPECT(t, truth_quiet(&w), "quiet");
	truth_free(tr);
}

/*
 * Starved or hung, over a 10 s window: a thread that ran less than a tenth
 * of it and was rarely given a CPU while it waited for one (its wait is
 * counted only once it runs: still runnable counts), or that was busy each
 * time it ran but waited half the time, is starved; a blocked one, a
 * spinning one (its share of a CPU) or a polling one (a CPU at every
 * wake-up, microseconds each) is judged as a hang.
 */
static void sched_starvation(struct kt *t)
{
	static const struct {
		const char *what;
		double wait, cpu;
		unsigned long long slices;
		bool runnable, starved;
	} c[] = {
		{ "runnable, never run yet (a stutter straggler)", 0, 0, 0, true, true },
		{ "runnable, ran once at the start, waits since", 0.001, 0.0001, 1, true, true },
		{ "waited 30%, a few slices", 3, 0.005, 5, false, true },
		{ "busy at a 5% share on an overloaded host (3 ms slices)", 9.5, 0.5, 160, true, true },
		{ "blocked on a futex (deadlock)", 0, 0, 0, false, false },
		{ "blocked, woken once", 0.001, 0.0001, 1, false, false },
		{ "spinning, preempted often", 8, 2, 900, true, false },
		{ "spinning alone", 0.01, 9.99, 40, true, false },
		{ "polling every 10 ms (a hung step's nap)", 0.5, 0.01, 1000, false, false },
		{ "polling every 10 ms, caught waiting", 0.5, 0.01, 1000, true, false },
		{ "polling every 50 ms, each wake-up waiting 40 ms", 4.4, 0.002, 111, true, false },
		{ "a quarter waiting, exactly, 9 slices", 2.5, 0, 9, false, true },
		{ "just below a quarter", 2.49, 0, 0, false, false },
		{ "10 slices: had its chances", 9, 0.001, 10, false, false },
		{ "polling, each wake-up waiting 0.5 s", 9.7, 0.001, 19, true, false },
		{ "a tenth on a CPU: its share", 9, 1.0, 3, true, false },
		{ "just below a tenth", 9, 0.99, 3, false, true },
		{ "busy 0.19 ms a slice, waiting 90%", 9, 0.19, 1000, true, false },
		{ "busy 0.2 ms a slice, waiting 90%", 9, 0.2, 1000, true, true },
		{ "busy 1 ms a slice, waiting just under half", 4.99, 0.5, 500, true, false },
	};
	struct stress_sched a = { 1000000000ULL, 5000000000ULL, 77, false }, b, self, later;
	unsigned int i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		b.wait_ns = a.wait_ns + (unsigned long long)(c[i].wait * 1e9);
		b.cpu_ns = a.cpu_ns + (unsigned long long)(c[i].cpu * 1e9);
		b.slices = a.slices + c[i].slices;
		b.runnable = c[i].runnable;
		KT_EXPECT(t, stress_sched_starved(&a, &b, 10.0) == c[i].starved, "%s: %s",
			  c[i].what, c[i].starved ? "not starved" : "starved");
	}
	/* Counters never go back; a window of no length says nothing. */
	b = a;
	b.wait_ns -= 1;
	KT_EXPECT(t, !stress_sched_starved(&a, &b, 10.0), "wait went back");
	KT_EXPECT(t, !stress_sched_starved(&a, &a, 0), "empty window");
	KT_EXPECT(t, !stress_sched_read(0, &b) && !stress_sched_read(-1, &b), "no such thread");
	/* The kernel's own numbers for this thread, where it keeps them: monotonic. */
	if (!stress_sched_read((int)syscall(SYS_gettid), &self)) {
		kt_skip(t, "no /proc/self/task/TID/schedstat (CONFIG_SCHED_INFO)");
		return;
	}
	for (i = 0; i < 1000000; i++)
		__asm__ __volatile__("" ::: "memory");
	KT_ASSERT(t, stress_sched_read((int)syscall(SYS_gettid), &later), "read twice");
	KT_EXPECT(t, later.cpu_ns >= self.cpu_ns && later.wait_ns >= self.wait_ns &&
		  later.slices >= self.slices && later.slices > 0, "schedstat went back or is empty");
	KT_EXPECT(t, later.runnable, "this thread, running, not seen runnable");
}

/*
 * The ground truth's pending-carry bound must be exactly the one the spec
 * gives (docs/spec/hpcc.md#hpcc-residual, computed independently by
 * hpcc_shape_pending_bound): a larger one still passes every correct
 * counter, so only this comparison shows a window widened one unit too far.
 */
static void truth_carry_bound_is_exact(struct kt *t)
{
	static const unsigned int cpus[] = { 1, 2, 3, 8, 9, 64, 300 };
	static const unsigned long batches[] = { 2, 32, 1024 };
	unsigned int i, j, k, bad = 0;

	for (i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++)
	for (j = 0; j < sizeof(batches) / sizeof(batches[0]); j++) {
		struct hpcc_shape s;
		unsigned long m, v[10];

		KT_ASSERT(t, !hpcc_shape_compute(&s, cpus[i], batches[j]), "shape");
		m = s.m_top;
		v[0] = 0; v[1] = 1; v[2] = m ? m - 1 : 0; v[3] = m; v[4] = m + 1;
		v[5] = 2 * m; v[6] = 3 * m - 1; v[7] = 5 * m + 3; v[8] = 1000;
		v[9] = (unsigned long)LONG_MAX / 2;
		for (k = 0; k < 10; k++) {
			unsigned long got = carry_bound(v[k], m);

			if (got != hpcc_shape_pending_bound(&s, (long)v[k]) ||
			    (m && (got % m || got < v[k] || got - v[k] >= m))) {
				if (!bad++)
					kt_diag(t, "carry_bound(%lu, %lu) = %lu, spec %lu",
						v[k], m, got, hpcc_shape_pending_bound(&s, (long)v[k]));
			}
		}
	}
	KT_EXPECT(t, bad == 0, "%u bounds differ from the spec's", bad);
}

static const struct kt_case cases[] = {
	KT_CASE(parse_durations),
	KT_CASE(parse_integers),
	KT_CASE(parse_inject_stutter),
	KT_CASE(truth_windows),
	KT_CASE(truth_wraps),
	KT_CASE(truth_carry_bound_is_exact),
	KT_CASE(sched_starvation),
};

KT_MAIN("engine", cases)
