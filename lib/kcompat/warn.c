// SPDX-License-Identifier: GPL-2.0
/* WARN_ON & co.: count every warning and keep the first one's site. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <kcompat/kcompat.h>

static pthread_mutex_t warn_lock = PTHREAD_MUTEX_INITIALIZER;
static struct kc_warn_info warn_info;
static bool warn_quiet, warn_fatal;

void kc_warn(const char *file, int line, const char *cond, bool once)
{
	bool quiet;

	pthread_mutex_lock(&warn_lock);
	if (!warn_info.count++)
		snprintf(warn_info.first, sizeof(warn_info.first), "%s:%d: %s",
			 file, line, cond);
	quiet = warn_quiet;
	pthread_mutex_unlock(&warn_lock);
	if (!quiet)
		fprintf(stderr, "WARNING%s: %s:%d: %s\n", once ? " (once)" : "",
			file, line, cond);
	if (__atomic_load_n(&warn_fatal, __ATOMIC_RELAXED))
		abort();
}

void kc_warn_bad_free(const char *file, int line, const char *what)
{
	pthread_mutex_lock(&warn_lock);
	if (!warn_info.bad_frees++)
		snprintf(warn_info.first_bad_free, sizeof(warn_info.first_bad_free),
			 "%s:%d: %s", file, line, what);
	pthread_mutex_unlock(&warn_lock);
	kc_warn(file, line, what, false);
}

unsigned long kc_warn_bad_frees(void)
{
	unsigned long n;

	pthread_mutex_lock(&warn_lock);
	n = warn_info.bad_frees;
	pthread_mutex_unlock(&warn_lock);
	return n;
}

unsigned long kc_warn_count(void)
{
	unsigned long n;

	pthread_mutex_lock(&warn_lock);
	n = warn_info.count;
	pthread_mutex_unlock(&warn_lock);
	return n;
}

void kc_warn_get(struct kc_warn_info *info)
{
	pthread_mutex_lock(&warn_lock);
	*info = warn_info;
	pthread_mutex_unlock(&warn_lock);
}

void kc_warn_reset(void)
{
	pthread_mutex_lock(&warn_lock);
	memset(&warn_info, 0, sizeof(warn_info));
	pthread_mutex_unlock(&warn_lock);
}

long kc_ratelimit(struct kc_ratelimit *rl, long long now_ns, long long interval_ns)
{
	long long next = atomic_load_explicit(&rl->next_ns, memory_order_relaxed);

	/* One winner per interval; the others are counted for its successor's line. */
	if (now_ns < next ||
	    !atomic_compare_exchange_strong_explicit(&rl->next_ns, &next, now_ns + interval_ns,
						     memory_order_relaxed, memory_order_relaxed)) {
		atomic_fetch_add_explicit(&rl->held, 1, memory_order_relaxed);
		return -1;
	}
	return atomic_exchange_explicit(&rl->held, 0, memory_order_relaxed);
}

void kc_warn_set_quiet(bool quiet)
{
	pthread_mutex_lock(&warn_lock);
	warn_quiet = quiet;
	pthread_mutex_unlock(&warn_lock);
}

void kc_warn_set_fatal(bool fatal)
{
	__atomic_store_n(&warn_fatal, fatal, __ATOMIC_RELAXED);
}
