#!/usr/bin/env python3
"""Writes the libFuzzer dictionaries in FuzzTesting/ from the schema.

FuzzPayload.dict: every field tag of Schemas/imcodec/v1/*.proto (read by
scripts/schema.py) as its varint bytes. FuzzJSON.dict: every JSON field name, enum value name and the
JSON punctuation. FuzzFrame.dict and FuzzStream.dict: frame header bytes
(version, flag bytes for every kind, compression and dictionary bit, and
every shipped dictionary id).
FuzzREST.dict: every REST key and MsgType Sources/IMCodecREST/IMCodecREST.docc/REST.md names, and JSON
punctuation. FuzzReference.dict: the field tags and the frame header starts.
"""
import os
import re
import sys

sys.dont_write_bytecode = True  # keep scripts/ free of __pycache__

from schema import Schema, varint  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
WIRE = {"double": 1, "string": 2, "bytes": 2, "bool": 0, "int32": 0, "uint32": 0, "int64": 0, "uint64": 0}


def quoted(data):
    return '"' + "".join("\\x%02X" % b for b in data) + '"'


def main():
    model = Schema.of_package()
    tags, names, values = set(), set(), set()
    for fields in model.messages.values():
        for field in fields:
            wire = 0 if field.type in model.enums else WIRE.get(field.type, 2)
            tags.add(tuple(varint(field.number << 3 | wire)))
            names.add(field.json_name)
            names.add(field.name)
    for enum in model.enums.values():
        values.update(enum)
    out = os.path.join(ROOT, "FuzzTesting")
    with open(os.path.join(out, "FuzzPayload.dict"), "w") as f:
        f.write("# Field tags of Schemas/imcodec/v1/*.proto (scripts/make_fuzz_dicts.py).\n")
        for tag in sorted(tags):
            f.write(quoted(bytes(tag)) + "\n")
    with open(os.path.join(out, "FuzzJSON.dict"), "w") as f:
        f.write("# JSON names of Schemas/imcodec/v1/*.proto (scripts/make_fuzz_dicts.py).\n")
        for name in sorted(names | values):
            f.write('"\\"%s\\""\n' % name)
        for token in ["{", "}", "[", "]", ":", ",", "null", "true", "false", "\\\"NaN\\\"", "-0", "1e308",
                      "\\\\u0000", "\\\\ud83d\\\\ude00"]:
            f.write('"%s"\n' % token)
    with open(os.path.join(ROOT, "Sources/IMCodecREST/IMCodecREST.docc/REST.md")) as f:
        rest = f.read()
    # REST keys and MsgTypes: the capitalised names Sources/IMCodecREST/IMCodecREST.docc/REST.md quotes.
    rest_names = set(re.findall(r"`([A-Z][A-Za-z_]*)`", rest))
    rest_names.update(re.findall(r"`([A-Z][A-Za-z_]*)` →", rest))
    with open(os.path.join(out, "FuzzREST.dict"), "w") as f:
        f.write("# REST keys and MsgTypes named in Sources/IMCodecREST/IMCodecREST.docc/REST.md (scripts/make_fuzz_dicts.py).\n")
        for name in sorted(rest_names):
            f.write('"\\"%s\\""\n' % name)
        for token in ["{", "}", "[", "]", ":", ",", "null", "true", "false", "-0", "4294967295", "4294967296",
                      "1e3", "\\\\u0000"]:
            f.write('"%s"\n' % token)
    dictionary_ids = sorted(int(name[:-4]) for name in os.listdir(os.path.join(ROOT, "Schemas/dictionaries"))
                            if name.endswith(".bin"))
    header = []
    for kind in (1, 2, 3):
        for compression in (0, 1, 2):
            for dictionary in ([None] + dictionary_ids if compression else [None]):
                flags = kind | compression << 2 | (0 if dictionary is None else 0x10)
                header.append(bytes([1, flags] + ([] if dictionary is None else list(varint(dictionary)))))
    for name in ("FuzzFrame.dict", "FuzzStream.dict"):
        with open(os.path.join(out, name), "w") as f:
            f.write("# Frame header starts: version, flags, dictionary id (scripts/make_fuzz_dicts.py).\n")
            for start in header:
                f.write(quoted(start) + "\n")
            f.write(quoted(bytes([0xFF, 0xFF, 0xFF, 0xFF, 0x0F])) + "\n")
    with open(os.path.join(out, "FuzzReference.dict"), "w") as f:
        f.write("# Field tags and frame header starts (scripts/make_fuzz_dicts.py).\n")
        for tag in sorted(tags):
            f.write(quoted(bytes(tag)) + "\n")
        for start in header:
            f.write(quoted(start) + "\n")


if __name__ == "__main__":
    main()
