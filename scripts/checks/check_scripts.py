#!/usr/bin/env python3
"""Checks scripts/ against its index and rules (scripts/README.md):

- the index names every file of scripts/ (as `folder/file` in backticks), and
  every file it names exists;
- no folder holds more than 12 files;
- every file name is lowercase words joined by `_`, with an extension;
- no shell script holds Python: no heredoc fed to Python, no `python3 -c`
  program of more than one line;
- no vector writer imports another writer (make_vectors.py runs them all).

    python3 scripts/checks/check_scripts.py [SCRIPTS-DIR]
"""

import os
import re
import sys

SCRIPTS = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
MAX_FILES = 12
NAME = re.compile(r"^[a-z0-9]+(_[a-z0-9]+)*\.[a-z0-9]+$")
INDEXED = re.compile(r"`([a-z0-9_]+/[A-Za-z0-9_.]+)`")
PYTHON = r"(python3?|\$\{?python\}?|bin/python)"
HEREDOC = re.compile(PYTHON + r"\b[^#\n]*<<")
OPEN_C_PROGRAM = re.compile(PYTHON + r"\s+-c\s+(['\"])(?![^\n]*\2)")
WRITER_IMPORT = re.compile(r"^\s*(import|from)\s+(make_\w+)", re.M)


def files(root):
    """Every file under `root`, relative to it, without caches."""
    found = []
    for folder, folders, names in os.walk(root):
        folders[:] = sorted(f for f in folders if f != "__pycache__")
        found += [os.path.relpath(os.path.join(folder, n), root) for n in sorted(names)]
    return found


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else SCRIPTS
    problems = []
    every = [f for f in files(root) if f != "README.md"]
    folders = {f for f in os.listdir(root) if os.path.isdir(os.path.join(root, f)) and f != "__pycache__"}
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        indexed = {name for name in INDEXED.findall(f.read()) if name.split("/")[0] in folders}
    problems += [f"{f}: not in the index (scripts/README.md)" for f in every if f not in indexed]
    problems += [f"the index names {f}, which does not exist" for f in sorted(indexed - set(every))]

    by_folder = {}
    for f in files(root):
        by_folder.setdefault(os.path.dirname(f) or ".", []).append(f)
    problems += [f"{folder}/ holds {len(names)} files, more than {MAX_FILES}"
                 for folder, names in sorted(by_folder.items()) if len(names) > MAX_FILES]

    for f in every:
        name = os.path.basename(f)
        if not NAME.match(name):
            problems.append(f"{f}: not lowercase words joined by _ with an extension")
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as handle:
            text = handle.read()
        if name.endswith(".sh"):
            for number, line in enumerate(text.splitlines(), 1):
                if line.lstrip().startswith("#"):
                    continue
                if HEREDOC.search(line):
                    problems.append(f"{f}:{number}: Python fed from a heredoc; put it in a .py file beside the script")
                if OPEN_C_PROGRAM.search(line):
                    problems.append(f"{f}:{number}: a python -c program of more than one line; put it in a .py file")
        # make_vectors.py runs the writers; the writers import only common.py.
        if f.startswith("vectors/") and name.endswith(".py") and name != "make_vectors.py":
            problems += [f"{f}: imports the writer {m.group(2)}; shared code belongs in vectors/common.py"
                         for m in WRITER_IMPORT.finditer(text)]

    if problems:
        sys.exit("\n".join(problems))
    print(f"scripts/: {len(every)} files, every one in the index; {len(by_folder)} folders of at most "
          f"{max(len(n) for n in by_folder.values())} files; names by one rule; no Python in shell; "
          "no writer imports another")


if __name__ == "__main__":
    main()
