#!/usr/bin/env python3
"""Fails unless `imcodec differential` finds, on its own, two differences of protobuf-java out of the box.

Both were first found by hand (docs/spec/testee-protocol.md, "Differential
runs"): protobuf-java's JsonFormat reads -0.0 as 0.0 (the default, so the
field is left out), and protobuf-java stops at 100 nested messages, which a
chain of 33 merger layers reaches (the message and 3 a layer), where the
library reads 100 layers. The Java testee raises
that recursion limit to the request's depth limit, unless it runs with
IMCODEC_JAVA_RECURSION_LIMITS=protobuf-java (testees/java/README.md); run
so, with no failure list, a seeded differential run of `json_to_payload` must
report both as disagreements: a minimal document holding a -0 that the
testee answers with other bytes, and a document of 33 merger layers or more
that the testee cannot read (the shrinker takes a longer chain down to the
first length refused).

    python3 scripts/differential/finds_known_differences.py IMCODEC [--count N] [--seed S]

IMCODEC is the imcodec binary; the Java testee must be built
(`testees/java/testee --build`).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

# protobuf-java's default recursion limit is 100 messages: the root message and 3 a merger layer
# (Elem, MergerElem, Message) reach it at 33 layers.
PROTOBUF_JAVA_LAYERS = (100 - 1) // 3


def found(cases):
    """The two differences among the minimal cases of a run: (negative zero, deepest refused chain)."""
    negative_zero = None
    deepest = 0
    for case in cases:
        comment = case.get("comment", "")
        text = case.get("input", {}).get("jsonText", "")
        if "json_to_payload payload payload" in comment and "-0" in text:
            negative_zero = text
        if "json_to_payload payload runtime-error" in comment:
            deepest = max(deepest, text.count('"merger"'))
    return negative_zero, deepest


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("imcodec", help="the imcodec binary")
    parser.add_argument("--count", type=int, default=3000, help="requests to send (default 3000)")
    parser.add_argument("--seed", type=int, default=1, help="the generator's seed (default 1)")
    args = parser.parse_args()
    environment = dict(os.environ, IMCODEC_JAVA_RECURSION_LIMITS="protobuf-java")
    with tempfile.TemporaryDirectory() as tmp:
        cases_file = os.path.join(tmp, "cases.json")
        run = subprocess.run(
            [args.imcodec, "differential", "--testee", "testees/java/testee", "--name", "java",
             "--operation", "json_to_payload", "--count", str(args.count), "--seed", str(args.seed),
             "--shrink-seconds", "3", "--cases", cases_file],
            cwd=ROOT, env=environment, capture_output=True, text=True)
        print(run.stdout[:600], end="" if run.stdout.endswith("\n") else "\n")
        if run.returncode != 1 or not os.path.exists(cases_file):
            sys.exit(f"finds_known_differences.py: the run should end with unlisted disagreements (status 1), "
                     f"not {run.returncode}:\n{run.stderr[-2000:]}")
        with open(cases_file, encoding="utf-8") as f:
            cases = json.load(f)["cases"]
    negative_zero, deepest = found(cases)
    problems = []
    if negative_zero is None:
        problems.append("no minimal document with -0 answered with other bytes")
    if deepest < PROTOBUF_JAVA_LAYERS:
        problems.append(f"no document of {PROTOBUF_JAVA_LAYERS} merger layers or more refused "
                        f"(deepest refused: {deepest})")
    if problems:
        sys.exit("finds_known_differences.py: " + "; ".join(problems))
    print(f"found: -0.0 read as 0.0 ({negative_zero[:80]}), and a chain of {deepest} merger layers refused "
          f"(protobuf-java's own limit is reached at {PROTOBUF_JAVA_LAYERS})")


if __name__ == "__main__":
    main()
