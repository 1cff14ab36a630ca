#!/usr/bin/env python3
"""scripts/findings' KUnit cases as the catalogue gives them (nothing built,
docs/kernel-trees.md#findings-a-maintainer-can-act-on): tests/unit/findings_cases.sh's
cases, KTAP results on stdout.

Usage: findings_cases.py ROOT  (exit 0 all ok, 1 a case failed, 2 usage)."""
import contextlib
import json
import os
import re
import shlex
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


def main_quiet(a):
    """scripts/findings' main with options A, its stdout thrown away."""
    with open(os.devnull, "w") as null, contextlib.redirect_stdout(null):
        fd.main_(a)


def empty_tree(tree):
    """TREE with the two judged files, empty."""
    for rel in (fd.C_REL, fd.H_REL):
        os.makedirs(os.path.dirname(os.path.join(tree, rel)), exist_ok=True)
        open(os.path.join(tree, rel), "w").close()


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
            # Only the count's tokens change: the call keeps its line
            # breaks, every line within checkpatch's 100 columns.
            ok = "+\tcounter->items = kzalloc((counter->nr_items - 1) *\n" in p.stdout and \
                fd.too_wide(p.stdout) is None
            diag = p.stdout + p.stderr
    result(ok, "rfc1_fix_parenthesises", diag)
    ok, diag = False, "no rfc1 row"
    with tempfile.TemporaryDirectory() as d:
        if r:
            # Through fixed_copy(), as a report's diff is made: spatch
            # prints the GNU conditional "? : 1", the diff has it in
            # kernel style, "?: 1"; the tree's own "? :" is kept.
            tree = os.path.join(d, "tree")
            empty_tree(tree)
            with open(os.path.join(tree, fd.C_REL), "w") as f:
                f.write("int percpu_counter_tree_init(struct percpu_counter_tree *counter)\n"
                        "{\n\tcounter->nr_levels = get_count_order(nr_cpu_ids);\n"
                        "\tcounter->nr_cpus = 1UL << counter->nr_levels;\n"
                        "\treturn counter->nr_cpus ? : 1;\n}\n")
            diff, why = fd.fixed_copy({"tree": tree}, [r["fix"]], os.path.join(d, "copy"))
            ok = diff is not None and \
                "+\tcounter->nr_levels = get_count_order(nr_cpu_ids) ?: 1;\n" in diff and \
                not any(l.startswith("+") and "? :" in l for l in diff.splitlines())
            with open(os.path.join(d, "copy", fd.C_REL)) as f:
                ok = ok and "\treturn counter->nr_cpus ? : 1;\n" in f.read()
            diag = f"{diff}{why or ''}"
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

# The sanitizer columns' records (scripts/kernel-san's afail, scripts/
# kernel-tsan's FAIL), read only when named: a report is a crash finding
# with its kind and the tree's function; its program's other crashed
# cases are the same report's; a crash without a report is the program's;
# a case the runner failed otherwise is the unit column's.
ASAN = ("afail\ttest_hpcc_adapt\tadapt_conservation\tcrash\theap-buffer-overflow in "
        "percpu_counter_tree_add_slowpath (lib/percpu_counter_tree.c:184)\n"
        "afail\ttest_hpcc_adapt\tadapt_set\tcrash\tinit\n"
        "afail\ttest_hpcc_adapt\tadapt_other\twrong-answer\tinit\n"
        "afail\ttest_hpcc_slow\t-\tcrash\ttimeout\nasan\t0\t4\t3\n")
RACE = ("tsan\tFAIL\tcrash\tdata race: plain read in percpu_counter_tree_precise_sum "
        "lib/percpu_counter_tree.c:182 vs atomic write in percpu_counter_tree_set_bias "
        "lib/percpu_counter_tree.c:317 (counter_storm --cpus 8; REPORT)\n")


def san_files(d, asan=ASAN, tsan=RACE):
    out = {}
    for t, text in (("asan", asan), ("tsan", tsan)):
        out[t] = os.path.join(d, "b." + t)
        with open(out[t], "w") as f:
            f.write(text.replace("REPORT", os.path.join(d, "race.reports")))
    return out


with tempfile.TemporaryDirectory() as d:
    v = {"ufail": [], "stress": [], "builds": "adapter"}
    san = san_files(d)
    got = [(x["sig"], x["check"], x["frame"]) for x in fd.findings(v, d + "/b", san)]
    msg = [x["message"] for x in fd.findings(v, d + "/b", san)]
    none = fd.findings(v, d + "/b")
want = [(("asan:heap-buffer-overflow", "heap-buffer-overflow", "crash", "add_slowpath"),
         "asan test_hpcc_adapt adapt_conservation", "heap-buffer-overflow in "
         "percpu_counter_tree_add_slowpath (lib/percpu_counter_tree.c:184)"),
        (("asan:timeout", "timeout", "crash", "-"), "asan test_hpcc_slow -", None),
        (("tsan:data race", "data race", "crash", "precise_sum"), "tsan counter_storm --cpus 8",
         "data race in percpu_counter_tree_precise_sum (lib/percpu_counter_tree.c:182)")]
result(got == want and none == [] and "other crashed cases: adapt_set." in msg[0],
       "sanitizer_reports_are_findings", f"got {got}\n{msg}, without the records {none}")

# The first RFC's reports (the short items array: ASan's overflow and
# TSan's use after free in add_slowpath) go to its init() row.
got = [(fd.match(rows, "rfc1", {"class": "crash", "fn": "add_slowpath", "case": c}) or {})
       .get("fix") for c in ("asan:heap-buffer-overflow", "tsan:heap-use-after-free")]
result(got == ["items-size-precedence"] * 2, "rfc1_sanitizer_rows", f"got {got}")

# A data race's report: the first frame, the sanitizer's first lines,
# the command that reproduces it, and no KUnit case, said so.
with tempfile.TemporaryDirectory() as d:
    tree = os.path.join(d, "tree")
    empty_tree(tree)
    with open(os.path.join(d, "verdict"), "w") as f:
        f.write("builds\tyes\n")
    with open(os.path.join(d, "race.reports"), "w") as f:
        f.write("# sanitizer report x:\n# WARNING: ThreadSanitizer: data race (pid=1)\n"
                "#   Read of size 8 at 0x7b by thread T2:\n#     #0 percpu_counter_tree_"
                "precise_sum /x/lib/percpu_counter_tree.c:182:9 (stress+0x1)\n")
    a = {"tree": tree, "verdict": os.path.join(d, "verdict"), "build": d + "/b",
         "out": d + "/out", "name": "t", "kunitcpus": "8", "fixes": None, "commit": None,
         "sha12": {"c": "0" * 12, "h": "0" * 12}}
    a.update(san_files(d, asan="asan\t1\t0\t0\n"))
    main_quiet(a)
    name = "tsan-data_race-crash-precise_sum"
    try:
        with open(os.path.join(d, "out", name + ".txt")) as f:
            text = f.read()
    except OSError as e:
        text = str(e)
    flat = " ".join(text.split())
    listed = sorted(os.listdir(os.path.join(d, "out"))) if os.path.isdir(d + "/out") else []
want = ["Subject: [hpcc-stress] percpu_counter_tree: data race in "
        "percpu_counter_tree_precise_sum() (ThreadSanitizer)", "First frame: data race in percpu_counter_tree_precise_sum "
        "(lib/percpu_counter_tree.c:182)", "WARNING: ThreadSanitizer: data race",
        "#0 percpu_counter_tree_precise_sum lib/percpu_counter_tree.c:182:9",
        f"scripts/kernel-check --only tsan {tree}", "No KUnit case: no deterministic KUnit case: "
        "a data race", "No small fix"]
