// SPDX-License-Identifier: GPL-2.0
/*
 * SIGINT and SIGTERM. The first one asks every mode to stop: the handler
 * records which signal came and when (the watchdog holds the process to
 * that), and the loops that poll stress_signalled wind down and report.
 * A second one means "now": one line on stderr and _exit(128 + signo),
 * from the handler itself, whatever the other threads are doing, unless
 * it comes within 0.5 s of the first: that is the same interrupt twice
 * (coreutils timeout forwards a SIGINT/SIGTERM to its child AND to the
 * child's process group; a Ctrl-C on "timeout 60 ./stress" reaches
 * ./stress from the terminal and from timeout).
 *
 * No handler uses SA_RESTART: a blocking wait (waitpid on a replay
 * child, nanosleep) returns EINTR so that its caller sees the flag.
 */
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "signals.h"

volatile sig_atomic_t stress_signalled;
static atomic_long signalled_ns;	/* CLOCK_MONOTONIC of the first signal */
static atomic_int signalled_sig;	/* stress_signalled for other threads */

#define SAME_INTERRUPT_NS	500000000L

static void on_signal(int sig)
{
	static const char again[] = "stress: second interrupt: exiting now, no report\n";
	struct timespec ts;
	long now;

	clock_gettime(CLOCK_MONOTONIC, &ts);	/* async-signal-safe */
	now = ts.tv_sec * 1000000000L + ts.tv_nsec;
	if (stress_signalled) {
		ssize_t r;

		if (now - atomic_load(&signalled_ns) < SAME_INTERRUPT_NS)
			return;
		r = write(STDERR_FILENO, again, sizeof(again) - 1);
		(void)r;
		stress_kill_child();
		_exit(128 + sig);
	}
	atomic_store(&signalled_ns, now);
	atomic_store(&signalled_sig, sig);
	stress_signalled = sig;
}

void stress_signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

double stress_signalled_at(void)
{
	return atomic_load(&signalled_ns) * 1e-9;
}

int stress_signal_number(void)
{
	return atomic_load(&signalled_sig);
}

/*
 * A stop signal the watchdog saw pending before any handler ran (the
 * controller had it blocked): the reports name it as the one that
 * stopped the run. stress_signalled stays clear, so that the handler, if
 * it still runs, takes the signal for a first one, not a second.
 */
void stress_signal_note_pending(int sig)
{
	int none = 0;

	atomic_compare_exchange_strong(&signalled_sig, &none, sig);
}

/* The exit status of a run stopped by the first signal: 130 (INT), 143 (TERM). */
int stress_signal_status(void)
{
	int sig = stress_signal_number();

	return sig ? 128 + sig : 0;
}

/*
 * SIGINT and SIGTERM go to the controller, not to a worker: a thread
 * creates workers with them blocked (the new thread inherits the mask)
 * for the length of one pthread_create() only, so a signal is never held
 * back for more than one thread creation.
 */
void stress_signals_block(sigset_t *old)
{
	sigset_t block;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, old);
}

void stress_signals_restore(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

/*
 * The replay child of --replay-search/--shrink, if one runs: killed by a
 * second signal and by the watchdog before they exit, so that no child
 * outlives its parent (the child also has PR_SET_PDEATHSIG).
 */
static atomic_int child_pid;

void stress_set_child(pid_t pid)
{
	atomic_store(&child_pid, pid);
}

void stress_kill_child(void)
{
	pid_t pid = atomic_load(&child_pid);

	if (pid > 0)
		kill(pid, SIGKILL);	/* async-signal-safe */
}

bool stress_interrupted(void)
{
	return stress_signalled != 0;
}
