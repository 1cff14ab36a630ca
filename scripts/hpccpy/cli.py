# SPDX-License-Identifier: GPL-2.0
"""Arguments and errors: bad input is one line on stderr and exit 2."""
import argparse
import sys


class Usage(Exception):
	"""Bad input: one line "PROG: message", exit 2."""


def die(prog, msg, code=2):
	print(f"{prog}: {msg}", file=sys.stderr)
	sys.exit(code)


class ArgParser(argparse.ArgumentParser):
	"""argparse, but an error is one line "ME: message" and exit 2
	(argparse's own prints the usage first); @me defaults to prog."""
	def __init__(self, *args, me=None, **kwargs):
		super().__init__(*args, **kwargs)
		self.me = me or self.prog

	def error(self, message):
		die(self.me, message)


def description(doc):
	"""A program's --help description: the first line of its docstring."""
	return (doc or "").strip().split("\n")[0]


def positional(usage, n):
	"""sys.argv's @n arguments; otherwise "usage: PROG USAGE" and exit 2."""
	if len(sys.argv) != n + 1:
		print(f"usage: {sys.argv[0].rsplit('/', 1)[-1]} {usage}", file=sys.stderr)
		sys.exit(2)
	return sys.argv[1:]


def run(prog, main, *args):
	"""sys.exit(main(*args)); a Usage it raises is one line "PROG: why", exit 2."""
	try:
		rc = main(*args)
	except Usage as e:
		die(prog, e)
	sys.exit(rc)


def named(checks, argv):
	"""A program of named subcommands: @argv is [PROG, NAME, ARG...] and
	@checks maps NAME to (function, how many ARGs). Returns the function's
	return on the ARGs (None: 0); otherwise "usage: PROG NAME ARG..." and 2."""
	if len(argv) < 2 or argv[1] not in checks or len(argv) - 2 != checks[argv[1]][1]:
		prog = argv[0].rsplit("/", 1)[-1] if argv else "?"
		print(f"usage: {prog} NAME ARG... (NAME: {', '.join(checks)})", file=sys.stderr)
		return 2
	return checks[argv[1]][0](*argv[2:]) or 0
