#!/usr/bin/env python3
"""Fails unless the Swift, Python, Java and JavaScript implementations of the REST form agree on mutated documents.

The vectors pin what the REST form's specification (docs/spec/rest.md) says
case by case; this check looks between the cases. It mutates the documents of
the REST import vectors (Vectors/rest) at random with a fixed seed (keys
dropped, added, re-cased, values replaced by other types and out-of-range
numbers, array entries dropped or repeated), sends each to the four testees
over the testee protocol (docs/spec/testee-protocol.md) as `rest_to_payload`
and as `validate_rest` (under the sdk-guide and current profiles in turn), and,
when it imports, its payload back as `payload_to_rest`, and compares the
answers: the same payload or REST text, or the same failure code and path, or
the same findings in any order.

    .build/python-testee/bin/python scripts/differential/rest_agreement.py IMCODEC [--documents N] [--seed S]

IMCODEC is the imcodec binary (its `testee` subcommand is the Swift testee).
Runs in the Python testee's environment (it needs protobuf for the protocol's
messages); the Java testee must be built (`testees/java/testee --build`), and
the JavaScript testee needs Node.
"""

import argparse
import glob
import json
import os
import random
import struct
import subprocess
import sys

sys.dont_write_bytecode = True  # keep scripts/ free of __pycache__
ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "testees", "python", "generated"))
from imcodec.testee.v1 import testee_pb2 as tp  # noqa: E402

KINDS = {"message": 1, "batch": 2}
ODD_VALUES = [None, 0, -1, 1.5, 2**31, 4294967296, 1e3, "", "TIMTextElem", True, [], {}]


class Testee:
    def __init__(self, command):
        self.process = subprocess.Popen(command, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def ask(self, request):
        body = request.SerializeToString()
        self.process.stdin.write(struct.pack("<I", len(body)) + body)
        self.process.stdin.flush()
        (length,) = struct.unpack("<I", self.process.stdout.read(4))
        response = tp.Response()
        response.ParseFromString(self.process.stdout.read(length))
        return response

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=30)


def answer(response):
    if response.HasField("findings"):
        return ("findings", tuple(sorted((f.code, f.path, f.severity, f.limit, f.actual)
                                         for f in response.findings.findings)))
    if response.HasField("failure"):
        return ("failure", response.failure.code, response.failure.path)
    if response.runtime_error or response.skipped:
        return ("no answer", response.runtime_error or response.skipped)
    return ("answer", response.payload.hex(), response.rest)


def mutate(value, rng):
    if isinstance(value, dict) and value:
        key = rng.choice(list(value))
        roll = rng.random()
        if roll < 0.2:
            del value[key]
        elif roll < 0.35:
            value[key + rng.choice(["", "x"])] = rng.choice(ODD_VALUES)
        elif roll < 0.5:
            value[key.lower()] = value.pop(key)
        elif roll < 0.7:
            value[key] = rng.choice(ODD_VALUES + [[value[key]]])
        else:
            mutate(value[key], rng)
    elif isinstance(value, list) and value:
        index = rng.randrange(len(value))
        roll = rng.random()
        if roll < 0.3:
            value.pop(index)
        elif roll < 0.6:
            value.append(value[index])
        else:
            mutate(value[index], rng)
    return value


def documents():
    found = []
    for path in sorted(glob.glob(os.path.join(ROOT, "Vectors", "rest", "*.json"))):
        with open(path, encoding="utf-8") as f:
            for case in json.load(f)["cases"]:
                if case["operation"] == "rest-import" and "rest" in case["input"]:
                    found.append((KINDS[case["kind"]], case["input"]["rest"]))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("imcodec", help="the imcodec binary")
    parser.add_argument("--documents", type=int, default=300, help="how many mutated documents (default 300)")
    parser.add_argument("--seed", type=int, default=41, help="the random seed (default 41)")
    arguments = parser.parse_args()
    rng = random.Random(arguments.seed)
    testees = {"swift": Testee([os.path.abspath(arguments.imcodec), "testee"]),
               "python": Testee([os.path.join(ROOT, "testees", "python", "testee")]),
               "java": Testee([os.path.join(ROOT, "testees", "java", "testee")]),
               "js": Testee([os.path.join(ROOT, "testees", "js", "testee")])}
    inputs = documents()
    differences, imported = [], 0
    for number in range(arguments.documents):
        kind, document = rng.choice(inputs)
        value = json.loads(json.dumps(document))
        for _ in range(rng.randint(1, 3)):
            value = mutate(value, rng)
        text = json.dumps(value, ensure_ascii=rng.random() < 0.2, separators=(",", ":"))
        request = tp.Request()
        request.rest_to_payload.kind = kind
        request.rest_to_payload.rest = text
        answers = {name: answer(testee.ask(request)) for name, testee in testees.items()}
        if len(set(answers.values())) > 1:
            differences.append(("rest_to_payload", text, answers))
            continue
        check = tp.Request()
        check.validate_rest.rest = text
        check.validate_rest.profile = ("sdk-guide", "current")[number % 2]
        found = {name: answer(testee.ask(check)) for name, testee in testees.items()}
        if len(set(found.values())) > 1:
            differences.append(("validate_rest", text, found))
        if answers["swift"][0] != "answer":
            continue
        imported += 1
        request = tp.Request()
        request.payload_to_rest.kind = kind
        request.payload_to_rest.payload = bytes.fromhex(answers["swift"][1])
        answers = {name: answer(testee.ask(request)) for name, testee in testees.items()}
        if len(set(answers.values())) > 1:
            differences.append(("payload_to_rest", text, answers))
    for testee in testees.values():
        testee.close()
    for operation, text, answers in differences:
        print(f"{operation} of {text[:400]}", file=sys.stderr)
        for name, got in answers.items():
            print(f"  {name}: {got}", file=sys.stderr)
    if differences:
        sys.exit(f"the REST implementations disagree on {len(differences)} of {arguments.documents} documents")
    print(f"REST agreement: Swift, Python, Java and JavaScript answer {arguments.documents} mutated documents alike "
          f"({imported} import, and export back alike; seed {arguments.seed})")


if __name__ == "__main__":
    main()
