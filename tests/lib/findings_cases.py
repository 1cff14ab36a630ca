#!/usr/bin/env python3
"""scripts/findings' KUnit cases as the catalogue gives them (nothing built,
docs/kernel-trees.md#findings-a-maintainer-can-act-on): tests/unit/findings_cases.sh's
cases, KTAP results on stdout.

Usage: findings_cases.py ROOT  (exit 0 all ok, 1 a case failed, 2 usage)."""
import os
import shutil
import sys
import tempfile

if len(sys.argv) != 2:
    print("findings_cases: usage: findings_cases.py ROOT", file=sys.stderr)
    sys.exit(2)
sys.path.insert(0, sys.argv[1] + "/scripts")
from hpccpy.load import load_script

fd = load_script("findings")
root = sys.argv[1]
rows = fd.catalogue()
n = failed = 0


def result(ok, name, diag=""):
    global n, failed
    n += 1
    failed += not ok
    if not ok:
        print("\n".join("# " + l for l in diag.splitlines()))
    print(("ok" if ok else "not ok") + f" {n} {name}")


def row(fn):
    return fd.match(rows, "long", {"class": "wrong-answer", "fn": fn,
                       "case": "compare_value_extremes"})


cases = []
for fn, case in (("approximate_compare_value", "compare_value_extremes"),
         ("precise_compare", "compare_pair_extremes"), ("init", "carry_batch_4g")):
    r = row(fn)
    cases.append({"shape": "long", "row": r, "kfn": "hpcc_test_" + case,
              "kcpus": fd.case_cpus(r, "8")})
got = [(c["row"]["case"], c["kcpus"]) for c in cases]
want = [("compare_value_extremes", "16"), ("compare_pair_extremes", "16"),
    ("carry_batch_4g", "8")]
groups = {k: [c["kfn"] for c in v] for k, v in fd.by_cpus(cases).items()}
result(got == want and groups == {"16": ["hpcc_test_compare_value_extremes",
                     "hpcc_test_compare_pair_extremes"],
                  "8": ["hpcc_test_carry_batch_4g"]},
       "case_cpu_counts", f"got {got}, groups {groups}")

text = fd.kunit_file(cases[:2], ["x"])
fill = text.count("static void hpcc_extremes_fill(")
first = min(text.index("static void hpcc_test_compare_value_extremes("),
        text.index("static void hpcc_test_compare_pair_extremes("))
result(fill == 1 and text.index("static void hpcc_extremes_fill(") < first and
       "// needs:" not in text and "@FN@" not in text,
       "helpers_once_before_cases", f"fill defined {fill} times")

api = "shape=int-items(int values, caller items, unsigned int batch and range)"
sh = fd.shape({"builds": "adapter", "api": api})
ints = []
for cls, case in (("wrong-answer", "adapt_compare_value"), ("contract", "counter_storm:compare")):
    r = fd.match(rows, sh, {"class": cls, "fn": "approximate_compare_value", "case": case})
    ints.append({"shape": sh, "row": r, "kfn": "hpcc_test_" + case.replace(":", "_"),
                 "kcpus": fd.case_cpus(r, "8")})
got = [(c["row"] or {}).get("case") for c in ints] + [(c["row"] or {}).get("fix") for c in ints]
result(sh == "int-items" and got == ["compare_value_edge"] * 2 + ["swap-tolerances"] * 2 and
       [c["kcpus"] for c in ints] == ["8", "8"], "int_items_rows", f"shape {sh}, rows {got}")

text = fd.kunit_file(ints, ["x"]) if all(c["row"] for c in ints) else ""
result("unsigned int under = 0, over = 0;" in text and "unsigned long" not in text and
       text.count("(int)under);") == 2, "int_items_template",
       "the int-items cases are not the int API's template")

calls = []
real_run = fd.subprocess.run
fd.subprocess.run = lambda cmd, **kw: calls.append(cmd)
for sh in ("int-items", "rfc", "long"):
    fd.run_kunit("/nonexistent/tree", "/nonexistent/build", "8", "/dev/null", sh)
