"""The one reader of Schemas/ for the scripts.

protoc parses the .proto files into a FileDescriptorSet (`protoc
--include_source_info --descriptor_set_out=FILE`); this module reads that set
with a protobuf reader of its own, so every script (the Swift generator
scripts/codegen/generate_swift.py, the constraint reader scripts/lib/constraints.py, the
vector generators through scripts/vectors/common.py, the fuzz
dictionaries of scripts/fuzz/make_fuzz_dicts.py) sees the same messages, fields,
enums and options, with Python's standard library only.

    import schema
    files = schema.load(path)               # FileDesc per file of a descriptor set file
    data = schema.descriptor_set()          # runs protoc on Schemas/ (or $IMCODEC_SCHEMAS)
    model = schema.Schema.of_package()      # imcodec.v1 by name, for the vector generators
    model.field("Elem", "text").number      # 1

`IMCODEC_SCHEMAS` names another schema folder (the move-together test points
it at a modified copy).
"""

import os
import subprocess
import tempfile

from generated import SCHEMAS as PROTOS

# The repository: this file is scripts/lib/schema.py.
ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
PACKAGE = "imcodec.v1"

# --------------------------------------------------------------------------
# A minimal protobuf reader for descriptor.proto
# --------------------------------------------------------------------------



def varint(value):
    """Minimal unsigned LEB128; negative values as their 64-bit two's complement."""
    value &= (1 << 64) - 1
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def read_varint(data, i):
    shift = 0
    value = 0
    while True:
        b = data[i]
        i += 1
        value |= (b & 0x7F) << shift
        if b < 0x80:
            return value, i
        shift += 7


def fields(data):
    """Yields (number, wire_type, value) for each field of a message."""
    i = 0
    while i < len(data):
        tag, i = read_varint(data, i)
        number, wire = tag >> 3, tag & 7
        if wire == 0:
            value, i = read_varint(data, i)
        elif wire == 1:
            value, i = data[i:i + 8], i + 8
        elif wire == 2:
            length, i = read_varint(data, i)
            value, i = data[i:i + length], i + length
        elif wire == 5:
            value, i = data[i:i + 4], i + 4
        else:
            raise ValueError("unexpected wire type %d in descriptor" % wire)
        yield number, wire, value


def packed_ints(wire, value):
    if wire == 0:
        return [value]
    out, i = [], 0
    while i < len(value):
        v, i = read_varint(value, i)
        out.append(v)
    return out


class Field:
    def __init__(self, data):
        self.name = ""
        self.number = 0
        self.label = 1
        self.type = 0
        self.type_name = ""
        self.oneof_index = None
        self.json_name = ""
        self.proto3_optional = False
        for n, w, v in fields(data):
            if n == 1: self.name = v.decode()
            elif n == 3: self.number = v
            elif n == 4: self.label = v
            elif n == 5: self.type = v
            elif n == 6: self.type_name = v.decode()
            elif n == 9: self.oneof_index = v
            elif n == 10: self.json_name = v.decode()
            elif n == 17: self.proto3_optional = bool(v)
        self.comment = ""

    @property
    def repeated(self):
        return self.label == 3

    @property
    def short_type(self):
        return self.type_name.rsplit(".", 1)[-1]


class MessageDesc:
    def __init__(self, data):
        self.name = ""
        self.fields = []
        self.oneofs = []
        self.comment = ""
        for n, w, v in fields(data):
            if n == 1: self.name = v.decode()
            elif n == 2: self.fields.append(Field(v))
            elif n == 3: raise ValueError("nested messages are not supported: keep messages top level")
            elif n == 4: raise ValueError("nested enums are not supported: keep enums top level")
            elif n == 8:
                for n2, w2, v2 in fields(v):
                    if n2 == 1: self.oneofs.append(v2.decode())


class EnumDesc:
    def __init__(self, data):
        self.name = ""
        self.values = []  # (name, number, comment)
        self.comment = ""
        for n, w, v in fields(data):
            if n == 1: self.name = v.decode()
            elif n == 2:
                name, number = "", 0
                for n2, w2, v2 in fields(v):
                    if n2 == 1: name = v2.decode()
                    elif n2 == 2: number = v2 if v2 < 2**31 else v2 - 2**64
                self.values.append([name, number, ""])