result(all(w in flat for w in want) and listed == [name + ".tsan.log", name + ".txt"],
       "sanitizer_report_text",
       f"written: {listed}; missing: " + "; ".join(w for w in want if w not in flat) + "\n" + text)


# A fix of a sanitizer's finding is judged by that sanitizer again, on the
# fixed copy: still reported, not cleared; clean, cleared; a column with
# no verdict there (no clang: SKIP), not cleared.
def fake_tools(asan, tsan):
    def run(cmd, **kw):
        if cmd[0].endswith("kernel-san"):
            with open(cmd[cmd.index("--out") + 1], "w") as f:
                f.write(asan)
            return fd.subprocess.CompletedProcess(cmd, 1 if "afail" in asan else 0)
        if cmd[0].endswith("kernel-tsan"):
            return fd.subprocess.CompletedProcess(cmd, 1 if "FAIL" in tsan else 0, tsan, "")
        raise AssertionError(f"ran {cmd}")
    return run


saved = (fd.fixed_copy, fd.judge, fd.subprocess.run)
fd.fixed_copy = lambda a, fixes, tree: ("diff\n", None)
fd.judge = lambda *x: {"ufail": [], "stress": [], "builds": "adapter", "api": "shape=rfc1"}
got = []
with tempfile.TemporaryDirectory() as d:
    v = {"ufail": [], "stress": [], "builds": "adapter", "api": "shape=rfc1"}
    fs = fd.findings(v, d + "/b", san_files(d, tsan="tsan\tFAIL\tcrash\theap-use-after-free: "
                                            "atomic write in percpu_counter_tree_add_slowpath "
                                            "lib/percpu_counter_tree.c:184 (x; REPORT)\n"))
    fs = [f for f in fs if f["fn"] == "add_slowpath"]
    a = {"kunitcpus": "8", "duration": "1s", "cpus": None}
    for asan, tsan in ((ASAN.replace("test_hpcc_slow", "test_hpcc_adapt"), "tsan\tPASS\t4 runs\n"), ("asan\t4\t0\t3\n", "tsan\tPASS\t4 runs\n"),
                       ("asan\t4\t0\t3\n", "tsan\tSKIP\tno clang\n")):
        fd.subprocess.run = fake_tools(asan, tsan)
        r = fd.try_fix(a, ["items-size-precedence"], fs, fs, v, d, [], set(), rows)
        got.append((r["ok"], r["why"]))
fd.fixed_copy, fd.judge, fd.subprocess.run = saved
want = [(False, "still: asan-heap-buffer-overflow-crash-add_slowpath"), (True, ""),
        (False, "the tsan column gave no verdict on the fixed copy (exit 0: SKIP no clang)")]
result(len(fs) == 2 and got == want, "sanitizer_fix_rejudged_by_sanitizer",
       f"{len(fs)} findings; got {got}")

# UBSan's reports in the asan column: signed by the kernel's name for the
# kind (the exponent left out) and the tree's function (linux-mm's static
# __percpu_counter_tree_init() is init), the unit program kept; a null
# pointer to glibc's nonnull memset() is none (the kernel's has no such
# attribute). The shift gets carry_batch_4g's row (lib/hpcc's shift is in
# init_many). Reports are read beside the build that wrote the record, in
# the program's output when it left no report file.
UB = ("afail\ttest_hpcc_carry\tcarry_batch_4g\tcrash\tshift exponent -1 is negative in "
      "__percpu_counter_tree_init (lib/percpu_counter_tree.c:214)\n"
      "afail\ttest_hpcc_lifecycle\tlifecycle_enomem\tcrash\tnull pointer passed as argument "
      "1, which is declared to never be null in percpu_counter_tree_init_many "
      "(lib/percpu_counter_tree.c:256)\nasan\t31\t2\t3\n")
with tempfile.TemporaryDirectory() as d:
    v = {"ufail": [], "stress": [], "builds": "yes"}
    rec = os.path.join(d, "k.asan")
    with open(rec, "w") as f:
        f.write(UB)
    # A forked case's UBSan report went to the program's output: no .report.
    os.makedirs(os.path.join(d, "k-asan"))
    open(os.path.join(d, "k-asan", "test_hpcc_carry.out"), "w").close()
    fs = fd.findings(v, d + "/b", {"asan": rec})
    got = [(x["sig"], x["name"], x["sprog"], x["report"]) for x in fs]
want = [(("ubsan:shift-out-of-bounds", "shift-out-of-bounds", "crash", "init"),
         "ubsan-shift-out-of-bounds-crash-init", "test_hpcc_carry",
         os.path.join(d, "k-asan", "test_hpcc_carry.out"))]
rws = [(fd.match(rows, "long", {"class": "crash", "fn": fn, "case": "ubsan:shift-out-of-bounds"})
        or {}).get("case") for fn in ("init", "init_many", "add")]
kinds = [fd.ubsan_kind(w) for w in ("shift exponent 64 is too large for 64-bit type 'long'",
                                    "signed integer overflow: 1 + 9 cannot be represented in "
                                    "type 'long'", "heap-buffer-overflow", "memory leak")]
result(got == want and rws == ["carry_batch_4g", "carry_batch_4g", None] and
       kinds == ["shift-out-of-bounds", "signed-integer-overflow", None, None],
       "ubsan_reports_are_findings", f"got {got}\nrows {rws}, kinds {kinds}")

# Its report: the subject names UBSan and the kind, the function by its
# own name and line, the command runs the one program (kernel-san --unit),
# and the fix's re-run of the asan column builds only the programs the
# findings came from (kernel-san --unit).
calls = []


def fake_san(cmd, **kw):
    calls.append(cmd)
    with open(cmd[cmd.index("--out") + 1], "w") as f:
        f.write("asan\t5\t0\t0\n")
    return fd.subprocess.CompletedProcess(cmd, 0)


with tempfile.TemporaryDirectory() as d:
    tree = os.path.join(d, "tree")
    empty_tree(tree)
    with open(os.path.join(tree, fd.C_REL), "w") as f:
        f.write("static\nint __percpu_counter_tree_init(struct x *c,\n")
    rec = os.path.join(d, "k.asan")
    with open(rec, "w") as r:
        r.write(UB)
    f = fd.findings({"ufail": [], "stress": [], "builds": "yes"}, d + "/b", {"asan": rec})[0]
    f.update(shape="long", row=fd.match(rows, "long", f), kcpus="8", kfn="hpcc_test_x",
             kunit_ok=False, kunit_why="x")
    a = {"tree": tree, "build": d + "/b", "name": "t", "commit": None, "out": d + "/out"}
    flat = " ".join(fd.report(a, {"builds": "yes"}, f, {"c": "0", "h": "0"}).split())
    saved = fd.subprocess.run
    fd.subprocess.run = fake_san
    try:
        fd.sanitize(["asan"], tree, d + "/b", {"builds": "yes"}, ["test_hpcc_carry"])
    finally:
        fd.subprocess.run = saved
want = ["Subject: [hpcc-stress] percpu_counter_tree: a batch of 2^32 or more truncated by "
        "get_count_order() (UBSan: shift-out-of-bounds)",
        "Function: __percpu_counter_tree_init() at lib/percpu_counter_tree.c:2",
        "scripts/kernel-check --only asan --unit test_hpcc_carry"]
unit = calls[0][calls[0].index("--unit") + 1] if calls and "--unit" in calls[0] else None
result(all(w in flat for w in want) and unit == "test_hpcc_carry", "ubsan_report_and_rerun",
       "missing: " + "; ".join(w for w in want if w not in flat) + f"\nkernel-san --unit {unit}")


