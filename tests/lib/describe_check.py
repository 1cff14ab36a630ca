#!/usr/bin/env python3
"""./stress --describe against the formulas of docs/spec/hpcc.md (#hpcc-shape,
#hpcc-accuracy, #hpcc-settled), computed independently here from the spec's
arity table, and against the docs/spec/hpcc.md#hpcc-example table; then every
kind of bad input: one line on stderr, exit 2. A KTAP document on stdout.

Usage: describe_check.py STRESS  (exit 0 all ok, 1 a case failed)."""
import json
import subprocess
import sys

if len(sys.argv) != 2:
    print("describe_check: usage: describe_check.py STRESS", file=sys.stderr)
    sys.exit(2)
stress = sys.argv[1]
# docs/spec/hpcc.md#hpcc-shape: n_arity_order per nr_cpus order
ARITY = {0: [], 1: [1], 2: [1, 1], 3: [1, 1, 1], 4: [2, 1, 1], 5: [2, 2, 1],
         6: [2, 2, 2], 7: [3, 2, 2], 8: [3, 3, 2], 9: [3, 3, 3], 10: [3, 3, 2, 2],
         11: [3, 3, 3, 2], 12: [3, 3, 3, 3], 13: [3, 3, 3, 2, 2]}

def expected(cpus, batch):
    order = (cpus - 1).bit_length()
    ar = ARITY[order]
    levels = len(ar)
    items, width, thr = [], 1 << order, [batch]
    for a in ar:
        width >>= a
        items.append(width)
    for a in ar[:-1]:
        thr.append(thr[-1] << a)
    mult = levels * (1 << order)
    T = 0
    if levels:
        T = cpus * (batch - 1) + sum(items[l - 1] * (thr[l] - thr[l - 1])
                                     for l in range(1, levels))
    return {"nr_cpus": cpus, "nr_cpus_order": order, "nr_levels": levels,
            "n_arity_order": ar, "nr_items": sum(items), "batch": batch,
            "under": batch * mult, "over": (batch - 1) * mult,
            "settled_max_error": T}

# docs/spec/hpcc.md#hpcc-example (batch 32): cpus -> (nr_items, under, over, T)
TABLE = {1: (0, 0, 0, 0), 2: (1, 64, 62, 62), 3: (3, 256, 248, 157),
         4: (3, 256, 248, 188), 8: (7, 768, 744, 504), 64: (21, 6144, 5952, 5056),
         256: (37, 24576, 23808, 22272), 512: (73, 49152, 47616, 44544),
         1024: (149, 131072, 126976, 113664), 4096: (585, 524288, 507904, 471040)}

n = 0
def result(ok, name, diag=None):
    global n
    n += 1
    if diag:
        print("# " + diag)
    print(("ok" if ok else "not ok") + " %d %s" % (n, name))
    return ok

BAD = [["--cpus", "0"], ["--cpus", "8193"], ["--cpus", "100000"], ["--batch", "1"],
       ["--batch", "3"], ["--batch", "0"], ["--batch", "48"], ["--cpus", "abc"],
       ["--cpus", "12x"], ["--cpus", "-4"], ["--cpus", ""], ["--batch", "0x20"],
       ["--batch", "32.0"], ["--cpus", " 4"], ["--cpus", "99999999999999999999999"],
       ["--frobnicate"], ["--cpus"], ["--batch"], ["-x"], ["extra-arg"],
       ["--describe=yes"], ["--batch", "33554432"]]
print("KTAP version 1")
print("1..%d" % (10 * 3 + 1 + len(BAD)))
failed = 0
for cpus in (1, 2, 3, 4, 8, 64, 256, 512, 1024, 4096):
    for batch in (2, 32, 256):
        p = subprocess.run([stress, "--describe", "--cpus", str(cpus), "--batch", str(batch)],
                           capture_output=True, text=True)
        name = "describe_cpus%d_batch%d" % (cpus, batch)
        try:
            got = json.loads(p.stdout)
        except ValueError:
            got = None
        exp = expected(cpus, batch)
        diag = None
        ok = p.returncode == 0 and got is not None and p.stdout.count("\n") == 1
        if ok:
            bad = [k for k in exp if got.get(k) != exp[k]]
            if batch == 32:
                row = TABLE[cpus]
                if (got["nr_items"], got["under"], got["over"],
                        got["settled_max_error"]) != row:
                    bad.append("spec table row %s" % (row,))
            if bad:
                ok = False
                diag = "mismatch in %s: got %s, expected %s" % (bad, got, exp)
        else:
            diag = "exit %d, stdout %r, stderr %r" % (p.returncode, p.stdout, p.stderr)
        failed += not result(ok, name, diag)

# Default batch is 32.
p = subprocess.run([stress, "--describe", "--cpus", "256"], capture_output=True, text=True)
ok = p.returncode == 0 and json.loads(p.stdout or "{}").get("batch") == 32
failed += not result(ok, "describe_default_batch_32")

for args in BAD:
    p = subprocess.run([stress, "--describe"] + args, capture_output=True, text=True)
    lines = p.stderr.splitlines()
    ok = p.returncode == 2 and len(lines) == 1 and p.stdout == ""
    name = "bad_input_" + "_".join(a.strip("-") or "empty" for a in args).replace(" ", "sp")
    name = "".join(c if c.isalnum() or c in "_.=" else "_" for c in name)
    failed += not result(ok, name, None if ok else "args %r: exit %d, stderr %r, stdout %r"
                         % (args, p.returncode, p.stderr, p.stdout))
sys.exit(1 if failed else 0)
