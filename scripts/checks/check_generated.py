#!/usr/bin/env python3
"""Proves the committed generated files are what Schemas/ makes, the way
swift-protobuf checks its plugin against Reference/: regenerates everything
into a temporary folder with the one recipe (scripts/codegen/regenerate.py
--out DIR --skip-oracle) and compares it with the repository, file by file.

    python3 scripts/checks/check_generated.py           check
    python3 scripts/checks/check_generated.py --plant   prove that the check fails: in a copy of the
                                                        repository, a one-byte edit of each generated
                                                        file, schema file, declaration and dictionary, one at a time

It fails when
- a generated file differs from its regeneration, or is missing, or a folder
  output holds a file the recipe does not write (scripts/lib/generated.py
  lists the outputs);
- the recipe writes a file that no output of scripts/lib/generated.py names;
- the swift-protobuf oracle, which needs protoc-gen-swift and so is not
  regenerated here, does not match the digests regenerate.py wrote for it
  (scripts/codegen/oracle.sha256), or a schema file changed since;
- .gitattributes does not mark every generated file `linguist-generated`, or
  marks something that is not an output.
"""

import argparse
import concurrent.futures
import difflib
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # keep scripts/ free of __pycache__
HERE = os.path.dirname(os.path.abspath(__file__))
# scripts/lib: the scripts' shared modules.
sys.path.insert(0, os.path.join(HERE, os.pardir, "lib"))
import generated  # noqa: E402
from schema import ROOT  # noqa: E402

REGENERATE = os.path.join(ROOT, "scripts", "codegen", "regenerate.py")
IGNORED = ("__pycache__",)


def files_under(root, path):
    """The files of an output (a folder's files, or the file itself), relative to `root`."""
    full = os.path.join(root, path)
    if os.path.isfile(full):
        return {path}
    found = set()
    for folder, folders, names in os.walk(full):
        folders[:] = [f for f in folders if f not in IGNORED]
        found.update(os.path.relpath(os.path.join(folder, n), root) for n in names)
    return found


def compare_outputs(fresh):
    """Problems between the regeneration in `fresh` and the repository."""
    problems = []
    for output in generated.OUTPUTS:
        if output.oracle:
            continue
        made, committed = files_under(fresh, output.path), files_under(ROOT, output.path)
        for path in sorted(made - committed):
            problems.append(f"{path}: missing (regenerate.py writes it)")
        for path in sorted(committed - made):
            problems.append(f"{path}: regenerate.py does not write it (a stale file in a generated folder)")
        for path in sorted(made & committed):
            with open(os.path.join(fresh, path), "rb") as a, open(os.path.join(ROOT, path), "rb") as b:
                new, old = a.read(), b.read()
            if new != old:
                diff = difflib.unified_diff(old.decode(errors="replace").splitlines(),
                                            new.decode(errors="replace").splitlines(),
                                            "committed/" + path, "regenerated/" + path, lineterm="", n=1)
                problems.append(f"{path}: differs from its regeneration\n" + "\n".join(list(diff)[:12]))
    listed = [o.path for o in generated.OUTPUTS]
    for path in sorted(files_under(fresh, ".")):
        path = os.path.normpath(path)
        if not any(path == p or path.startswith(p + "/") for p in listed):
            problems.append(f"{path}: regenerate.py writes it, but scripts/lib/generated.py lists no such output")
    return problems


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def compare_oracle():
    """Problems between the oracle's manifest, its files and the schema files."""
    manifest = os.path.join(ROOT, generated.ORACLE_MANIFEST)
    if not os.path.isfile(manifest):
        return [f"{generated.ORACLE_MANIFEST}: missing; run scripts/codegen/regenerate.py"], 0
    folder = next(o.path for o in generated.OUTPUTS if o.oracle and o.kind == "folder")
    recorded = {}
    with open(manifest) as f:
        for line in f:
            digest, path = line.rstrip("\n").split("  ", 1)
            recorded[path] = digest
    inputs = {"Schemas/" + p for p in (*generated.SCHEMAS, generated.OPTIONS_SCHEMA)}
    problems = []
    for path in sorted(inputs | {p for p in recorded if not p.startswith(folder + "/")}):
        if path not in inputs:
            problems.append(f"{generated.ORACLE_MANIFEST} names {path}, which is not a schema file")
        elif path not in recorded:
            problems.append(f"{path}: the oracle's manifest does not record it; run scripts/codegen/regenerate.py")
        elif sha256(os.path.join(ROOT, path)) != recorded[path]:
            problems.append(f"{path}: changed since the oracle was generated; run scripts/codegen/regenerate.py "
                            "(it builds protoc-gen-swift)")
    files = files_under(ROOT, folder)
    for path in sorted(files | {p for p in recorded if p.startswith(folder + "/")}):
        if path not in recorded:
            problems.append(f"{path}: not in the oracle's manifest ({generated.ORACLE_MANIFEST})")
        elif path not in files:
            problems.append(f"{path}: missing (the oracle's manifest records it)")
        elif sha256(os.path.join(ROOT, path)) != recorded[path]:
            problems.append(f"{path}: differs from what regenerate.py wrote ({generated.ORACLE_MANIFEST})")
    return problems, len(files)


