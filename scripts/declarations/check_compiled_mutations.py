#!/usr/bin/env python3
"""Shows that the Swift library's compiled visits execute the declarations of Schemas/, as
scripts/declarations/check_rule_mutations.py shows it for every engine reading a table.

The library validates with visits generated from the rule table
(Sources/IMCodecValidation/Generated/ValidationRun+Compiled.swift, by
scripts/codegen/generate_swift_compiled.py); check_rule_mutations.py runs the
library's engine on tables compiled at run time, which one build serves. This
check takes each of check_rule_mutations.py's mutations in turn, regenerates
every Swift file made from the declarations (the limits, finding codes, rule
table and compiled visits) from the changed copy of Schemas/ into a copy of
the package, rebuilds the `imcodec` CLI there and runs the validate vectors
through the library (`imcodec conformance --filter validate.`). It fails
unless the unchanged copy passes every case and each mutation makes at least
one case fail.

On a 2-core machine the first build takes about a minute and each
mutation's rebuild and run 10 to 35 seconds, about 3.5 minutes in all, so
this check is not part of CI (`.ci/run` runs check_generated.py, which
proves the committed visits are what Schemas/ makes, and
CompiledValidationTests, which proves the visits and the table-reading
engine give the same findings).

    python3 scripts/declarations/check_compiled_mutations.py             every mutation
    python3 scripts/declarations/check_compiled_mutations.py --only 0 3  some of them (by index, as --list numbers them)
    python3 scripts/declarations/check_compiled_mutations.py --list      the mutations

Needs protoc and a Swift toolchain; the copy and its build live in a
temporary folder (KEEP=1 keeps it).
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # keep scripts/ free of __pycache__
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_rule_mutations  # noqa: E402

ROOT = check_rule_mutations.ROOT
CODEGEN = os.path.join(ROOT, "scripts", "codegen")
# What the library's validator is built from: the generators of its Swift files.
GENERATORS = ["generate_constraints.py", "generate_swift_rules.py", "generate_swift_compiled.py"]


def regenerate(schemas, package):
    for generator in GENERATORS:
        subprocess.run([sys.executable, os.path.join(CODEGEN, generator), package], check=True,
                       env={**os.environ, "IMCODEC_SCHEMAS": schemas}, stdout=subprocess.DEVNULL)


def failing_cases(package, report):
    """Builds the CLI in `package` and runs the validate vectors through the library; the ids of failing cases."""
    subprocess.run(["swift", "build", "--product", "imcodec", "--scratch-path", os.path.join(package, ".build")],
                   cwd=package, check=True, stdout=subprocess.DEVNULL)
    binary = os.path.join(package, ".build", "debug", "imcodec")
    subprocess.run([binary, "conformance", "--vectors", os.path.join(ROOT, "Vectors"), "--filter", "validate.",
                    "--json", report], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(report, encoding="utf-8") as f:
        status = {c["id"]: c["status"] for c in json.load(f)["cases"]}
    return [c["id"] for c in check_rule_mutations.vectors() if status.get(c["id"]) != "passed"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--list", action="store_true", help="print the mutations and exit")
    parser.add_argument("--only", type=int, nargs="+", help="run only these mutations (indices)")
    arguments = parser.parse_args()
    mutations = check_rule_mutations.MUTATIONS
    if arguments.list:
        for index, mutation in enumerate(mutations):
            print(index, mutation[0])
        return
    indices = arguments.only if arguments.only is not None else range(len(mutations))
    tmp = tempfile.mkdtemp(prefix="imcodec-compiled-mutations-")
    try:
        package = os.path.join(tmp, "package")
        # The repository's files as git sees them (tracked, and new files not ignored): no build output.
        files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, check=True,
                               capture_output=True).stdout.decode().split("\0")
        for name in filter(None, files):
            source = os.path.join(ROOT, name)
            if os.path.isfile(source):
                os.makedirs(os.path.dirname(os.path.join(package, name)), exist_ok=True)
                shutil.copy2(source, os.path.join(package, name))
        schemas = os.path.join(tmp, "Schemas")
        shutil.copytree(os.path.join(ROOT, "Schemas"), schemas)
        problems = []
        started = time.monotonic()
        failed = failing_cases(package, os.path.join(tmp, "unchanged.json"))
        print(f"unchanged: {len(failed)} of {len(check_rule_mutations.vectors())} validate cases fail "
              f"({time.monotonic() - started:.0f} s)", flush=True)
        if failed:
            problems.append(f"the unchanged declarations fail {len(failed)} cases ({', '.join(failed[:3])}, ...)")
        for index in indices:
            name = mutations[index][0]
            started = time.monotonic()
            with check_rule_mutations.mutated(schemas, index, problems) as applied:
                if not applied:
                    continue
                regenerate(schemas, package)
                failed = failing_cases(package, os.path.join(tmp, f"mutation-{index}.json"))
            print(f"{name}: {len(failed)} cases fail ({', '.join(failed[:2])}, ...; "
                  f"{time.monotonic() - started:.0f} s)", flush=True)
            if not failed:
                problems.append(f"{name}: no case fails, so the compiled visits do not execute this declaration")
        regenerate(schemas, package)
        if problems:
            print("\n".join(problems), file=sys.stderr)
            sys.exit(1)
        print(f"every mutation fails validate cases in the library's compiled visits ({len(indices)} mutations)")
    finally:
        if os.environ.get("KEEP"):
            print("kept", tmp, file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
