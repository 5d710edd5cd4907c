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

It also checks that one default validation profile is written everywhere
(README: "Validation profiles"). The default is the profile
`ValidationLimits()` holds, read from the code generated from the
declarations (Sources/IMCodecValidation/Generated/ValidationLimits.swift).
Checked against it:

- every default of a `ValidationLimits` parameter or property in the
  library, the CLI and the examples (`limits: ValidationLimits = .sdkGuide`);
- the CLI's `--profile` defaults (`var profile: ProfileOption = .sdkGuide`,
  and the name of that ProfileOption);
- the examples' profile options by name (`var profile = "sdk-guide"`);
- every sentence of the documentation (README.md, docs/, the DocC catalogs,
  the examples' READMEs) and of the Swift sources' comments and help texts
  that says "default" and names a profile: the profile named right before
  "default", or else the first one after it, is the default.

    python3 scripts/checks/check_limit_literals.py [FILE ...]   (FILEs: the literal check on these only)
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


GENERATED = "Sources/IMCodecValidation/Generated/ValidationLimits.swift"
# A profile as the documentation names it: its name or its Swift member in
# code format, or "sdk-guide"/"current" next to the word profile.
PROFILE = re.compile(r"`(?:ValidationLimits)?\.?(sdk-guide|sdkGuide|current)`|\.(sdkGuide|current)\b"
                     r"|--profile (sdk-guide|current)\b|\b(sdk-guide)\b|\b(current) profile\b")
DEFAULT = re.compile(r"\bdefault\b", re.I)


def default_profile():
    """The default profile's Swift member and name."""
    with open(os.path.join(ROOT, GENERATED), encoding="utf-8") as f:
        text = f.read()
    member = re.search(r"public static let (\w+) = ValidationLimits\(\)", text).group(1)
    name = re.search(r'"([\w-]+)": \("([\w-]+)", ' + member + r"\)", text).group(2)
    return member, name


def source_files(folders, suffixes):
    for folder in folders:
        for base, dirs, names in os.walk(os.path.join(ROOT, folder)):
            dirs[:] = [d for d in dirs if not d.startswith(".") and d != "Generated"]
            for name in sorted(names):
                if name.endswith(suffixes):
                    yield os.path.join(base, name)


def canonical(token, member, name):
    """Whether `token` names the default profile."""
    return token in (member, name)


def sentences(text):
    """The sentences and clauses of prose: split at full stops, semicolons and blank lines."""
    return [s for s in re.split(r"(?<=[.;])\s+|\n\s*\n", text) if s.strip()]


def check_sentence(sentence, member, name):
    """The profile a sentence that says "default" names as the default, when it is not the default."""
    word = DEFAULT.search(sentence)
    if not word:
        return None
    tokens = [(m.start(), next(g for g in m.groups() if g)) for m in PROFILE.finditer(sentence)]
    if not tokens:
        return None
    before = [t for t in tokens if t[0] < word.start()]
    token = before[-1][1] if before else tokens[0][1]
    return None if canonical(token, member, name) else token


def check_default_profile():
    """Problems with the default profile, and a line saying what agreed."""
    member, name = default_profile()
    problems = []
    swift_files = list(source_files(["Sources", "Examples"], (".swift",)))
    code_defaults = 0
    for path in swift_files:
        rel = os.path.relpath(path, ROOT)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for pattern in (r"ValidationLimits\s*=\s*\.(\w+)", r"ProfileOption\s*=\s*\.(\w+)"):
            for m in re.finditer(pattern, text):
                code_defaults += 1
                option = m.group(1)
                if "ProfileOption" in pattern:
                    option_file = os.path.join(ROOT, "Sources/IMCodecCLI/ProfileOption.swift")
                    declared = re.search(r"static let " + option + r' = ProfileOption\(name: "([\w-]+)"',
                                         open(option_file, encoding="utf-8").read())
                    option = declared.group(1) if declared else option
                if not canonical(option, member, name):
                    problems.append(f"{rel}: a default of .{m.group(1)}, not the default profile {name}")
        for m in re.finditer(r'var profile\s*=\s*"([\w-]+)"', text):
            code_defaults += 1
            if not canonical(m.group(1), member, name):
                problems.append(f'{rel}: var profile = "{m.group(1)}", not the default profile {name}')

    statements = 0
    prose = [(p, open(p, encoding="utf-8").read()) for p in
             [os.path.join(ROOT, "README.md"), *source_files(["docs", "Examples"], (".md",)),
              *source_files(["Sources"], (".md",))]]
    # In Swift sources: doc comments, comments and string literals (help texts).
    for path in swift_files:
        with open(path, encoding="utf-8") as f:
            lines = [re.sub(r"^\s*///?\s?", "", line) for line in f if re.match(r"\s*//", line) or '"' in line]
        prose.append((path, "\n".join(lines)))
    for path, text in prose:
        for sentence in sentences(text):
            if DEFAULT.search(sentence) and PROFILE.search(sentence):
                statements += 1
                wrong = check_sentence(sentence, member, name)
                if wrong:
                    excerpt = " ".join(sentence.split())[:160]
                    problems.append(f"{os.path.relpath(path, ROOT)}: names {wrong} as the default: {excerpt}")
    return problems, (f"the default profile is {name} (ValidationLimits.{member}): {code_defaults} defaults "
                      f"in code and {statements} sentences of the documentation that name the default agree")



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
    profile_problems, agreed = check_default_profile()
    for problem in profile_problems:
        print(problem, file=sys.stderr)
    if problems or profile_problems:
        return 1
    print("no declared limit value is written as a literal in %d files" % len(files))
    print(agreed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
