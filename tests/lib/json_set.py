#!/usr/bin/env python3
"""Write a JSON document with some values changed: how a test makes a
report or a summary say what it means to test (a failure, a faster
baseline) without a run that would produce it.

Usage: json_set.py IN OUT EDIT...
  PATH=JSON     set the value at PATH to JSON (a JSON text: 5, "s", [1])
  PATH=*NUMBER  multiply every number at PATH (a list: each of them)
PATH is keys and list indexes joined by dots; * is every key or element
(runs.0.failures.0.invariant, groups.*.margins.*). Exit status: 0
written; 1 a PATH not in IN; 2 usage, or IN not JSON."""
import json
import sys


def names(v, k):
    if k != "*":
        return [int(k) if isinstance(v, list) else k]
    return range(len(v)) if isinstance(v, list) else list(v.keys())


def nodes(doc, keys):
    """The (container, key) pairs PATH names: every one of them for a *."""
    vals = [doc]
    for k in keys[:-1]:
        vals = [v[n] for v in vals for n in names(v, k)]
    return [(v, n) for v in vals for n in names(v, keys[-1])]


def scale(v, by):
    return [x * by for x in v] if isinstance(v, list) else v * by


def edit(doc, e):
    path, arg = e.split("=", 1)
    for c, n in nodes(doc, path.split(".")):
        c[n] = scale(c[n], json.loads(arg[1:])) if arg.startswith("*") else json.loads(arg)


def main(argv):
    if len(argv) < 3 or any("=" not in e for e in argv[2:]):
        print("json_set: usage: json_set.py IN OUT PATH=JSON|PATH=*NUMBER...", file=sys.stderr)
        return 2
    try:
        with open(argv[0]) as f:
            doc = json.load(f)
        for e in argv[2:]:
            edit(doc, e)
    except (OSError, ValueError) as e:
        print("json_set: %s" % e, file=sys.stderr)
        return 2
    except (KeyError, IndexError, TypeError, AttributeError) as e:
        print("json_set: no %s in %s (%s)" % (e, argv[0], type(e).__name__), file=sys.stderr)
        return 1
    with open(argv[1], "w") as f:
        json.dump(doc, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
