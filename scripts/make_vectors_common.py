"""Shared pieces of the golden-vector generators (scripts/make_*_vectors.py).

This module is a second, deliberately small implementation of the parts of the
format the vectors pin down, written from the documents rather than from the
Swift or C code:

- the schema by name (field numbers, types, oneofs, enum names), from
  scripts/schema.py, the scripts' one reader of Schemas/;
- a canonical proto3 encoder from the proto3 JSON form (docs/spec/payloads.md,
  "Canonical encoding"): fields in number order, defaults omitted except a set
  oneof member, messages written when present, negative int32 as 10-byte
  varints, doubles compared with their bit pattern (so -0.0 is written);
- the canonical proto3 JSON printer: lowerCamelCase names, defaults omitted,
  64-bit integers as strings, enum names (numbers for unnamed values), bytes
  as padded standard base64, NaN and infinities as strings;
- raw wire helpers for hand-built (often malformed) payloads;
- the vector file writer.

It uses only the Python standard library and protoc, so anyone can
regenerate the vectors with `python3 scripts/make_vectors.py`.
"""

import base64
import json
import math
import os
import struct

from schema import Schema, varint

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# IMCODEC_VECTORS_DIR redirects the output, so a test can regenerate the files
# elsewhere and compare them with the committed ones.
VECTORS = os.environ.get("IMCODEC_VECTORS_DIR") or os.path.join(ROOT, "Vectors")
FORMAT = "imcodec-vectors"
FORMAT_VERSION = 1

# ---------------------------------------------------------------------------
# Schema
# ---------------------------------------------------------------------------

SCALARS = {"string", "bytes", "int32", "int64", "uint32", "uint64", "bool", "double"}

# The messages and enums of imcodec.v1 by name, read through protoc by the
# scripts' one reader of the schema (scripts/schema.py).
SCHEMA = Schema.of_package()

KIND_TYPES = {"message": "Message", "batch": "MessageBatch", "event": "Event"}

# ---------------------------------------------------------------------------
# Wire helpers
# ---------------------------------------------------------------------------

VARINT, FIXED64, LEN, START_GROUP, END_GROUP, FIXED32 = 0, 1, 2, 3, 4, 5


def tag(number, wire_type):
    return varint((number << 3) | wire_type)


def ld(number, body):
    """A length-delimited field."""
    return tag(number, LEN) + varint(len(body)) + body


def vf(number, value):
    """A varint field."""
    return tag(number, VARINT) + varint(value)


def f64(number, value):
    return tag(number, FIXED64) + struct.pack("<d", value)


def hexs(data):
    return bytes(data).hex()


# ---------------------------------------------------------------------------
# proto3 JSON -> canonical payload
# ---------------------------------------------------------------------------


def _bytes_value(text):
    text = text.replace("-", "+").replace("_", "/")
    return base64.b64decode(text + "=" * (-len(text) % 4), validate=True)


def _double_value(value):
    if isinstance(value, str):
        return {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}.get(value, None) or float(value)
    return float(value)


def _enum_number(enum, value):
    if isinstance(value, str):
        return SCHEMA.enums[enum][value]
    return int(value)


def _scalar_bytes(field, value, force):
    """The encoding of one scalar value, or b"" when it is a default left out."""
    t = field.type
    if t == "string":
        data = value.encode("utf-8")
        return ld(field.number, data) if (data or force) else b""
    if t == "bytes":
        data = _bytes_value(value)
        return ld(field.number, data) if (data or force) else b""
    if t in ("int32", "int64", "uint32", "uint64"):
        n = int(value)
        if t == "uint32":
            assert 0 <= n < 1 << 32
        if t == "int32":
            assert -(1 << 31) <= n < 1 << 31
        return vf(field.number, n) if (n or force) else b""
    if t == "bool":
        assert isinstance(value, bool)
        return vf(field.number, 1 if value else 0) if (value or force) else b""
    if t == "double":
        bits = struct.pack("<d", _double_value(value))
        return tag(field.number, FIXED64) + bits if (bits != bytes(8) or force) else b""
    if t in SCHEMA.enums:
        n = _enum_number(t, value)
        return vf(field.number, n) if (n or force) else b""
    raise ValueError(f"not a scalar: {t}")


