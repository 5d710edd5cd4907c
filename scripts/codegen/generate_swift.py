#!/usr/bin/env python3
"""Generates the schema-specialised Swift model, binary codec and JSON mapping.

Input: a FileDescriptorSet written by `protoc --include_source_info
--descriptor_set_out=FILE` (scripts/codegen/regenerate.py runs it). Only files of the
packages `imcodec.v1` (the model) and `imcodec.testee.v1` (the testee
protocol, types prefixed `Testee`) are generated; see UNITS.

Output (overwritten), relative to the repository or to OUTPUT_ROOT:
  Sources/IMCodec/Generated/Model.swift          value types and enums
  Sources/IMCodec/Generated/Model+Binary.swift   canonical encoder and decoder
  Sources/IMCodec/Generated/Model+JSON.swift     proto3 JSON mapping
  Sources/IMCodec/Generated/SchemaFields.swift   the fields, for the oracle tests
  Sources/IMCodec/Generated/Model+Reflection.swift  fields read by number, for the rule engine
  Sources/IMCodecTestSupport/Generated/Arbitrary.swift  random values for tests
  Sources/IMCodecTestee/Generated/Testee*.swift  the testee protocol

The descriptor set is read by scripts/lib/schema.py, the scripts' one reader of
the schema, so the script needs nothing beyond Python's standard library.
"""

import os
import sys

# scripts/lib: the scripts' shared modules.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "lib"))

PACKAGE = "imcodec.v1"

# Repeated fields with a limit of their own; every other repeated field is
# bounded by maxRepeated.
REPEATED_LIMITS = {
    ("Message", "elems"): ("maxElems", "limitElems"),
    ("MessageBatch", "messages"): ("maxBatchMessages", "limitBatchMessages"),
}
# Fields whose messages are one merger layer deeper.
LAYER_FIELDS = {("MergerElem", "messages")}
# The routing fields of a message that MessageEnvelope reads without decoding
# the message (Sources/IMCodec/Binary/MessageEnvelope.swift): strings the
# caller may ask for, scalars, and the repeated field whose entries are only
# counted. The envelope's properties have the fields' Swift names.
ENVELOPE = {
    "message": "Message",
    "strings": ["msg_id", "sender", "receiver", "group_id"],
    "scalars": ["timestamp", "seq"],
    "counted": ("elems", "elemCount"),
}

# --------------------------------------------------------------------------
# The descriptor set, read by scripts/lib/schema.py (the scripts' one reader)
# --------------------------------------------------------------------------

from schema import (  # noqa: E402,F401
    ROOT, EnumDesc, Field, FileDesc, MessageDesc, fields, load, packed_ints, read_varint, runs, varint)


# --------------------------------------------------------------------------
# Naming
# --------------------------------------------------------------------------

SWIFT_KEYWORDS = {
    "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
    "inout", "internal", "let", "open", "operator", "private", "protocol", "public", "rethrows", "static",
    "struct", "subscript", "typealias", "var", "break", "case", "continue", "default", "defer", "do",
    "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "switch", "where", "while",
    "as", "catch", "false", "is", "nil", "super", "self", "Self", "throw", "throws", "true", "try", "Type",
}
ACRONYMS = {"id": "ID", "url": "URL", "uuid": "UUID"}


def swift_name(proto_name):
    """lower_snake → lowerCamel with Swift's capitalised acronyms (msg_id → msgID)."""
    parts = proto_name.split("_")
    out = parts[0]
    for p in parts[1:]:
        out += ACRONYMS.get(p, p[:1].upper() + p[1:])
    return out


def escape(name):
    return "`%s`" % name if name in SWIFT_KEYWORDS else name


def enum_case_name(enum, value_name):
    prefix = ""
    for ch in getattr(enum, "proto_name", enum.name):
        if ch.isupper() and prefix:
            prefix += "_"
        prefix += ch.upper()
    prefix += "_"
    base = value_name[len(prefix):] if value_name.startswith(prefix) else value_name
    parts = base.lower().split("_")
    return parts[0] + "".join(p[:1].upper() + p[1:] for p in parts[1:])


def doc(comment, indent, fallback):
    text = comment.strip() if comment else fallback
    lines = [l.rstrip() for l in text.split("\n")]
    lines = [l[1:] if l.startswith(" ") else l for l in lines]
    return "".join("%s///%s\n" % (indent, (" " + l) if l else "") for l in lines)


# --------------------------------------------------------------------------
# Field kinds
# --------------------------------------------------------------------------

T_DOUBLE, T_INT64, T_UINT64, T_INT32, T_BOOL, T_STRING, T_MESSAGE, T_BYTES, T_UINT32, T_ENUM = \
    1, 3, 4, 5, 8, 9, 11, 12, 13, 14
WIRE = {T_DOUBLE: 1, T_INT64: 0, T_UINT64: 0, T_INT32: 0, T_BOOL: 0, T_STRING: 2, T_MESSAGE: 2,
        T_BYTES: 2, T_UINT32: 0, T_ENUM: 0}
SWIFT_TYPE = {T_DOUBLE: "Double", T_INT64: "Int64", T_UINT64: "UInt64", T_INT32: "Int32", T_BOOL: "Bool",
              T_STRING: "String", T_BYTES: "[UInt8]", T_UINT32: "UInt32"}
PROTO_TYPE = {T_DOUBLE: "double", T_INT64: "int64", T_UINT64: "uint64", T_INT32: "int32", T_BOOL: "bool",
              T_STRING: "string", T_BYTES: "bytes", T_UINT32: "uint32"}
DEFAULT = {T_DOUBLE: "0", T_INT64: "0", T_UINT64: "0", T_INT32: "0", T_BOOL: "false", T_STRING: '""',
           T_BYTES: "[]", T_UINT32: "0"}


def check_supported(msg, f):
    if f.type not in WIRE:
        raise SystemExit("%s.%s: field type %d is not supported by the generator" % (msg.name, f.name, f.type))
    if f.proto3_optional:
        raise SystemExit("%s.%s: proto3 optional is not supported (protoc-c refuses it)" % (msg.name, f.name))
    if f.repeated and f.type not in (T_STRING, T_BYTES, T_MESSAGE):
        raise SystemExit("%s.%s: repeated scalars (packed encoding) are not supported" % (msg.name, f.name))


def swift_type(f):
    if f.type == T_MESSAGE or f.type == T_ENUM:
        return f.short_type
    return SWIFT_TYPE[f.type]


def tag_bytes(f):
    return varint(tag_value(f))


def tag_value(f):
    return (f.number << 3) | WIRE[f.type]


def is_default_check(f, v):
    """Swift condition that is true when scalar `v` must be written."""
    t = f.type
    if t in (T_STRING, T_BYTES): return "!%s.isEmpty" % v
    if t == T_BOOL: return v
    if t == T_DOUBLE: return "%s.bitPattern != 0" % v
    if t == T_ENUM: return "%s.rawValue != 0" % v
    return "%s != 0" % v


def size_expr(f, v):
    """Swift expression: bytes of the value of scalar field `f` (without tag)."""
    t = f.type
    if t == T_STRING: return "WireFormat.lengthDelimitedSize(%s.utf8.count)" % v
    if t == T_BYTES: return "WireFormat.lengthDelimitedSize(%s.count)" % v
    if t == T_BOOL: return "1"
    if t == T_DOUBLE: return "8"
    if t == T_INT32: return "WireFormat.int32Size(%s)" % v
    if t == T_ENUM: return "WireFormat.int32Size(%s.rawValue)" % v
    if t == T_INT64: return "WireFormat.varintSize(UInt64(bitPattern: %s))" % v
    if t == T_UINT64: return "WireFormat.varintSize(%s)" % v
    if t == T_UINT32: return "WireFormat.varintSize(UInt64(%s))" % v
    raise AssertionError(t)


