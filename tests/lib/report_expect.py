#!/usr/bin/env python3
"""Check a stress JSON report (--report json on stdout, --json FILE; its
shape is docs/stress-report.schema.json, which tests/lib/json_check.py
validates) against one named expectation of the CLI tests.

Usage: report_expect.py NAME FILE [ARG...]
  pass-counts FILE         counter_storm --cpus 4 --steps 1000 --seed 5:
                           PASS, exact ops, checks, a conservation margin
  fail-reproducer FILE     counter_storm then selftest failing at --seed 6:
                           the failure, its CPU, reproducer, flight recorder
  runs FILE N              exactly N runs
  full-rounds FILE N ROUND_S
                           N runs without a total duration, each of ROUND_S
                           seconds, each PASS or INCOMPLETE
  startup FILE             startup_s >= 0.099, ops_per_s = ops / elapsed_s
  failed FILE INVARIANT    exit 1, the first run FAIL on INVARIANT
  interrupted FILE SIGNAL [NOT_RUN...]
                           exit 128 + SIGNAL's number, one INTERRUPTED run,
                           the scenarios NOT_RUN listed as not run
  known FILE OPS HITS FUNCTION CLASS
                           PASS with OPS operations and one known finding
Exit status: 0 met; 1 not met (a FILE not JSON or without a field, and
some expectations, say why on a "# " line); 2 usage."""
import json
import signal
import sys


def runs(d, n):
    return len(d["runs"]) == int(n)


def pass_counts(d):
    r = d["runs"][0]
    return (d["exit_status"] == 0 and d["config"]["seed"] == "5" and r["verdict"] == "PASS"
            and r["scenario"] == "counter_storm" and r["checks"] > 0 and r["ops"] == 4 * 1000
            and r["scenario_data"]["adds"] >= r["ops"] and not r["failures"]
            and any(m["invariant"] == "conservation" for m in r["margins"]))


def fail_reproducer(d):
    by = {r["scenario"]: r for r in d["runs"]}
    f = by["selftest"]["failures"][0]
    return (d["exit_status"] == 1 and by["counter_storm"]["verdict"] == "PASS"
            and by["selftest"]["verdict"] == "FAIL" and f["invariant"] == "selftest"
            and f["cpu"] == 0 and "--seed 6" in f["reproducer"]
            and "selftest-step" in f["flight_recorder"])


def full_rounds(d, n, round_s):
    if (d["config"]["duration_s"] == 0 and runs(d, n) and
            all(r["duration_s"] == float(round_s) and r["verdict"] in ("PASS", "INCOMPLETE")
                for r in d["runs"])):
        return True
    print("# config duration_s=%s runs=%s" % (d["config"]["duration_s"],
          [(r["scenario"], r["duration_s"], r["verdict"]) for r in d["runs"]]))
    return False


def startup(d):
    r = d["runs"][0]
    if (r["startup_s"] >= 0.099 and r["elapsed_s"] > 0 and r["ops_per_s"] is not None and
            abs(r["ops_per_s"] - r["ops"] / r["elapsed_s"]) <= 1e-6 * r["ops_per_s"] + 1e-9):
        return True
    print("# startup_s=%s elapsed_s=%s ops=%s ops_per_s=%s" % (r["startup_s"], r["elapsed_s"],
          r["ops"], r["ops_per_s"]))
    return False


def failed(d, invariant):
    r = d["runs"][0]
    return (d["exit_status"] == 1 and r["verdict"] == "FAIL" and
            r["failures"][0]["invariant"] == invariant)


def interrupted(d, sig, *not_run):
    return (d["exit_status"] == 128 + signal.Signals[sig].value
            and d["interrupted"] == {"signal": sig, "not_run": list(not_run)}
            and [r["verdict"] for r in d["runs"]] == ["INTERRUPTED"]
            and bool(d["runs"][0]["interrupted"]))


def known(d, ops, hits, function, klass):
    r = d["runs"][0]
    k = r["known"]
    if (r["verdict"] == "PASS" and r["ops"] == int(ops) and r["failures"] == [] and
            len(k) == 1 and k[0]["hits"] == int(hits) and k[0]["function"] == function and
            k[0]["class"] == klass and len(k[0]["sample"]) == 3):
        return True
    print("# run %s" % json.dumps(r)[:300])
    return False


CHECKS = {"pass-counts": (pass_counts, 0, 0), "fail-reproducer": (fail_reproducer, 0, 0),
          "runs": (runs, 1, 1), "full-rounds": (full_rounds, 2, 2), "startup": (startup, 0, 0),
          "failed": (failed, 1, 1), "interrupted": (interrupted, 1, None),
          "known": (known, 4, 4)}


def run(prog, checks, argv):
    """argv: [prog, NAME, FILE, ARG...]; checks: NAME -> (function of the
    document and the ARGs, least and most ARGs (None: no most))."""
    if len(argv) < 3 or argv[1] not in checks:
        print("%s: usage: %s.py NAME FILE [ARG...] (NAME: %s)"
              % (prog, prog, ", ".join(checks)), file=sys.stderr)
        return 2
    fn, lo, hi = checks[argv[1]]
    args = argv[3:]
    if len(args) < lo or (hi is not None and len(args) > hi):
        print("%s: %s takes %s argument(s) after FILE" % (prog, argv[1], lo), file=sys.stderr)
        return 2
    try:
        with open(argv[2]) as f:
            d = json.load(f)
        return 0 if fn(d, *args) else 1
    except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
        print("# %s: %s: %s" % (argv[2], type(e).__name__, e))
        return 1


if __name__ == "__main__":
    sys.exit(run("report_expect", CHECKS, sys.argv))
