#!/usr/bin/env python3
"""scripts/findings' KUnit cases as the catalogue gives them (nothing built,
docs/kernel-trees.md#findings-a-maintainer-can-act-on): tests/unit/findings_cases.sh's
cases, KTAP results on stdout.

Usage: findings_cases.py ROOT  (exit 0 all ok, 1 a case failed, 2 usage)."""
import sys

if len(sys.argv) != 2:
    print("findings_cases: usage: findings_cases.py ROOT", file=sys.stderr)
    sys.exit(2)
sys.path.insert(0, sys.argv[1] + "/scripts")
from hpccpy.load import load_script

fd = load_script("findings")
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
fd.subprocess.run = lambda cmd, **kw: calls.append(cmd)
for sh in ("int-items", "rfc", "long"):
    fd.run_kunit("/nonexistent/tree", "/nonexistent/build", "8", "/dev/null", sh)
anyapi = ["KUNIT_ANY_API=1" in c for c in calls]
result(anyapi == [True, True, False] and all(c[-1] == "kunit" for c in calls),
       "kunit_any_api_for_adapter_shapes", f"calls {calls}")
sys.exit(1 if failed else 0)