def compare_attributes():
    """Problems between .gitattributes and the outputs: every generated file marked, nothing else."""
    marked = [o for o in generated.OUTPUTS if o.kind != "section"]
    paths = sorted(p for o in marked for p in files_under(ROOT, o.path))
    result = subprocess.run(["git", "check-attr", "linguist-generated", "--stdin"], cwd=ROOT, check=True,
                            input="\n".join(paths) + "\n", capture_output=True, text=True).stdout
    problems = [f"{line.split(': ')[0]}: not marked linguist-generated in .gitattributes"
                for line in result.splitlines() if not line.endswith(": true") and not line.endswith(": set")]
    listed = {o.path for o in marked}
    try:
        with open(os.path.join(ROOT, ".gitattributes")) as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        lines = []
    for line in lines:
        words = line.split()
        if words and not line.startswith("#") and "linguist-generated" in words[1:]:
            pattern = words[0].lstrip("/").removesuffix("/**")
            if pattern not in listed:
                problems.append(f".gitattributes marks {words[0]} generated, which is no output of "
                                "scripts/lib/generated.py")
    return problems, len(paths)


def check():
    with tempfile.TemporaryDirectory() as fresh:
        run = subprocess.run([sys.executable, REGENERATE, "--out", fresh, "--skip-oracle"],
                             capture_output=True, text=True)
        if run.returncode != 0:
            print(run.stdout + run.stderr, file=sys.stderr)
            print("regenerate.py failed", file=sys.stderr)
            return 1
        problems = compare_outputs(fresh)
        regenerated = len(files_under(fresh, "."))
    oracle_problems, oracle_files = compare_oracle()
    attribute_problems, marked = compare_attributes()
    problems += oracle_problems + attribute_problems
    if problems:
        print("\n".join(problems), file=sys.stderr)
        print(f"generated files differ from Schemas/ ({len(problems)} problems): run "
              "python3 scripts/codegen/regenerate.py", file=sys.stderr)
        return 1
    print(f"generated code matches Schemas/: {regenerated} files regenerated and identical, "
          f"{oracle_files} oracle files match {generated.ORACLE_MANIFEST}, "
          f"{marked} generated files marked linguist-generated")
    return 0


def flip(path, offset):
    """Flips the lowest bit of the byte at `offset`; returns the original bytes."""
    with open(path, "rb") as f:
        original = f.read()
    edited = bytearray(original)
    edited[offset] ^= 0x01
    with open(path, "wb") as f:
        f.write(bytes(edited))
    return original


