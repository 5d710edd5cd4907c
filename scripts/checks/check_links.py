#!/usr/bin/env python3
"""Fails when a link or a repository path named in the repository does not exist.

Every text file git knows (committed, or new and not ignored) is read for two
kinds of reference:

- markdown links in `.md` files, `[text](target)` outside code blocks:
  a relative target is resolved from the file's folder and must name a file
  or folder of the repository; a `#fragment` into a markdown page must name
  one of its headings (as a repository host makes anchors of them);
- repository paths anywhere (docs, code comments, scripts, tests, vectors):
  a word that starts with a top-level folder of the repository
  (`Sources/IMCodec/Frame/FrameHeader.swift`, `docs/spec/limits.md`,
  `.ci/run`) must name a file or folder, from the repository root or from a
  folder above the file that names it (a nested package's own `Sources/`).
  `*` and `<placeholder>` match any name (`Schemas/dictionaries/<id>.bin`
  must match at least one file); a path git ignores (build output) is not
  checked.

Paths that are deliberately hypothetical (in examples) are listed in
ALLOWLIST below, one `PATH [FILE]  # reason` a line (FILE, when given,
limits the entry to that file).

    python3 scripts/checks/check_links.py               check the repository
    python3 scripts/checks/check_links.py --self-test   prove it finds planted broken references
"""

import fnmatch
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # keep scripts/ free of __pycache__
# scripts/lib: the scripts' shared modules.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))
import generated  # noqa: E402

# Generated folders are not read: their text comes from Schemas/, which is
# read, and protoc's output carries the schemas' comments cut into pieces.
GENERATED_FOLDERS = tuple(o.path + "/" for o in generated.OUTPUTS if o.kind == "folder")

