# SPDX-License-Identifier: GPL-2.0
"""The processes below this one: found from /proc, stopped by pid."""
import ctypes
import os
import signal
import time


def subreaper():
	"""PR_SET_CHILD_SUBREAPER: jobs a child leaves behind (GNU parallel's)
	come back to us, not to init, so that they can be stopped."""
	try:
		ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)
	except (OSError, AttributeError):
		pass


def descendants(root):
	"""Every live process whose parent chain leads to @root (from /proc)."""
	parent = {}
	for d in os.listdir("/proc"):
		if not d.isdigit():
			continue
		try:
			with open(f"/proc/{d}/stat") as f:
				st = f.read()
		except OSError:
			continue
		fields = st[st.rindex(")") + 2:].split()
		if fields[0] != "Z":
			parent[int(d)] = int(fields[1])
	out = []
	for pid in parent:
		p, hops = pid, 0
		while p in parent and p != root and hops < 256:
			p, hops = parent[p], hops + 1
		if p == root and pid != root:
			out.append(pid)
	return out


def reap():
	"""Wait for every child that has exited, without blocking."""
	try:
		while os.waitpid(-1, os.WNOHANG)[0] > 0:
			pass
	except ChildProcessError:
		pass


def stop_descendants(rounds=300, term_rounds=50):
	"""Everything below this process, by pid: SIGTERM for the first
	@term_rounds rounds of 10 ms, SIGKILL after; each round reaps."""
	me = os.getpid()
	for i in range(rounds):
		left = descendants(me)
		if not left:
			break
		for pid in left:
			try:
				os.kill(pid, signal.SIGTERM if i < term_rounds else signal.SIGKILL)
			except OSError:
				pass
		reap()
		time.sleep(0.01)
	reap()