def write_stmt(f, v):
    t = f.type
    if t in (T_STRING, T_BYTES): return "writer.writeLengthDelimited(%s)" % v
    if t == T_BOOL: return "writer.writeByte(1)"
    if t == T_DOUBLE: return "writer.writeFixed64(%s.bitPattern)" % v
    if t == T_INT32: return "writer.writeInt32(%s)" % v
    if t == T_ENUM: return "writer.writeInt32(%s.rawValue)" % v
    if t == T_INT64: return "writer.writeVarint(UInt64(bitPattern: %s))" % v
    if t == T_UINT64: return "writer.writeVarint(%s)" % v
    if t == T_UINT32: return "writer.writeVarint(UInt64(%s))" % v
    raise AssertionError(t)


def read_expr(f):
    t = f.type
    if t == T_STRING: return "try reader.readString()"
    if t == T_BYTES: return "try reader.readBytes()"
    if t == T_BOOL: return "try reader.readVarint() != 0"
    if t == T_DOUBLE: return "Double(bitPattern: try reader.readFixed64())"
    if t == T_INT32: return "Int32(truncatingIfNeeded: try reader.readVarint())"
    if t == T_ENUM: return "%s(rawValue: Int32(truncatingIfNeeded: try reader.readVarint()))" % f.short_type
    if t == T_INT64: return "Int64(bitPattern: try reader.readVarint())"
    if t == T_UINT64: return "try reader.readVarint()"
    if t == T_UINT32: return "UInt32(truncatingIfNeeded: try reader.readVarint())"
    raise AssertionError(t)


def json_write_stmt(f, v):
    t = f.type
    if t == T_STRING: return "writer.string(%s)" % v
    if t == T_BYTES: return "writer.bytes(%s)" % v
    if t == T_BOOL: return "writer.bool(%s)" % v
    if t == T_DOUBLE: return "writer.double(%s)" % v
    if t == T_INT32: return "writer.int32(%s)" % v
    if t == T_UINT32: return "writer.uint32(%s)" % v
    if t == T_INT64: return "writer.int64(%s)" % v
    if t == T_UINT64: return "writer.uint64(%s)" % v
    if t == T_ENUM:
        return "if let name = %s.protoName { writer.string(name) } else { writer.int32(%s.rawValue) }" % (v, v)
    if t == T_MESSAGE: return "%s._writeJSON(to: &writer)" % v
    raise AssertionError(t)


def json_read_expr(f):
    """Swift expression: the value of field `f` read from the JSON reader `reader`."""
    t = f.type
    if t == T_MESSAGE: return "try %s(_json: &reader, &context)" % f.short_type
    if t == T_ENUM:
        return "%s(rawValue: try JSONScalar.enumValue(&reader, named: %s._number(forProtoName:)))" % (
            f.short_type, f.short_type)
    return "try JSONScalar.%s(&reader)" % (
        {T_STRING: "string", T_BYTES: "bytes", T_BOOL: "bool", T_DOUBLE: "double", T_INT32: "int32",
         T_UINT32: "uint32", T_INT64: "int64", T_UINT64: "uint64"}[t])


# swift-format leaves these files alone (as it does protoc-gen-swift's output):
# they are checked against Schemas/ by scripts/checks/check_generated.py, not by lint.
HEADER = "// Generated by scripts/codegen/generate_swift.py from %s. Do not edit.\n// swift-format-ignore-file\n\n"

# --------------------------------------------------------------------------
# Model.swift
# --------------------------------------------------------------------------


def gen_enum(e):
    out = []
    out.append(doc(e.comment, "", "The `%s` enum of the schema." % e.name))
    out.append("///\n/// Values the schema does not name are kept (proto3 enums are open), so\n"
               "/// data from a newer schema survives decoding and re-encoding.\n")
    out.append("public struct %s: RawRepresentable, Hashable, Sendable, CustomStringConvertible {\n" % e.name)
    out.append("    /// The numeric value on the wire.\n    public var rawValue: Int32\n\n")
    out.append("    /// Creates a value from its number; any number is kept.\n")
    out.append("    @inlinable public init(rawValue: Int32) { self.rawValue = rawValue }\n\n")
    for name, number, comment in e.values:
        fallback = "`%s` (%d)." % (name, number)
        text = ("`%s` (%d): %s" % (name, number, comment.strip())) if comment else fallback
        out.append(doc(text, "    ", fallback))
        out.append("    public static let %s = %s(rawValue: %d)\n" % (escape(enum_case_name(e, name)), e.name, number))
    out.append("\n    /// The values the schema names, in declaration order.\n")
    out.append("    public static let knownValues: [%s] = [%s]\n\n" % (
        e.name, ", ".join("." + escape(enum_case_name(e, v[0])) for v in e.values)))
    out.append("    /// Whether the schema names this value.\n")
    out.append("    public var isKnown: Bool { protoName != nil }\n\n")
    out.append("    /// The schema's name of this value (`%s`), or nil for an unnamed value.\n" % e.values[-1][0])
    out.append("    public var protoName: String? {\n        switch rawValue {\n")
    seen = set()
    for name, number, _ in e.values:
        if number in seen:
            continue
        seen.add(number)
        out.append('        case %d: "%s"\n' % (number, name))
    out.append("        default: nil\n        }\n    }\n\n")
    out.append("    /// The number of the value the schema names `name`.\n")
    out.append("    package static func _number(forProtoName name: String) -> Int32? {\n        switch name {\n")
    for name, number, _ in e.values:
        out.append('        case "%s": %d\n' % (name, number))
    out.append("        default: nil\n        }\n    }\n\n")
    out.append("    /// The schema's name, or the number for an unnamed value.\n")
    out.append("    public var description: String { protoName ?? String(rawValue) }\n}\n")
    return "".join(out)


def field_doc(f, msg):
    kind = f.short_type if f.type in (T_MESSAGE, T_ENUM) else PROTO_TYPE[f.type]
    label = "repeated " if f.repeated else ""
    fallback = "`%s` (field %d, %s%s)." % (f.name, f.number, label, kind)
    if f.comment:
        return f.comment.strip() + "\n\n" + fallback
    return fallback


def member_decl(f):
    """(declaration type, default expression) of a non-oneof field."""
    t = swift_type(f)
    if f.repeated:
        return "[%s]" % t, "[]"
    if f.type == T_MESSAGE:
        return "%s?" % t, "nil"
    if f.type == T_ENUM:
        return t, "%s(rawValue: 0)" % t
    return t, DEFAULT[f.type]


# Messages by name, for the inline-size estimate below; set by main().
MESSAGES = {}

# A oneof member whose value would take more than this many bytes inline is an
# `indirect` case. The oneof enum is as large as its largest member, and every
# value holding it (an Elem in an array, a Message's elems) pays for that size
# on each initialisation and move, also when it holds a small member: without
# this, a text elem would be as large as a group tips elem (about 300 bytes).
# An indirect member costs one allocation when it is present.
INDIRECT_ABOVE = 96
INLINE_SIZE = {T_DOUBLE: 8, T_INT64: 8, T_UINT64: 8, T_INT32: 4, T_BOOL: 1, T_STRING: 16, T_BYTES: 8,
               T_UINT32: 4, T_ENUM: 4}


