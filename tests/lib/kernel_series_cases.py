#!/usr/bin/env python3
"""scripts/kernel-series' functions driven directly, for the cases its
command line cannot reach cheaply (tests/seam/kernel_check_inputs.sh,
tests/seam/kernel_tools_logic.sh).

Usage: kernel_series_cases.py NAME ARG...
  enospc FILE              write_file() of 64 KiB to FILE (on a full file
                           system): its WriteError printed, exit 3
  checkpatch REPO H0..H4   the checkpatch step on REPO's commits H0..H4
                           (base, clean, a trailing blank, no checker, a
                           checker that dies): the verdicts, the table's
                           column, the KTAP lines and the exit status; what
                           differs printed, one a line
  am-times REPO MBOX DIR   series_am() of MBOX on REPO's HEAD, its clone in
                           DIR: two commits, and no time set on any file
                           of REPO (tests/seam/kernel_series_am_times.sh)
  lock KEY1 KEY2           series_lock() on rows with these keys: "held",
                           then held until stdin ends; with NB set in the
                           environment a lock that would wait prints
                           "would wait", exit 1
                           (tests/seam/kernel_series_lock.sh)
  am-json FILE             the --json of tests/seam/kernel_series.sh's --am
                           series: its commits, reuses, unit failures,
                           first bad and fixed by
  content-key FILE N       a --json's commit N's content key, printed
                           (tests/seam/known_seam.sh)
Exit status: 0 done (checkpatch: nothing printed when all hold), 3 the
write failed, 1 a check failed, 2 usage."""
import contextlib
import fcntl
import io
import json
import os
import sys
import types

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
from hpccpy import cli  # noqa: E402
from hpccpy.load import load_script  # noqa: E402

ks = load_script("kernel-series")


def enospc(path):
    try:
        ks.write_file(path, "x" * 65536)
    except ks.WriteError as e:
        print(e)
        return 3
    return 0


def rows_of(hs):
    return [{"hash": x, "short": x[:12], "subject": "s " + x[:4], "touches": [], "key": x,
             "cached_from": None, "regressed": [],
             "v": {"builds": "yes", "unit": {"pass": 1, "fail": 0, "skip": 0}, "ufail": [],
                   "stress": {}}} for x in hs]


def printed(fn, *args):
    t = io.StringIO()
    with contextlib.redirect_stdout(t):
        fn(*args)
    return t.getvalue()


def checkpatch(repo, *revs):
    bad = []
    rows = rows_of(revs[:4])
    ks.checkpatch(repo, rows)
    got = [r.get("checkpatch", {}).get("verdict") for r in rows]
    if got != [None, "PASS", "FAIL", "SKIP"]:
        bad.append(f"verdicts {got}")
    if ks.exit_status([], rows) != 1:
        bad.append(f"exit with a FAIL: {ks.exit_status([], rows)}")
    lines = printed(ks.table, rows, [], None).splitlines()
    if not lines[0].endswith(" checkpatch |") or lines[1].count("|") != lines[0].count("|"):
        bad.append(f"header {lines[:2]}")
    if not lines[3].endswith("| PASS |") or \
       not lines[4].endswith("| **FAIL** (1 errors, 0 warnings: ERROR: trailing whitespace) |") or \
       not lines[5].endswith("| SKIP (no scripts/checkpatch.pl) |") or \
       not lines[2].endswith("| - |"):
        bad.append("rows " + " / ".join(lines[2:6]))
    k = printed(ks.ktap, rows, [])
    if f"not ok 3 {revs[2][:12]}" not in k or "not ok 2" in k:
        bad.append("ktap " + k)
    ok = [rows[0], rows[1], rows[3]]
    if ks.exit_status([], ok) != 0:
        bad.append(f"exit with PASS and SKIP: {ks.exit_status([], ok)}")
    rows = rows_of([revs[0], revs[4]])
    ks.checkpatch(repo, rows)
    if ks.exit_status([], rows) != 4:
        bad.append(f"exit with a no verdict: {ks.exit_status([], rows)}")
    print("\n".join(bad))


def am_times(repo, mbox, outdir):
    real = os.path.realpath(repo)
    utime = os.utime

    def no_reset(p, *args, **kw):
        if os.path.realpath(p).startswith(real + "/"):
            sys.exit(f"a time set on {p}")
        return utime(p, *args, **kw)
    os.utime = no_reset
    a = {"repo": repo, "am": mbox, "base": "HEAD"}
    clone, revs = ks.series_am(a, outdir)
    assert len(revs) == 2, revs


def lock(*keys):
    if os.environ.get("NB"):
        ks.fcntl = types.SimpleNamespace(LOCK_EX=fcntl.LOCK_EX,
                                         flock=lambda f, op: fcntl.flock(f, op | fcntl.LOCK_NB))
    try:
        held = ks.series_lock([{"key": k} for k in keys])
    except BlockingIOError:
        print("would wait")
        return 1
    print("held", flush=True)
    sys.stdin.read()
    # The lock files, open to here: closed, their locks would go.
    for f in held:
        f.close()


def am_json(path):
    with open(path) as f:
        d = json.load(f)
    c = d["commits"]
    assert d["mode"] == "am" and d["exit"] == 1 and len(c) == 7
    assert [x["cached_from"] is not None for x in c] == [False, True, False, True, True, True, True]
    assert c[5]["cached_from"] == c[0]["short"] and c[3]["cached_from"] == c[2]["short"]
    assert [x["unit"]["fail"] for x in c] == [0, 0, 1, 1, 1, 0, 0]
    assert [(x["short"], x["check"]) for x in d["first_bad"]] == \
        [(c[2]["short"], "unit test_hpcc_carry carry_batch_4g")]
    assert [x["short"] for x in d["fixed_by"]] == [c[5]["short"]]
    assert c[2]["unit_failed"][0]["class"] == "wrong-answer"


def content_key(path, n):
    with open(path) as f:
        print(json.load(f)["commits"][int(n)]["content_key"])


CHECKS = {"enospc": (enospc, 1), "checkpatch": (checkpatch, 6), "am-times": (am_times, 3),
          "lock": (lock, 2), "am-json": (am_json, 1), "content-key": (content_key, 2)}


if __name__ == "__main__":
    sys.exit(cli.named(CHECKS, sys.argv))