def plant_offset(path, rel):
    """Where to edit: a letter of the first comment of a schema file (so protoc still reads it), a byte inside
    the generated table of a section, the middle byte of anything else."""
    with open(path, "rb") as f:
        data = f.read()
    if rel.endswith(".proto"):
        start = data.index(b"//") + 3
        return next(i for i in range(start, len(data)) if chr(data[i]).isalpha())
    section = next((o for o in generated.OUTPUTS if o.path == rel and o.kind == "section"), None)
    if section:
        start = data.index(b"-->", data.index(b"<!-- generated")) + 3
        end = data.index(b"<!-- end of generated", start)
        return (start + end) // 2
    return len(data) // 2


def copy_repository(copy):
    """Copies the repository's tracked and untracked-but-not-ignored files to `copy`, a git repository of its own."""
    tracked = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                             check=True, capture_output=True).stdout.decode().split("\0")
    for rel in filter(None, tracked):
        if os.path.isfile(os.path.join(ROOT, rel)):
            os.makedirs(os.path.dirname(os.path.join(copy, rel)), exist_ok=True)
            shutil.copy2(os.path.join(ROOT, rel), os.path.join(copy, rel))
    subprocess.run(["git", "init", "-q", copy], check=True)


def plant_each(copy, rels, outputs):
    """Plants one edit at a time in `copy` and runs its check; returns the edits caught and those missed."""
    check_copy = [sys.executable, os.path.join(copy, "scripts", "checks", "check_generated.py")]
    caught, missed = 0, []
    for rel in rels:
        path = os.path.join(copy, rel)
        original = flip(path, plant_offset(path, rel))
        try:
            run = subprocess.run(check_copy, capture_output=True, text=True)
        finally:
            with open(path, "wb") as f:
                f.write(original)
        # An edited output must be named; an edited input shows as the outputs it changes (or, for a schema
        # file, as the oracle's manifest).
        named = rel in run.stderr or rel not in outputs
        if run.returncode != 0 and named:
            caught += 1
        else:
            missed.append(rel)
    return caught, missed


def plant():
    """Copies the repository, then plants one edit at a time and runs the copy's check, which must fail.

    The edits are shared among one copy per processor, each checked one edit at a time: on CI's two cores
    the 77 runs take half the time of one copy.
    """
    workers = max(1, min(os.cpu_count() or 1, 4))
    with tempfile.TemporaryDirectory() as tmp:
        copies = [os.path.join(tmp, f"repo{i}") for i in range(workers)]
        for copy in copies:
            copy_repository(copy)
        check_copy = [sys.executable, os.path.join(copies[0], "scripts", "checks", "check_generated.py")]
        baseline = subprocess.run(check_copy, capture_output=True, text=True)
        if baseline.returncode != 0:
            print(baseline.stdout + baseline.stderr, file=sys.stderr)
            print("plant: the unedited copy fails the check already", file=sys.stderr)
            return 1
        inputs = ["Schemas/" + p for p in (*generated.SCHEMAS, generated.OPTIONS_SCHEMA)]
        inputs += list(generated.DECLARATIONS)
        inputs += sorted(os.path.relpath(os.path.join(generated.DICTIONARIES, n), ".")
                         for n in os.listdir(os.path.join(ROOT, generated.DICTIONARIES)) if n.endswith(".bin"))
        outputs = sorted(p for o in generated.OUTPUTS for p in files_under(ROOT, o.path))
        edits = inputs + outputs
        with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(lambda i: plant_each(copies[i], edits[i::workers], outputs), range(workers)))
        caught = sum(c for c, _ in results)
        missed = sorted(m for _, ms in results for m in ms)
        if missed:
            print("plant: the check passed with a one-byte edit in:\n  " + "\n  ".join(missed), file=sys.stderr)
            return 1
        print(f"plant: {caught} one-byte edits, one at a time in {workers} copies ({len(inputs)} schema, declaration "
              f"and dictionary files, {len(outputs)} generated files): the check failed on every one")
        return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plant", action="store_true", help="prove the check fails on one-byte edits")
    return plant() if parser.parse_args().plant else check()


if __name__ == "__main__":
    sys.exit(main())