def encode(message, obj):
    """The canonical payload of `obj`, the proto3 JSON form of `message`."""
    present = {}
    for key, value in obj.items():
        field = SCHEMA.field(message, key)
        if value is None:
            continue
        assert field.number not in present, f"{message}.{key} given twice"
        present[field.number] = (field, value)
    oneofs = {}
    for field, _ in present.values():
        if field.oneof:
            assert field.oneof not in oneofs, f"two members of {message}.{field.oneof}"
            oneofs[field.oneof] = field
    out = bytearray()
    for number in sorted(present):
        field, value = present[number]
        values = value if field.repeated else [value]
        for v in values:
            if field.type in SCHEMA.messages:
                out += ld(number, encode(field.type, v))
            else:
                out += _scalar_bytes(field, v, force=field.repeated or field.oneof is not None)
    return bytes(out)


def encode_kind(kind, obj):
    return encode(KIND_TYPES[kind], obj)


# ---------------------------------------------------------------------------
# proto3 JSON -> canonical proto3 JSON
# ---------------------------------------------------------------------------


def _scalar_json(field, value):
    t = field.type
    if t == "string":
        return value
    if t == "bytes":
        return base64.b64encode(_bytes_value(value)).decode("ascii")
    if t in ("int32", "uint32"):
        return int(value)
    if t in ("int64", "uint64"):
        return str(int(value))
    if t == "bool":
        return value
    if t == "double":
        d = _double_value(value)
        if math.isnan(d):
            return "NaN"
        if math.isinf(d):
            return "Infinity" if d > 0 else "-Infinity"
        return d
    if t in SCHEMA.enums:
        n = _enum_number(t, value)
        names = [k for k, v in SCHEMA.enums[t].items() if v == n]
        return names[0] if names else n
    raise ValueError(t)


def _is_default(field, value):
    t = field.type
    if t in ("string",):
        return value == ""
    if t == "bytes":
        return _bytes_value(value) == b""
    if t in ("int32", "int64", "uint32", "uint64"):
        return int(value) == 0
    if t == "bool":
        return value is False
    if t == "double":
        return struct.pack("<d", _double_value(value)) == bytes(8)
    if t in SCHEMA.enums:
        return _enum_number(t, value) == 0
    return False


def canonical_json(message, obj):
    """What a proto3 JSON printer writes for the value `obj` describes."""
    present = []
    for key, value in obj.items():
        field = SCHEMA.field(message, key)
        if value is None:
            continue
        present.append((field, value))
    present.sort(key=lambda fv: fv[0].number)
    out = {}
    for field, value in present:
        if field.repeated:
            if not value:
                continue
            if field.type in SCHEMA.messages:
                out[field.json_name] = [canonical_json(field.type, v) for v in value]
            else:
                out[field.json_name] = [_scalar_json(field, v) for v in value]
        elif field.type in SCHEMA.messages:
            out[field.json_name] = canonical_json(field.type, value)
        elif field.oneof is None and _is_default(field, value):
            continue
        else:
            out[field.json_name] = _scalar_json(field, value)
    return out


def canonical_json_kind(kind, obj):
    return canonical_json(KIND_TYPES[kind], obj)


# ---------------------------------------------------------------------------
# Vector files
# ---------------------------------------------------------------------------


