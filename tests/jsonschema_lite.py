#!/usr/bin/env python3
"""Validate a JSON document against the subset of JSON Schema (draft-07) that
docs/stress-report.schema.json uses: type, const, enum, required, properties,
additionalProperties, items, minItems, minimum, maximum. Standard library only.
Usage: jsonschema_lite.py SCHEMA DOCUMENT  (exit 0 valid, 1 invalid)."""
import json
import sys

TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def is_type(v, t):
    if t == "integer":
        return isinstance(v, int) and not isinstance(v, bool)
    if t == "number":
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    return isinstance(v, TYPES[t])


def validate(v, s, path="$"):
    errs = []
    if "type" in s:
        ts = s["type"] if isinstance(s["type"], list) else [s["type"]]
        if not any(is_type(v, t) for t in ts):
            return ["%s: %r is not of type %s" % (path, v, ts)]
    if "const" in s and v != s["const"]:
        errs.append("%s: %r != %r" % (path, v, s["const"]))
    if "enum" in s and v not in s["enum"]:
        errs.append("%s: %r not in %r" % (path, v, s["enum"]))
    if is_type(v, "number"):
        if "minimum" in s and v < s["minimum"]:
            errs.append("%s: %r < %r" % (path, v, s["minimum"]))
        if "maximum" in s and v > s["maximum"]:
            errs.append("%s: %r > %r" % (path, v, s["maximum"]))
    if isinstance(v, dict):
        props = s.get("properties", {})
        for k in s.get("required", []):
            if k not in v:
                errs.append("%s: missing %r" % (path, k))
        for k, x in v.items():
            if k in props:
                errs += validate(x, props[k], "%s.%s" % (path, k))
            elif s.get("additionalProperties") is False:
                errs.append("%s: unexpected %r" % (path, k))
            elif isinstance(s.get("additionalProperties"), dict):
                errs += validate(x, s["additionalProperties"], "%s.%s" % (path, k))
    if isinstance(v, list):
        if len(v) < s.get("minItems", 0):
            errs.append("%s: fewer than %d items" % (path, s["minItems"]))
        if "items" in s:
            for i, x in enumerate(v):
                errs += validate(x, s["items"], "%s[%d]" % (path, i))
    return errs


def main():
    schema = json.load(open(sys.argv[1]))
    try:
        doc = json.load(open(sys.argv[2]))
    except ValueError as e:
        print("# invalid JSON: %s" % e)
        return 1
    errs = validate(doc, schema)
    for e in errs[:20]:
        print("# " + e)
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
