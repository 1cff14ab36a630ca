# SPDX-License-Identifier: GPL-2.0
"""SIGINT and SIGTERM: the program stops, removes its temporary folders,
says one line and exits 128 + the signal (130, 143), no traceback."""
import shutil
import signal
import sys
import tempfile

TEMP = []


class Stopped(Exception):
	"""Raised in the main thread by the first SIGINT or SIGTERM."""
	def __init__(self, sig):
		super().__init__(sig)
		self.sig = sig

	@property
	def status(self):
		return 128 + self.sig


def _raise(sig, frame):
	signal.signal(signal.SIGINT, signal.SIG_IGN)
	signal.signal(signal.SIGTERM, signal.SIG_IGN)
	raise Stopped(sig)


def raise_on_signals():
	"""The first SIGINT or SIGTERM raises Stopped; later ones are ignored
	(the program is already on its way out)."""
	signal.signal(signal.SIGINT, _raise)
	signal.signal(signal.SIGTERM, _raise)


def mkdtemp(prefix):
	"""A temporary folder that cleanup() removes (on a signal too)."""
	d = tempfile.mkdtemp(prefix=prefix)
	TEMP.append(d)
	return d


def cleanup():
	while TEMP:
		shutil.rmtree(TEMP.pop(), ignore_errors=True)


def name(sig):
	try:
		return signal.Signals(sig).name
	except ValueError:
		return f"signal {sig}"


def run(prog, main, *args):
	"""sys.exit(main(*args)) with signals caught: a Stopped is one line
	"PROG: interrupted by SIGINT" and exit 128 + signal; temporary folders
	are removed whichever way main ends."""
	raise_on_signals()
	try:
		rc = main(*args)
	except Stopped as e:
		print(f"{prog}: interrupted by {name(e.sig)}", file=sys.stderr)
		rc = e.status
	finally:
		cleanup()
	sys.exit(rc)
