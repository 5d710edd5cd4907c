#!/usr/bin/env python3
"""Builds a fuzzing seed corpus from the golden vectors.

usage: make_fuzz_corpus.py TARGET DIR
       make_fuzz_corpus.py --zip TARGET FILE.zip


Every vector input of the kind the target reads becomes one seed file:
payload hex for FuzzPayload, JSON text for FuzzJSON, frame hex for FuzzFrame,
the concatenated chunks (behind two chunk-size bytes) for FuzzStream, REST
MsgBody JSON text for FuzzREST, every payload (hex) and JSON input of every
kind behind the selector byte FuzzChecks.validationInput reads (kind 1 to 3,
plus 4 for JSON) for FuzzValidate, and all of the first five behind the
operation byte FuzzTesting/FuzzReference/FuzzReference.c reads for
FuzzReference. Seeds are
named by a hash of their content, so rerunning adds nothing twice.

With --zip the seeds and the target's saved inputs
(FuzzTesting/FailCases/TARGET) go into one zip archive, as OSS-Fuzz and
ClusterFuzzLite take a seed corpus ($OUT/TARGET_seed_corpus.zip); its
entries are in name order with a fixed date, so the same seeds make the
same archive.
"""
import hashlib
import json
import os
import sys
import zipfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def walk(value):
    """Yields every (key, value) pair of a JSON tree."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield key, item
            yield from walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from walk(item)


KINDS = {"message": 0, "batch": 1, "event": 2}


def reference_seeds(case):
    """FuzzReference's inputs: an operation byte, then what it reads."""
    kind = KINDS.get(case.get("kind") or "message", 0)
    payloads = list(seeds("FuzzPayload", case, any_kind=True))
    for payload in payloads:
        yield bytes([0, kind]) + payload
        # Framed and deflated at threshold 0, with the dictionary (level 6) and without (level 1);
        # with zstd at level 3 and dictionary 4, and at level 1 without one.
        yield bytes([2, kind, 1, 0, 0x16]) + payload
        yield bytes([2, kind, 1, 0, 0x01]) + payload
        yield bytes([2, kind, 2, 0, 0x43]) + payload
        yield bytes([2, kind, 2, 0, 0x01]) + payload
    for frame in seeds("FuzzFrame", case):
        yield bytes([1]) + frame
    for stream in seeds("FuzzStream", case):
        yield bytes([3]) + stream


def validate_seeds(case):
    """FuzzValidate's inputs: a selector byte (the kind, plus 4 for JSON), then the payload or its JSON."""
    kind = KINDS.get(case.get("kind") or "message", 0) + 1
    inputs, expected = case.get("input", {}), case.get("expected", {})
    for key, value in list(walk(inputs)) + [("payloadHex", expected.get("payloadHex"))]:
        if isinstance(value, str) and "payload" in key.lower() and key.lower().endswith("hex"):
            yield bytes([kind]) + bytes.fromhex(value)
    if isinstance(inputs.get("json"), (dict, list)):
        yield bytes([kind | 4]) + json.dumps(inputs["json"], ensure_ascii=False).encode()


def seeds(target, case, any_kind=False):
    if target == "FuzzReference":
        yield from reference_seeds(case)
        return
    if target == "FuzzValidate":
        yield from validate_seeds(case)
        return
    inputs = case.get("input", {})
    kind = case.get("kind") or "message"
    if any_kind:
        kind = "message"
    for key, value in walk(inputs):
        if not isinstance(value, str):
            continue
        lowered = key.lower()
        if target == "FuzzPayload" and "payload" in lowered and lowered.endswith("hex") and kind == "message":
            yield bytes.fromhex(value)
        elif target == "FuzzFrame" and "frame" in lowered and lowered.endswith("hex"):
            yield bytes.fromhex(value)
    expected = case.get("expected", {})
    if target == "FuzzPayload" and kind == "message" and isinstance(expected.get("payloadHex"), str):
        yield bytes.fromhex(expected["payloadHex"])
    if target == "FuzzJSON" and kind == "message" and isinstance(inputs.get("json"), (dict, list)):
        yield json.dumps(inputs["json"], ensure_ascii=False).encode()
    if target == "FuzzREST":
        if isinstance(inputs.get("restText"), str):
            yield inputs["restText"].encode()
        elif isinstance(inputs.get("rest"), (dict, list)):
            yield json.dumps(inputs["rest"], ensure_ascii=False).encode()
        if isinstance(expected.get("rest"), (dict, list)):
            yield json.dumps(expected["rest"], ensure_ascii=False, separators=(",", ":")).encode()
    if target == "FuzzStream":
        chunks = [bytes.fromhex(c) for key, value in walk(inputs) if key == "chunksHex"
                  for c in (value if isinstance(value, list) else [])]
        if chunks:
            yield bytes([len(chunks[0]) & 0x3F, 7]) + b"".join(chunks)
        frames = [bytes.fromhex(v) for key, v in walk(inputs) if isinstance(v, str) and key.lower() == "framehex"]
        for frame in frames:
            yield bytes([3, 17]) + frame + frame


def vector_seeds(target):
    """Every seed of the golden vectors for target, by its file name."""
    found = {}
    for folder, _, files in sorted(os.walk(os.path.join(ROOT, "Vectors"))):
        for name in sorted(files):
            if not name.endswith(".json"):
                continue
            with open(os.path.join(folder, name)) as f:
                document = json.load(f)
            for case in document.get("cases", []):
                for seed in seeds(target, case):
                    found.setdefault(hashlib.sha1(seed).hexdigest(), seed)
    return found


def write_zip(target, path):
    """The seeds and the saved fail cases of target, as one zip archive."""
    found = vector_seeds(target)
    saved = os.path.join(ROOT, "FuzzTesting", "FailCases", target)
    if os.path.isdir(saved):
        for name in sorted(os.listdir(saved)):
            if not name.startswith("."):
                with open(os.path.join(saved, name), "rb") as f:
                    found.setdefault(name, f.read())
    with zipfile.ZipFile(path + ".tmp", "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(found):
            archive.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), found[name])
    os.replace(path + ".tmp", path)
    print("%s: %d seeds in %s" % (target, len(found), path), file=sys.stderr)


def main():
    if sys.argv[1] == "--zip":
        write_zip(sys.argv[2], sys.argv[3])
        return
    target, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    count = 0
    for name, seed in vector_seeds(target).items():
        path = os.path.join(out, name)
        if not os.path.exists(path):
            with open(path, "wb") as f:
                f.write(seed)
            count += 1
    print("%s: %d new seeds in %s" % (target, count, out), file=sys.stderr)


if __name__ == "__main__":
    main()
