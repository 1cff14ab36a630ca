// SPDX-License-Identifier: GPL-2.0
/*
 * kmalloc()/kfree() with the kernel's debug checks on frees
 * (<linux/slab.h>). Each object has a cache line of header in front of
 * it, linked in a hash of live objects; kfree() of a pointer not in the
 * hash WARNs, naming the object it points into, or the object it freed
 * already (a ring of recent frees per lock stripe), and frees nothing.
 * Not built into the object path under ASan: ASan checks frees itself.
 */
#include <stdint.h>
#include <stdio.h>
#include <pthread.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <kcompat/kcompat.h>

#ifndef KC_ASAN_FREE

struct kc_slab_hdr {
	struct kc_slab_hdr *next;	/* hash chain, under the stripe's lock */
	const void *obj;
	size_t size;
	const char *file;
	int line;
} __attribute__((aligned(SMP_CACHE_BYTES)));

#define KC_SLAB_BUCKETS	16384
#define KC_SLAB_STRIPES	64
#define KC_SLAB_RECENT	64

struct kc_slab_freed {
	const void *obj;
	size_t size;
	const char *file, *free_file;
	int line, free_line;
};

static struct kc_slab_stripe {
	pthread_mutex_t lock;
	struct kc_slab_freed recent[KC_SLAB_RECENT];
	unsigned int next_recent;
	long live;	/* objects in this stripe's buckets (kc_kmalloc_live()) */
} __attribute__((aligned(64))) stripes[KC_SLAB_STRIPES];
static struct kc_slab_hdr *buckets[KC_SLAB_BUCKETS];
static pthread_once_t stripes_once = PTHREAD_ONCE_INIT;
static __thread unsigned long kc_slab_fail_nth;

void kc_kmalloc_fail_nth(unsigned long nth)
{
	kc_slab_fail_nth = nth;
}

static void stripes_init(void)
{
	unsigned int i;

	for (i = 0; i < KC_SLAB_STRIPES; i++)
		pthread_mutex_init(&stripes[i].lock, NULL);
}

/* Counted per stripe under its lock: no shared line on the allocation path. */
long kc_kmalloc_live(void)
{
	long live = 0;
	unsigned int i;

	pthread_once(&stripes_once, stripes_init);
	for (i = 0; i < KC_SLAB_STRIPES; i++) {
		pthread_mutex_lock(&stripes[i].lock);
		live += stripes[i].live;
		pthread_mutex_unlock(&stripes[i].lock);
	}
	return live;
}

static unsigned int bucket_of(const void *obj)
{
	return ((uintptr_t)obj / SMP_CACHE_BYTES) % KC_SLAB_BUCKETS;
}

static struct kc_slab_stripe *stripe_of(unsigned int bucket)
{
	return &stripes[bucket % KC_SLAB_STRIPES];
}

void *kc_kmalloc_at(size_t size, bool zero, const char *file, int line)
{
	struct kc_slab_hdr *h;
	unsigned int b;
	void *p;

	if (size > SIZE_MAX - sizeof(*h))
		return NULL;
	if (kc_slab_fail_nth && !--kc_slab_fail_nth)
		return NULL;
	if (posix_memalign(&p, SMP_CACHE_BYTES, sizeof(*h) + (size ? size : 1)))
		return NULL;
	h = p;
	h->obj = h + 1;
	h->size = size;
	h->file = file;
	h->line = line;
	if (zero)
		memset(h + 1, 0, size);
	pthread_once(&stripes_once, stripes_init);
	b = bucket_of(h->obj);
	pthread_mutex_lock(&stripe_of(b)->lock);
	h->next = buckets[b];
	buckets[b] = h;
	stripe_of(b)->live++;
	pthread_mutex_unlock(&stripe_of(b)->lock);
	return h + 1;
}

/* Why @p cannot be freed (no lock held). */
static void bad_kfree(const void *p, const char *file, int line)
{
	char msg[400];
	unsigned int b, i;
	struct kc_slab_hdr *h;
	struct kc_slab_freed *f;
	bool found = false;

	/* A recent free of this very pointer: a double free. */
	b = bucket_of(p);
	pthread_mutex_lock(&stripe_of(b)->lock);
	for (i = 0; i < KC_SLAB_RECENT && !found; i++) {
		f = &stripe_of(b)->recent[i];
		if (f->obj == p) {
			snprintf(msg, sizeof(msg), "double kfree() of the %zu-byte object from "
				 "%s:%d, already freed at %s:%d", f->size, f->file, f->line,
				 f->free_file, f->free_line);
			found = true;
		}
	}
	pthread_mutex_unlock(&stripe_of(b)->lock);
	/* Inside a live object: an interior pointer. */
	for (b = 0; b < KC_SLAB_BUCKETS && !found; b++) {
		pthread_mutex_lock(&stripe_of(b)->lock);
		for (h = buckets[b]; h; h = h->next) {
			if ((const char *)p > (const char *)h->obj &&
			    (const char *)p < (const char *)h->obj + h->size) {
				snprintf(msg, sizeof(msg), "kfree() of a pointer %zu bytes into the "
					 "live %zu-byte object from %s:%d",
					 (size_t)((const char *)p - (const char *)h->obj), h->size,
					 h->file, h->line);
				found = true;
				break;
			}
		}
		pthread_mutex_unlock(&stripe_of(b)->lock);
	}
	if (!found)
		snprintf(msg, sizeof(msg), "kfree(%p): not an object kmalloc() gave (or freed "
			 "long ago)", p);
	kc_warn_bad_free(file, line, msg);
}

void kc_kfree_at(const void *p, const char *file, int line)
{
	struct kc_slab_hdr *h, **pp;
	struct kc_slab_stripe *st;
	unsigned int b;

	if (!p)
		return;
	pthread_once(&stripes_once, stripes_init);
	b = bucket_of(p);
	st = stripe_of(b);
	pthread_mutex_lock(&st->lock);
	for (pp = &buckets[b]; (h = *pp); pp = &h->next)
		if (h->obj == p)
			break;
	if (!h) {
		pthread_mutex_unlock(&st->lock);
		bad_kfree(p, file, line);
		return;
	}
	*pp = h->next;
	st->recent[st->next_recent++ % KC_SLAB_RECENT] = (struct kc_slab_freed){
		p, h->size, h->file, file, h->line, line };
	st->live--;
	pthread_mutex_unlock(&st->lock);
#ifndef KC_SANITIZED_FREE
	memset((void *)p, POISON_FREE, h->size);
#endif
	free(h);
}

#endif /* !KC_ASAN_FREE */