anyapi = ["KUNIT_ANY_API=1" in c for c in calls]
result(anyapi == [True, True, False] and all(c[-1] == "kunit" for c in calls),
       "kunit_any_api_for_adapter_shapes", f"calls {calls}")
fd.subprocess.run = real_run
api = ("shape=rfc1(int values, one symmetric inaccuracy, self-allocated items, "
       "value compares only) boot=module_init")
sh = fd.shape({"builds": "adapter", "api": api})
r = fd.match(rows, sh, {"class": "wrong-answer", "fn": "init", "case": "adapt_conservation"})
result(sh == "rfc1" and r is not None and (r["case"], r["fix"], r["cpus"]) ==
       ("items_alloc", "items-size-precedence", None), "rfc1_rows",
       f"shape {sh}, row {r}")

text = fd.kunit_file([{"shape": sh, "row": r, "kfn": "hpcc_test_adapt_conservation"}],
                     ["x"]) if r else ""
result("percpu_counter_tree_init(&c, 2);" in text and "GFP_KERNEL" not in text and
       "KUNIT_CASE(hpcc_test_adapt_conservation)," in text, "rfc1_template",
       "the rfc1 case is not the first RFC's API (init() without gfp)")

if not shutil.which("spatch"):
    for name in ("rfc1_fix_parenthesises", "rfc1_fix_one_cpu_level"):
        n += 1
        print(f"ok {n} {name} # SKIP spatch not installed")
else:
    ok, diag = False, "no rfc1 row"
    kt = os.path.join(root, "tests/seam/fixtures/ktrees")
    with tempfile.TemporaryDirectory() as d:
        if r:
            shutil.copytree(os.path.join(kt, "rfc1"), d, dirs_exist_ok=True)
            real_run(["patch", "-s", "-p1", "-d", d, "-i",
                      os.path.join(kt, "rfc1-alloc.patch")], check=True)
            p = real_run(["spatch", "--very-quiet", "--sp-file",
                          os.path.join(fd.LIB, "cocci", r["fix"] + ".cocci"),
                          os.path.join(d, fd.C_REL)], capture_output=True, text=True)
            ok = "+\tcounter->items = kzalloc((counter->nr_items - 1) * sizeof(" in p.stdout
            diag = p.stdout + p.stderr
    result(ok, "rfc1_fix_parenthesises", diag)
    ok, diag = False, "no rfc1 row"
    with tempfile.TemporaryDirectory() as d:
        if r:
            c = os.path.join(d, "init.c")
            with open(c, "w") as f:
                f.write("int percpu_counter_tree_init(struct percpu_counter_tree *counter)\n"
                        "{\n\tcounter->nr_levels = get_count_order(nr_cpu_ids);\n"
                        "\tcounter->nr_cpus = 1UL << counter->nr_levels;\n\treturn 0;\n}\n")
            p = real_run(["spatch", "--very-quiet", "--sp-file",
                          os.path.join(fd.LIB, "cocci", r["fix"] + ".cocci"), c],
                         capture_output=True, text=True)
            ok = "+\tcounter->nr_levels = get_count_order(nr_cpu_ids) ? : 1;" in p.stdout and \
                not p.stderr
            diag = p.stdout + p.stderr
    result(ok, "rfc1_fix_one_cpu_level", diag)


def found(case, cls, fn):
    """A finding as scripts/findings' findings() makes it: a unit case's,
    or a scenario:invariant's."""
    inv = case.partition(":")[2] or "-"
    return {"sig": (case, inv, cls, fn), "case": case, "name": f"{case}-{fn}",
            "class": cls, "fn": fn}


# The RFC's two defects: the compare_value signs (compare-value-sign) and
# precise_compare's (precise-compare-sign); counter_storm names the first
# wrong function its run meets.
cvs = [found("adapt_compare_value", "wrong-answer", "approximate_compare_value"),
       found("adapt_precise_compare_value", "wrong-answer", "precise_compare_value")]
pcs = [found("adapt_compare_pair", "wrong-answer", "precise_compare"),
       found("counter_storm:compare", "wrong-answer", "precise_compare")]