# The commands in a report, pasted as they are, run the exact argv: bash
# parses each Reproduce block (the KUnit one with mktemp, mkdir, cp and
# make as functions that print their argv), on a tree whose path is over
# 100 characters and holds a space. Every line of the reports is within
# 72 columns but a Fixes: tag and a line holding one word too long for
# any line (a path, whole). A tsan report naming a static helper names
# it as the tree spells it.
def bash_argv(block, prelude=""):
    """The words bash gives: the positional parameters after BLOCK (a
    "set -- ..."), or with PRELUDE's functions what they print."""
    p = real_run(["bash", "-c", prelude + block + ("" if prelude else '\nprintf "%s\\0" "$@"')],
                 capture_output=True, text=True)
    return p.stdout.split("\0")[:-1], p.stderr


def block_after(text, head):
    """The lines after HEAD up to a line that is not a command's."""
    lines = text.splitlines()
    i = lines.index(head) + 1 if head in lines else len(lines)
    out = []
    while i < len(lines) and lines[i].startswith("    "):
        out.append(lines[i])
        i += 1
    return "\n".join(out)


def one_word(line):
    try:
        return len(shlex.split(line.removesuffix(" \\"))) == 1
    except ValueError:
        return False


def too_wide(text):
    return [l for l in text.splitlines() if len(l.expandtabs(8)) > fd.WIDTH and
            not l.startswith("Fixes: ")
            and not one_word(l)]


REPRO = "Reproduce (in hpcc-stress's top directory):"
with tempfile.TemporaryDirectory() as d:
    tree = os.path.join(d, "a tree", "x" * 60, "linux-next-" + "y" * 30)
    build = os.path.join(d, "build", "z" * 70)
    empty_tree(tree)
    a = {"tree": tree, "build": build, "name": "t", "commit": None, "out": d + "/out"}
    rec = os.path.join(d, "k.asan")
    with open(rec, "w") as r:
        r.write(UB)
    tsan = os.path.join(d, "k.tsan")
    with open(tsan, "w") as r:
        r.write("tsan\tFAIL\tcrash\tdata race: plain read in __percpu_counter_tree_init "
                "lib/percpu_counter_tree.c:9 vs write in x (counter_storm; R)\n")
    ub, race = fd.findings({"ufail": [], "stress": [], "builds": "yes"}, d + "/b",
                           {"asan": rec, "tsan": tsan})
    unit = fd.findings({"ufail": [{"prog": "test_hpcc_carry", "case": "carry_batch_4g",
                                   "class": "wrong-answer", "fn": "init"}], "stress": []}, d)[0]
    for f in (ub, race, unit):
        f.update(shape="long", row=fd.match(rows, "long", f), kcpus="8", kfn="hpcc_test_x",
                 kunit_ok=False, kunit_why="x")
    unit.update(kunit_ok=True, ref="lib/hpcc")
    # A stress finding: its run's seed, CPU count and step bound, from the
    # JSON report (a run a signal stopped: the line ./stress printed first).
    os.makedirs(d + "/s")
    with open(d + "/s/stress.json", "w") as f:
        f.write(json.dumps({"runs": [{"scenario": "counter_storm", "verdict": "FAIL",
                                      "seed": "123456789012345678", "cpus": 64,
                                      "reproducer": "stress --cpus 64 --seed 1234567890"
                                                    "12345678 --steps 2000",
                                      "failures": [{"invariant": "compare",
                                                    "class": "contract", "message": "x"}]}]}))
    storm = fd.findings({"ufail": [], "stress": [{"scenario": "counter_storm",
                                                  "verdict": "FAIL", "detail": "-"}]}, d + "/s")[0]
    with open(d + "/s/stress.out", "w") as f:
        f.write("stress: hpcc-stress 0.1 hpcc=/a b cpus=256 batch=32 seed=42 selectors=2\n")
    os.unlink(d + "/s/stress.json")
    abort = fd.findings({"ufail": [], "stress": [{"scenario": "counter_storm",
                                                  "verdict": "FAIL",
                                                  "detail": "killed by SIGABRT, crash"}]},
                        d + "/s")[0]
    adapt = fd.findings({"ufail": [{"prog": "test_hpcc_adapt", "case": "adapt_set",
                                    "class": "wrong-answer", "fn": "init"}], "stress": []}, d)[0]
    for f in (storm, abort, adapt):
        f.update(shape="long", row=None, kcpus="8", kfn="hpcc_test_x", kunit_ok=False,
                 kunit_why="x")
    a["duration"] = "2s"
    kc = ["scripts/kernel-check", "--only"]
    want = {"ub": kc + ["asan", "--unit", "test_hpcc_carry", tree],
            "race": kc + ["tsan", tree],
            "unit": kc + ["unit", "--unit", "test_hpcc_carry", tree],
            "storm": kc + ["stress", "--scenario", "counter_storm", "--seed",
                           "123456789012345678", "--cpus", "64", "--steps", "2000",
                           "--duration", "2s", tree],
            "abort": kc + ["stress", "--scenario", "counter_storm", "--seed", "42", "--cpus",
                           "256", "--duration", "2s", tree],
            "adapt": kc + ["unit", tree]}
    texts, bad = {}, []
    for k, f in (("ub", ub), ("race", race), ("unit", unit), ("storm", storm), ("abort", abort),
                 ("adapt", adapt)):
        v = {"builds": "adapter" if k == "adapt" else "yes"}
        texts[k] = fd.report(a, v, f, {"c": "0", "h": "0"})
        got, err = bash_argv("set -- " + block_after(texts[k], REPRO).lstrip())
        if got != want[k]:
            bad.append(f"{k}: bash read {got} {err}, want {want[k]}")
    fake = ('F=/F; mktemp() { echo /T; }; mkdir() { :; }; '
            'cp() { printf "%s\\0" cp "$@"; }; make() { printf "%s\\0" make "$@"; }\n')
    got, err = bash_argv(block_after(texts["unit"], "and as a KUnit case, in a copy of the tree "
                                     "(F: this report's directory):"),
                         fake)
    kwant = ["cp", os.path.join(tree, fd.C_REL), "/T/lib/", "cp", os.path.join(tree, fd.H_REL),
             "/T/include/linux/", "cp", "/F/" + unit["name"] + ".kunit.c",
             "/T/" + fd.K_REL, "make", "KERNEL_SRC=/T", "KUNIT_CPUS=8", "kunit"]
    if got != kwant:
        bad.append(f"kunit block: bash read {got} {err}, want {kwant}")
    wide = [l for t in texts.values() for l in too_wide(t)]
    whole = all(shlex.quote(tree) in t for t in texts.values())
    fnl = [l for l in texts["race"].splitlines() if l.startswith("Function:")]
    # An option and its value on one line: a break after "--seed" reads badly.
    split = [l for t in texts.values() for l in block_after(t, REPRO).splitlines()
             if l.endswith(" \\") and l[:-2].split()[-1].startswith("--")]
result(not bad and not wide and whole and fnl == ["Function: __percpu_counter_tree_init()"] and
       not split, "report_commands_paste", "\n".join(bad) + f"\nwider than 72: {wide}\n"
       f"tree path whole: {whole}; {fnl}\noption cut from its value: {split}\n" +
       "\n".join(texts.values()))

# A crash of the asan column with no report of its own says what is known:
# a case of a program that has a report gets its own reason and lines of
# output in that report's finding (the first program's, when two report
# the same: the same report in both); a program with none is a finding named
# by what ended it (a signal: signal-N), with the runner's reason and the
# case's lines of output, never a bare "-".
def lifecycle_record(d, crashed):
    """D/k.asan: UB's first finding, the same in test_hpcc_lifecycle's
    lifecycle_batch_validation, and an "afail" line per (PROGRAM, CASE)
    of CRASHED; its path."""
    rec = os.path.join(d, "k.asan")
    first = UB.splitlines()[0]
    with open(rec, "w") as f:
        f.write(first + "\n" +
                first.replace("test_hpcc_carry\tcarry_batch_4g",
                              "test_hpcc_lifecycle\tlifecycle_batch_validation") + "\n" +
                "".join(f"afail\t{p}\t{c}\tcrash\t-\n" for p, c in crashed))
    return rec