def inline_size(m):
    """An estimate of a message's inline size in bytes (Swift's layout, ignoring padding)."""
    size = 8  # unknownFields
    oneofs = {}
    for f in m.fields:
        if f.repeated:
            field = 8
        elif is_boxed(f):
            field = 8
        elif f.type == T_MESSAGE:
            field = inline_size(MESSAGES[f.short_type]) + 1
        else:
            field = INLINE_SIZE[f.type]
        if f.oneof_index is not None:
            member = 8 if is_indirect(f) else field
            oneofs[f.oneof_index] = max(oneofs.get(f.oneof_index, 0), member)
        else:
            size += field
    return size + sum(v + 1 for v in oneofs.values())


def is_boxed(f):
    """Whether a singular message field outside a oneof is held in an `Indirect` box.

    The same reasoning as for `indirect` oneof members: a `Message` would
    otherwise carry its 270-byte `OfflinePushInfo` inline, absent or not.
    """
    return f.oneof_index is None and not f.repeated and f.type == T_MESSAGE and \
        inline_size(MESSAGES[f.short_type]) > INDIRECT_ABOVE


def present_binding(f):
    """A Swift condition binding `value` to the set value of singular message field `f`, without copying it."""
    name = escape(swift_name(f.name))
    if is_boxed(f):
        return "case .value(let value)? = self._%s" % swift_name(f.name)
    return "let value = self.%s" % name


def is_indirect(f):
    """Whether a oneof member is an `indirect` case (see INDIRECT_ABOVE)."""
    return f.oneof_index is not None and f.type == T_MESSAGE and \
        inline_size(MESSAGES[f.short_type]) > INDIRECT_ABOVE


def gen_message(m):
    out = []
    out.append(doc(m.comment, "", "The `%s` message of the schema." % m.name))
    out.append("public struct %s: WireMessage {\n" % m.name)
    proto_name = getattr(m, "proto_name", m.name)
    out.append('    /// `%s.%s`.\n    public static var protoMessageName: String { "%s.%s" }\n\n' % (
        PACKAGE, proto_name, PACKAGE, proto_name))
    params = []
    emitted_oneofs = set()
    for f in m.fields:
        check_supported(m, f)
        if f.oneof_index is not None:
            o = f.oneof_index
            if o in emitted_oneofs:
                continue
            emitted_oneofs.add(o)
            oname = m.oneofs[o]
            members = [g for g in m.fields if g.oneof_index == o]
            enum_name = oname[:1].upper() + swift_name(oname)[1:]
            out.append("    /// Which member of the `%s` oneof is set, with its value.\n" % oname)
            out.append("    public enum %s: Hashable, Sendable {\n" % enum_name)
            for g in members:
                out.append(doc(field_doc(g, m), "        ", ""))
                out.append("        %scase %s(%s)\n" % (
                    "indirect " if is_indirect(g) else "", escape(swift_name(g.name)), swift_type(g)))
            out.append("    }\n\n")
            out.append("    /// The `%s` oneof: at most one member is set.\n" % oname)
            out.append("    public var %s: %s?\n\n" % (escape(swift_name(oname)), enum_name))
            params.append((swift_name(oname), enum_name + "?", "nil"))
            continue
        decl, default = member_decl(f)
        out.append(doc(field_doc(f, m), "    ", ""))
        if is_boxed(f):
            storage = "_" + swift_name(f.name)
            out.append("    public var %s: %s {\n" % (escape(swift_name(f.name)), decl))
            out.append("        get { %s?.value }\n" % storage)
            out.append("        set { %s = newValue.map { Indirect.value($0) } }\n    }\n\n" % storage)
            out.append("    /// ``%s``, held on the heap (see ``Indirect``).\n" % swift_name(f.name))
            out.append("    var %s: Indirect<%s>? = nil\n\n" % (storage, swift_type(f)))
        else:
            out.append("    public var %s: %s = %s\n\n" % (escape(swift_name(f.name)), decl, default))
        params.append((swift_name(f.name), decl, default))
    out.append("    /// Fields this schema does not know, kept for re-encoding.\n")
    out.append("    public var unknownFields = UnknownFields()\n\n")
    out.append("    /// Creates a value with every field at its default.\n    public init() {}\n")
    if params:
        out.append("\n    /// Creates a value from its fields; omitted fields keep their defaults.\n")
        out.append("    public init(\n")
        out.append(",\n".join("        %s: %s = %s" % (escape(n), t, d) for n, t, d in params))
        out.append("\n    ) {\n")
        for n, _, _ in params:
            out.append("        self.%s = %s\n" % (escape(n), escape(n)))
        out.append("    }\n")
    out.append("}\n")
    return "".join(out)


# --------------------------------------------------------------------------
# Model+Binary.swift
# --------------------------------------------------------------------------


def oneof_var(m, f):
    return escape(swift_name(m.oneofs[f.oneof_index]))


# The size and write functions only read the value and write raw memory (the
# output and the size cache), so they release no object. Saying so lets the
# optimizer pass nested values and array elements to them in place: without
# it, the recursion through mergers makes it copy every element it passes.
RELEASE_NONE = "    @_effects(releasenone)\n"


def gen_size(m):
    out = [RELEASE_NONE,
           "    @usableFromInline\n    package func _encodedSize(_ cache: inout SizeCache) -> Int {\n",
           "        var size = 0\n"]

    def nested(f, v, ind):
        return ("%slet slot = cache.reserve()\n%slet count = %s._encodedSize(&cache)\n"
                "%scache.record(count, at: slot)\n%ssize &+= %d &+ WireFormat.lengthDelimitedSize(count)\n") % (
            ind, ind, v, ind, ind, len(tag_bytes(f)))

    for g in runs(m):
        if isinstance(g, list):
            out.append("        switch %s {\n" % oneof_var(m, g[0]))
            for f in g:
                out.append("        case .%s(let value)?:\n" % escape(swift_name(f.name)))
                if f.type == T_MESSAGE:
                    out.append(nested(f, "value", "            "))
                else:
                    out.append("            size &+= %d &+ %s\n" % (len(tag_bytes(f)), size_expr(f, "value")))
            out.append("        default: break\n        }\n")
            continue
        f = g
        v = "self." + escape(swift_name(f.name))
        if f.repeated:
            out.append("        for value in %s {\n" % v)
            if f.type == T_MESSAGE and (m.name, f.name) in LAYER_FIELDS:
                # The deepest merger layer, noted for a frame encoder.
                out.append("            cache.enterLayer()\n")
                out.append(nested(f, "value", "            "))
                out.append("            cache.leaveLayer()\n")
            elif f.type == T_MESSAGE:
                out.append(nested(f, "value", "            "))
            else:
                out.append("            size &+= %d &+ %s\n" % (len(tag_bytes(f)), size_expr(f, "value")))
            out.append("        }\n")
        elif f.type == T_MESSAGE:
            out.append("        if %s {\n" % present_binding(f))
            out.append(nested(f, "value", "            "))
            out.append("        }\n")
        else:
            out.append("        if %s { size &+= %d &+ %s }\n" % (is_default_check(f, v), len(tag_bytes(f)),
                                                                    size_expr(f, v)))
    # Noted in the cache, so a frame encoder knows whether the value's walk
    # (_checkLimits) can find anything in a payload of this size.
    out.append("        if !unknownFields.isEmpty {\n            size &+= unknownFields.bytes.count\n"
               "            cache.holdsUnknownFields = true\n        }\n        return size\n    }\n")
    return "".join(out)


