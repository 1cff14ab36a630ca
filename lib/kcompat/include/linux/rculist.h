/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_RCULIST_H
#define _KC_LINUX_RCULIST_H

#include <linux/list.h>
#include <linux/rcupdate.h>

/* Publication through ->next is a release store (see rcupdate.h). */
static inline void __list_add_rcu(struct list_head *new,
				  struct list_head *prev, struct list_head *next)
{
	new->next = next;
	new->prev = prev;
	rcu_assign_pointer(prev->next, new);
	next->prev = new;
}

static inline void list_add_rcu(struct list_head *new, struct list_head *head)
{
	__list_add_rcu(new, head, head->next);
}

static inline void list_add_tail_rcu(struct list_head *new,
				     struct list_head *head)
{
	__list_add_rcu(new, head->prev, head);
}

/*
 * Readers may still be on @entry: keep ->next, poison ->prev only. The
 * store into prev->next is a release: a reader that reaches @entry->next
 * through it must see that node's initialisation (C11, and so TSan, have
 * no dependency ordering to carry the publisher's release along).
 */
static inline void list_del_rcu(struct list_head *entry)
{
	struct list_head *prev = entry->prev, *next = entry->next;

	next->prev = prev;
	rcu_assign_pointer(prev->next, next);
	entry->prev = LIST_POISON2;
}

#define list_next_rcu(list)	(*((struct list_head __rcu **)(&(list)->next)))

/* rcu_dereference(): under KC_EXPLORE the walk's loads are scheduling points. */
#define list_entry_rcu(ptr, type, member)				\
	container_of(rcu_dereference(ptr), type, member)

#define list_first_or_null_rcu(ptr, type, member) ({			\
	struct list_head *__ptr = (ptr);				\
	struct list_head *__next = rcu_dereference(__ptr->next);	\
	__ptr != __next ? list_entry(__next, type, member) : NULL;	\
})

/*
 * As the kernel with CONFIG_PROVE_RCU_LIST: a walk outside a read-side
 * section (and without the caller's lock condition, the optional last
 * argument) warns. Only a grace period that happens to end during the
 * walk would show it otherwise.
 */
#define __kc_rcu_list_ok(dummy, cond, extra...)	((cond) || rcu_read_lock_held())
#define __kc_rcu_list_check(ok) ({					\
	static bool __warned;						\
	if (unlikely(!(ok)) &&						\
	    !__atomic_exchange_n(&__warned, true, __ATOMIC_RELAXED))	\
		kc_warn(__FILE__, __LINE__,				\
			"RCU-list traversed in non-reader section", true); \
})

#define list_for_each_entry_rcu(pos, head, member, cond...)		\
	for (__kc_rcu_list_check(__kc_rcu_list_ok(dummy, ## cond, 0)),	\
	     pos = list_entry_rcu((head)->next, typeof(*pos), member);	\
	     &pos->member != (head);					\
	     pos = list_entry_rcu(pos->member.next, typeof(*pos), member))

#endif /* _KC_LINUX_RCULIST_H */
