#!/usr/bin/env python3
"""scripts/stress-verdicts' main() on the runs tests/seam/stress_verdicts.sh
made of a ./stress a signal stopped (one Python start for all four: its
start is most of their cost).

Usage: stress_verdicts_runs.py STRESS_VERDICTS ABRT SEGV KILL
  ABRT, SEGV, KILL: the exit statuses of the stand-ins whose output is
  ABRT.out, SEGV.out and KILL.out (in the working directory, beside
  none.json, which does not exist); a fourth run reads pass.json and
  pass.out with status 134. One line each: main()'s return, a tab, the
  record it printed. Exit status: 0, or 2 on usage."""
import contextlib
import io
import sys

sys.dont_write_bytecode = True
if len(sys.argv) != 5:
    print("usage: stress_verdicts_runs.py STRESS_VERDICTS ABRT SEGV KILL", file=sys.stderr)
    sys.exit(2)
sys.path.insert(0, sys.argv[1].rsplit("/", 1)[0])
from hpccpy.load import load_script  # noqa: E402

sv = load_script("stress-verdicts")
for st, rep, out in ((sys.argv[2], "none.json", "ABRT.out"), (sys.argv[3], "none.json", "SEGV.out"),
                     (sys.argv[4], "none.json", "KILL.out"), ("134", "pass.json", "pass.out")):
    o = io.StringIO()
    with contextlib.redirect_stdout(o):
        rc = sv.main(["stress-verdicts", "--status", st, rep, out])
    sys.stdout.write(f"{rc}\t{o.getvalue()}")
