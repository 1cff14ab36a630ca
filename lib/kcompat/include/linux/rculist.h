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

#define list_entry_rcu(ptr, type, member)				\
	container_of(__atomic_load_n(&(ptr), __ATOMIC_ACQUIRE), type, member)

#define list_first_or_null_rcu(ptr, type, member) ({			\
	struct list_head *__ptr = (ptr);				\
	struct list_head *__next = rcu_dereference(__ptr->next);	\
	__ptr != __next ? list_entry(__next, type, member) : NULL;	\
})

#define list_for_each_entry_rcu(pos, head, member, cond...)		\
	for (pos = list_entry_rcu((head)->next, typeof(*pos), member);	\
	     &pos->member != (head);					\
	     pos = list_entry_rcu(pos->member.next, typeof(*pos), member))

#endif /* _KC_LINUX_RCULIST_H */
