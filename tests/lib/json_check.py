#!/usr/bin/env python3
"""Validate JSON documents against a JSON Schema (draft-07) with Debian's
python3-jsonschema (scripts/install-deps installs it), strictly:

  - "integer" means an integer literal in the text (5, not 5.0 or 5e0): a
    count written through a double (the old %.9g) is an error even when its
    value happens to be whole;
  - a document must be exactly one JSON value in UTF-8, with no NaN or
    Infinity and no duplicate keys.

Usage: json_check.py SCHEMA DOCUMENT...  (exit 0 valid, 1 invalid, 2 usage)."""
import json
import sys

try:
    import jsonschema
except ImportError:
    print("json_check: python3-jsonschema is missing (scripts/install-deps)", file=sys.stderr)
    sys.exit(2)


def strict_int(checker, v):
    return isinstance(v, int) and not isinstance(v, bool)


def no_dupes(pairs):
    keys = [k for k, _ in pairs]
    dup = {k for k in keys if keys.count(k) > 1}
    if dup:
        raise ValueError(f"duplicate key(s) {sorted(dup)}")
    return dict(pairs)


def bad_constant(name):
    raise ValueError(f"{name} is not JSON")


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    schema = json.load(open(argv[0]))
    base = jsonschema.validators.validator_for(schema)
    base.check_schema(schema)
    types = base.TYPE_CHECKER.redefine("integer", strict_int)
    Strict = jsonschema.validators.extend(base, type_checker=types)
    validator = Strict(schema)
    bad = 0
    for path in argv[1:]:
        try:
            with open(path, encoding="utf-8") as f:
                doc = json.loads(f.read(), object_pairs_hook=no_dupes,
                                 parse_constant=bad_constant)
        except (OSError, ValueError) as e:
            print(f"{path}: not valid JSON: {e}")
            bad += 1
            continue
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
        for e in errors[:20]:
            where = "$" + "".join(f"[{p!r}]" for p in e.absolute_path)
            print(f"{path}: {where}: {e.message}")
        if errors:
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
