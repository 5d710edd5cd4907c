#!/usr/bin/env python3
"""Builds a fuzzing seed corpus from the golden vectors.

usage: make_fuzz_corpus.py TARGET DIR

Every vector input of the kind the target reads becomes one seed file:
payload hex for FuzzPayload, JSON text for FuzzJSON, frame hex for FuzzFrame,
the concatenated chunks (behind two chunk-size bytes) for FuzzStream, REST
MsgBody JSON text for FuzzREST, and all of these behind the operation byte
FuzzTesting/FuzzReference/FuzzReference.c reads for FuzzReference. Seeds are
named by a hash of their content, so rerunning adds nothing twice.
"""
import hashlib
import json
import os
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


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


def seeds(target, case, any_kind=False):
    if target == "FuzzReference":
        yield from reference_seeds(case)
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


def main():
    target, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    count = 0
    for folder, _, files in os.walk(os.path.join(ROOT, "Vectors")):
        for name in sorted(files):
            if not name.endswith(".json"):
                continue
            with open(os.path.join(folder, name)) as f:
                document = json.load(f)
            for case in document.get("cases", []):
                for seed in seeds(target, case):
                    path = os.path.join(out, hashlib.sha1(seed).hexdigest())
                    if not os.path.exists(path):
                        with open(path, "wb") as f:
                            f.write(seed)
                        count += 1
    print("%s: %d new seeds in %s" % (target, count, out), file=sys.stderr)


if __name__ == "__main__":
    main()
