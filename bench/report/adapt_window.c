// SPDX-License-Identifier: GPL-2.0
/*
 * Section 3's window on a tree whose API the full build refuses
 * (docs/report.md): the accuracy range of the four RSS counters, taken
 * through lib/hpcc_adapt from the tree's own code, beside lib/shape's.
 * Each point boots in a process of its own: a tree may keep static state
 * from a first boot. Prints one JSON object on stdout.
 *
 *   hpcc-report-window [--tiny]
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <kcompat/kcompat.h>
#include "hpcc_adapt.h"
#include "shape/hpcc_shape.h"

#define NR_RSS	4	/* the RSS counters summed by oom_badness() */

static const unsigned int full_cpus[] = { 8, 64, 256, 1024 };
static const unsigned int tiny_cpus[] = { 8, 16 };
static const unsigned long batches[] = { 32, 128 };

/* One point, in a child: "U O" in pages summed over the four counters. */
static int point(unsigned int cpus, unsigned long batch, int fd)
{
	struct hpcc_a a[NR_RSS];
	unsigned long u = 0, o = 0;
	char buf[64];
	int i, n;

	if (kc_set_nr_cpu_ids(cpus) || hpcc_a_subsystem_init())
		return 1;
	for (i = 0; i < NR_RSS; i++) {
		unsigned long du = 0, dov = 0;

		if (hpcc_a_init(&a[i], batch))
			return 1;
		hpcc_a_accuracy_range(&a[i], &du, &dov);
		u += du;
		o += dov;
	}
	n = snprintf(buf, sizeof(buf), "%lu %lu", u, o);
	return write(fd, buf, (size_t)n) == n ? 0 : 1;
}

int main(int argc, char **argv)
{
	const unsigned int *cpus = full_cpus;
	size_t nr = sizeof(full_cpus) / sizeof(full_cpus[0]), c, b;
	const char *sep = "";

	if (argc == 2 && !strcmp(argv[1], "--tiny")) {
		cpus = tiny_cpus;
		nr = sizeof(tiny_cpus) / sizeof(tiny_cpus[0]);
	} else if (argc != 1) {
		fprintf(stderr, "hpcc-report-window: bad arguments (usage: hpcc-report-window [--tiny])\n");
		return 2;
	}
	printf("{\"function\": \"percpu_counter_tree accuracy range, through lib/hpcc_adapt\", "
	       "\"api\": \"%s\", \"points\": [", HPCC_ADAPT_API_DESC);
	for (c = 0; c < nr; c++) {
		for (b = 0; b < sizeof(batches) / sizeof(batches[0]); b++) {
			struct hpcc_shape s;
			unsigned long u, o;
			char buf[64] = "";
			int fds[2], st;
			ssize_t got;
			pid_t pid;

			fflush(stdout);
			if (pipe(fds) || (pid = fork()) < 0) {
				fprintf(stderr, "hpcc-report-window: pipe or fork failed\n");
				return 1;
			}
			if (!pid) {
				close(fds[0]);
				_exit(point(cpus[c], batches[b], fds[1]));
			}
			close(fds[1]);
			got = read(fds[0], buf, sizeof(buf) - 1);
			close(fds[0]);
			if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) ||
			    got <= 0 || sscanf(buf, "%lu %lu", &u, &o) != 2) {
				fprintf(stderr, "hpcc-report-window: the point at %u CPUs, batch %lu failed\n",
					cpus[c], batches[b]);
				return 1;
			}
			if (hpcc_shape_compute(&s, cpus[c], batches[b])) {
				fprintf(stderr, "hpcc-report-window: lib/shape refuses %u CPUs, batch %lu\n",
					cpus[c], batches[b]);
				return 1;
			}
			printf("%s{\"nr_cpus\": %u, \"batch\": %lu, \"under_pages\": %lu, "
			       "\"over_pages\": %lu, \"window_pages\": %lu, \"shape_window_pages\": %lu}",
			       sep, cpus[c], batches[b], u, o, u + o,
			       NR_RSS * (s.under + s.over));
			sep = ", ";
		}
	}
	printf("]}\n");
	return 0;
}
