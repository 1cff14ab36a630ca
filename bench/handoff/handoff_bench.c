// SPDX-License-Identifier: GPL-2.0
/*
 * The hand-off micro-benchmark (bench/handoff/README.md): one case per run,
 * its operation count on stdout; bench/handoff/run measures the process.
 *
 *   turn     T participants pass a turn round robin (the fragmentation
 *            model's requesters: kc_turn_run(), fibers where the build has
 *            them, threads with --turn-threads), a little work per turn
 *   vcpu     T threads share V virtual CPUs, each holding its vCPU and
 *            adding; holders lend at their preemption points
 *   migrate  T holding threads hop to the next of V vCPUs every K adds
 *
 * The same source links against the default lib/kcompat and against its
 * -DKC_HANDOFF_OLD objects (handoff-bench-old).
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/percpu.h>
#include <kcompat/kcompat.h>
#include <kcompat/turn.h>

struct opts {
	const char *what;
	unsigned long ops;	/* turns, or adds per thread */
	unsigned int threads, cpus, hop;
};

static struct opts o = { NULL, 0, 4, 2, 64 };
static struct kc_turn turn;
static unsigned int turn_nr;	/* participants kc_turn_run() started */
static unsigned long turns_left, work_sink;
static unsigned long *word;

static void usage(void)
{
	fprintf(stderr, "usage: handoff-bench turn|vcpu|migrate [--ops N] [--threads N] "
		"[--cpus N] [--hop N] [--turn-threads]\n");
}

static int num(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 10);
	return s[0] < '0' || s[0] > '9' || *end || errno || !*v || *v > max ? -1 : 0;
}

static void *turn_thread(void *arg)
{
	unsigned int id = (unsigned int)(long)arg, i;
	unsigned long w;

	for (;;) {
		kc_turn_wait(&turn, id);
		if (!turns_left) {
			/* Done: the next one sees it too. */
			kc_turn_pass(&turn, (id + 1) % turn_nr);
			return NULL;
		}
		turns_left--;
		/* A model step's worth of work (a few hundred instructions). */
		for (w = work_sink, i = 0; i < 64; i++)
			w = w * 6364136223846793005UL + 1442695040888963407UL;
		work_sink = w;
		kc_turn_pass(&turn, (id + 1) % turn_nr);
	}
}

static void *vcpu_thread(void *arg)
{
	unsigned int cpu = (unsigned int)(long)arg % o.cpus;
	unsigned long i;

	kc_set_cpu(cpu);
	kc_cpu_hold();
	for (i = 0; i < o.ops; i++) {
		this_cpu_add_return(*word, 1);
		if (o.what[0] == 'm' && i % o.hop == o.hop - 1)
			kc_set_cpu((kc_get_cpu() + 1) % o.cpus);
	}
	kc_cpu_unhold();
	return NULL;
}

int main(int argc, char **argv)
{
	void *(*fn)(void *);
	unsigned long v, sum = 0;
	pthread_t *th;
	void **args;
	unsigned int i;
	int a;

	if (argc < 2) {
		usage();
		return 2;
	}
	o.what = argv[1];
	if (!strcmp(o.what, "turn")) {
		fn = turn_thread;
		o.ops = 200000;
	} else if (!strcmp(o.what, "vcpu") || !strcmp(o.what, "migrate")) {
		fn = vcpu_thread;
		o.ops = 2000000;
	} else {
		fprintf(stderr, "handoff-bench: '%s' is not turn, vcpu or migrate\n", o.what);
		return 2;
	}
	for (a = 2; a < argc; a += 2) {
		const char *opt = argv[a];

		if (!strcmp(opt, "--turn-threads")) {
			kc_turn_use_threads = true;
			a--;
			continue;
		}
		if (a + 1 >= argc) {
			fprintf(stderr, "handoff-bench: %s needs a value\n", opt);
			return 2;
		}
		if (!strcmp(opt, "--ops") && !num(argv[a + 1], ULONG_MAX / 2, &v))
			o.ops = v;
		else if (!strcmp(opt, "--threads") && !num(argv[a + 1], 1024, &v))
			o.threads = v;
		else if (!strcmp(opt, "--cpus") && !num(argv[a + 1], 1024, &v))
			o.cpus = v;
		else if (!strcmp(opt, "--hop") && !num(argv[a + 1], ULONG_MAX / 2, &v))
			o.hop = v;
		else {
			fprintf(stderr, "handoff-bench: bad option '%s %s'\n", opt, argv[a + 1]);
			return 2;
		}
	}
	th = calloc(o.threads, sizeof(*th));
	args = calloc(o.threads, sizeof(*args));
	if (!th || !args || kc_set_nr_cpu_ids(o.cpus) || !(word = alloc_percpu(unsigned long))) {
		fprintf(stderr, "handoff-bench: out of memory\n");
		return 1;
	}
	for (i = 0; i < o.threads; i++)
		args[i] = (void *)(long)i;
	if (fn == turn_thread) {
		if (kc_turn_init(&turn, o.threads)) {
			fprintf(stderr, "handoff-bench: out of memory\n");
			return 1;
		}
		turns_left = o.ops;
		if (kc_turn_run(&turn, fn, args, &turn_nr)) {
			fprintf(stderr, "handoff-bench: started %u of %u participants\n", turn_nr,
				o.threads);
			return 1;
		}
		kc_turn_destroy(&turn);
		printf("%s %s%s threads=%u ops=%lu\n", o.what, kc_handoff_build(),
		       kc_turn_fibers() ? " fibers" : "", o.threads, o.ops);
	} else {
		for (i = 0; i < o.threads; i++)
			if (pthread_create(&th[i], NULL, fn, args[i])) {
				fprintf(stderr, "handoff-bench: cannot create thread %u\n", i);
				return 1;
			}
		for (i = 0; i < o.threads; i++)
			pthread_join(th[i], NULL);
		for (i = 0; i < o.cpus; i++)
			sum += *per_cpu_ptr(word, i);
		if (sum != o.ops * o.threads) {
			fprintf(stderr, "handoff-bench: %lu adds counted, %lu made\n", sum,
				o.ops * o.threads);
			return 1;
		}
		printf("%s %s threads=%u cpus=%u ops=%lu\n", o.what, kc_handoff_build(),
		       o.threads, o.cpus, sum);
	}
	free_percpu(word);
	free(args);
	free(th);
	return 0;
}
