#!/usr/bin/env python3
"""scripts/regress's statistics: its one-sided Mann-Whitney p-values,
exact (ties too: the same as counting every split of the pooled values)
and approximated, against a brute force count and known values.

Usage: regress_stats_check.py REGRESS  (exit 0 right; 1 an AssertionError
names the case; 2 usage)."""
import importlib.machinery
import itertools
import random
import sys


def u(a, b):
    return sum((p < q) + 0.5 * (p == q) for p in a for q in b)


def brute(x, y):
    pool, obs, hit, tot = x + y, u(x, y), 0, 0
    for idx in itertools.combinations(range(len(pool)), len(x)):
        rest = [pool[i] for i in range(len(pool)) if i not in idx]
        tot += 1
        hit += u([pool[i] for i in idx], rest) >= obs - 1e-9
    return hit / tot


def main(argv):
    if len(argv) != 2:
        print("regress_stats_check: usage: regress_stats_check.py REGRESS", file=sys.stderr)
        return 2
    r = importlib.machinery.SourceFileLoader("regress", argv[1]).load_module()
    mw = r.mann_whitney_less
    assert abs(mw([1, 2, 3], [4, 5, 6]) - 1 / 20) < 1e-12	# all below: 1 / C(6,3)
    assert abs(mw([4, 5, 6], [1, 2, 3]) - 1.0) < 1e-12
    assert abs(mw([1, 2, 4], [3, 5, 6]) - 2 / 20) < 1e-12	# one swap
    assert mw([1.0] * 5, [1.0] * 5) == 1.0			# ties only: no evidence
    random.seed(15)
    for _ in range(100):
        x = [random.randint(0, 4) for _ in range(random.randint(1, 6))]
        y = [random.randint(0, 4) for _ in range(random.randint(1, 6))]
        assert abs(mw(x, y) - brute(x, y)) < 1e-12, (x, y)
    big = [float(i) for i in range(30)]
    assert mw(big, [v + 100 for v in big]) < 1e-9		# normal approximation
    assert 0.3 < mw(big, [v + 0.5 for v in big]) < 0.7
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