LIFE = """KTAP version 1
1..1
  KTAP version 1
  1..3
  # class=crash fn=- tests/lib/ktap.c:181: batch: exited with status 67 (sanitizer report?)
  # class=crash fn=-
  not ok 1 lifecycle_batch_validation
/k/lib/percpu_counter_tree.c:256:2: runtime error: null pointer passed as argument 1
    #0 0x5 in percpu_counter_tree_init_many /k/lib/percpu_counter_tree.c:256
    #1 0x5 in enomem_level0 tests/unit/test_hpcc_lifecycle.c:268

  # class=crash fn=- tests/lib/ktap.c:181: configuration 1 CPUs: exited with status 67 (sanitizer report?)
  # lifecycle_enomem: 1 of 3 checks failed
  # class=crash fn=-
  not ok 2 lifecycle_enomem
  # lifecycle_other: freeing
  # class=crash fn=- tests/lib/ktap.c:181: configuration 2 CPUs: exited with status 1
  # class=crash fn=-
  not ok 3 lifecycle_other
"""
SLOW = """  KTAP version 1
  1..1
  # slow_case: set up
  # class=crash fn=- tests/lib/ktap.c:175: slow_case: Segmentation fault (signal 11)
  # class=crash fn=-
  not ok 1 slow_case
"""
with tempfile.TemporaryDirectory() as d:
    rec = lifecycle_record(d, [("test_hpcc_lifecycle", "lifecycle_enomem"),
                               ("test_hpcc_lifecycle", "lifecycle_other"),
                               ("test_hpcc_slow", "slow_case")])
    os.makedirs(os.path.join(d, "k-asan"))
    for prog, text in (("test_hpcc_lifecycle", LIFE), ("test_hpcc_slow", SLOW)):
        with open(os.path.join(d, "k-asan", prog + ".out"), "w") as f:
            f.write(text)
    tree = os.path.join(d, "tree")
    empty_tree(tree)
    fs = fd.findings({"ufail": [], "stress": [], "builds": "yes"}, d + "/b", {"asan": rec})
    a = {"tree": tree, "build": d + "/b", "name": "t", "commit": None, "out": d + "/out"}
    texts = []
    for f in fs:
        f.update(shape="long", row=fd.match(rows, "long", f), kcpus="8", kfn="hpcc_test_x",
                 kunit_ok=False, kunit_why="x")
        texts.append(" ".join(fd.report(a, {"builds": "yes"}, f, {"c": "0", "h": "0"}).split()))
want = [["first in test_hpcc_carry carry_batch_4g; the same report in test_hpcc_lifecycle "
         "lifecycle_batch_validation",
         "lifecycle_other (configuration 2 CPUs: exited with status 1)",
         "lifecycle_other: # class=crash fn=- tests/lib/ktap.c:181: configuration 2 CPUs: "
         "exited with status 1"],
        ["slow_case under ASan + UBSan: crash (slow_case: Segmentation fault (signal 11))",
         "Function: none named", "tests/lib/ktap.c:175: slow_case: Segmentation fault",
         "The program's output for that case"]]
names = [f["name"] for f in fs]
miss = [w for t, ws in zip(texts, want) for w in ws if w not in t]
result(names == ["ubsan-shift-out-of-bounds-crash-init", "asan-signal-11-crash--"] and not miss and
       not any(" (-)" in t or ": -" in t for t in texts), "crash_without_report_says_why",
       f"names {names}; missing: {miss}\n" + "\n".join(texts))
# By the memset() rule, lifecycle_enomem's crash (UBSan's null pointer to
# glibc's nonnull memset(), in its lines of output) is no crash of the
# tree: not quoted among the program's other crashed cases, nor a finding;
# with no other crashed case of that program left, its output is no log
# of the report (none written that the report does not name).
memset = [w for w in ("lifecycle_enomem", "null pointer passed") if any(w in t for t in texts)]
with tempfile.TemporaryDirectory() as d:
    rec = lifecycle_record(d, [("test_hpcc_lifecycle", "lifecycle_enomem")])
    os.makedirs(os.path.join(d, "k-asan"))
    with open(os.path.join(d, "k-asan", "test_hpcc_lifecycle.out"), "w") as f:
        f.write(LIFE)
    with open(os.path.join(d, "k-asan", "test_hpcc_carry.report"), "w") as f:
        f.write("# lib/percpu_counter_tree.c:214:34: runtime error: shift exponent -1\n")
    tree = os.path.join(d, "tree")
    empty_tree(tree)
    one = fd.findings({"ufail": [], "stress": [], "builds": "yes"}, d + "/b", {"asan": rec})
    unnamed = []
    for f in one:
        f.update(shape="long", row=None, kcpus="8", kfn="hpcc_test_x", kunit_ok=False,
                 kunit_why="x")
        t = fd.report({"tree": tree, "build": d + "/b", "name": "t", "commit": None,
                       "out": d + "/out"}, {"builds": "yes"}, f, {"c": "0", "h": "0"})
        unnamed += [n for n in fd.logs_text(f) if n not in t]
        memset += [w for w in ("lifecycle_enomem", "null pointer passed") if w in t]
result(not memset and len(fs) == 2 and len(one) == 1 and not unnamed, "memset_crash_not_quoted",
       f"quoted: {memset}; {len(fs)}, {len(one)} findings; logs not named: {unnamed}\n" +
       "\n".join(texts))

# A use after free is named by the use, not the free: kernel-tsan puts the
# plain access first, and the free (a plain write) may be the tree's own
# (kfree() in destroy()). The first RFC's overflow so reported still gets
# its init() row; a plain use is named as such; a race keeps its plain side.
UAF = ("tsan\tFAIL\tcrash\theap-use-after-free: plain write in percpu_counter_tree_destroy "
       "lib/percpu_counter_tree.c:167 vs atomic write in percpu_counter_tree_add_slowpath "
       "lib/percpu_counter_tree.c:184 (counter_storm --cpus 64; REPORT)\n"
       "tsan\tFAIL\tcrash\theap-use-after-free: plain write in free vs atomic write in "
       "percpu_counter_tree_add_slowpath lib/percpu_counter_tree.c:184 (counter_storm --cpus 64; "
       "REPORT)\n"
       "tsan\tFAIL\tcrash\theap-use-after-free: plain read in percpu_counter_tree_approx_sum "
       "lib/percpu_counter_tree.c:230 vs plain write in percpu_counter_tree_destroy "
       "lib/percpu_counter_tree.c:167 (counter_storm --cpus 8; REPORT)\n")
with tempfile.TemporaryDirectory() as d:
    got = [(x["fn"], x["frame"]) for x in fd.tsan_findings(san_files(d, tsan=UAF)["tsan"])]
    race = [x["fn"] for x in fd.tsan_findings(san_files(d)["tsan"])]
    fix = (fd.match(rows, "rfc1", {"class": "crash", "fn": got[0][0],
                                   "case": "tsan:heap-use-after-free"}) or {}).get("fix")
slow = ("add_slowpath", "heap-use-after-free in percpu_counter_tree_add_slowpath "
        "(lib/percpu_counter_tree.c:184)")
want = [slow, slow, ("approx_sum", "heap-use-after-free in percpu_counter_tree_approx_sum "
                     "(lib/percpu_counter_tree.c:230)")]