storm_cv = found("counter_storm:compare", "wrong-answer", "precise_compare_value")
crash = found("counter_storm:compare", "crash", "set")
got = {
    "other fix": fd.rejudged(pcs, cvs + pcs, cvs + [storm_cv], {"compare-value-sign"}, rows, "rfc"),
    "no other fix": fd.rejudged(pcs, cvs + pcs, cvs + [storm_cv], set(), rows, "rfc"),
    "own left": fd.rejudged(pcs, cvs + pcs, cvs + pcs[1:], {"compare-value-sign"}, rows, "rfc"),
    "uncovered": fd.rejudged(pcs, cvs + pcs, [crash], {"compare-value-sign"}, rows, "rfc"),
    "own fix": fd.rejudged(cvs, cvs, [storm_cv], {"precise-compare-sign"}, rows, "rfc"),
}
sig = "counter_storm:compare compare wrong-answer precise_compare_value"
want = {
    "other fix": ([], [], [sig + " (compare-value-sign)"]),
    "no other fix": ([], [sig], []),
    "own left": (["counter_storm:compare-precise_compare"], [], []),
    "uncovered": ([], ["counter_storm:compare compare crash set"], []),
    "own fix": ([], [sig], []),
}
result(got == want, "rejudge_explained_by_other_fix",
       "\n".join(f"{k}: got {got[k]}, want {want[k]}" for k in want if got[k] != want[k]))


def results():
    return {"leaned": {"ok": True, "why": "", "explained": ["x (other)"]},
            "alone": {"ok": True, "why": "", "explained": []},
            "failed": {"ok": False, "why": "still: y", "explained": ["x (other)"]}}


bad, good = results(), results()
fd.cross_check(bad, {"ok": False, "why": "new: z"})
fd.cross_check(good, {"ok": True, "why": ""})
got = [(r["ok"], r["why"]) for r in list(bad.values()) + list(good.values())]
want = [(False, "with every fix applied together: new: z"), (True, ""), (False, "still: y"),
        (True, ""), (True, ""), (False, "still: y")]
result(got == want and "together" in good["leaned"] and "together" not in good["alone"],
       "cross_check_fixes_together", f"got {got}")

# A ./stress a signal stopped before its report (scripts/stress-verdicts'
# crash record, no stress.json): a crash finding named by the signal, its
# message the failure line the run printed first.
with tempfile.TemporaryDirectory() as d:
    with open(os.path.join(d, "verdict"), "w") as f:
        f.write("builds\tadapter\nstress\tcounter_storm\tFAIL\tkilled by SIGABRT, crash; "
                "printed before: approx_window, wrong-answer\n"
                "stress\toom_race\tFAIL\tcompare, wrong-answer\n")
    line = ("stress: counter_storm: invariant approx_window failed (class wrong-answer, "
            "cpu -1): approximate_sum is 7 off")
    with open(os.path.join(d, "stress.out"), "w") as f:
        f.write("# margin x\n" + line + "\n")
    got = [(x["sig"], x["message"]) for x in fd.findings(fd.read_verdict(os.path.join(d, "verdict")), d)]
want = [(("counter_storm:SIGABRT", "SIGABRT", "crash", "-"),
         "./stress was killed by SIGABRT before its report was written; it printed first: " + line)]
result(got == want, "stress_killed_is_crash_finding", f"got {got}")

# The first RFC's counter_storm at 256 CPUs runs on an items array too
# short for them: it ends in approx_window (its report written) or killed
# by whichever signal the corrupted heap brings; each goes to the init()
# row. Another shape's approx_window without a function has no row.
got = [(fd.match(rows, sh_, {"class": cls, "fn": "-", "case": case}) or {}).get("fix")
       for sh_, cls, case in (("rfc1", "wrong-answer", "counter_storm:approx_window"),
                              ("rfc1", "crash", "counter_storm:SIGABRT"),
                              ("rfc1", "crash", "counter_storm:SIGSEGV"),
                              ("rfc", "wrong-answer", "counter_storm:approx_window"))]
result(got == ["items-size-precedence"] * 3 + [None], "rfc1_counter_storm_rows", f"got {got}")
sys.exit(1 if failed else 0)