def write_tag(f, ind):
    return "".join("%swriter.writeByte(0x%02X)\n" % (ind, b) for b in tag_bytes(f))


def gen_encode(m):
    out = [RELEASE_NONE, "    @usableFromInline\n    package func _encode(to writer: inout WireWriter, _ cache: inout SizeCache) {\n"]

    def emit(f, v, ind):
        s = write_tag(f, ind)
        if f.type == T_MESSAGE:
            s += "%swriter.writeLength(cache.next())\n%s%s._encode(to: &writer, &cache)\n" % (ind, ind, v)
        else:
            s += "%s%s\n" % (ind, write_stmt(f, v))
        return s

    for g in runs(m):
        if isinstance(g, list):
            out.append("        switch %s {\n" % oneof_var(m, g[0]))
            for f in g:
                out.append("        case .%s(let value)?:\n" % escape(swift_name(f.name)))
                out.append(emit(f, "value", "            "))
            out.append("        default: break\n        }\n")
            continue
        f = g
        v = "self." + escape(swift_name(f.name))
        if f.repeated:
            out.append("        for value in %s {\n" % v)
            out.append(emit(f, "value", "            "))
            out.append("        }\n")
        elif f.type == T_MESSAGE:
            out.append("        if %s {\n" % present_binding(f))
            out.append(emit(f, "value", "            "))
            out.append("        }\n")
        else:
            out.append("        if %s {\n" % is_default_check(f, v))
            out.append(emit(f, v, "            "))
            out.append("        }\n")
    out.append("        if !unknownFields.isEmpty { writer.writeBytes(unknownFields.bytes) }\n    }\n")
    return "".join(out)


def limit_of(m, f):
    return REPEATED_LIMITS.get((m.name, f.name), ("maxRepeated", "limitRepeated"))


def gen_merge(m):
    # Never inlined into the message that holds this one: a message's frame
    # then holds its own fields only, which keeps the stack used per merger
    # layer (Message -> Elem -> MergerElem -> Message) small.
    out = [
           "    @inline(never)\n",
           "    @usableFromInline\n    package mutating func _merge(from reader: inout WireReader, _ context: inout DecodeContext)"
           " throws(IMCodecError) {\n",
           "        while reader.hasMore {\n",
           "            let start = reader.mark\n",
           "            let tag = try reader.readTag()\n",
           "            switch tag {\n"]
    for f in sorted(m.fields, key=lambda f: f.number):
        json = f.json_name
        name = escape(swift_name(f.name))
        out.append("            case %d:\n" % tag_value(f))
        ind = "                "
        if f.repeated:
            limit, code = limit_of(m, f)
            out.append("%slet index = self.%s.count\n" % (ind, name))
            out.append("%sif index >= context.limits.%s {\n" % (ind, limit))
            out.append('%s    throw IMCodecError(\n%s        .%s, path: [.field("%s"), .index(index)],\n'
                       '%s        reason: "more entries than the limit allows", limit: context.limits.%s,'
                       ' observed: index + 1)\n%s}\n' % (ind, ind, code, json, ind, limit, ind))
            # The first entry, once read, sizes the array for all of them:
            # one allocation.
            reserve = ("%s    if index == 0 {\n%s        self.%s.reserveCapacity(reader.entryCount(withTag: %d, limit: "
                       "context.limits.%s))\n%s    }\n") % (ind, ind, name, tag_value(f), limit, ind)
            out.append("%sdo {\n" % ind)
            if f.type == T_MESSAGE:
                out.append("%s    var nested = try reader.readNested()\n" % ind)
                out.append(reserve)
                layered = (m.name, f.name) in LAYER_FIELDS
                if layered:
                    out.append("%s    try context.enterLayer()\n" % ind)
                # Decoded in place: an entry is never copied or moved.
                out.append("%s    self.%s.append(%s())\n" % (ind, name, f.short_type))
                out.append("%s    try self.%s[index]._merge(from: &nested, &context)\n" % (ind, name))
                if layered:
                    out.append("%s    context.leaveLayer()\n" % ind)
            else:
                out.append("%s    let value = %s\n" % (ind, read_expr(f)))
                out.append(reserve)
                out.append("%s    self.%s.append(value)\n" % (ind, name))
            out.append('%s} catch { throw error.prefixed(field: "%s", index: index) }\n' % (ind, json))
        elif f.oneof_index is not None:
            ov = oneof_var(m, f)
            case = escape(swift_name(f.name))
            out.append("%sdo {\n" % ind)
            if f.type == T_MESSAGE:
                out.append("%s    var nested = try reader.readNested()\n" % ind)
                # A member seen again is moved out, not copied, so merging
                # into it does not copy its storage; when no member or
                # another one is set, nothing is moved out.
                out.append("%s    var value: %s\n" % (ind, f.short_type))
                out.append("%s    if case .%s? = self.%s, case .%s(let existing)? = self.%s.take() {\n" % (
                    ind, case, ov, case, ov))
                out.append("%s        value = existing\n" % ind)
                out.append("%s    } else {\n%s        value = %s()\n%s    }\n" % (ind, ind, f.short_type, ind))
                out.append("%s    try value._merge(from: &nested, &context)\n" % ind)
                out.append("%s    self.%s = .%s(value)\n" % (ind, ov, case))
            else:
                out.append("%s    self.%s = .%s(%s)\n" % (ind, ov, case, read_expr(f)))
            out.append('%s} catch { throw error.prefixed(field: "%s") }\n' % (ind, json))
        elif f.type == T_MESSAGE:
            out.append("%sdo {\n" % ind)
            out.append("%s    var nested = try reader.readNested()\n" % ind)
            out.append("%s    var value = self.%s.take() ?? %s()\n" % (ind, name, f.short_type))
            out.append("%s    try value._merge(from: &nested, &context)\n" % ind)
            out.append("%s    self.%s = value\n" % (ind, name))
            out.append('%s} catch { throw error.prefixed(field: "%s") }\n' % (ind, json))
        else:
            out.append('%sdo { self.%s = %s } catch { throw error.prefixed(field: "%s") }\n' % (
                ind, name, read_expr(f), json))
    out.append("            default:\n")
    out.append("                try reader.skipUnknown(tag: tag, from: start, into: &unknownFields,"
               " context: context)\n")
    out.append("            }\n        }\n    }\n")
    return "".join(out)


def skip_expr(f):
    """Swift statement that reads past the value of field `f` as the decoder reads it, keeping nothing."""
    w = WIRE[f.type]
    if w == 0: return "_ = try reader.readVarint()"
    if w == 1: return "_ = try reader.readFixed64()"
    return "_ = try reader.readLengthDelimited()"


