import IMCodec

/// One key of a REST object and the model field it maps to.
///
/// The tables of `RESTForms` list the keys of each REST object in the order of
/// the documentation's tables; import, export, presence checks and the
/// translation of validator paths all read the same table.
package struct RESTKey<Model>: Sendable {
    /// A model field: a key path the tables can share across threads.
    typealias Field<FieldType> = WritableKeyPath<Model, FieldType> & Sendable

    /// How the key's JSON value maps to the model.
    enum Value: Sendable {
        /// A JSON string kept as a string.
        case string(Field<String>)
        /// A JSON string kept as its UTF-8 bytes (custom and face `Data`).
        case text(Field<[UInt8]>)
        /// A JSON integer 0 ... 2^32 - 1.
        case uint32(Field<UInt32>)
        /// A JSON integer -2^31 ... 2^31 - 1.
        case int32(Field<Int32>)
        /// Any JSON number, read as the nearest double.
        case double(Field<Double>)
        /// An image format: a JSON integer 0 ... 2^31 - 1.
        case imageFormat(Field<ImageFormat>)
        /// An image level type: the JSON integer 1, 2 or 3.
        case levelType(Field<ImageLevelType>)
        /// An array or object the caller reads itself.
        case nested
    }

    /// Whether the key must be present.
    enum Presence: Equatable, Sendable {
        /// Always present.
        case required
        /// Present or not; export writes it when it is not the default.
        case optional
        /// Present together with the other keys of the same group, or none of
        /// them (the current form of sound, file and video).
        case group
    }

    /// The key as the documentation spells it.
    package let name: String
    /// The model field's proto3 JSON name, for translating validator paths;
    /// empty when the key has no field of its own.
    package let field: String
    let value: Value
    let presence: Presence

    init(_ name: String, _ field: String, _ value: Value, _ presence: Presence = .required) {
        self.name = name
        self.field = field
        self.value = value
        self.presence = presence
    }
}

/// The keys of one REST object, in documentation order.
package struct RESTForm<Model>: Sendable {
    package let keys: [RESTKey<Model>]
    /// Every key name, in order.
    let names: [String]
    /// The positions in ``keys`` of the required keys, as bits.
    let requiredBits: UInt64
    /// The positions in ``keys`` of the group keys, as bits.
    let groupBits: UInt64

    init(_ keys: [RESTKey<Model>]) {
        precondition(keys.count <= 64, "a REST form has at most 64 keys")
        self.keys = keys
        self.names = keys.map(\.name)
        func bits(_ presence: RESTKey<Model>.Presence) -> UInt64 {
            keys.indices.reduce(0) { keys[$1].presence == presence ? $0 | 1 << $1 : $0 }
        }
        self.requiredBits = bits(.required)
        self.groupBits = bits(.group)
    }

    /// The key spelled `name`.
    func key(_ name: String) -> RESTKey<Model>? {
        keys.first { $0.name == name }
    }

    /// Whether the group keys are in use for `model`: some group field is not
    /// its default.
    func groupInUse(_ model: Model) -> Bool {
        keys.contains { $0.presence == .group && !RESTForm.isDefault($0.value, in: model) }
    }

    /// Whether the field behind `value` holds its default in `model`.
    static func isDefault(_ value: RESTKey<Model>.Value, in model: Model) -> Bool {
        switch value {
        case .string(let path): model[keyPath: path].isEmpty
        case .text(let path): model[keyPath: path].isEmpty
        case .uint32(let path): model[keyPath: path] == 0
        case .int32(let path): model[keyPath: path] == 0
        case .double(let path): model[keyPath: path] == 0 && model[keyPath: path].sign == .plus
        case .imageFormat(let path): model[keyPath: path].rawValue == 0
        case .levelType(let path): model[keyPath: path].rawValue == 0
        case .nested: true
        }
    }
}