# Repository paths that are deliberately hypothetical: `PATH [FILE]  # why`.
# PATH may use * and ?; FILE limits the entry to that file.
ALLOWLIST = """
# Placeholders for a fuzz target's name in the fuzzing instructions and scripts.
FuzzTesting/NAME*                   # a target's folder and dictionary, NAME being the target
FuzzTesting/TARGET*                 # the same, TARGET being the target
FuzzTesting/FailCases/NAME*         # the saved failures of a target
FuzzTesting/FailCases/TARGET*       # the same
FuzzTesting/FailCases/FuzzStream    # made when FuzzStream first saves a failing input
testees/LANGUAGE/*                  # a testee's launcher and failure list, LANGUAGE being its language
testees/a/testee                    Tests/IMCodecConformanceTests/ConformanceMatrixTests.swift
testees/java/other                  Tests/IMCodecConformanceTests/ConformanceMatrixTests.swift
docs/api/MODULE.txt                 # one API list per module, MODULE being the module
Sources/ChatApp/main.swift          README.md  # the file of the consumer package README writes

# Former paths, named as history by the migration notes.
Vectors/limits/validation-seed.json Sources/IMCodec/IMCodec.docc/Migration.md
docs/LIMITS.md                      Sources/IMCodec/IMCodec.docc/Migration.md
docs/VALIDATION.md                  Sources/IMCodec/IMCodec.docc/Migration.md

# The scratch repository of the link check's own self-test.
Sources/Lib*                        scripts/checks/check_links.py
Sources/Nested/*                    scripts/checks/check_links.py
docs/a.md                           scripts/checks/check_links.py
docs/missing.md                     scripts/checks/check_links.py
docs/gone.md                        scripts/checks/check_links.py
docs/none.md                        scripts/checks/check_links.py
docs/example/hypothetical.md        scripts/checks/check_links.py
Schemas/1.bin                       scripts/checks/check_links.py
"""
LINK = re.compile(r"\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
# A path character, a `<placeholder>` or a shell variable (`dictionary_$id.h`);
# the path itself may start with `/` only after a quote
# (`root + "/docs/spec/limits.md"`).
PATH_CHARS = r"(?:[\w.\-@+*…]|<\w+>|\$\{?\w+\}?)"


def git(root, *args):
    return subprocess.run(["git", "-C", root, *args], capture_output=True, text=True, check=True).stdout


def repository_files(root):
    out = git(root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    return sorted({f for f in out.split("\0") if f and os.path.exists(os.path.join(root, f))})


def slug(heading):
    """The anchor a repository host gives a heading."""
    text = re.sub(r"`|\*\*|\*|_(?=\w)|\[([^\]]*)\]\([^)]*\)", lambda m: m.group(1) or "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    found, counts, fenced = set(), {}, False
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if FENCE.match(line):
                fenced = not fenced
            if fenced:
                continue
            m = HEADING.match(line)
            if m:
                base = slug(m.group(2))
                n = counts.get(base, 0)
                counts[base] = n + 1
                found.add(base if n == 0 else "%s-%d" % (base, n))
    return found


def parse_allowlist(text):
    entries = []
    for line in text.split("\n"):
        line = line.split("#", 1)[0].strip()
        if line:
            parts = line.split()
            entries.append((parts[0], parts[1] if len(parts) > 1 else None))
    return entries


class Checker:
    def __init__(self, root, allowlist=ALLOWLIST):
        self.root = os.path.abspath(root)
        self.files = repository_files(self.root)
        self.file_set = set(self.files)
        self.dirs = {""}
        for f in self.files:
            d = os.path.dirname(f)
            while d not in self.dirs:
                self.dirs.add(d)
                d = os.path.dirname(d)
        tops = sorted({f.split("/", 1)[0] for f in self.files if "/" in f}, key=len, reverse=True)
        self.path_re = re.compile(
            r"(?:(?<=[\"'])/|(?<![\w.\-/@+*]))((?:%s)/%s*(?:/%s*)*)" % ("|".join(map(re.escape, tops)), PATH_CHARS,
                                                                         PATH_CHARS))
        self.allow = parse_allowlist(allowlist)
        self.anchor_cache = {}
        self.problems = []
        self.counts = {"links": 0, "paths": 0}
        self.unresolved = []  # (file, line, path) waiting for the ignore check

    def exists(self, rel):
        rel = rel.rstrip("/")
        return rel in self.file_set or rel in self.dirs

    def matches(self, pattern):
        pattern = pattern.rstrip("/")
        return any(fnmatch.fnmatchcase(p, pattern) for p in self.file_set | self.dirs)

    def allowed(self, path, source):
        return any((fnmatch.fnmatchcase(path, p) or fnmatch.fnmatchcase(path.rstrip("/"), p))
                   and (f is None or f == source) for p, f in self.allow)

    def anchors_of(self, rel):
        if rel not in self.anchor_cache:
            self.anchor_cache[rel] = anchors(os.path.join(self.root, rel))
        return self.anchor_cache[rel]

    def check_link(self, source, line_no, target):
        self.counts["links"] += 1
        if re.match(r"^[a-zA-Z][\w+.-]*:", target) or target.startswith("//"):
            return  # a URL, mailto:, or DocC's doc:
        target_path, _, fragment = target.partition("#")
        target_path = target_path.split("?", 1)[0]
        if target_path:
            rel = os.path.normpath(os.path.join(os.path.dirname(source), target_path)).replace(os.sep, "/")
            if rel.startswith("../") or rel == "..":
                self.problems.append((source, line_no, target, "points outside the repository"))
                return
            if rel == ".":
                rel = ""
            if not self.exists(rel) and not self.allowed(rel, source):
                self.problems.append((source, line_no, target, "no such file or folder"))
                return
        else:
            rel = source
        if fragment and rel.endswith(".md") and rel in self.file_set:
            if fragment.lower() not in self.anchors_of(rel):
                self.problems.append((source, line_no, target, "no heading with anchor #%s" % fragment))

    def check_path(self, source, line_no, path):
        self.counts["paths"] += 1
        path = path.rstrip(".,:;'\"`-")
        while path.endswith(")") and path.count("(") < path.count(")"):
            path = path[:-1]
        if not path or self.allowed(path, source):
            return
        pattern = re.sub(r"<\w+>|…|\$\{?\w+\}?", "*", path)
        bases = []
        d = os.path.dirname(source)
        while True:
            bases.append(d)
            if not d:
                break
            d = os.path.dirname(d)
        for base in bases:
            candidate = (base + "/" + pattern) if base else pattern
            if "*" in pattern:
                if self.matches(candidate):
                    return
            elif self.exists(candidate):
                return
        self.unresolved.append((source, line_no, path))

    def scan(self, rel):
        full = os.path.join(self.root, rel)
        try:
            with open(full, "rb") as f:
                data = f.read()
        except OSError:
            return
        if b"\0" in data[:8192]:
            return  # binary
        text = data.decode("utf-8", errors="replace")
        if ALLOWLIST in text:
            # This script's own list: its paths are the hypothetical ones (kept as blank lines, so line numbers hold).
            text = text.replace(ALLOWLIST, "\n" * ALLOWLIST.count("\n"))
        markdown = rel.endswith(".md")
        fenced = False
        for line_no, line in enumerate(text.splitlines(), 1):
            if markdown:
                if FENCE.match(line):
                    fenced = not fenced
                if not fenced:
                    for m in LINK.finditer(re.sub(r"`[^`]*`", "", line)):
                        self.check_link(rel, line_no, m.group(1))
            for m in self.path_re.finditer(line):
                self.check_path(rel, line_no, m.group(1))

    def run(self):
        for rel in self.files:
            if not rel.startswith(GENERATED_FOLDERS):
                self.scan(rel)
        if self.unresolved:
            paths = sorted({p for _, _, p in self.unresolved})
            # A folder that is not there is ignored by a `name/` pattern only when asked as `name/`.
            asked = paths + [p + "/" for p in paths if not p.endswith("/")]
            ignored = set(subprocess.run(["git", "-C", self.root, "check-ignore", "--no-index", "--stdin"],
                                         input="\n".join(asked) + "\n", capture_output=True, text=True).stdout.split("\n"))
            for source, line_no, path in self.unresolved:
                if path not in ignored and path.rstrip("/") + "/" not in ignored:
                    self.problems.append((source, line_no, path, "no such file or folder"))
        return sorted(set(self.problems))


def check(root):
    checker = Checker(root)
    problems = checker.run()
    for source, line_no, target, why in problems:
        print("%s:%d: %s: %s" % (source, line_no, target, why))
    return checker, problems


def self_test():
    """Plants broken and sound references in a scratch repository and expects exactly the broken ones."""
    files = {
        ".gitignore": "Sources/Lib/build/\n",
        "README.md": "\n".join([
            "# Top",
            "[sound](docs/a.md) [sound anchor](docs/a.md#the-title-part-2) [folder](docs/)",
            "[broken link](docs/missing.md) [broken anchor](docs/a.md#nope) [outside](../elsewhere.md)",
            "A path in code voice: `Sources/Lib/Code.swift`; a broken one: `Sources/Lib/Gone.swift`.",
            "A glob `Sources/Lib/*.swift`, a placeholder `Schemas/<id>.bin`, a broken glob `Schemas/*.json`.",
            "Build output `Sources/Lib/build/lib.a` is not checked; `docs/example/hypothetical.md` is allowed.",
            "A URL https://example.com/docs/nothing.md and a [web link](https://example.com/x) are not checked.",
            "```sh", "[a link in a code block is not checked](#nowhere)", "```", ""]),
        "docs/a.md": "# The `title`: part 2\n\n[up](../README.md) [up broken](../READ.md) [self](#the-title-part-2)\n",
        "Sources/Lib/Code.swift": "// See docs/a.md and docs/gone.md; root + \"/docs/a.md\" and \"/docs/none.md\".\n",
        "Schemas/1.bin": "x\n",
        "Nested/Package.swift": "// a nested package\n",
        "Nested/README.md": "Its own `Sources/Nested/main.swift`, and a broken `Sources/Nested/gone.swift`.\n",
        "Nested/Sources/Nested/main.swift": "\n",
    }
    expected = {
        ("README.md", 3, "docs/missing.md"), ("README.md", 3, "docs/a.md#nope"), ("README.md", 3, "../elsewhere.md"),
        ("README.md", 4, "Sources/Lib/Gone.swift"), ("README.md", 5, "Schemas/*.json"),
        ("docs/a.md", 3, "../READ.md"), ("Sources/Lib/Code.swift", 1, "docs/gone.md"),
        ("Sources/Lib/Code.swift", 1, "docs/none.md"), ("Nested/README.md", 1, "Sources/Nested/gone.swift"),
    }
    with tempfile.TemporaryDirectory() as root:
        for rel, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(root, rel)) or root, exist_ok=True)
            with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
                f.write(text)
        os.makedirs(os.path.join(root, "Sources/Lib/build"))
        with open(os.path.join(root, "Sources/Lib/build/lib.a"), "w") as f:
            f.write("x")
        subprocess.run(["git", "init", "-q", root], check=True)
        found = {(s, n, t) for s, n, t, _ in Checker(root, "docs/example/hypothetical.md  # an example").run()}
    if found != expected:
        print("check_links self-test failed:\n  missed: %s\n  unexpected: %s" % (
            sorted(expected - found), sorted(found - expected)), file=sys.stderr)
        return 1
    print("check_links self-test: all %d planted broken references found, no sound one reported" % len(expected))
    return 0


def main(argv):
    if "--self-test" in argv:
        return self_test()
    root = git(os.path.dirname(os.path.abspath(__file__)), "rev-parse", "--show-toplevel").strip()
    checker, problems = check(root)
    if problems:
        print("%d broken links or repository paths (allow-list deliberately hypothetical ones in ALLOWLIST of %s)"
              % (len(problems), os.path.relpath(__file__, root)), file=sys.stderr)
        return 1
    print("%d markdown links and %d repository paths in %d files: none broken"
          % (checker.counts["links"], checker.counts["paths"], len(checker.files)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