class FileDesc:
    def __init__(self, data):
        self.name = ""
        self.package = ""
        self.messages = []
        self.enums = []
        locations = []
        for n, w, v in fields(data):
            if n == 1: self.name = v.decode()
            elif n == 2: self.package = v.decode()
            elif n == 4: self.messages.append(MessageDesc(v))
            elif n == 5: self.enums.append(EnumDesc(v))
            elif n == 9:
                for n2, w2, v2 in fields(v):
                    if n2 == 1: locations.append(v2)
        for loc in locations:
            path, leading, trailing = [], "", ""
            for n, w, v in fields(loc):
                if n == 1: path.extend(packed_ints(w, v))
                elif n == 3: leading = v.decode()
                elif n == 4: trailing = v.decode()
            comment = (leading or trailing).strip("\n")
            if not comment:
                continue
            if len(path) == 2 and path[0] == 4: self.messages[path[1]].comment = comment
            elif len(path) == 4 and path[0] == 4 and path[2] == 2:
                self.messages[path[1]].fields[path[3]].comment = comment
            elif len(path) == 2 and path[0] == 5: self.enums[path[1]].comment = comment
            elif len(path) == 4 and path[0] == 5 and path[2] == 2:
                self.enums[path[1]].values[path[3]][2] = comment


def runs(m):
    """A message's fields in number order, consecutive members of one oneof
    grouped into a list (the generators write a oneof's cases together)."""
    groups = []
    for f in sorted(m.fields, key=lambda f: f.number):
        if f.oneof_index is not None and groups and isinstance(groups[-1], list) \
                and groups[-1][0].oneof_index == f.oneof_index:
            groups[-1].append(f)
        elif f.oneof_index is not None:
            groups.append([f])
        else:
            groups.append(f)
    return groups


def load(path):
    """The files of the FileDescriptorSet in the file at `path`."""
    with open(path, "rb") as f:
        return parse(f.read())


def parse(data):
    """The files of the bytes of a FileDescriptorSet."""
    return [FileDesc(v) for n, w, v in fields(data) if n == 1]


def descriptor_set(schemas=None):
    """Runs protoc on the schema folder (default: Schemas/ or $IMCODEC_SCHEMAS) and returns the
    FileDescriptorSet bytes, with source info (comments)."""
    schemas = schemas or os.environ.get("IMCODEC_SCHEMAS") or os.path.join(ROOT, "Schemas")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "descriptors")
        subprocess.run(
            ["protoc", "-I" + schemas, "--include_source_info", "--descriptor_set_out=" + out]
            + [os.path.join(schemas, p) for p in PROTOS], check=True)
        with open(out, "rb") as f:
            return f.read()


# --------------------------------------------------------------------------
# The schema by name, for the vector generators and the fuzz dictionaries
# --------------------------------------------------------------------------

# FieldDescriptorProto.Type: the scalar types the schema uses, by number.
SCALAR_TYPES = {1: "double", 3: "int64", 4: "uint64", 5: "int32", 8: "bool", 9: "string", 12: "bytes",
                13: "uint32"}
TYPE_MESSAGE, TYPE_ENUM = 11, 14


class SchemaField:
    """One field as the vector generators see it: `type` is the scalar's name or the message or enum
    name, `oneof` the name of its oneof or None, `json_name` the proto3 JSON name."""

    def __init__(self, name, number, type_name, repeated, oneof, json_name):
        self.name = name
        self.number = number
        self.type = type_name
        self.repeated = repeated
        self.oneof = oneof
        self.json_name = json_name

    def __repr__(self):
        return f"Field({self.name}={self.number}:{self.type})"


class Schema:
    """Messages and enums of one package by name: `messages` maps a message to its fields in number
    order, `enums` an enum to its {value name: number}."""

    def __init__(self, files, package=PACKAGE):
        self.messages = {}
        self.enums = {}
        for file in files:
            if file.package != package:
                continue
            for e in file.enums:
                self.enums[e.name] = {name: number for name, number, _ in e.values}
            for m in file.messages:
                self.messages[m.name] = sorted((self._field(m, f) for f in m.fields), key=lambda f: f.number)

    @staticmethod
    def _field(message, f):
        if f.type in (TYPE_MESSAGE, TYPE_ENUM):
            type_name = f.short_type
        elif f.type in SCALAR_TYPES:
            type_name = SCALAR_TYPES[f.type]
        else:
            raise ValueError("%s.%s: field type %d is not one the schema uses" % (message.name, f.name, f.type))
        oneof = None
        if f.oneof_index is not None and not f.proto3_optional:
            oneof = message.oneofs[f.oneof_index]
        return SchemaField(f.name, f.number, type_name, f.repeated, oneof, f.json_name)

    @classmethod
    def of_package(cls, package=PACKAGE, schemas=None):
        """The package's messages and enums, read from the schema folder through protoc."""
        return cls(parse(descriptor_set(schemas)), package)

    def field(self, message, key):
        """The field of `message` whose proto name or JSON name is `key`."""
        for f in self.messages[message]:
            if key in (f.name, f.json_name):
                return f
        raise KeyError(f"{message} has no field {key!r}")

    def field_by_number(self, message, number):
        return next(f for f in self.messages[message] if f.number == number)