result(got == want and race == ["precise_sum"] and fix == "items-size-precedence",
       "tsan_use_after_free_names_the_use", f"got {got}\nrace {race}, fix {fix}")


def cases_of(fn):
    """Case FN run so that an exception is its failure, not the file's."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 -- a case that cannot run fails
        result(False, fn.__name__, f"{type(e).__name__}: {e}")


STORM = {"runs": [{"scenario": "counter_storm", "verdict": "FAIL", "failures": [
    {"invariant": "compare", "class": "contract",
     "message": "approximate_compare_value(v - approx = -over-1) returns 0"}]}]}


def mm_findings(d):
    """linux-mm's seven findings as its run gives them: five unit cases,
    counter_storm's compare and the asan column's UBSan shift."""
    u = [("test_hpcc_carry", "carry_batch_4g", "wrong-answer", "init")] + \
        [("test_hpcc_compare", c, "contract", "approximate_compare_value")
         for c in ("compare_value_edges", "compare_value_with_residual")] + \
        [("test_hpcc_edges", "compare_value_extremes", "wrong-answer",
          "approximate_compare_value"),
         ("test_hpcc_edges", "compare_pair_extremes", "wrong-answer", "precise_compare")]
    v = {"ufail": [{"prog": p, "case": c, "class": k, "fn": fn} for p, c, k, fn in u],
         "stress": [{"scenario": "counter_storm", "verdict": "FAIL", "detail": "-"}],
         "builds": "yes"}
    os.makedirs(d + "/b", exist_ok=True)
    with open(d + "/b/stress.json", "w") as f:
        f.write(json.dumps(STORM))
    rec = os.path.join(d, "k.asan")
    with open(rec, "w") as f:
        f.write(UB)
    return fd.rowed(fd.findings(v, d + "/b", {"asan": rec}), "long", rows, {})


def rfc1_findings(d):
    """The first RFC's seven: four adapter cases, counter_storm killed by
    SIGABRT, ASan's overflow and TSan's use after free in the slow path."""
    v = {"ufail": [{"prog": "test_hpcc_adapt", "case": c, "class": "wrong-answer", "fn": "init"}
                   for c in ("adapt_conservation", "adapt_compare_value",
                             "adapt_precise_compare_value", "adapt_set")],
         "stress": [{"scenario": "counter_storm", "verdict": "FAIL",
                     "detail": "killed by SIGABRT, crash"}], "builds": "adapter"}
    asan = ("afail\ttest_hpcc_adapt\tadapt_storm\tcrash\theap-buffer-overflow in "
            "percpu_counter_tree_add_slowpath (lib/percpu_counter_tree.c:184)\nasan\t0\t1\t3\n")
    tsan = ("tsan\tFAIL\tcrash\theap-use-after-free: plain write in free vs atomic write in "
            "percpu_counter_tree_add_slowpath lib/percpu_counter_tree.c:184 (counter_storm; "
            "REPORT)\n")
    return fd.rowed(fd.findings(v, d + "/b", san_files(d, asan, tsan)), "rfc1", rows, {})


def one_report_per_defect():
    """Findings of one KUnit case and one fix are one report, named after
    the defect, listing every check that saw it, the KUnit case once:
    linux-mm's seven are five, the first RFC's seven one."""
    with tempfile.TemporaryDirectory() as d:
        mm = mm_findings(d)
        ds = fd.defects(mm)
        got = [(x["name"], len(x["members"])) for x in ds]
        tree = os.path.join(d, "tree")
        empty_tree(tree)
        carry = ds[0]
        carry.update(kfn="hpcc_test_carry_batch_4g", kcpus="8", kunit_ok=True, ref="lib/hpcc")
        a = {"tree": tree, "build": d + "/b", "name": "t", "commit": None, "out": d + "/out"}
        text = fd.report(a, {"builds": "yes"}, carry, {"c": "0", "h": "0"})
        flat = " ".join(text.split())
    with tempfile.TemporaryDirectory() as d:
        rfc = fd.defects(rfc1_findings(d))
        rgot = [(x["name"], len(x["members"])) for x in rfc]
    want = [("count-order-long-carry_batch_4g", 2), ("swap-tolerances-compare_value_edge", 2),
            ("swap-tolerances-compare_value_residual", 1),
            ("swap-tolerances-compare_value_extremes", 1),
            ("swap-tolerances-compare_pair_extremes", 1)]
    seen = ["1. unit test_hpcc_carry carry_batch_4g, class wrong-answer",
            "2. asan test_hpcc_carry carry_batch_4g, class crash, shift-out-of-bounds in "
            "__percpu_counter_tree_init", "scripts/kernel-check --only unit --unit test_hpcc_carry",
            "scripts/kernel-check --only asan --unit test_hpcc_carry"]
    miss = [w for w in seen if w not in flat]
    once = text.count("static void hpcc_test_carry_batch_4g(")
    result(len(mm) == 7 and got == want and rgot == [("items-size-precedence-items_alloc", 7)] and
           not miss and once == 1, "one_report_per_defect",
           f"linux-mm {len(mm)} findings: {got}\nfirst RFC: {rgot}\nmissing: {miss}; "
           f"case written {once} times\n{text}")


def one_report_per_fix():
    """Defects whose fix is the same are one report, named after the fix:
    linux-mm's five defects are two reports (swap-tolerances: four cases,
    five findings, one subject, every case's function and KUNIT_CASE()
    line once, a KUnit run at each CPU count its cases need); a defect
    with no fix stays apart, a name taken already gets -2."""
    with tempfile.TemporaryDirectory() as d:
        ds = fd.defects(mm_findings(d))
        for x in ds:
            x.update(kfn="hpcc_test_" + x["row"]["case"], kcpus=fd.case_cpus(x["row"], "8"),
                     kunit_ok=True, ref="the tree with the fix below",
                     got=["Expected " + x["row"]["case"]])
        alone = [{"row": None, "shape": "long", "name": n, "members": [], "fixes": None}
                 for n in ("swap-tolerances", "x")]
        gs = fd.by_fix(ds + alone)
        got = [(g["name"], len(g["members"]), len(g.get("parts") or [])) for g in gs]
        tree = os.path.join(d, "tree")
        empty_tree(tree)
        a = {"tree": tree, "build": d + "/b", "name": "t", "commit": None, "out": d + "/out",
             "duration": "2s", "cpus": None}
        text = fd.report(a, {"builds": "yes"}, gs[1], {"c": "0", "h": "0"})
        with tempfile.TemporaryDirectory() as e:
            rgot = [(g["name"], len(g["members"])) for g in fd.by_fix(fd.defects(
                rfc1_findings(e)))]
    flat = " ".join(text.split())
    head = text.split("\n\n")[0].split("\n")
    cases = ["compare_value_edge", "compare_value_residual", "compare_value_extremes",
             "compare_pair_extremes"]
    want = [("count-order-long", 2, 1), ("swap-tolerances", 5, 4), ("swap-tolerances-2", 1, 1),
            ("x", 1, 1)]
    bad = [c for c in cases if text.count(f"static void hpcc_test_{c}(") != 1 or
           text.count(f"KUNIT_CASE(hpcc_test_{c}),") != 1 or f"Expected {c}" not in text]
    miss = [w for w in ["Findings: 5 checks saw this one defect (the same fix):",
                        "unit test_hpcc_compare compare_value_with_residual",
                        "stress counter_storm (compare)", "unit test_hpcc_edges compare_pair_extremes",
                        "Functions: percpu_counter_tree_approximate_compare_value()",
                        "percpu_counter_tree_precise_compare()",
                        "KUNIT_CPUS=8 kunit", "KUNIT_CPUS=16 kunit",
                        'cp "$F"/swap-tolerances.kunit.c'] if w not in flat]
    subj = ("Subject: [hpcc-stress] percpu_counter_tree: the compare functions pass "
            "compare_delta() their tolerances swapped")
    result(got == want and rgot == [("items-size-precedence", 7)] and not bad and not miss and
           "".join(head) == subj and text.count("Subject:") == 1, "one_report_per_fix",
           f"reports {got}\nfirst RFC: {rgot}\ncases not once: {bad}; missing: {miss}\n{text}")


def fields_indent():
    """A wrapped Finding:/Findings: field (and First frame:) continues
    under its text, indented past the label, never at column 0."""
    with tempfile.TemporaryDirectory() as d:
        ds = fd.defects(mm_findings(d))
        tree = os.path.join(d, "tree")
        empty_tree(tree)
        a = {"tree": tree, "build": d + "/b", "name": "t", "commit": None, "out": d + "/out",
             "duration": "2s", "cpus": None}
        bad, seen = [], 0
        for x in ds:
            x.update(kfn="hpcc_test_x", kcpus="8", kunit_ok=False, kunit_why="x")
            lines = fd.report(a, {"builds": "yes"}, x, {"c": "0", "h": "0"}).split("\n")
            for i, l in enumerate(lines):
                for lab in ("Finding:", "Findings:", "First frame:"):
                    if not l.startswith(lab + " "):
                        continue
                    j = i + 1
                    while j < len(lines) and lines[j].startswith(" " * (len(lab) + 1)) and \
                            lines[j][len(lab) + 1] != " ":
                        seen += 1
                        j += 1
                    # Then a field of its own, an item of the list, or the end.
                    if j < len(lines) and lines[j] and \
                            not re.match(r"[A-Z][A-Za-z ]*: |  [0-9]+\. ", lines[j]):
                        bad.append(lines[j])
    result(not bad and seen >= 2, "fields_indent",
           f"{seen} indented continuation lines; at column 0: {bad}")


def quoted_lines_whole():
    """A quoted line (a sanitizer's, an output's, the assertion) longer
    than 72 columns is whole on a line of its own; our prose wraps."""
    long_line = ("lib/percpu_counter_tree.c:214:32: runtime error: shift exponent -1 is "
                 "negative in __percpu_counter_tree_init")
    got_line = ("Expected percpu_counter_tree_approximate_sum(&c) == 4611686018427387904, "
                "but percpu_counter_tree_approximate_sum(&c) == 0")
    with tempfile.TemporaryDirectory() as d:
        tree = os.path.join(d, "tree")
        empty_tree(tree)
        rec = os.path.join(d, "k.asan")
        with open(rec, "w") as f:
            f.write(UB)
        os.makedirs(os.path.join(d, "k-asan"))
        with open(os.path.join(d, "k-asan", "test_hpcc_carry.report"), "w") as f:
            f.write("# " + long_line + "\n")
        f = fd.findings({"ufail": [], "stress": [], "builds": "yes"}, d + "/b", {"asan": rec})[0]
        f.update(shape="long", row=fd.match(rows, "long", f), kfn="hpcc_test_x", kcpus="8",
                 kunit_ok=False, kunit_why="x", got=[got_line])
        a = {"tree": tree, "build": d + "/b", "name": "t", "commit": None, "out": d + "/out"}
        text = fd.report(a, {"builds": "yes"}, f, {"c": "0", "h": "0"})
    lines = text.splitlines()
    whole = ["  " + long_line in lines, "    " + got_line in lines]
    prose = [l for l in lines if len(l) > fd.WIDTH and l.strip() not in (long_line, got_line)
             and not one_word(l)]
    result(all(whole) and not prose, "quoted_lines_whole",
           f"whole {whole}; prose past 72: {prose}\n{text}")


def series_lines_whole():
    """The fixed copy's series, as kernel-check prints it, is quoted: a
    line past 72 columns (a long tree name) is whole, never cut inside a
    word with a backslash."""
    name = "intel-lab-lkp-linux-05880dc4"
    with tempfile.TemporaryDirectory() as d:
        tree = os.path.join(d, "tree")
        empty_tree(tree)
        f = fd.findings({"ufail": [{"prog": "test_hpcc_adapt",
                                    "case": "adapt_precise_compare_value",
                                    "class": "wrong-answer",
                                    "fn": "precise_compare_value"}], "stress": []},
                        d + "/b")[0]
        f.update(shape="rfc", row=fd.match(rows, "rfc", f),
                 kfn="hpcc_test_x", kcpus="8", kunit_ok=False, kunit_why="x",
                 fixres={"ok": True, "ran": "the adapter's cases", "explained": []})
        f["name"] = f["row"]["fix"]
        a = {"tree": tree, "build": d + "/b", "name": name, "commit": None,
             "out": d + "/out"}
        text = fd.report(a, {"builds": "adapter"}, f, {"c": "0", "h": "0"})
    line = f"    1 {name}: adapt_precise_compare_value FAIL (wrong-answer)"
    result(line in text.splitlines() and len(line) > fd.WIDTH and
           not any(l.endswith("\\") for l in text.splitlines()), "series_lines_whole",
           f"want whole: {line}\n{text}")


def precise_compare_fix_keeps_header():
    """precise-compare-sign rewrites the .c's "a > b" test of the -1
    answer, not the header's right !CONFIG_SMP one: spatch's isomorphism
    takes "count_a < count_b" for "count_b > count_a" (no spatch: SKIP)."""
    global n
    if not shutil.which("spatch"):
        n += 1
        print(f"ok {n} precise_compare_fix_keeps_header # SKIP spatch not installed")
        n += 1
        print(f"ok {n} fix_hunks_name_function # SKIP spatch not installed")
        return
    head = ("int percpu_counter_tree_precise_compare(struct percpu_counter_tree *a, "
            "struct percpu_counter_tree *b)\n{\n\tint count_a = sum(a), count_b = sum(b);\n\n")
    c = head + ("\tif (count_a > count_b)\n\t\treturn -1;\n"
                "\tif (count_a > count_b)\n\t\treturn 1;\n\treturn 0;\n}\n")
    h = "static inline\n" + head + ("\tif (count_a == count_b)\n\t\treturn 0;\n"
                                    "\tif (count_a < count_b)\n\t\treturn -1;\n"
                                    "\treturn 1;\n}\n")
    with tempfile.TemporaryDirectory() as d:
        tree = os.path.join(d, "tree")
        empty_tree(tree)
        for rel, text in ((fd.C_REL, c), (fd.H_REL, h)):
            with open(os.path.join(tree, rel), "w") as f:
                f.write(text)
        diff, why = fd.fixed_copy({"tree": tree}, ["precise-compare-sign"],
                                  os.path.join(d, "copy"))
    added = [l for l in (diff or "").splitlines() if l.startswith("+") and
             not l.startswith("+++")]
    result(added == ["+\tif (count_a < count_b)"] and fd.H_REL not in (diff or ""),
           "precise_compare_fix_keeps_header", f"{diff}{why or ''}")
    # As "diff -up" writes a kernel patch: each hunk names its function.
    hunks = [l for l in (diff or "").splitlines() if l.startswith("@@")]
    # (GNU diff keeps the function's first 40 characters.)
    result(hunks and all(l.endswith("@@ int percpu_counter_tree_precise_compare(")
                         for l in hunks),
           "fix_hunks_name_function", f"{diff}{why or ''}")


def subject_folds():
    """A long Subject: folds as a mail header: each continuation line
    starts with a space or a tab, and unfolded it is the subject again."""
    with tempfile.TemporaryDirectory() as d:
        rec = os.path.join(d, "k.asan")
        with open(rec, "w") as r:
            r.write(UB)
        f = fd.findings({"ufail": [], "stress": [], "builds": "yes"}, d + "/b", {"asan": rec})[0]
        f.update(shape="long", row=fd.match(rows, "long", f), kfn="hpcc_test_x", kcpus="8",
                 kunit_ok=False, kunit_why="x")
        tree = os.path.join(d, "tree")
        empty_tree(tree)
        a = {"tree": tree, "build": d + "/b", "name": "t", "commit": None, "out": d + "/out"}
        text = fd.report(a, {"builds": "yes"}, f, {"c": "0", "h": "0"})
    head = text.split("\n\n")[0].split("\n")
    unfolded = "".join(head)
    want = ("Subject: [hpcc-stress] percpu_counter_tree: a batch of 2^32 or more truncated by "
            "get_count_order() (UBSan: shift-out-of-bounds)")
    result(len(head) > 1 and all(l[:1] in (" ", "\t") for l in head[1:]) and
           unfolded == want and all(len(l) <= fd.WIDTH for l in head), "subject_folds",
           f"header lines {head}")


def no_machine_paths():
    """A report names the logs it quotes beside it (NAME.asan.log, ...),
    never where this machine keeps them, and its KUnit block copies
    "$F"/NAME.kunit.c, saying where F points."""
    with tempfile.TemporaryDirectory() as d:
        tree = os.path.join(d, "tree")
        empty_tree(tree)
        with open(os.path.join(d, "verdict"), "w") as f:
            f.write("builds\tyes\n")
        rec = os.path.join(d, "b.asan")
        with open(rec, "w") as f:
            f.write("afail\ttest_hpcc_set\tset_case\tcrash\theap-buffer-overflow in "
                    "percpu_counter_tree_set (lib/percpu_counter_tree.c:50)\n"
                    "afail\ttest_hpcc_set\tset_other\tcrash\t-\nasan\t0\t2\t0\n")
        os.makedirs(os.path.join(d, "b-asan"))
        with open(os.path.join(d, "b-asan", "test_hpcc_set.report"), "w") as f:
            f.write("# ==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x1\n")
        with open(os.path.join(d, "b-asan", "test_hpcc_set.out"), "w") as f:
            f.write("  # class=crash fn=- tests/lib/ktap.c:181: exited with status 1\n"
                    "  not ok 2 set_other\n")
        a = {"tree": tree, "verdict": os.path.join(d, "verdict"), "build": d + "/b",
             "out": d + "/out", "name": "t", "kunitcpus": "8", "fixes": None, "commit": None,
             "sha12": {"c": "0" * 12, "h": "0" * 12}, "asan": rec, "tsan": None}
        main_quiet(a)
        name = "asan-heap-buffer-overflow-crash-set"
        listed = sorted(os.listdir(d + "/out"))
        with open(os.path.join(d, "out", name + ".txt")) as f:
            text = f.read()
        with open(os.path.join(d, "out", name + ".asan.log")) as f:
            log = f.read()
        unit = fd.rowed(fd.findings({"ufail": [{"prog": "test_hpcc_carry",
                                                "case": "carry_batch_4g", "class": "wrong-answer",
                                                "fn": "init"}], "stress": []}, d), "long", rows,
                        {})[0]
        unit.update(kfn="hpcc_test_x", kcpus="8", kunit_ok=True, ref="lib/hpcc")
        ktext = fd.report(a, {"builds": "yes"}, unit, {"c": "0", "h": "0"})
        out = os.path.abspath(d + "/out")
        here = [x for x in (d + "/b-asan", out) if x in text + ktext]
        # No build directory: kernel-check makes its own where it runs.
        inroot = [w for w in fd.repro(a, {"builds": "yes"}, {"tool": "asan",
                                                               "sprog": "test_hpcc_set"})
                  if "kcheck" in w or w.startswith(d + "/b")]
    flat = " ".join(ktext.split())
    want = [name + ".asan.log", name + ".asan-2.log"]
    result(listed == sorted(want + [name + ".txt"]) and all(w in text for w in want) and
           "heap-buffer-overflow" in log and not here and not inroot and
           'cp "$F"/carry_batch_4g.kunit.c' in ktext and
           "in a copy of the tree (F: this report's directory):" in flat and
           ': "${F:?the directory of this report and its .kunit.c}"' in ktext,
           "no_machine_paths", f"written {listed}; machine paths {here}; build {inroot}\n{text}\n{ktext}")


def header_copy_named_by_tree_path():
    """A sanitizer's frame in the build's copy of the tree's header (its
    kinc, or the header store's khdr/SUM that kernel-check's builds read)
    is named by the header's path in the tree."""
    lines = ["    #1 0x5 in add /b/kcheck/rfc-1-asan/khdr/0123abcd/linux/percpu_counter_tree.h:88",
             "    #2 0x5 in sum build/kcheck/t-2/kinc/linux/percpu_counter_tree.h:12",
             "    #3 0x5 in f /k/include/linux/percpu_counter_tree.h:7"]
    got = [fd.clean_line(l).strip() for l in lines]
    want = ["#1 add include/linux/percpu_counter_tree.h:88",
            "#2 sum include/linux/percpu_counter_tree.h:12",
            "#3 f include/linux/percpu_counter_tree.h:7"]
    result(got == want, "header_copy_named_by_tree_path", f"got {got}\nwant {want}")


