/// A payload read as protobuf wire fields, without the schema: what the
/// differential mutator and shrinker edit, so that a change keeps every
/// enclosing length right.
///
/// A length-delimited field whose bytes read as fields again is kept as a
/// nested tree as well; whether it really is a message is for the
/// implementations to say, which is the point of sending it.
struct WireField: Sendable, Hashable {
    /// The field number.
    var number: UInt64
    /// 0 varint, 1 fixed64, 2 length-delimited, 5 fixed32 (3 and 4 are kept
    /// as raw bytes with the tag).
    var wireType: UInt8
    /// The value's bytes: a varint's encoding, the fixed bytes, or a
    /// length-delimited field's content (without its length).
    var value: [UInt8]
    /// The content read as fields, for a length-delimited field that reads
    /// as fields; nil otherwise.
    var children: [WireField]?

    /// The field's encoding, with lengths computed from the children when
    /// there are any.
    func encoded() -> [UInt8] {
        var out = WireTree.varint(number << 3 | UInt64(wireType))
        if wireType == 2 {
            let content = children.map(WireTree.encode) ?? value
            out += WireTree.varint(UInt64(content.count))
            out += content
        } else {
            out += value
        }
        return out
    }
}

/// Reading and writing payloads as ``WireField``s.
enum WireTree {
    /// How deep nested trees are read; deeper content stays bytes.
    static let maxDepth = 40

    /// The fields of `bytes`, or nil when they do not read as fields to the
    /// end (a truncated varint, a length past the end, wire type 6 or 7,
    /// field number 0, a group); content nested deeper than `limit` stays
    /// bytes.
    static func parse(_ bytes: [UInt8], depth: Int = 0, limit: Int = maxDepth) -> [WireField]? {
        var fields: [WireField] = []
        var index = 0
        while index < bytes.count {
            guard let (tag, afterTag) = readVarint(bytes, index) else { return nil }
            index = afterTag
            let wireType = UInt8(tag & 7)
            let number = tag >> 3
            guard number > 0 else { return nil }
            switch wireType {
            case 0:
                guard let (_, end) = readVarint(bytes, index) else { return nil }
                fields.append(WireField(number: number, wireType: 0, value: Array(bytes[index..<end])))
                index = end
            case 1, 5:
                let size = wireType == 1 ? 8 : 4
                guard bytes.count - index >= size else { return nil }
                fields.append(WireField(number: number, wireType: wireType, value: Array(bytes[index..<index + size])))
                index += size
            case 2:
                guard let (length, start) = readVarint(bytes, index), length <= UInt64(bytes.count - start) else {
                    return nil
                }
                let content = Array(bytes[start..<start + Int(length)])
                let children =
                    depth < limit && !content.isEmpty ? parse(content, depth: depth + 1, limit: limit) : nil
                fields.append(WireField(number: number, wireType: 2, value: content, children: children))
                index = start + Int(length)
            default:
                return nil
            }
        }
        return fields
    }

    /// The encoding of `fields`, in order.
    static func encode(_ fields: [WireField]) -> [UInt8] {
        fields.flatMap { $0.encoded() }
    }

    /// The minimal varint encoding of `value`.
    static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var out: [UInt8] = []
        while value >= 0x80 {
            out.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        out.append(UInt8(value))
        return out
    }

    /// A varint at `index`: its value (bits past 64 dropped) and the index
    /// after it, or nil when it runs past the end or past 10 bytes.
    static func readVarint(_ bytes: [UInt8], _ index: Int) -> (UInt64, Int)? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        var index = index
        while index < bytes.count, shift < 70 {
            let byte = bytes[index]
            if shift < 64 { value |= UInt64(byte & 0x7F) << shift }
            index += 1
            if byte < 0x80 { return (value, index) }
            shift += 7
        }
        return nil
    }

    /// Every field of the tree, depth first, as a path of indexes.
    static func paths(_ fields: [WireField], prefix: [Int] = []) -> [[Int]] {
        var out: [[Int]] = []
        for (index, field) in fields.enumerated() {
            let path = prefix + [index]
            out.append(path)
            if let children = field.children { out += paths(children, prefix: path) }
        }
        return out
    }

    /// The tree with the field at `path` changed by `change`; `change`
    /// returns the fields that take its place (none removes it).
    static func replacing(_ fields: [WireField], at path: [Int], _ change: (WireField) -> [WireField])
        -> [WireField]
    {
        guard let first = path.first, fields.indices.contains(first) else { return fields }
        var fields = fields
        if path.count == 1 {
            fields.replaceSubrange(first...first, with: change(fields[first]))
        } else if let children = fields[first].children {
            fields[first].children = replacing(children, at: Array(path.dropFirst()), change)
        }
        return fields
    }

    /// The field at `path`.
    static func field(_ fields: [WireField], at path: [Int]) -> WireField? {
        guard let first = path.first, fields.indices.contains(first) else { return nil }
        if path.count == 1 { return fields[first] }
        return fields[first].children.flatMap { field($0, at: Array(path.dropFirst())) }
    }
}
