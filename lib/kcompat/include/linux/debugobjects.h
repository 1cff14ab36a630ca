/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KC_LINUX_DEBUGOBJECTS_H
#define _KC_LINUX_DEBUGOBJECTS_H
/*
 * Object lifetime debugging is not configured (no CONFIG_DEBUG_OBJECTS*):
 * a file's own #ifdef keeps its calls out; the types stay declarable.
 */
enum debug_obj_state {
	ODEBUG_STATE_NONE,
	ODEBUG_STATE_INIT,
	ODEBUG_STATE_INACTIVE,
	ODEBUG_STATE_ACTIVE,
	ODEBUG_STATE_DESTROYED,
	ODEBUG_STATE_NOTAVAILABLE,
	ODEBUG_STATE_MAX,
};

struct debug_obj_descr;
#endif
