/* SPDX-License-Identifier: GPL-2.0 */
/*
 * signals.c: SIGINT/SIGTERM; stress_signalled is the first one's number, 0: none.
 */
#ifndef _STRESS_SIGNALS_H
#define _STRESS_SIGNALS_H

#include <signal.h>
#include <sys/types.h>

extern volatile sig_atomic_t stress_signalled;
void stress_signals_install(void);
double stress_signalled_at(void);	/* stress_now() clock */
int stress_signal_status(void);		/* 128 + signo, 0: no signal */
int stress_signal_number(void);		/* the same as stress_signalled, from any thread */
void stress_signal_note_pending(int sig);	/* seen pending, not yet handled */
void stress_signals_block(sigset_t *old);
void stress_signals_restore(const sigset_t *old);
void stress_set_child(pid_t pid);	/* replay child to kill on a forced exit; 0: none */
void stress_kill_child(void);

#endif /* _STRESS_SIGNALS_H */
