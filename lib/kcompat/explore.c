// SPDX-License-Identifier: GPL-2.0
/* The scheduling-point hook of -DKC_EXPLORE builds (kcompat.h: kc_xp). */
#include <kcompat/kcompat.h>

#ifdef KC_EXPLORE
kc_xp_fn kc_xp_hook;
int *kc_xp_rcu_nest;
kc_xp_mem_fn kc_xp_mem_hook;
void (*kc_xp_post_hook)(void);
#endif
