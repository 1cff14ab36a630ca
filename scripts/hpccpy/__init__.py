# SPDX-License-Identifier: GPL-2.0
"""The toolkit the Python programs of scripts/ share (docs/layout.md).

A program finds it next to itself and loads it without writing bytecode
into the tree:

	sys.dont_write_bytecode = True
	sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
	from hpccpy import cli

cli	arguments (argparse) and errors: one line, exit 2
host	the host's load average
git	git in a repository that is not ours: commit_of, tracked files
procs	the processes below this one (a child subreaper's jobs)
signals	SIGINT/SIGTERM: exit 128 + signal, one line, temporary folders removed
ktap	KTAP version 1 written as lib/util/ktap.c writes it
load	another program of scripts/ loaded as a module
"""
