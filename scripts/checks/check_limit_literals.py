#!/usr/bin/env python3
"""Fails when a declared limit value is written as a literal in hand-written validation code.

Every documented limit is declared once in Schemas/ (docs/spec/limits.md); code
reads it from the generated tables (`ValidationLimits`, `DecodingLimits`,
`DeclaredRanges`, the C reference's constraints.h). This check reads the
declarations (scripts/lib/constraints.py) and scans the hand-written Swift and C
validation and limit code, comments and strings left out, for an integer
literal, a shift such as `100 << 20`, or a decimal such as `90.0` whose value
is a declared number, and for the declared prefix strings. Numbers below 8
are not checked: they are counts, indices, tag sizes and shifts everywhere;
the declared values of that size (one custom elem, download flag 2, five
abstract lines and member fields, the image format codes, the system type
ranges) are pinned by the vectors at N and N + 1 in both profiles instead.

    python3 scripts/checks/check_limit_literals.py [FILE ...]
"""

import glob
import os
import re
import sys

sys.dont_write_bytecode = True  # keep scripts/ free of __pycache__
# scripts/lib: the scripts' shared modules.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))
import constraints  # noqa: E402

ROOT = constraints.ROOT
CHECKED = [
    "Sources/IMCodecValidation/*.swift",
    "Sources/IMCodec/DecodingLimits*.swift",
    "Sources/IMCodecReference/error.c",
    "Sources/IMCodecReference/validate*.c",
]
SMALLEST = 8
NUMBER = re.compile(r"(?<![\w.])(0x[0-9A-Fa-f_]+|\d[\d_]*(?:\.\d+)?)(?:\s*<<\s*(\d+))?(?![\w]|\.\d)")


def declared(decl):
    numbers, texts = {}, {}
    for limit in decl.limits:
        for profile in constraints.PROFILES:
            value = limit.value(profile)
            values = []
            if isinstance(value, bool) or value is None:
                continue
            if isinstance(value, int):
                values = [value]
            elif isinstance(value, list) and value and isinstance(value[0], int):
                values = value
            elif isinstance(value, dict):
                values = list(value.values())
            elif isinstance(value, str):
                texts[value] = limit.name
            for v in values:
                if abs(v) >= SMALLEST:
                    numbers.setdefault(abs(v), limit.name)
    for rule in decl.rules:
        if rule.kind == "range":
            for v in (rule.low, rule.high):
                if abs(v) >= SMALLEST:
                    numbers.setdefault(abs(v), rule.code)
    return numbers, texts


def strip(text, is_c):
    """Blanks comments (keeping line breaks) and returns (code, strings by line)."""
    out, strings = [], []
    i, line = 0, 1
    while i < len(text):
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = len(text) if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = len(text) if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            line += text.count("\n", i, j)
            i = j
        elif text[i] == '"':
            j = i + 1
            while j < len(text) and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            strings.append((line, text[i + 1:j]))
            out.append('""')
            i = j + 1
        else:
            if text[i] == "\n":
                line += 1
            out.append(text[i])
            i += 1
    return "".join(out), strings


def main():
    decl = constraints.load()
    numbers, texts = declared(decl)
    files = sys.argv[1:] or sorted({f for pattern in CHECKED for f in glob.glob(os.path.join(ROOT, pattern))})
    problems = []
    for path in files:
        with open(path, encoding="utf-8") as f:
            code, strings = strip(f.read(), path.endswith((".c", ".h")))
        rel = os.path.relpath(path, ROOT)
        for number, line_text in enumerate(code.split("\n"), 1):
            for m in NUMBER.finditer(line_text):
                literal, shift = m.group(1).replace("_", ""), m.group(2)
                value = float(literal) if "." in literal else int(literal, 0)
                if shift:
                    value = int(value) << int(shift)
                if value in numbers:
                    problems.append("%s:%d: %s is the declared value of %s" % (rel, number, m.group(0), numbers[value]))
        for number, text in strings:
            for declared_text, name in texts.items():
                if declared_text in text:
                    problems.append("%s:%d: \"%s\" is the declared value of %s" % (rel, number, declared_text, name))
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print("limit values written as literals: read them from the generated tables (docs/spec/limits.md)",
              file=sys.stderr)
        return 1
    print("no declared limit value is written as a literal in %d files" % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
