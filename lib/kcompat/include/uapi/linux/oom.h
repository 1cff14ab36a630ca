/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_UAPI_LINUX_OOM_H
#define _KC_UAPI_LINUX_OOM_H

/* /proc/<pid>/oom_score_adj bounds. */
#define OOM_SCORE_ADJ_MIN	(-1000)
#define OOM_SCORE_ADJ_MAX	1000

#endif /* _KC_UAPI_LINUX_OOM_H */