def fix_within_100_columns():
    """A fix whose diff adds a line longer than checkpatch's 100 columns
    (a tab to the next multiple of 8) is no fix to send: fixed_copy()
    refuses it, saying why; one of 100 columns is kept."""
    got = {}
    for width in (101, 100):
        line = "\t" + "x" * (width - 9) + ";"
        fake = "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-\ty;\n+" + line + "\n"

        def run(cmd, **kw):
            return fd.subprocess.CompletedProcess(cmd, 0, fake if cmd[0] == "diff" else "", "")
        with tempfile.TemporaryDirectory() as d:
            tree = os.path.join(d, "tree")
            empty_tree(tree)
            saved = fd.subprocess.run
            fd.subprocess.run = run
            try:
                got[width] = fd.fixed_copy({"tree": tree}, ["items-size-precedence"],
                                           os.path.join(d, "copy"))
            finally:
                fd.subprocess.run = saved
    refused, kept = got[101], got[100]
    result(refused[0] is None and "adds a line of 101 columns" in (refused[1] or "") and
           kept[0] and kept[1] is None, "fix_within_100_columns", f"got {got}")


def carry_report():
    """carry_batch_4g's report as main_() writes it, with a KUnit run and
    a fix of ours (the failing line: the file's): NAME.txt's text and
    NAME.kunit.c's lines."""
    def fake_kunit(tree, bdir, cpus, log, shape="long"):
        with open(os.path.join(tree, fd.K_REL)) as f:
            lines = f.read().splitlines()
        res = {}
        for kfn in ("hpcc_test_carry_batch_4g",):
            n = next(i for i, l in enumerate(lines, 1)
                     if "KUNIT_EXPECT_LE(test, precise - approx" in l)
            res[kfn] = (False, [f"EXPECTATION FAILED at {fd.K_REL}:{n}",
                                "Expected precise - approx <= (long)under, but"])
        return res, ["KTAP version 1"]

    def fake_fix(a, fixes, fs, allf, v, work, cases, others, rows):
        return {"ok": True, "diff": "d\n", "why": "", "ran": "test_hpcc_carry",
                "kunit": {c["kfn"]: True for c in cases}, "explained": []}
    with tempfile.TemporaryDirectory() as d:
        tree = os.path.join(d, "tree")
        empty_tree(tree)
        with open(os.path.join(d, "verdict"), "w") as f:
            f.write("builds\tyes\nufail\ttest_hpcc_carry\tcarry_batch_4g\twrong-answer\tinit\n")
        a = {"tree": tree, "verdict": os.path.join(d, "verdict"), "build": d + "/b",
             "out": d + "/out", "name": "t", "kunitcpus": "8", "fixes": None, "commit": None,
             "sha12": {"c": "0" * 12, "h": "0" * 12}, "asan": None, "tsan": None,
             "duration": "2s", "cpus": None}
        saved = (fd.run_kunit, fd.try_fix)
        fd.run_kunit, fd.try_fix = fake_kunit, fake_fix
        try:
            main_quiet(a)
        finally:
            fd.run_kunit, fd.try_fix = saved
        name = "count-order-long"
        with open(os.path.join(d, "out", name + ".txt")) as f:
            text = f.read()
        with open(os.path.join(d, "out", name + ".kunit.c")) as f:
            kunit = f.read().splitlines()
    return text, kunit