def gen_envelope(m):
    """The envelope peek of `m`: its top-level fields read as `_merge` reads them (the same checks, errors and
    paths), the routing fields kept, every nested message and every other string stepped over by its length."""
    strings, scalars = ENVELOPE["strings"], ENVELOPE["scalars"]
    counted, count_name = ENVELOPE["counted"]
    out = ["extension %s {\n" % m.name,
           "    /// Reads the routing fields of an encoded `%s` (``MessageEnvelope``): every top-level field is\n" % m.name,
           "    /// read as `_merge` reads it, with its checks, errors and paths; nested messages and the\n",
           "    /// strings not in `fields` are stepped over by their lengths, and nothing is allocated\n",
           "    /// but the strings of `fields`.\n",
           "    /// The envelope is read into `envelope`, which starts at its defaults.\n",
           "    @usableFromInline\n",
           "    package static func _peekEnvelope(\n",
           "        from reader: inout WireReader, into envelope: inout MessageEnvelope, fields: MessageEnvelope.Fields,\n",
           "        _ context: DecodeContext\n",
           "    ) throws(IMCodecError) {\n"]
    repeated = [f for f in sorted(m.fields, key=lambda f: f.number) if f.repeated]
    for f in repeated:
        if f.name != counted:
            out.append("        var %sCount = 0\n" % escape(swift_name(f.name)))
    out.append("        while reader.hasMore {\n")
    out.append("            let tag = try reader.readTag()\n")
    out.append("            switch tag {\n")
    for f in sorted(m.fields, key=lambda f: f.number):
        if f.oneof_index is not None:
            raise SystemExit("%s.%s: the envelope peek reads no oneof" % (m.name, f.name))
        json = f.json_name
        name = escape(swift_name(f.name))
        ind = "                "
        out.append("            case %d:\n" % tag_value(f))
        if f.repeated:
            limit, code = limit_of(m, f)
            counter = "envelope.%s" % count_name if f.name == counted else "%sCount" % name
            out.append("%slet index = %s\n" % (ind, counter))
            out.append("%sif index >= context.limits.%s {\n" % (ind, limit))
            out.append('%s    throw IMCodecError(\n%s        .%s, path: [.field("%s"), .index(index)],\n'
                       '%s        reason: "more entries than the limit allows", limit: context.limits.%s,'
                       ' observed: index + 1)\n%s}\n' % (ind, ind, code, json, ind, limit, ind))
            out.append('%sdo { %s } catch { throw error.prefixed(field: "%s", index: index) }\n' % (
                ind, skip_expr(f), json))
            out.append("%s%s = index &+ 1\n" % (ind, counter))
        elif f.name in strings:
            if f.type != T_STRING:
                raise SystemExit("%s.%s: an envelope string must be a string field" % (m.name, f.name))
            out.append("%sdo {\n" % ind)
            out.append("%s    if fields.contains(.%s) { envelope.%s = try reader.readString() } else { %s }\n" % (
                ind, name, name, skip_expr(f)))
            out.append('%s} catch { throw error.prefixed(field: "%s") }\n' % (ind, json))
        elif f.name in scalars:
            if f.type == T_MESSAGE or WIRE[f.type] == 2:
                raise SystemExit("%s.%s: an envelope scalar must be a scalar field" % (m.name, f.name))
            out.append('%sdo { envelope.%s = %s } catch { throw error.prefixed(field: "%s") }\n' % (
                ind, name, read_expr(f), json))
        else:
            out.append('%sdo { %s } catch { throw error.prefixed(field: "%s") }\n' % (ind, skip_expr(f), json))
    out.append("            default:\n")
    out.append("                try reader.skipValue(tag: tag, context: context)\n")
    out.append("            }\n        }\n    }\n}\n\n")
    return "".join(out)


def holds_counts(name, seen=None):
    """Whether a value of message `name` can hold a repeated field, itself or in a message it holds."""
    seen = set() if seen is None else seen
    if name in seen:
        return False
    seen.add(name)
    m = MESSAGES[name]
    return any(f.repeated for f in m.fields) or any(
        holds_counts(f.short_type, seen) for f in m.fields if f.type == T_MESSAGE)


def gen_check_limits(m):
    """What a decoder with the context's limits would refuse in the value's canonical encoding.

    The walk follows the encoding: fields in number order, each entry of a
    repeated field in order, unknown fields last, and throws the first
    `limit.*` (or, for unknown bytes, `payload.*`) error `_merge` would throw
    reading those bytes, with the same path. An entry past a count limit is
    refused before it is looked at, as `_merge` refuses it before reading it.
    Without unknown fields anywhere in the value, a nested message that can
    hold no repeated field has nothing to refuse and is not visited.
    """
    # releasenone, as for sizing and writing, so entries are walked in place
    # rather than copied (a merger's messages were copied whole without it).
    # The walk releases nothing it is given; only on the way out of an error
    # does it release the errors it made itself while prefixing their paths.
    out = [RELEASE_NONE,
           "    @usableFromInline\n    package func _checkLimits(_ context: inout DecodeContext, unknownFields: Bool) throws(IMCodecError) {\n"]

    def visit(f, v, prefix, ind):
        s = "%sdo throws(IMCodecError) {\n" % ind
        layered = (m.name, f.name) in LAYER_FIELDS
        if layered:
            s += "%s    try context.enterLayer()\n" % ind
        s += "%s    try %s._checkLimits(&context, unknownFields: unknownFields)\n" % (ind, v)
        if layered:
            s += "%s    context.leaveLayer()\n" % ind
        s += '%s} catch { throw error.%s }\n' % (ind, prefix)
        return s

    for g in runs(m):
        if isinstance(g, list):
            members = [f for f in g if f.type == T_MESSAGE]
            counted = [f for f in members if holds_counts(f.short_type)]
            others = [f for f in members if not holds_counts(f.short_type)]
            # One member is set at most, so the two switches keep the order.
            for group, condition in ((counted, None), (others, "unknownFields")):
                if not group:
                    continue
                ind = "        "
                if condition:
                    out.append("        if %s {\n" % condition)
                    ind = "            "
                out.append("%sswitch %s {\n" % (ind, oneof_var(m, g[0])))
                for f in group:
                    out.append("%scase .%s(let value)?:\n" % (ind, escape(swift_name(f.name))))
                    out.append(visit(f, "value", 'prefixed(field: "%s")' % f.json_name, ind + "    "))
                out.append("%sdefault: break\n%s}\n" % (ind, ind))
                if condition:
                    out.append("        }\n")
            continue
        f = g
        v = "self." + escape(swift_name(f.name))
        if f.repeated:
            limit, code = limit_of(m, f)
            if f.type == T_MESSAGE:
                entry_prefix = 'prefixed(field: "%s", index: index)' % f.json_name
                # Through a buffer pointer, so each entry is walked in place:
                # an array subscript here copies the entry first.
                out.append("        try %s.withUnsafeBufferPointer { (entries) throws(IMCodecError) in\n" % v)
                out.append("            for index in entries.indices {\n")
                out.append("                if index >= context.limits.%s {\n" % limit)
                out.append("                    throw Self._overLimit(.%s, \"%s\", index, context.limits.%s)\n"
                           % (code, f.json_name, limit))
                out.append("                }\n")
                if holds_counts(f.short_type):
                    out.append(visit(f, "entries[index]", entry_prefix, "                "))
                else:
                    out.append("                guard unknownFields else { continue }\n")
                    out.append(visit(f, "entries[index]", entry_prefix, "                "))
                out.append("            }\n        }\n")
            else:
                out.append("        if %s.count > context.limits.%s {\n" % (v, limit))
                out.append("            throw Self._overLimit(.%s, \"%s\", context.limits.%s, context.limits.%s)\n"
                           % (code, f.json_name, limit, limit))
                out.append("        }\n")
        elif f.type == T_MESSAGE:
            condition = present_binding(f) if holds_counts(f.short_type) else "unknownFields, " + present_binding(f)
            out.append("        if %s {\n" % condition)
            out.append(visit(f, "value", 'prefixed(field: "%s")' % f.json_name, "            "))
            out.append("        }\n")
    out.append("        if !self.unknownFields.isEmpty { try self.unknownFields._checkLimits(context) }\n    }\n")
    return "".join(out)


# --------------------------------------------------------------------------
# Model+JSON.swift
# --------------------------------------------------------------------------


