#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The scripts' toolkit (scripts/hpccpy) does what its programs rely on:
KTAP as lib/util/ktap.c writes it, one-line argument errors (exit 2), a
SIGINT or SIGTERM that ends a program with 128 + the signal, one line and
its temporary folders removed. KTAP on stdout (tests/unit/hpccpy.sh)."""
import io
import os
import signal
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from hpccpy.ktap import FAIL, PASS, SKIP, Ktap  # noqa: E402

N = [0, 0]


def result(ok, name, diag=""):
	N[0] += 1
	if not ok:
		N[1] += 1
		for ln in diag.rstrip("\n").split("\n"):
			print("# " + ln)
	print(f"{'ok' if ok else 'not ok'} {N[0]} {name}")


def ktap_as_lib_util():
	# What ktap_begin(3), ktap_result, ktap_diag and ktap_end write for the
	# same calls (lib/util/ktap.c): numbering, directive, '#' in a name,
	# a multi-line diagnostic, the totals.
	out = io.StringIO()
	k = Ktap(3, out)
	k.result(PASS, "a#b")
	k.diag("two\n\nlines\n")
	k.diag("# kept")
	k.diag("")
	k.result(FAIL, "b", "why\nnot")
	k.result(SKIP, "c", "no tree")
	k.totals(" extra:1")
	want = ("KTAP version 1\n1..3\nok 1 a_b\n# two\n# \n# lines\n# kept\n#\n"
		"not ok 2 b # why not\nok 3 c # SKIP no tree\n"
		"# Totals: pass:1 fail:1 skip:1 total:3 extra:1\n")
	result(out.getvalue() == want, "ktap_as_lib_util",
	       f"got:\n{out.getvalue()}want:\n{want}")


PROG = r'''
import os, sys, time
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
from hpccpy import cli, signals

def main(mode):
	if mode == "args":
		ap = cli.ArgParser(prog="scripts/prog", me="prog")
		ap.add_argument("--n", type=int)
		ap.parse_args(["--n", "x"])
	d = signals.mkdtemp("hpccpy-check-")
	print(d, flush=True)
	while True:
		time.sleep(0.05)

signals.run("prog", main, sys.argv[2])
'''


def run_prog(mode, sig=None):
	p = subprocess.Popen([sys.executable, "-B", "-c", PROG, os.path.join(ROOT, "scripts"), mode],
			     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
	d = None
	if sig:
		d = p.stdout.readline().strip()	# the folder exists: the program is in main
		p.send_signal(sig)
	try:
		out, err = p.communicate(timeout=300)	# a guard against a hang, not a limit
	except subprocess.TimeoutExpired:
		p.kill()
		out, err = p.communicate()
	return p.returncode, d, err


def one_line_error():
	rc, _, err = run_prog("args")
	result(rc == 2 and err == "prog: argument --n: invalid int value: 'x'\n",
	       "argument_error_one_line_exit_2", f"exit {rc}, stderr:\n{err}")


def signal_cleanup(sig, name):
	rc, d, err = run_prog("sig", sig)
	ok = (rc == 128 + sig and err == f"prog: interrupted by {name}\n"
	      and d and d.startswith("/") and not os.path.exists(d))
	result(ok, f"{name.lower()}_exit_{128 + sig}_temp_removed",
	       f"exit {rc}, folder {d} {'left' if d and os.path.exists(d) else 'gone'}, "
	       f"stderr:\n{err}")


def written_file_modes():
	# write_text's file: the mode open() gives a new one (0666 less the
	# umask), a replaced file's own; not mkstemp's owner-only 0600.
	import tempfile
	from hpccpy.files import write_text
	with tempfile.TemporaryDirectory() as d:
		new, old = os.path.join(d, "new"), os.path.join(d, "old")
		with open(old, "w") as f:
			f.write("x")
		os.chmod(old, 0o640)
		mask = os.umask(0o022)
		try:
			write_text(new, "a")
			write_text(old, "b")
		finally:
			os.umask(mask)
		got = (os.stat(new).st_mode & 0o777, os.stat(old).st_mode & 0o777)
	result(got == (0o644, 0o640), "written_file_modes", f"modes {got[0]:o} {got[1]:o}, want 644 640")


def main():
	print("KTAP version 1")
	ktap_as_lib_util()
	written_file_modes()
	one_line_error()
	signal_cleanup(signal.SIGINT, "SIGINT")
	signal_cleanup(signal.SIGTERM, "SIGTERM")
	return 1 if N[1] else 0


if __name__ == "__main__":
	sys.exit(main())