def kunit_line_as_printed():
    """The failing line a report quotes ("at lib/tests/
    percpu_counter_tree_kunit.c:N") is the line of NAME.kunit.c, the file
    the report prints and tells the reader to copy in, not that of the
    verification's file (another head, other cases)."""
    text, kunit = carry_report()
    name = "count-order-long"
    quoted = [int(l.rsplit(":", 1)[1]) for l in text.splitlines()
              if "EXPECTATION FAILED at " + fd.K_REL + ":" in l]
    want = [i for i, l in enumerate(kunit, 1) if "KUNIT_EXPECT_LE(test, precise - approx" in l]
    result(quoted and quoted == want, "kunit_line_as_printed",
           f"quoted {quoted}, the line in {name}.kunit.c {want}\n{text}")


def sparse_warnings_are_reports():
    """The sparse column's FAIL is a finding of its own: one report per
    kind and symbol (the name sparse quotes, else the function the line
    is in), sparse's lines quoted whole with the tree's paths (not the
    tree's nor the build's header copy's), kernel-check --only sparse on
    the tree, no KUnit case, no small fix; a stdout line each."""
    with tempfile.TemporaryDirectory() as d:
        tree = os.path.join(d, "tree")
        empty_tree(tree)
        with open(os.path.join(tree, fd.C_REL), "w") as f:
            f.write("#include <linux/percpu_counter_tree.h>\n\nvoid disasm_add(int x)\n"
                    "{\n}\n\nint percpu_counter_tree_get(struct c *c)\n{\n"
                    "\treturn *c->p;\n}\n")
        bdir = os.path.join(d, "b")
        with open(os.path.join(d, "verdict"), "w") as f:
            f.write("builds\tyes\n")
        rec = bdir + ".sparse"
        with open(rec, "w") as f:
            f.write("sparse\tFAIL\t3 warnings: lib/percpu_counter_tree.c:3:6: warning: x\n")
        with open(rec + ".log", "w") as f:
            f.write(f"{tree}/lib/percpu_counter_tree.c:3:6: warning: symbol 'disasm_add' "
                    "was not declared. Should it be static?\n"
                    f"{tree}/lib/percpu_counter_tree.c:9:17: warning: incorrect type in "
                    "return expression (different address spaces)\n"
                    f"{tree}/lib/percpu_counter_tree.c:9:17:    expected int\n"
                    f"{tree}/lib/percpu_counter_tree.c:9:17:    got int [noderef] __percpu *\n"
                    f"{bdir}-sparse/linux/percpu_counter_tree.h:9:17: warning: incorrect type "
                    "in return expression (different address spaces)\n")
        with open(os.path.join(tree, fd.H_REL), "w") as f:
            f.write("\n" * 5 + "static inline int percpu_counter_tree_get(struct c *c)\n"
                    "{\n\n\treturn *c->p;\n}\n")
        a = {"tree": tree, "verdict": os.path.join(d, "verdict"), "build": bdir,
             "out": d + "/out", "name": "t", "kunitcpus": "8", "fixes": None, "commit": None,
             "sha12": {"c": "0" * 12, "h": "0" * 12}, "asan": None, "tsan": None,
             "sparse": rec, "duration": "2s", "cpus": None}
        so, sys.stdout = sys.stdout, open(os.path.join(d, "stdout"), "w")
        try:
            fd.main_(a)
        finally:
            sys.stdout.close()
            sys.stdout = so
        with open(os.path.join(d, "stdout")) as f:
            lines = f.read().splitlines()
        texts = {}
        for n in sorted(os.listdir(d + "/out")):
            with open(os.path.join(d, "out", n)) as f:
                texts[n] = f.read()
    names = sorted(texts)
    want = ["sparse-address-space-percpu_counter_tree_get.txt",
            "sparse-undeclared-disasm_add.txt"]
    und = texts.get(want[1], "")
    asp = texts.get(want[0], "")
    need = ["    lib/percpu_counter_tree.c:3:6: warning: symbol 'disasm_add' was not "
            "declared. Should it be static?", "scripts/kernel-check --only sparse " + tree,
            "No KUnit case:", "No small fix: disasm_add is named nowhere else",
            "Function: disasm_add()", "At: lib/percpu_counter_tree.c:3"]
    need2 = ["    lib/percpu_counter_tree.c:9:17:    got int [noderef] __percpu *",
             "    include/linux/percpu_counter_tree.h:9:17: warning: incorrect type in return "
             "expression (different address spaces)", "No small fix: the suite has none",
             "At: lib/percpu_counter_tree.c:9 (and 1 more)"]
    miss = [w for w in need if w not in und] + [w for w in need2 if w not in asp]
    paths = [t for t in texts.values() if bdir in t or "-sparse/" in t]
    result(names == want and not miss and not paths and
           lines == ["sparse-undeclared-disasm_add: kunit none, fix none",
                     "sparse-address-space-percpu_counter_tree_get: kunit none, fix none "
                     "(2 warnings)"], "sparse_warnings_are_reports",
           f"reports {names}\nmissing {miss}\nstdout {lines}\n" + "\n".join(texts.values()))