def gen_json_write(m):
    out = ["    @usableFromInline\n    package func _writeJSON(to writer: inout JSONWriter) {\n", "        writer.beginObject()\n"]
    for g in runs(m):
        if isinstance(g, list):
            out.append("        switch %s {\n" % oneof_var(m, g[0]))
            for f in g:
                out.append("        case .%s(let value)?:\n" % escape(swift_name(f.name)))
                out.append('            writer.key("%s")\n' % f.json_name)
                out.append("            %s\n" % json_write_stmt(f, "value"))
            out.append("        default: break\n        }\n")
            continue
        f = g
        v = "self." + escape(swift_name(f.name))
        if f.repeated:
            out.append("        if !%s.isEmpty {\n" % v)
            out.append('            writer.key("%s")\n            writer.beginArray()\n' % f.json_name)
            out.append("            for value in %s { %s }\n" % (v, json_write_stmt(f, "value")))
            out.append("            writer.endArray()\n        }\n")
        elif f.type == T_MESSAGE:
            out.append("        if %s {\n" % present_binding(f))
            out.append('            writer.key("%s")\n            value._writeJSON(to: &writer)\n        }\n'
                       % f.json_name)
        else:
            out.append("        if %s {\n" % is_default_check(f, v))
            out.append('            writer.key("%s")\n' % f.json_name)
            out.append("            %s\n        }\n" % json_write_stmt(f, v))
    out.append("        writer.endObject()\n    }\n")
    return "".join(out)


# Repeated fields whose entries a reader can take one at a time as they are
# read (MessageBatch._json(_:_:eachMessage:)), so that a batch is never held
# whole while it is validated or encoded.
STREAMED_FIELDS = {("MessageBatch", "messages")}


def gen_json_read(m, streamed=None):
    """The proto3 JSON decoder of `m`, read from the document in place (JSONReader): members in document order,
    each checked and decoded as it comes. With `streamed`, a repeated message field of `m`, the decoder is a
    static function that hands each entry of that field to `body` instead of keeping it."""
    ordered = sorted(m.fields, key=lambda f: f.number)
    if len(ordered) + len(m.oneofs) > 64:
        raise SystemExit("%s: more than 64 fields and oneofs" % m.name)
    if streamed is None:
        out = ["    @usableFromInline\n    package init(_json reader: inout JSONReader, _ context: inout JSONDecodeContext)"
               " throws(IMCodecError) {\n",
               "        self.init()\n"]
    else:
        if [f.name for f in ordered] != [streamed.name]:
            raise SystemExit("%s: a streamed decoder reads a message of one field only" % m.name)
        out = ["    /// Reads the proto3 JSON form of a `%s` as `init(_json:_:)` does, with the same checks and errors,\n"
               % m.name,
               "    /// handing each entry of `%s` to `body` as soon as it is read instead of keeping it.\n"
               % streamed.json_name,
               "    package static func _json(\n",
               "        _ reader: inout JSONReader, _ context: inout JSONDecodeContext,\n",
               "        each%s body: (%s, Int) -> Void\n" % (
                   streamed.json_name[:1].upper() + streamed.json_name[1:-1], streamed.short_type),
               "    ) throws(IMCodecError) {\n"]
    out += ["        var seen: UInt64 = 0\n",
            "        try JSONScalar.beginObject(&reader)\n",
            "        while let key = reader.nextKey() {\n",
            "            switch key {\n"]
    for i, f in enumerate(ordered):
        names = [f.json_name] + ([f.name] if f.name != f.json_name else [])
        out.append("            case %s:\n" % ", ".join('"%s"' % n for n in names))
        ind = "                "
        out.append("%stry JSONDecodeContext.markSeen(&seen, bit: %d, key: key)\n" % (ind, i))
        out.append("%sif reader.skipNull() { continue }\n" % ind)
        name = escape(swift_name(f.name))
        if f.oneof_index is not None:
            bit = len(ordered) + f.oneof_index
            out.append("%stry JSONDecodeContext.markSeen(&seen, bit: %d, key: key)\n" % (ind, bit))
            out.append("%sdo {\n%s    self.%s = .%s(%s)\n" % (ind, ind, oneof_var(m, f), name, json_read_expr(f)))
            out.append('%s} catch { throw error.prefixed(field: "%s") }\n' % (ind, f.json_name))
        elif f.repeated:
            limit, code = limit_of(m, f)
            layered = (m.name, f.name) in LAYER_FIELDS
            out.append("%slet count: Int?\n" % ind)
            out.append('%sdo { count = try JSONScalar.beginArray(&reader) } catch {'
                       ' throw error.prefixed(field: "%s") }\n' % (ind, f.json_name))
            # The error of the binary decoder for the first entry past the
            # limit, before any entry is read; the array's own length is not
            # told, as the first pass counts only as far as a reader looks.
            out.append("%sif let count, count > context.limits.%s {\n" % (ind, limit))
            out.append('%s    throw Self._overLimit(.%s, "%s", context.limits.%s, context.limits.%s)\n%s}\n'
                       % (ind, code, f.json_name, limit, limit, ind))
            if streamed is None:
                out.append("%sif let count { self.%s.reserveCapacity(count) }\n" % (ind, name))
            out.append("%svar index = 0\n" % ind)
            out.append("%swhile reader.nextEntry() {\n" % ind)
            out.append("%s    do {\n" % ind)
            if layered:
                out.append("%s        try context.enterLayer()\n" % ind)
            if streamed is not None and f is streamed:
                out.append("%s        body(%s, index)\n" % (ind, json_read_expr(f)))
            else:
                out.append("%s        self.%s.append(%s)\n" % (ind, name, json_read_expr(f)))
            if layered:
                out.append("%s        context.leaveLayer()\n" % ind)
            out.append('%s    } catch { throw error.prefixed(field: "%s", index: index) }\n' % (ind, f.json_name))
            out.append("%s    index += 1\n" % ind)
            out.append("%s}\n" % ind)
        else:
            out.append("%sdo {\n%s    self.%s = %s\n" % (ind, ind, name, json_read_expr(f)))
            out.append('%s} catch { throw error.prefixed(field: "%s") }\n' % (ind, f.json_name))
    out.append("            default:\n")
    out.append("                throw IMCodecError(\n")
    out.append("                    .jsonUnknownField, path: JSONDecodeContext.path(ofKey: key),\n")
    out.append('                    reason: "%s has no field named \\(key)")\n' % m.name)
    out.append("            }\n        }\n    }\n")
    return "".join(out)


# --------------------------------------------------------------------------
# Arbitrary.swift (test support)
# --------------------------------------------------------------------------


def arb_scalar(f):
    t = f.type
    if t == T_STRING: return "generator.string()"
    if t == T_BYTES: return "generator.bytes()"
    if t == T_BOOL: return "generator.bool()"
    if t == T_DOUBLE: return "generator.double()"
    if t == T_INT32: return "generator.int32()"
    if t == T_UINT32: return "generator.uint32()"
    if t == T_INT64: return "generator.int64()"
    if t == T_UINT64: return "generator.uint64()"
    if t == T_ENUM: return "%s(rawValue: generator.enumNumber(known: %s.knownValues.map(\\.rawValue)))" % (
        f.short_type, f.short_type)
    raise AssertionError(t)


