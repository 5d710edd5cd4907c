#!/usr/bin/env python3
"""Writes the libFuzzer dictionaries in FuzzTesting/ from the schema.

    python3 scripts/fuzz/make_fuzz_dicts.py [OUTPUT_ROOT]

OUTPUT_ROOT (default: the repository) is where FuzzTesting/ starts;
scripts/codegen/regenerate.py runs it with the rest of the generated files.

FuzzPayload.dict: every field tag of Schemas/imcodec/v1/*.proto (read by
scripts/lib/schema.py) as its varint bytes. FuzzJSON.dict: every JSON field name, enum value name and the
JSON punctuation. FuzzFrame.dict and FuzzStream.dict: frame header bytes
(version, flag bytes for every kind, compression and dictionary bit, and
every shipped dictionary id).
FuzzREST.dict: every REST key and MsgType of the REST form's declaration
(Schemas/imcodec/rest/v1/rest.json, read by scripts/lib/rest_form.py), and JSON
punctuation. FuzzReference.dict: the field tags and the frame header starts.
FuzzValidate.dict: the selector bytes of its first byte (kind and form), the
field tags, the JSON names, and every string a declared limit names (group
types, platforms, prefixes) as JSON strings and bare, with the strings the
rules compare against (scripts/lib/constraints.py reads the declarations).
"""
import os
import re
import sys

sys.dont_write_bytecode = True  # keep scripts/ free of __pycache__
# scripts/lib: the scripts' shared modules.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))
from schema import ROOT, Schema, varint  # noqa: E402
import constraints  # noqa: E402
import rest_form  # noqa: E402

# Strings the rules compare with beyond the declared limits: the @-all user ID
# (M20) and the handler of an application to join (G22).
RULE_STRINGS = ["__kImSDK_MesssageAtALL__", "0"]

WIRE = {"double": 1, "string": 2, "bytes": 2, "bool": 0, "int32": 0, "uint32": 0, "int64": 0, "uint64": 0}


def quoted(data):
    return '"' + "".join("\\x%02X" % b for b in data) + '"'


def main(root=ROOT):
    """Writes the dictionaries into FuzzTesting/ under `root` (the repository unless told)."""
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
    out = os.path.join(root, "FuzzTesting")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "FuzzPayload.dict"), "w") as f:
        f.write("# Field tags of Schemas/imcodec/v1/*.proto (scripts/fuzz/make_fuzz_dicts.py).\n")
        for tag in sorted(tags):
            f.write(quoted(bytes(tag)) + "\n")
    with open(os.path.join(out, "FuzzJSON.dict"), "w") as f:
        f.write("# JSON names of Schemas/imcodec/v1/*.proto (scripts/fuzz/make_fuzz_dicts.py).\n")
        for name in sorted(names | values):
            f.write('"\\"%s\\""\n' % name)
        for token in ["{", "}", "[", "]", ":", ",", "null", "true", "false", "\\\"NaN\\\"", "-0", "1e308",
                      "\\\\u0000", "\\\\ud83d\\\\ude00"]:
            f.write('"%s"\n' % token)
    # REST keys and MsgTypes: every name the REST form's declaration holds.
    rest = rest_form.load(model=model)
    rest_names = set(rest.all_keys()) | {e.msg_type for e in rest.elems}
    with open(os.path.join(out, "FuzzREST.dict"), "w") as f:
        f.write("# REST keys and MsgTypes of Schemas/imcodec/rest/v1/rest.json (scripts/fuzz/make_fuzz_dicts.py).\n")
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
            f.write("# Frame header starts: version, flags, dictionary id (scripts/fuzz/make_fuzz_dicts.py).\n")
            for start in header:
                f.write(quoted(start) + "\n")
            f.write(quoted(bytes([0xFF, 0xFF, 0xFF, 0xFF, 0x0F])) + "\n")
    declared = set(RULE_STRINGS)
    for limit in constraints.load().limits:
        for profile in constraints.PROFILES:
            value = limit.values[profile]
            declared.update(value.strings)
            declared.update(key for key, _ in value.entries)
            if value.text:
                declared.add(value.text)
    with open(os.path.join(out, "FuzzValidate.dict"), "w") as f:
        f.write("# Selector bytes, field tags, JSON names and declared strings (scripts/fuzz/make_fuzz_dicts.py).\n")
        for selector in range(8):
            f.write(quoted(bytes([selector])) + "\n")
        for tag in sorted(tags):
            f.write(quoted(bytes(tag)) + "\n")
        for name in sorted(names | values):
            f.write('"\\"%s\\""\n' % name)
        for text in sorted(declared):
            f.write(quoted(text.encode()) + "\n")
            f.write(quoted(b'"' + text.encode() + b'"') + "\n")
    with open(os.path.join(out, "FuzzReference.dict"), "w") as f:
        f.write("# Field tags and frame header starts (scripts/fuzz/make_fuzz_dicts.py).\n")
        for tag in sorted(tags):
            f.write(quoted(bytes(tag)) + "\n")
        for start in header:
            f.write(quoted(start) + "\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ROOT)