class VectorFile:
    """One file of cases, written as Vectors/<area>/<name>.json."""

    def __init__(self, area, name, title, description, derivation, flags=None):
        self.area = area
        self.name = name
        self.title = title
        self.description = description
        self.derivation = derivation
        self.flags = dict(flags or {})
        self.cases = []
        self.ids = set()

    def add(self, case):
        assert case["id"] not in self.ids, case["id"]
        for flag in case.get("flags", []):
            assert flag in self.flags, f"{case['id']}: flag {flag} is not explained in {self.name}"
        self.ids.add(case["id"])
        self.cases.append(case)
        return case

    # -- case builders -----------------------------------------------------

    def payload_valid(self, cid, comment, kind, json_in, flags=(), limits=None, expected_json=None):
        """A value given as proto3 JSON: its canonical payload and its printed JSON."""
        type_name = KIND_TYPES[kind]
        payload = encode(type_name, json_in)
        case = {
            "id": cid,
            "comment": comment,
            "flags": list(flags),
            "operation": "payload",
            "result": "valid",
            "kind": kind,
        }
        if limits:
            case["limits"] = limits
        case["input"] = {"json": json_in}
        case["expected"] = {
            "payloadHex": hexs(payload),
            "json": canonical_json(type_name, json_in if expected_json is None else expected_json),
        }
        return self.add(case)

    def payload_hex_valid(self, cid, comment, kind, data, expected_payload, expected_json, flags=(), limits=None):
        """Hand-built payload bytes that decode; the canonical re-encoding and JSON."""
        case = {
            "id": cid,
            "comment": comment,
            "flags": list(flags),
            "operation": "payload",
            "result": "valid",
            "kind": kind,
        }
        if limits:
            case["limits"] = limits
        case["input"] = {"payloadHex": hexs(data)}
        case["expected"] = {
            "payloadHex": hexs(expected_payload),
            "json": canonical_json(KIND_TYPES[kind], expected_json),
        }
        return self.add(case)

    def payload_invalid(self, cid, comment, kind, data, code, path, flags=(), limits=None):
        """Payload bytes a decoder must reject with `code` at `path`."""
        case = {
            "id": cid,
            "comment": comment,
            "flags": list(flags),
            "operation": "payload",
            "result": "invalid",
            "kind": kind,
        }
        if limits:
            case["limits"] = limits
        case["input"] = {"payloadHex": hexs(data)}
        case["expected"] = {"error": {"code": code, "path": path}}
        return self.add(case)

    def json_invalid(self, cid, comment, kind, json_text, code, path, flags=()):
        """proto3 JSON text a reader must reject with `code` at `path`."""
        return self.add(
            {
                "id": cid,
                "comment": comment,
                "flags": list(flags),
                "operation": "payload",
                "result": "invalid",
                "kind": kind,
                "input": {"jsonText": json_text},
                "expected": {"error": {"code": code, "path": path}},
            }
        )

    # -- output ------------------------------------------------------------

    def write(self):
        used = {f for c in self.cases for f in c.get("flags", [])}
        doc = {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "area": self.area,
            "title": self.title,
            "description": self.description,
            "derivation": self.derivation,
            "flags": {name: text for name, text in self.flags.items() if name in used},
            "cases": self.cases,
        }
        # Large JSON values (deep mergers, long lists) are written on one line:
        # indenting them would make the file grow with the square of the depth.
        compact = {}
        for case in self.cases:
            for holder in (case.get("input", {}), case.get("expected", {})):
                value = holder.get("json")
                if value is not None and len(json.dumps(value)) > 2000:
                    marker = f"@@compact-{len(compact)}@@"
                    compact[marker] = json.dumps(value, ensure_ascii=False, allow_nan=False)
                    holder["json"] = marker
        text = json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False)
        for marker, value in compact.items():
            text = text.replace(json.dumps(marker), value, 1)
        directory = os.path.join(VECTORS, self.area)
        os.makedirs(directory, exist_ok=True)
        path = os.path.join(directory, self.name + ".json")
        with open(path, "w", encoding="utf-8") as out:
            out.write(text + "\n")
        return path, len(self.cases)


def report(written):
    total = 0
    for path, count in written:
        total += count
        print(f"{os.path.relpath(path, VECTORS)}: {count} cases")
    print(f"{total} cases in {len(written)} files")
    return total