def gen_arbitrary(m):
    out = ["extension %s: Arbitrary {\n" % m.name,
           "    public static func arbitrary(using generator: inout ValueGenerator) -> %s {\n" % m.name,
           "        var value = %s()\n" % m.name]
    done_oneofs = set()
    for f in sorted(m.fields, key=lambda f: f.number):
        name = escape(swift_name(f.name))
        if f.oneof_index is not None:
            o = f.oneof_index
            if o in done_oneofs:
                continue
            done_oneofs.add(o)
            members = [g for g in m.fields if g.oneof_index == o]
            out.append("        switch generator.choice(%d) {\n" % (len(members) + 1))
            for i, g in enumerate(members):
                expr = ("%s.arbitrary(using: &generator)" % g.short_type) if g.type == T_MESSAGE else arb_scalar(g)
                if g.type == T_MESSAGE:
                    out.append("        case %d:\n" % i)
                    out.append("            if generator.enterNested() {\n")
                    out.append("                value.%s = .%s(%s)\n" % (oneof_var(m, g), escape(swift_name(g.name)),
                                                                       expr))
                    out.append("                generator.leaveNested()\n            }\n")
                else:
                    out.append("        case %d: value.%s = .%s(%s)\n" % (i, oneof_var(m, g),
                                                                      escape(swift_name(g.name)), expr))
            out.append("        default: break\n        }\n")
            continue
        if f.type == T_MESSAGE:
            expr = "%s.arbitrary(using: &generator)" % f.short_type
            layered = (m.name, f.name) in LAYER_FIELDS
            enter = "generator.enterLayer()" if layered else "generator.enterNested()"
            leave = "generator.leaveLayer()" if layered else "generator.leaveNested()"
            if f.repeated:
                out.append("        if %s {\n" % enter)
                out.append("            for _ in 0..<generator.count() { value.%s.append(%s) }\n" % (name, expr))
                out.append("            %s\n        }\n" % leave)
            else:
                out.append("        if generator.setField(), %s {\n" % enter)
                out.append("            value.%s = %s\n            %s\n        }\n" % (name, expr, leave))
        elif f.repeated:
            out.append("        for _ in 0..<generator.count() { value.%s.append(%s) }\n" % (name, arb_scalar(f)))
        else:
            out.append("        if generator.setField() { value.%s = %s }\n" % (name, arb_scalar(f)))
    out.append("        value.unknownFields = generator.unknownFields()\n")
    out.append("        return value\n    }\n}\n")
    return "".join(out)


# --------------------------------------------------------------------------


# What is generated, by schema package: the Swift module's sources, and the
# prefix its type names get. The testee protocol's messages (Request, Limits,
# Finding ...) are prefixed so that they read unambiguously beside the model
# (TesteeRequest, TesteeLimits, TesteeFinding).
UNITS = [
    {
        "package": "imcodec.v1",
        "prefix": "",
        "imports": "",
        "model": "Sources/IMCodec/Generated/Model.swift",
        "binary": "Sources/IMCodec/Generated/Model+Binary.swift",
        "json": "Sources/IMCodec/Generated/Model+JSON.swift",
        "schema": "Sources/IMCodec/Generated/SchemaFields.swift",
        "reflection": "Sources/IMCodec/Generated/Model+Reflection.swift",
        "arbitrary": "Sources/IMCodecTestSupport/Generated/Arbitrary.swift",
        "envelope": True,
    },
    {
        "package": "imcodec.testee.v1",
        "prefix": "Testee",
        "imports": "import IMCodec\n\n",
        "model": "Sources/IMCodecTestee/Generated/Testee.swift",
        "binary": "Sources/IMCodecTestee/Generated/Testee+Binary.swift",
        "json": "Sources/IMCodecTestee/Generated/Testee+JSON.swift",
    },
]


def prefix_names(files, package, prefix):
    """Gives the package's messages and enums their Swift names (prefix + schema name).

    The schema name stays as `proto_name`, for protoMessageName and enum cases.
    """
    for f in files:
        for t in f.messages + f.enums:
            t.proto_name = t.name
            t.name = prefix + t.name
        for m in f.messages:
            for field in m.fields:
                scope = "." + package + "."
                if field.type_name.startswith(scope):
                    field.type_name = scope + prefix + field.type_name[len(scope):]


def generate(unit, descriptors):
    """The sources of one unit, by path relative to the repository."""
    global PACKAGE
    PACKAGE = unit["package"]
    files = [f for f in descriptors if f.package == PACKAGE]
    if not files:
        raise SystemExit("no file of package %s in the descriptor set" % PACKAGE)
    prefix_names(files, PACKAGE, unit["prefix"])
    header = HEADER % ", ".join("Schemas/" + f.name for f in files) + unit["imports"]
    enums = [e for f in files for e in f.enums]
    messages = [m for f in files for m in f.messages]
    MESSAGES.clear()
    MESSAGES.update((m.name, m) for m in messages)

    model = header + "\n".join([gen_enum(e) for e in enums] + [gen_message(m) for m in messages])
    binary = header
    for m in messages:
        binary += "extension %s: WireCodable {\n%s\n%s\n%s\n%s}\n\n" % (
            m.name, gen_size(m), gen_encode(m), gen_merge(m), gen_check_limits(m))
        if unit.get("envelope") and m.name == ENVELOPE["message"]:
            binary += gen_envelope(m)
        for f in sorted(m.fields, key=lambda f: f.number):
            if (m.name, f.name) in STREAMED_FIELDS:
                binary += ("extension %s {\n    /// The key (tag) of each entry of `%s` in the encoding, for a writer that encodes the entries\n"
                           "    /// one at a time (`_json(_:_:each%s:)`).\n"
                           "    package static let _%sKey: [UInt8] = [%s]\n}\n\n") % (
                    m.name, f.json_name, f.json_name[:1].upper() + f.json_name[1:-1], f.json_name,
                    ", ".join("0x%02X" % b for b in tag_bytes(f)))
    json = header
    for m in messages:
        streamed = [f for f in m.fields if (m.name, f.name) in STREAMED_FIELDS]
        json += "extension %s {\n%s\n%s%s}\n\n" % (
            m.name, gen_json_write(m), gen_json_read(m), "".join("\n" + gen_json_read(m, f) for f in streamed))
    outputs = {
        unit["model"]: model,
        unit["binary"]: binary.rstrip() + "\n",
        unit["json"]: json.rstrip() + "\n",
    }
    if "schema" in unit:
        outputs[unit["schema"]] = header + gen_schema_table(messages)
    if "reflection" in unit:
        outputs[unit["reflection"]] = header + gen_reflection(messages)
    if "arbitrary" in unit:
        outputs[unit["arbitrary"]] = header + "import IMCodec\n\n" + "\n".join(gen_arbitrary(m) for m in messages)
    return outputs


def write(descriptor_set, root=ROOT):
    """Writes every unit's files from the FileDescriptorSet in the file `descriptor_set`, under `root`."""
    descriptors = load(descriptor_set)
    for unit in UNITS:
        for rel, text in generate(unit, descriptors).items():
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)


def main():
    if len(sys.argv) not in (2, 3):
        raise SystemExit("usage: generate_swift.py DESCRIPTOR_SET [OUTPUT_ROOT]")
    write(sys.argv[1], sys.argv[2] if len(sys.argv) == 3 else ROOT)


def gen_schema_table(messages):
    out = ["/// The fields the generated model handles, by message: the schema as the\n",
           "/// generator saw it. Tests compare it with the swift-protobuf oracle's view\n",
           "/// of the same schema.\n",
           "package enum SchemaFields {\n",
           "    /// Field numbers and proto names of every message, keyed by full name.\n",
           "    package static let byMessage: [String: [(number: Int, name: String)]] = [\n"]
    for m in messages:
        out.append('        "%s.%s": [%s],\n' % (PACKAGE, m.name, ", ".join(
            '(%d, "%s")' % (f.number, f.name) for f in sorted(m.fields, key=lambda f: f.number))))
    out.append("    ]\n}\n")
    return "".join(out)