def kunit_quote_keeps_tabs():
    """The KUnit case a report prints is NAME.kunit.c's, byte for byte:
    its function and its KUNIT_CASE() line keep their tabs (kernel style;
    pasted from the mail, the case is the file's), each line within 72
    columns with a tab to the next multiple of 8."""
    text, kunit = carry_report()
    lines = text.splitlines()
    at = next(i for i, l in enumerate(lines) if l.startswith("static void hpcc_test_carry"))
    end = next(i for i, l in enumerate(kunit) if l.startswith("static void hpcc_test_carry"))
    stop = kunit.index("}", end)
    body = kunit[end:stop + 1]
    case = [l for l in kunit if "KUNIT_CASE(hpcc_test_carry" in l]
    wide = [l for l in lines if len(l.expandtabs(8)) > fd.WIDTH and not l.startswith("    ")]
    result(lines[at:at + len(body)] == body and any("\t" in l for l in body) and
           case and case[0] in lines and not wide, "kunit_quote_keeps_tabs",
           "the case in NAME.kunit.c:\n" + "\n".join(body + case) +
           f"\nwider than 72: {wide}\nthe report:\n{text}")


for c in (one_report_per_defect, one_report_per_fix, fields_indent, quoted_lines_whole,
          series_lines_whole, precise_compare_fix_keeps_header, subject_folds,
          no_machine_paths, header_copy_named_by_tree_path, kunit_line_as_printed,
          fix_within_100_columns, sparse_warnings_are_reports, kunit_quote_keeps_tabs):
    cases_of(c)
sys.exit(1 if failed else 0)
