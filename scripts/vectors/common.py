"""The vector writers' common module: everything two writers share, and the
writers' one way to the scripts' shared modules (scripts/lib). A writer
imports from here and from nothing beside it.

This module is a second, deliberately small implementation of the parts of the
format the vectors pin down, written from the documents rather than from the
Swift or C code:

- the schema by name (field numbers, types, oneofs, enum names), from
  scripts/lib/schema.py, the scripts' one reader of Schemas/, and the declared
  limits and rules, from scripts/lib/constraints.py (re-exported as
  `constraints`);
- a canonical proto3 encoder from the proto3 JSON form (docs/spec/payloads.md,
  "Canonical encoding"): fields in number order, defaults omitted except a set
  oneof member, messages written when present, negative int32 as 10-byte
  varints, doubles compared with their bit pattern (so -0.0 is written);
- the canonical proto3 JSON printer: lowerCamelCase names, defaults omitted,
  64-bit integers as strings, enum names (numbers for unnamed values), bytes
  as padded standard base64, NaN and infinities as strings;
- raw wire helpers for hand-built (often malformed) payloads;
- frames: `build_frame` writes a frame field by field (every field can be made
  to lie) and `decode_frame`, a reader of docs/spec/frame-format.md, gives
  the expectation of every frame case (`frame_case`);
- validation cases: `finding` and `validate_case`;
- the vector file writer.

It uses only the Python standard library and protoc, and for zstd bodies the
pinned `zstandard` (imported when a zstd body is first made or read), so
anyone can regenerate the vectors with `python3 scripts/vectors/make_vectors.py`.
"""

import base64
import binascii
import collections
import json
import math
import os
import re
import struct
import sys
import zlib

# scripts/lib: the scripts' shared modules.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))
import constraints  # noqa: E402,F401 (for the writers: `from common import constraints`)
from schema import ROOT, Schema, varint  # noqa: E402

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
# scripts' one reader of the schema (scripts/lib/schema.py).
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


# A number given as a JSON string follows the JSON number grammar (RFC 8259, 6).
JSON_NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")


def _integer_value(value):
    """An integer given as a JSON number or string: digits read exactly, a fraction or exponent when whole."""
    if isinstance(value, str):
        assert JSON_NUMBER.fullmatch(value), f"{value!r} is not in the JSON number grammar"
        if not any(c in value for c in ".eE"):
            return int(value)
        value = float(value)
    assert value == int(value), f"{value} is not whole"
    return int(value)


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
        n = _integer_value(value)
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


# Payload cases as data rows: each has the fields of the VectorFile method that adds it, in its order
# (`VectorFile.add_rows`), so a writer's cases are tables of rows and one loop.
Valid = collections.namedtuple("Valid", "cid comment kind json_in flags limits expected_json",
                               defaults=((), None, None))
HexValid = collections.namedtuple("HexValid", "cid comment kind data expected_payload expected_json flags limits",
                                  defaults=((), None))
Invalid = collections.namedtuple("Invalid", "cid comment kind data code path flags limits", defaults=((), None))
JSONInvalid = collections.namedtuple("JSONInvalid", "cid comment kind json_text code path flags", defaults=((),))


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

    def add_rows(self, rows):
        """Adds each row (Valid, HexValid, Invalid, JSONInvalid) with the method of its type."""
        methods = {Valid: self.payload_valid, HexValid: self.payload_hex_valid, Invalid: self.payload_invalid,
                   JSONInvalid: self.json_invalid}
        for row in rows:
            methods[type(row)](*row)

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


# ---------------------------------------------------------------------------
# Frames (docs/spec/frame-format.md), written and read with Python's zlib,
# binascii.crc32, struct and zstandard
# ---------------------------------------------------------------------------

KINDS = {1: "message", 2: "batch", 3: "event"}
KIND_NUMBERS = {v: k for k, v in KINDS.items()}
DEFAULT_LIMITS = {"maxFrameBytes": 4 * 1024 * 1024, "maxInflatedBytes": 16 * 1024 * 1024, "maxInflateRatio": 250}