# --------------------------------------------------------------------------
# Model+Reflection.swift
# --------------------------------------------------------------------------


def reflected_read(m, f):
    """The `ReflectedScalar` expression of field `f` of `self`."""
    name = escape(swift_name(f.name))
    if f.oneof_index is not None:
        member = "case .%s(let value)? = self.%s" % (escape(swift_name(f.name)), oneof_var(m, f))
        if f.type == T_MESSAGE:
            return "if %s { return .present }\n            return .absent" % member.replace("(let value)", "")
        return "if %s { return %s }\n            return .absent" % (member, reflected_scalar(f, "value"))
    if f.repeated:
        if f.type == T_STRING:
            return "return .strings(self.%s)" % name
        return "return .count(self.%s.count)" % name
    if f.type == T_MESSAGE:
        storage = "_" + swift_name(f.name) if is_boxed(f) else name
        return "return self.%s == nil ? .absent : .present" % storage
    return "return " + reflected_scalar(f, "self." + name)


def reflected_scalar(f, v):
    if f.type == T_STRING:
        return ".string(%s)" % v
    if f.type == T_BYTES:
        return ".bytes(%s)" % v
    if f.type == T_BOOL:
        return ".bool(%s)" % v
    if f.type == T_DOUBLE:
        return ".double(%s)" % v
    if f.type == T_UINT64:
        return ".uint(%s)" % v
    if f.type == T_ENUM:
        return ".int(Int64(%s.rawValue))" % v
    return ".int(Int64(%s))" % v


def reflected_visit_body(m, f):
    """The statement that hands message field `f` of `self` (an entry `index` of a repeated one) to `visitor`."""
    name = escape(swift_name(f.name))
    if f.repeated:
        # The entry's own address in the array's storage: nothing is copied.
        return "self.%s.withUnsafeBufferPointer { if let base = $0.baseAddress { visitor.visit(base + index) } }" % name
    if f.oneof_index is not None:
        return ("if case .%s(let entry)? = self.%s { withUnsafePointer(to: entry) { visitor.visit($0) } }"
                % (name, oneof_var(m, f)))
    binding = present_binding(f).replace("let value", "let entry")
    return "if %s { withUnsafePointer(to: entry) { visitor.visit($0) } }" % binding


def gen_reflection(messages):
    """Every message's fields read by slot (its index in the message's declaration order), for the rule engine of
    IMCodecValidation: scalars as values, message fields visited through a generic visitor, so nothing is boxed."""
    out = ["/// The message types of the schema, in the order of their ``ReflectedMessage/reflectedType``.\n",
           "package enum ReflectedSchema {\n",
           "    /// The names of the message types (as in the schema), by type index.\n",
           "    package static let typeNames: [String] = [\n"]
    out += ['        "%s",\n' % getattr(m, "proto_name", m.name) for m in messages]
    out.append("    ]\n\n")
    out.append("    /// The proto names of each message type's fields, in slot order, by type index.\n")
    out.append("    package static let fieldNames: [[String]] = [\n")
    out += ["        [%s],\n" % ", ".join('"%s"' % f.name for f in m.fields) for m in messages]
    out.append("    ]\n}\n\n")
    for index, m in enumerate(messages):
        out.append("extension %s: ReflectedMessage {\n" % m.name)
        out.append("    @inlinable package static var reflectedType: Int { %d }\n\n" % index)
        out.append("    package func reflectedScalar(_ slot: Int) -> ReflectedScalar {\n        switch slot {\n")
        for i, f in enumerate(m.fields):
            out.append("        case %d:\n            %s\n" % (i, reflected_read(m, f)))
        out.append("        default: return .absent\n        }\n    }\n\n")
        message_fields = [(i, f) for i, f in enumerate(m.fields) if f.type == T_MESSAGE]
        # The static forms read each field through the pointer, so that only
        # the field is loaded, never the whole value.
        out.append("    package static func reflectedScalar(at pointer: UnsafeRawPointer, _ slot: Int) -> ReflectedScalar {\n"
                   "        let value = pointer.assumingMemoryBound(to: %s.self)\n        switch slot {\n" % m.name)
        for i, f in enumerate(m.fields):
            out.append("        case %d:\n            %s\n" % (i, reflected_read(m, f).replace("self.", "value.pointee.")))
        out.append("        default: return .absent\n        }\n    }\n\n")
        out.append("    package static func reflectedVisit<Visitor: ReflectedVisitor>(\n"
                   "        at pointer: UnsafeRawPointer, _ slot: Int, at index: Int, _ visitor: inout Visitor\n    ) {\n")
        static_fields = [(i, f) for i, f in enumerate(m.fields) if f.type == T_MESSAGE]
        if static_fields:
            out.append("        let value = pointer.assumingMemoryBound(to: %s.self)\n        switch slot {\n" % m.name)
            for i, f in static_fields:
                out.append("        case %d: %s\n" % (i, reflected_visit_body(m, f).replace("self.", "value.pointee.")))
            out.append("        default: break\n        }\n")
        out.append("    }\n\n")
        out.append("    package func reflectedVisit<Visitor: ReflectedVisitor>(\n"
                   "        _ slot: Int, at index: Int, _ visitor: inout Visitor\n    ) {\n")
        if message_fields:
            out.append("        switch slot {\n")
            for i, f in message_fields:
                out.append("        case %d: %s\n" % (i, reflected_visit_body(m, f)))
            out.append("        default: break\n        }\n")
        out.append("    }\n\n")
        out.append("    package func reflectedList(_ slot: Int) -> (any ReflectedList)? {\n")
        lists = [(i, f) for i, f in message_fields if f.repeated]
        if lists:
            out.append("        switch slot {\n")
            for i, f in lists:
                out.append("        case %d: return self.%s\n" % (i, escape(swift_name(f.name))))
            out.append("        default: return nil\n        }\n")
        else:
            out.append("        nil\n")
        out.append("    }\n\n")
        out.append("    package mutating func reflectedClear(_ slot: Int) {\n        switch slot {\n")
        for i, f in enumerate(m.fields):
            name = escape(swift_name(f.name))
            if f.oneof_index is not None:
                body = "if case .%s? = self.%s { self.%s = nil }" % (name, oneof_var(m, f), oneof_var(m, f))
            else:
                decl, default = member_decl(f)
                body = "self.%s = %s" % (name, default)
            out.append("        case %d: %s\n" % (i, body))
        out.append("        default: break\n        }\n    }\n\n")
        out.append("    package mutating func reflectedClear(_ slot: Int, inMessage child: Int) {\n")
        singular = [(i, f) for i, f in message_fields if not f.repeated]
        if singular:
            out.append("        switch slot {\n")
            for i, f in singular:
                name = escape(swift_name(f.name))
                if f.oneof_index is not None:
                    o = oneof_var(m, f)
                    body = ("if case .%s(var value)? = self.%s {\n                value.reflectedClear(child)\n"
                            "                self.%s = .%s(value)\n            }") % (name, o, o, name)
                else:
                    body = ("if var value = self.%s {\n                value.reflectedClear(child)\n"
                            "                self.%s = value\n            }") % (name, name)
                out.append("        case %d:\n            %s\n" % (i, body))
            out.append("        default: break\n        }\n")
        out.append("    }\n}\n\n")
    return "".join(out).rstrip() + "\n"


if __name__ == "__main__":
    main()