# The shipped preset dictionaries, by id: Schemas/dictionaries/<id>.bin.
DICTIONARY_DIR = os.path.join(ROOT, "Schemas", "dictionaries")
DICTIONARIES = {}
for _name in sorted(os.listdir(DICTIONARY_DIR)) if os.path.isdir(DICTIONARY_DIR) else []:
    if _name.endswith(".bin"):
        DICTIONARIES[int(_name[:-4])] = open(os.path.join(DICTIONARY_DIR, _name), "rb").read()

# ---------------------------------------------------------------------------
# Writing frames
# ---------------------------------------------------------------------------


def deflate(payload, level=6, dictionary=None, strategy=zlib.Z_DEFAULT_STRATEGY, flush_every=None):
    if dictionary is not None:
        c = zlib.compressobj(level, zlib.DEFLATED, -15, 8, strategy, zdict=dictionary)
    else:
        c = zlib.compressobj(level, zlib.DEFLATED, -15, 8, strategy)
    if flush_every:
        out = b""
        for i in range(0, len(payload), flush_every):
            out += c.compress(payload[i : i + flush_every]) + c.flush(zlib.Z_FULL_FLUSH)
        return out + c.flush()
    return c.compress(payload) + c.flush()


def fixed_huffman(symbols):
    """One final deflate block with the fixed Huffman codes (RFC 1951, 3.2.6), written from the RFC: `symbols` are
    literal bytes (ints 0-255), other literal/length symbols as ("code", n) (such as 286, which the fixed code has
    no meaning for), and matches as ("match", length, distance). No end-of-block symbol is added."""
    bits = []

    def put(value, count):  # extra bits and header fields: least significant bit first
        bits.extend((value >> n) & 1 for n in range(count))

    def huffman(code, length):  # Huffman codes: most significant bit first
        bits.extend((code >> n) & 1 for n in reversed(range(length)))

    def literal_length(symbol):
        if symbol < 144:
            huffman(0x30 + symbol, 8)
        elif symbol < 256:
            huffman(0x190 + symbol - 144, 9)
        elif symbol < 280:
            huffman(symbol - 256, 7)
        else:
            huffman(0xC0 + symbol - 280, 8)

    put(1, 1)  # BFINAL
    put(1, 2)  # BTYPE 01: fixed codes
    for symbol in symbols:
        if isinstance(symbol, int):
            literal_length(symbol)
        elif symbol[0] == "code":
            literal_length(symbol[1])
        else:
            _, length, distance = symbol
            assert 3 <= length <= 10, "lengths 3 to 10 have codes 257 to 264 and no extra bits"
            literal_length(254 + length)
            code = next(c for c in range(30) if _DISTANCE_BASE[c] <= distance < _DISTANCE_BASE[c + 1])
            huffman(code, 5)
            put(distance - _DISTANCE_BASE[code], max(0, code // 2 - 1))
    bits.extend([0] * (-len(bits) % 8))
    return bytes(sum(bit << n for n, bit in enumerate(bits[i : i + 8])) for i in range(0, len(bits), 8))


_DISTANCE_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049,
                  3073, 4097, 6145, 8193, 12289, 16385, 24577, 32769]


MAX_ZSTD_WINDOW_LOG = 23
ZDICT_MAGIC = b"\x37\xa4\x30\xec"


def _zstandard():
    """The pinned zstandard package (testees/python/requirements.txt), imported when a zstd body is first made or
    read: only the frame vectors need it."""
    try:
        import zstandard
    except ImportError:  # pragma: no cover - a setup problem, not a vector problem
        sys.exit("the zstd vectors need zstandard==0.25.0 (testees/python/requirements.txt): "
                 "python3 -m venv .build/python-testee && .build/python-testee/bin/pip install -r "
                 "testees/python/requirements.txt, then run the scripts with .build/python-testee/bin/python")
    assert zstandard.__version__ == "0.25.0", "the zstd vectors are made with zstandard 0.25.0"
    return zstandard


def zstd_compress(payload, level=3, dictionary=None, content_size=False, checksum=False, dictionary_id=False,
                  window_log=0):
    """A magicless zstd frame, by default without content size, checksum or dictionary id (docs/spec/frame-format.md,
    "zstd bodies"); the keywords make zstd write them, or a smaller window than the level's."""
    zstandard = _zstandard()
    params = zstandard.ZstdCompressionParameters.from_level(
        level, source_size=len(payload), dict_size=len(dictionary) if dictionary else 0,
        format=zstandard.FORMAT_ZSTD1_MAGICLESS, write_content_size=content_size, write_checksum=checksum,
        write_dict_id=dictionary_id, window_log=window_log)
    if dictionary is not None:
        c = zstandard.ZstdCompressor(compression_params=params, dict_data=zstandard.ZstdCompressionDict(dictionary))
    else:
        c = zstandard.ZstdCompressor(compression_params=params)
    return c.compress(payload)


def hand_zstd(blocks, window=0x00, dictionary_id=None, content_size=None, single_segment=False):
    """A magicless zstd frame written from RFC 8878: a frame header with a window descriptor (none when single
    segment) and the optional dictionary id and content size, then blocks (type, last, content, repeat): type 0
    raw, 1 RLE (content is the byte), 2 compressed (content as given), 3 reserved."""
    id_flag = 0 if dictionary_id is None else 1 if dictionary_id < 1 << 8 else 2 if dictionary_id < 1 << 16 else 3
    size_flag = 0
    if content_size is not None:
        size_flag = 1 if 256 <= content_size < 65536 + 256 else 2 if content_size < 1 << 32 else 3
        if content_size < 256:
            assert single_segment, "a content size under 256 is written in one byte, which only a single segment has"
            size_flag = 0
    body = bytes([size_flag << 6 | (0x20 if single_segment else 0) | id_flag])
    if not single_segment:
        body += bytes([window])
    if dictionary_id is not None:
        body += dictionary_id.to_bytes([0, 1, 2, 4][id_flag], "little")
    if content_size is not None:
        body += (content_size - (256 if size_flag == 1 else 0)).to_bytes([1, 2, 4, 8][size_flag], "little")
    for block_type, last, content, repeat in blocks:
        size = repeat if block_type == 1 else len(content)
        header = (1 if last else 0) | block_type << 1 | size << 3
        body += struct.pack("<I", header)[:3] + content
    return body


def build_frame(
    kind,
    payload,
    compress=False,
    zstd=False,
    dictionary_id=None,
    level=6,
    body=None,
    version=1,
    flags=None,
    dict_varint=None,
    body_len_varint=None,
    payload_len_varint=None,
    checksum=None,
    crc_payload=None,
):
    """A frame; every argument after `payload` can make one field lie."""
    if zstd:
        compress = True
    if body is None:
        if zstd:
            body = zstd_compress(payload, 3 if level == 6 else level, DICTIONARIES.get(dictionary_id))
        else:
            body = deflate(payload, level, DICTIONARIES.get(dictionary_id)) if compress else payload
    if flags is None:
        flags = KIND_NUMBERS[kind] | ((8 if zstd else 4) if compress else 0) | (0x10 if dictionary_id is not None else 0)
    header = bytes([version, flags])
    if dictionary_id is not None or dict_varint is not None:
        header += dict_varint if dict_varint is not None else varint(dictionary_id)
    header += body_len_varint if body_len_varint is not None else varint(len(body))
    if compress or payload_len_varint is not None:
        header += payload_len_varint if payload_len_varint is not None else varint(len(payload))
    if checksum is None:
        checksum = binascii.crc32(header + (payload if crc_payload is None else crc_payload))
    return header + struct.pack("<I", checksum & 0xFFFFFFFF) + body


# ---------------------------------------------------------------------------
# Reading frames: the documented checks, in the documented order
# ---------------------------------------------------------------------------


class FrameError(Exception):
    def __init__(self, code):
        super().__init__(code)
        self.code = code


def read_varint(data, i):
    value = 0
    for n in range(5):
        if i + n >= len(data):
            raise FrameError("frame.truncated")
        byte = data[i + n]
        value |= (byte & 0x7F) << (7 * n)
        if byte & 0x80 == 0:
            if n > 0 and byte == 0:
                raise FrameError("frame.varint")
            if value > 0xFFFFFFFF:
                raise FrameError("frame.varint")
            return value, i + n + 1
    raise FrameError("frame.varint")


def parse_header(data, limits):
    """Checks 1 to 3; returns the header fields and its length."""
    if len(data) < 2:
        raise FrameError("frame.truncated")
    if data[0] != 1:
        raise FrameError("frame.version")
    flags = data[1]
    kind, compression, has_dictionary = flags & 3, (flags >> 2) & 3, flags & 0x10
    if kind == 0:
        raise FrameError("frame.kind")
    if compression == 3:
        raise FrameError("frame.compression")
    if flags & 0xE0:
        raise FrameError("frame.reserved-bits")
    i = 2
    dictionary_id = 0
    if has_dictionary:
        dictionary_id, i = read_varint(data, i)
        if compression == 0 or dictionary_id == 0 or dictionary_id not in DICTIONARIES:
            raise FrameError("frame.dictionary")
    body_length, i = read_varint(data, i)
    payload_length = body_length
    if compression != 0:
        payload_length, i = read_varint(data, i)
    if len(data) < i + 4:
        raise FrameError("frame.truncated")
    checksum = struct.unpack("<I", data[i : i + 4])[0]
    header_length = i + 4
    if body_length > limits["maxFrameBytes"]:
        raise FrameError("limit.frame-size")
    if compression != 0:
        if payload_length > limits["maxInflatedBytes"]:
            raise FrameError("limit.inflated-size")
        if payload_length > body_length * limits["maxInflateRatio"]:
            raise FrameError("limit.inflate-ratio")
    return {
        "kind": kind,
        "compression": compression,
        "dictionary_id": dictionary_id,
        "body_length": body_length,
        "payload_length": payload_length,
        "checksum": checksum,
        "header_length": header_length,
        "prefix": bytes(data[: header_length - 4]),
    }


def inflate(body, payload_length, dictionary):
    """Step 5 for a deflate body: the symbols in stream order, the first byte past payload_length being
    frame.payload-length there and a broken symbol before it frame.deflate; then the stream's end, then the count."""
    def fresh():
        return zlib.decompressobj(-15, zdict=dictionary) if dictionary else zlib.decompressobj(-15)

    d = fresh()
    try:
        out = d.decompress(body, payload_length + 1)
    except zlib.error:
        # zlib drops what the failing call made: cut the body to the longest prefix that inflates without an
        # error, which holds every symbol before the break, and count its output.
        cut = max(n for n in _prefixes_without_error(fresh, body, payload_length + 1))
        if len(fresh().decompress(body[:cut], payload_length + 1)) > payload_length:
            raise FrameError("frame.payload-length")
        raise FrameError("frame.deflate")
    if len(out) > payload_length:
        raise FrameError("frame.payload-length")
    if d.eof:
        # The stream's end is judged before the count: a stream that ends
        # before the body does is frame.deflate even when it is also short.
        if d.unused_data:
            raise FrameError("frame.deflate")
        if len(out) < payload_length:
            raise FrameError("frame.payload-length")
        return out
    raise FrameError("frame.deflate")


def _prefixes_without_error(fresh, body, bound):
    """The lengths n of the prefixes body[:n] that inflate without a zlib error (a prefix may end early), by
    bisection over the one length where errors start."""
    good, bad = 0, len(body)
    while bad - good > 1:
        middle = (good + bad) // 2
        try:
            fresh().decompress(body[:middle], bound)
        except zlib.error:
            bad = middle
        else:
            good = middle
    return range(good + 1)


MAX_ZSTD_BLOCK = 128 * 1024


def zstd_frame_header(body):
    """The fields of a magicless zstd frame header (RFC 8878, 3.1.1.1), or FrameError("frame.zstd") when the body
    ends inside it or its reserved bit is set."""
    if not body or body[0] & 0x08:
        raise FrameError("frame.zstd")
    descriptor = body[0]
    single = bool(descriptor & 0x20)
    fields = {"checksum": bool(descriptor & 0x04), "single_segment": single}
    id_size = [0, 1, 2, 4][descriptor & 3]
    size_size = [1 if single else 0, 2, 4, 8][descriptor >> 6]
    i = 1 if single else 2
    if len(body) < i + id_size + size_size:
        raise FrameError("frame.zstd")
    fields["dictionary_id"] = int.from_bytes(body[i : i + id_size], "little")
    i += id_size
    fields["content_size"] = None
    if size_size:
        fields["content_size"] = int.from_bytes(body[i : i + size_size], "little") + (256 if size_size == 2 else 0)
    fields["size"] = i + size_size
    if single:
        fields["window"] = fields["content_size"]
    else:
        exponent, mantissa = body[1] >> 3, body[1] & 7
        fields["window"] = (1 << (10 + exponent)) + ((1 << (10 + exponent)) // 8) * mantissa
    return fields


def unzstd(body, payload_length, dictionary):
    """Step 5 for a zstd body, in the documented order: the zstd frame header (frame.zstd, then the window, then its
    dictionary id, then its content size), then each block in turn from its header: a reserved type or a size past
    Block_Maximum_Size is frame.zstd; a raw block is copied as its bytes arrive and an RLE block makes its run,
    both by hand here; a compressed block is given whole to zstandard, with no bound on its output, so a corrupt
    one is frame.zstd whatever it would have written, and a block that takes the output past payload_length is
    frame.payload-length there; then the content checksum, bytes left, and the count."""
    header = zstd_frame_header(body)
    if header["window"] > 1 << MAX_ZSTD_WINDOW_LOG:
        raise FrameError("frame.zstd-window")
    carried = struct.unpack("<I", dictionary[4:8])[0] if dictionary and dictionary[:4] == ZDICT_MAGIC else 0
    if header["dictionary_id"] not in (0, carried):
        raise FrameError("frame.zstd")
    if header["content_size"] not in (None, payload_length):
        raise FrameError("frame.payload-length")
    block_max = min(header["window"], MAX_ZSTD_BLOCK)
    zstandard = _zstandard()
    kwargs = {"format": zstandard.FORMAT_ZSTD1_MAGICLESS}
    if dictionary is not None:
        kwargs["dict_data"] = zstandard.ZstdCompressionDict(dictionary)
    d = zstandard.ZstdDecompressor(**kwargs).decompressobj()
    d.decompress(body[: header["size"]])
    i, out, last = header["size"], b"", False
    while not last:
        if len(body) - i < 3:
            raise FrameError("frame.zstd")
        block = body[i] | body[i + 1] << 8 | body[i + 2] << 16
        last, block_type, size = block & 1, (block >> 1) & 3, block >> 3
        content = body[i + 3 : i + 3 + (1 if block_type == 1 else size)]
        if block_type == 3 or size > block_max:
            raise FrameError("frame.zstd")
        if block_type == 0:
            # A raw block is copied as it arrives: what there is counts before a cut is noticed.
            if len(out) + len(content) > payload_length:
                raise FrameError("frame.payload-length")
            if len(content) < size:
                raise FrameError("frame.zstd")
            made = content
        elif block_type == 1:
            if not content:
                raise FrameError("frame.zstd")
            if len(out) + size > payload_length:
                raise FrameError("frame.payload-length")
            made = content * size
        elif len(content) < size:
            raise FrameError("frame.zstd")
        if block_type != 2 and last and header["content_size"] not in (None, len(out) + len(made)):
            raise FrameError("frame.zstd")  # zstd's own check: the frame decodes to its content size
        try:
            decoded = d.decompress(body[i : i + 3 + len(content)])
        except zstandard.ZstdError:
            assert block_type == 2, "zstandard refused a raw or RLE block this walk accepted"
            raise FrameError("frame.zstd")
        if block_type == 2:
            made = decoded
        assert decoded == made, "zstandard decoded a raw or RLE block differently from this walk"
        out += made
        if len(out) > payload_length:
            raise FrameError("frame.payload-length")
        i += 3 + len(content)
    if header["checksum"]:
        if len(body) - i < 4:
            raise FrameError("frame.zstd")
        try:
            d.decompress(body[i : i + 4])
        except zstandard.ZstdError:
            raise FrameError("frame.zstd")
        i += 4
    if i != len(body):
        raise FrameError("frame.zstd")
    if len(out) != payload_length:
        raise FrameError("frame.payload-length")
    return out


def decode_frame(data, limits=None, single=True):
    """Checks 1 to 6 (and trailing bytes for a single-frame decoder)."""
    limits = dict(DEFAULT_LIMITS, **(limits or {}))
    header = parse_header(data, limits)
    end = header["header_length"] + header["body_length"]
    if len(data) < end:
        raise FrameError("frame.truncated")
    body = bytes(data[header["header_length"] : end])
    if header["compression"] == 1:
        payload = inflate(body, header["payload_length"], DICTIONARIES.get(header["dictionary_id"]))
    elif header["compression"] == 2:
        payload = unzstd(body, header["payload_length"], DICTIONARIES.get(header["dictionary_id"]))
    else:
        payload = body
    if binascii.crc32(header["prefix"] + payload) != header["checksum"]:
        raise FrameError("frame.checksum")
    if single and len(data) > end:
        raise FrameError("frame.trailing-bytes")
    return header, payload, end


def decode_stream(data, limits=None):
    """What a streaming reader yields for the whole stream: frames, error, tail."""
    frames, offset = [], 0
    while offset < len(data):
        try:
            header, payload, end = decode_frame(data[offset:], limits, single=False)
        except FrameError as e:
            if e.code == "frame.truncated":
                return frames, None, True
            return frames, e.code, False
        frames.append((header, payload))
        offset += end
    return frames, None, False


# ---------------------------------------------------------------------------
# Case builders
# ---------------------------------------------------------------------------


def expected_frame(kind, payload, compression, dictionary_id=0):
    return {"kind": kind, "compression": compression, "dictionaryId": dictionary_id, "payloadHex": hexs(payload)}


def frame_case(vf, cid, comment, data, flags=(), limits=None, payload_error=None, canonical=None):
    """A decode-frame case whose expectation comes from `decode_frame`."""
    case = {"id": cid, "comment": comment, "flags": list(flags), "operation": "decode-frame"}
    try:
        header, payload, _ = decode_frame(data, limits)
    except FrameError as e:
        case["result"] = "invalid"
        expected = {"error": {"code": e.code, "path": ""}}
    else:
        if payload_error:
            case["result"] = "invalid"
            expected = {"error": {"code": payload_error[0], "path": payload_error[1]}}
        else:
            case["result"] = "valid"
            expected = {"frame": expected_frame(KINDS[header["kind"]], payload if canonical is None else canonical,
                                                header["compression"], header["dictionary_id"])}
    if limits:
        case["limits"] = limits
    case["input"] = {"frameHex": hexs(data)}
    case["expected"] = expected
    return vf.add(case)


def expect_code(data, code, limits=None):
    try:
        decode_frame(data, limits)
    except FrameError as e:
        assert e.code == code, f"expected {code}, the reference reader says {e.code}"
        return
    raise AssertionError(f"expected {code}, the reference reader accepts the frame")


# ---------------------------------------------------------------------------
# Payloads


# ---------------------------------------------------------------------------
# Validation cases (docs/spec/validation.md)
# ---------------------------------------------------------------------------

WARNING_CODES = {"rule.image.large-size", "rule.image.thumbnail-size", "code.undocumented"}
C2C = {"msgId": "m1", "sender": "user_alice", "receiver": "user_bob"}


def finding(code, path, limit=None, actual=None):
    item = {"code": code, "path": path,
            "severity": "warning" if code.startswith("enum.") or code in WARNING_CODES else "error"}
    if limit is not None:
        item["limit"] = limit
    if actual is not None:
        item["actual"] = actual
    return item


def validate_case(vf, cid, comment, kind, value, profile, findings, flags=(), limits=None):
    result = "invalid" if any(f["severity"] == "error" for f in findings) else "valid"
    flags = list(flags)
    if any(f["severity"] == "warning" for f in findings) and "Warning" not in flags:
        flags.append("Warning")
    if not findings and not any(f in flags for f in ("AtLimit", "RuleOff")):
        flags.append("Clean")
    case = {"id": cid, "comment": comment, "flags": flags, "operation": "validate", "result": result, "kind": kind}
    if limits:
        case["limits"] = limits
    case["input"] = {"json": value, "payloadHex": hexs(encode({"message": "Message", "batch": "MessageBatch",
                                                                "event": "Event"}[kind], value)), "profile": profile}
    case["expected"] = {"findings": findings}
    vf.add(case)


def report(written):
    total = 0
    for path, count in written:
        total += count
        print(f"{os.path.relpath(path, VECTORS)}: {count} cases")
    print(f"{total} cases in {len(written)} files")
    return total
