import IMCodec

/// The constraint declarations of `Schemas/` resolved: every name of the
/// JSON form of `generate_swift_rules.py` (``RuleTable/declarations``, in
/// the shape of `js/generated/rules.js`) bound to a type index, a field
/// slot, a limit index or an enum number, as a graph of objects.
///
/// It is the first stage of compiling a table; ``RuleTable`` flattens it
/// into the plain values the validator runs on.
struct DeclaredRules: Sendable {
    /// What a field holds.
    enum FieldKind: Sendable {
        case string, bytes, bool, double, number, enumeration, message
    }

    /// One field of a message type.
    final class Field: @unchecked Sendable {
        /// Its proto name.
        let name: String
        /// Its proto3 JSON name, as paths spell it.
        let json: String
        /// What it holds.
        let kind: FieldKind
        /// The message type's index for a message field, the enum's index
        /// for an enum field, else -1.
        let type: Int
        /// Whether it is repeated.
        let isRepeated: Bool
        /// The oneof it belongs to.
        let oneof: String?
        /// Its field number.
        let number: Int
        /// Whether its messages wait on the run's pending stack instead of
        /// being visited in place: the field that closes a cycle of the
        /// schema's types (a merger's messages).
        var isDeferred: Bool

        init(
            name: String, json: String, kind: FieldKind, type: Int, isRepeated: Bool, oneof: String?, number: Int,
            isDeferred: Bool
        ) {
            self.name = name
            self.json = json
            self.kind = kind
            self.type = type
            self.isRepeated = isRepeated
            self.oneof = oneof
            self.number = number
            self.isDeferred = isDeferred
        }
    }

    /// A field reference of a declaration (`field`, `a.b`, `^Type.field`,
    /// `^Type`, or a oneof's name).
    final class Reference: @unchecked Sendable {
        /// The type of the enclosing message `^Type` names.
        let enclosing: Int?
        /// The slots from the message read to the field: all but the last
        /// are singular message fields.
        let slots: [Int]
        /// The type each slot is read in.
        let holders: [Int]
        /// The slots of the oneof's members, when the reference names a oneof.
        let oneofSlots: [Int]
        /// The referenced field; `nil` for a oneof or `^Type` alone.
        let field: Field?
        /// The proto3 JSON names of the path, for findings.
        let jsonPath: [String]

        init(enclosing: Int?, slots: [Int], holders: [Int], oneofSlots: [Int], field: Field?, jsonPath: [String]) {
            self.enclosing = enclosing
            self.slots = slots
            self.holders = holders
            self.oneofSlots = oneofSlots
            self.field = field
            self.jsonPath = jsonPath
        }
    }

    /// A `Condition`.
    final class Condition: @unchecked Sendable {
        let reference: Reference
        /// `present`: whether the field must be set (true) or unset (false).
        let present: Bool?
        /// The numbers (and enum value names, as numbers) that match.
        let numbers: [Int64]
        /// The strings that match a string field.
        let strings: [String]
        let negate: Bool

        init(reference: Reference, present: Bool?, numbers: [Int64], strings: [String], negate: Bool) {
            self.reference = reference
            self.present = present
            self.numbers = numbers
            self.strings = strings
            self.negate = negate
        }
    }

    /// What a limit measures (docs/spec/validation.md, "Limits").
    enum Measure: String, Sendable {
        case utf8Bytes = "utf8_bytes", utf16Units = "utf16_units", value, entries, perKey = "per_key", flag
        case stringSet = "string_set", numberSet = "number_set", numberRange = "number_range", prefix
        case forbiddenPrefix = "forbidden_prefix", layers, encodedBytes = "encoded_bytes", exact
    }

    /// The named predicates (docs/spec/validation.md, "Named predicates").
    enum Predicate: String, Sendable {
        case scaledShortSide = "image.scaled-short-side"
        case addSource = "add-source"
        case atType = "at-type"
    }

    /// A `Limit`.
    final class Limit: @unchecked Sendable {
        let name: String
        let code: FindingCode
        let severity: ValidationFinding.Severity
        let measure: Measure
        let predicate: Predicate?
        /// The index of the prefix limit an `after_prefix` names.
        let afterPrefix: Int?
        /// The byte ranges of a `charset`.
        let charset: [ClosedRange<UInt8>]
        /// Whether it applies to the REST form only.
        let isRESTOnly: Bool
        /// `sum_with`: sibling field names.
        let sumWith: [String]
        /// `exclude`: (type, slot) of the fields left out of encoded sizes.
        let exclude: [(type: Int, slot: Int)]
        /// The index of its property in ``ValidationLimits/boundNames``.
        let property: Int
        /// Its value in each profile, as declared.
        let values: [String: JSONValue]

        init(
            name: String, code: FindingCode, severity: ValidationFinding.Severity, measure: Measure,
            predicate: Predicate?, afterPrefix: Int?, charset: [ClosedRange<UInt8>], isRESTOnly: Bool,
            sumWith: [String], exclude: [(type: Int, slot: Int)], property: Int, values: [String: JSONValue]
        ) {
            self.name = name
            self.code = code
            self.severity = severity
            self.measure = measure
            self.predicate = predicate
            self.afterPrefix = afterPrefix
            self.charset = charset
            self.isRESTOnly = isRESTOnly
            self.sumWith = sumWith
            self.exclude = exclude
            self.property = property
            self.values = values
        }
    }

    /// Where a finding of an applied limit is reported.
    enum Report: String, Sendable {
        case field, holder, entry, firstExcess = "first_excess"
    }

    /// A limit applied to a field (or, without one, to its message).
    final class Applied: @unchecked Sendable {
        let limit: Int
        let when: [Condition]
        let report: Report
        /// The slot of `entry_field` in the entries' type.
        let entryField: Int?
        let key: Reference?
        let countWhen: [Condition]
        /// The slots of the limit's `sum_with` fields in the holder.
        let sumWith: [Int]

        init(
            limit: Int, when: [Condition], report: Report, entryField: Int?, key: Reference?, countWhen: [Condition],
            sumWith: [Int]
        ) {
            self.limit = limit
            self.when = when
            self.report = report
            self.entryField = entryField
            self.key = key
            self.countWhen = countWhen
            self.sumWith = sumWith
        }
    }

    /// The field rules of one field.
    final class FieldRules: @unchecked Sendable {
        let slot: Int
        let nonEmpty: FindingCode?
        let range: (code: FindingCode, min: Double, max: Double)?
        /// The numbers of a `defined_enum` field's enum.
        let definedEnum: Set<Int64>?
        let isDiscriminator: Bool
        let discriminatorWhen: [Condition]
        let namedValues: (code: FindingCode, numbers: Set<Int64>)?
        let applied: [Applied]

        init(
            slot: Int, nonEmpty: FindingCode?, range: (code: FindingCode, min: Double, max: Double)?,
            definedEnum: Set<Int64>?, isDiscriminator: Bool, discriminatorWhen: [Condition],
            namedValues: (code: FindingCode, numbers: Set<Int64>)?, applied: [Applied]
        ) {
            self.slot = slot
            self.nonEmpty = nonEmpty
            self.range = range
            self.definedEnum = definedEnum
            self.isDiscriminator = isDiscriminator
            self.discriminatorWhen = discriminatorWhen
            self.namedValues = namedValues
            self.applied = applied
        }
    }

    /// A check's form.
    enum Form: String, Sendable {
        case absent, present, atLeastOne = "at_least_one", atMostOne = "at_most_one"
        case equalsCount = "equals_count", notAbove = "not_above", unique
        case entriesPresent = "entries_present", entriesAbsent = "entries_absent", predicate
    }

    /// What an `ABSENT` finding carries as `actual`.
    enum Actual: String, Sendable {
        case none, count, value
    }

    /// A check of a `MessageRule`.
    final class Check: @unchecked Sendable {
        let code: FindingCode
        let form: Form
        let fields: [Reference]
        let when: [Condition]
        /// `at`: `.` (the message itself) is a reference with no slot.
        let at: Reference?
        let numbers: [Int64]?
        let predicate: Predicate?
        /// For the entry forms: `fields[1]` read in an entry of `fields[0]`.
        let entryReference: Reference?
        let entryWhen: [Condition]
        let actual: Actual

        init(
            code: FindingCode, form: Form, fields: [Reference], when: [Condition], at: Reference?, numbers: [Int64]?,
            predicate: Predicate?, entryReference: Reference?, entryWhen: [Condition], actual: Actual
        ) {
            self.code = code
            self.form = form
            self.fields = fields
            self.when = when
            self.at = at
            self.numbers = numbers
            self.predicate = predicate
            self.entryReference = entryReference
            self.entryWhen = entryWhen
            self.actual = actual
        }
    }

    /// A message type with its declarations.
    final class MessageType: @unchecked Sendable {
        var name: String
        /// The fields by slot.
        var fields: [Field]
        /// Its message-level limits.
        var limits: [Applied]
        var checks: [Check]
        /// Field rules in the table's order.
        var fieldRules: [FieldRules]
        /// The slots of its message fields, in field order: what the walk visits.
        var messageSlots: [Int]
        /// Whether messages of this type are the entries of a deferred field.
        var isDeferredTarget: Bool
        /// The layer limits of its repeated message fields: (slot, limit index).
        var layerLimits: [(slot: Int, limit: Int)] = []

        init(
            name: String, fields: [Field], limits: [Applied], checks: [Check], fieldRules: [FieldRules],
            messageSlots: [Int], isDeferredTarget: Bool, layerLimits: [(slot: Int, limit: Int)] = []
        ) {
            self.name = name
            self.fields = fields
            self.limits = limits
            self.checks = checks
            self.fieldRules = fieldRules
            self.messageSlots = messageSlots
            self.isDeferredTarget = isDeferredTarget
            self.layerLimits = layerLimits
        }
    }

    /// The message types, by ``ReflectedMessage/reflectedType``.
    var types: [MessageType]
    /// The limits.
    var limits: [Limit]
    /// The names of each enum's values, by number, by enum index.
    var enumNames: [[Int64: String]]
    /// The enums' indices by name.
    var enumIndex: [String: Int]
    /// The severity of each code.
    var severities: [String: ValidationFinding.Severity]
    /// The code of a `defined_enum` finding.
    var definedEnumCode = FindingCode("")
    /// The code of a `discriminator` finding.
    var discriminatorCode = FindingCode("")
    /// The fields the named predicates read.
    var predicateFields = PredicateFields()
}

/// Why a rule table does not compile.
struct RuleTableError: Error, CustomStringConvertible {
    var description: String
}

extension JSONValue {
    fileprivate subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    fileprivate var members: [Member] {
        if case .object(let members) = self { return members }
        return []
    }

    fileprivate var elements: [JSONValue] {
        if case .array(let elements) = self { return elements }
        return []
    }

    fileprivate var text: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    fileprivate var number: Double? {
        if case .number(let text) = self { return Double(text) }
        return nil
    }

    fileprivate var flag: Bool {
        if case .bool(let value) = self { return value }
        return false
    }
}

extension DeclaredRules {
    /// Compiles a table in the JSON form of `generate_swift_rules.py`.
    ///
    /// - Parameter json: The table's text.
    /// - Throws: ``RuleTableError`` for a table that names a type, field,
    ///   limit or enum value the schema does not have.
    init(json: String) throws {
        let root: JSONValue
        do {
            root = try JSONValue(parsing: Array(json.utf8))
        } catch {
            throw RuleTableError(description: "not JSON: \(error)")
        }
        try self.init(root: root)
    }

    private init(root: JSONValue) throws {
        func fail(_ text: String) -> RuleTableError { RuleTableError(description: text) }
        var severities: [String: ValidationFinding.Severity] = [:]
        for member in root["severities"]?.members ?? [] {
            severities[member.key] = member.value.text == "warning" ? .warning : .error
        }
        self.severities = severities
        var enumNames: [[Int64: String]] = []
        var enumIndex: [String: Int] = [:]
        for member in root["enums"]?.members ?? [] {
            var names: [Int64: String] = [:]
            for value in member.value.members {
                guard let number = Int64(value.key), let name = value.value.text else {
                    throw fail("enum \(member.key)")
                }
                names[number] = name
            }
            enumIndex[member.key] = enumNames.count
            enumNames.append(names)
        }
        self.enumNames = enumNames
        self.enumIndex = enumIndex

        // Types by the schema's reflection, fields by slot.
        let typeIndex = Dictionary(
            uniqueKeysWithValues: ReflectedSchema.typeNames.enumerated().map { ($0.element, $0.offset) })
        let declared = root["messages"]?.members ?? []
        var rows: [String: [JSONValue]] = [:]
        for member in declared {
            rows[member.key] = member.value["fields"]?.elements ?? []
        }
        var types: [MessageType] = []
        for (index, name) in ReflectedSchema.typeNames.enumerated() {
            guard let fieldRows = rows[name] else { throw fail("the table has no type \(name)") }
            var fields: [Field] = []
            for slotName in ReflectedSchema.fieldNames[index] {
                guard let row = fieldRows.first(where: { $0.elements.first?.text == slotName }) else {
                    throw fail("the table has no field \(name).\(slotName)")
                }
                let cells = row.elements
                guard cells.count == 6, let json = cells[1].text, let typeName = cells[2].text,
                    let number = cells[5].number
                else { throw fail("field row \(name).\(slotName)") }
                let kind: FieldKind
                var type = -1
                switch typeName {
                case "string": kind = .string
                case "bytes": kind = .bytes
                case "bool": kind = .bool
                case "double": kind = .double
                case "int32", "uint32", "int64", "uint64": kind = .number
                default:
                    if let enumeration = enumIndex[typeName] {
                        kind = .enumeration
                        type = enumeration
                    } else if let message = typeIndex[typeName] {
                        kind = .message
                        type = message
                    } else {
                        throw fail("field \(name).\(slotName) has type \(typeName)")
                    }
                }
                fields.append(
                    Field(
                        name: slotName, json: json, kind: kind, type: type, isRepeated: cells[3].flag,
                        oneof: cells[4].text, number: Int(number), isDeferred: false))
            }
            types.append(
                MessageType(
                    name: name, fields: fields, limits: [], checks: [], fieldRules: [],
                    messageSlots: fields.indices.filter { fields[$0].kind == .message }, isDeferredTarget: false))
        }
        // The deferred fields: walking the types depth first from those no
        // field holds (the roots of every value), in schema order, each field
        // that leads back to a type the walk is still inside. Every cycle of
        // the schema has one, so the rest of the walk nests only as deep as
        // the types do.
        var held = Set<Int>()
        for type in types { for slot in type.messageSlots { held.insert(type.fields[slot].type) } }
        var state = [Int](repeating: 0, count: types.count)  // 0 unseen, 1 inside, 2 done
        func walk(_ type: Int) {
            state[type] = 1
            for slot in types[type].messageSlots {
                let target = types[type].fields[slot].type
                if state[target] == 1 {
                    types[type].fields[slot].isDeferred = true
                    types[target].isDeferredTarget = true
                } else if state[target] == 0 {
                    walk(target)
                }
            }
            state[type] = 2
        }
        for type in types.indices where !held.contains(type) && state[type] == 0 { walk(type) }
        for type in types.indices where state[type] == 0 { walk(type) }
        for type in types.indices {
            for slot in types[type].messageSlots where types[type].fields[slot].isDeferred {
                guard types[type].fields[slot].isRepeated else {
                    throw fail(
                        "\(types[type].name).\(types[type].fields[slot].name) closes a cycle but is not repeated")
                }
            }
        }
        self.types = types
        self.limits = []

        // Limits.
        var limitIndex: [String: Int] = [:]
        let propertyIndex = Dictionary(
            uniqueKeysWithValues: ValidationLimits.boundNames.enumerated().map { ($0.element, $0.offset) })
        let limitMembers = root["limits"]?.members ?? []
        for (index, member) in limitMembers.enumerated() { limitIndex[member.key] = index }
        for member in limitMembers {
            let entry = member.value
            guard let code = entry["code"]?.text, let measureName = entry["measure"]?.text,
                let measure = Measure(rawValue: measureName)
            else { throw fail("limit \(member.key)") }
            var predicate: Predicate?
            if let name = entry["predicate"]?.text {
                guard let known = Predicate(rawValue: name) else { throw fail("predicate \(name)") }
                predicate = known
            }
            var afterPrefix: Int?
            if let name = entry["afterPrefix"]?.text {
                guard let index = limitIndex[name] else { throw fail("after_prefix \(name)") }
                afterPrefix = index
            }
            var charset: [ClosedRange<UInt8>] = []
            if let text = entry["charset"]?.text {
                let bytes = Array(text.utf8)
                for pair in stride(from: 0, to: bytes.count - 1, by: 2) {
                    charset.append(bytes[pair]...bytes[pair + 1])
                }
            }
            var exclude: [(type: Int, slot: Int)] = []
            for item in entry["exclude"]?.elements ?? [] {
                let parts = (item.text ?? "").split(separator: ".").map(String.init)
                guard parts.count == 2, let type = typeIndex[parts[0]],
                    let slot = types[type].fields.firstIndex(where: { $0.name == parts[1] })
                else { throw fail("exclude \(item)") }
                exclude.append((type, slot))
            }
            var values: [String: JSONValue] = [:]
            for value in entry["values"]?.members ?? [] { values[value.key] = value.value }
            limits.append(
                Limit(
                    name: member.key, code: FindingCode(code), severity: severities[code] ?? .error,
                    measure: measure, predicate: predicate, afterPrefix: afterPrefix, charset: charset,
                    isRESTOnly: entry["appliesTo"] != nil, sumWith: entry["sumWith"]?.elements.compactMap(\.text) ?? [],
                    exclude: exclude, property: propertyIndex[member.key] ?? -1, values: values))
        }

        // Declarations.
        for member in declared {
            guard let type = typeIndex[member.key] else { throw fail("type \(member.key)") }
            let body = member.value
            for item in body["limits"]?.elements ?? [] {
                self.types[type].limits.append(try applied(item, in: type, field: nil, limitIndex: limitIndex))
            }
            for item in body["checks"]?.elements ?? [] {
                self.types[type].checks.append(try check(item, in: type))
            }
            for rule in body["fieldRules"]?.members ?? [] {
                guard let slot = self.types[type].fields.firstIndex(where: { $0.name == rule.key }) else {
                    throw fail("field rule of \(member.key).\(rule.key)")
                }
                let value = rule.value
                let field = self.types[type].fields[slot]
                var range: (code: FindingCode, min: Double, max: Double)?
                if let item = value["range"] {
                    guard let code = item["code"]?.text, let low = item["min"]?.number,
                        let high = item["max"]?.number
                    else { throw fail("range of \(member.key).\(rule.key)") }
                    range = (FindingCode(code), low, high)
                }
                var definedEnum: Set<Int64>?
                if value["definedEnum"]?.flag == true {
                    guard field.kind == .enumeration else { throw fail("defined_enum on \(rule.key)") }
                    definedEnum = Set(enumNames[field.type].keys)
                }
                var namedValues: (code: FindingCode, numbers: Set<Int64>)?
                if let named = value["namedValues"] {
                    guard let code = named["code"]?.text, let name = named["enum"]?.text,
                        let enumeration = enumIndex[name]
                    else { throw fail("named_values of \(rule.key)") }
                    namedValues = (FindingCode(code), Set(enumNames[enumeration].keys))
                }
                var applied: [Applied] = []
                for item in value["applied"]?.elements ?? [] {
                    applied.append(try self.applied(item, in: type, field: slot, limitIndex: limitIndex))
                }
                let rules = FieldRules(
                    slot: slot, nonEmpty: value["nonEmpty"]?.text.map { FindingCode($0) }, range: range,
                    definedEnum: definedEnum, isDiscriminator: value["discriminator"]?.flag ?? false,
                    discriminatorWhen: try conditions(value["discriminatorWhen"], in: type), namedValues: namedValues,
                    applied: applied)
                self.types[type].fieldRules.append(rules)
            }
        }
        for type in self.types.indices {
            for rules in self.types[type].fieldRules {
                for applied in rules.applied where limits[applied.limit].measure == .layers {
                    self.types[type].layerLimits.append((rules.slot, applied.limit))
                }
            }
        }
        guard let definedEnum = root["fieldRuleCodes"]?["definedEnum"]?.text,
            let discriminator = root["fieldRuleCodes"]?["discriminator"]?.text
        else { throw fail("the table names no field rule codes") }
        definedEnumCode = FindingCode(definedEnum)
        discriminatorCode = FindingCode(discriminator)
        predicateFields = PredicateFields(self)
    }

    /// Resolves a field reference read in a message of type `type`.
    func reference(_ text: String, in type: Int) throws -> Reference {
        func fail() -> RuleTableError { RuleTableError(description: "reference \(text) in \(types[type].name)") }
        var rest = Substring(text)
        var holder = type
        var enclosing: Int?
        if rest.hasPrefix("^") {
            let name = rest.dropFirst().prefix { $0 != "." }
            guard let index = types.firstIndex(where: { $0.name == name }) else { throw fail() }
            enclosing = index
            holder = index
            rest = rest.dropFirst(name.count + 1)
            if rest.isEmpty {
                return Reference(
                    enclosing: index, slots: [], holders: [], oneofSlots: [], field: nil, jsonPath: [])
            }
            rest = rest.dropFirst()
        }
        var slots: [Int] = []
        var holders: [Int] = []
        var jsonPath: [String] = []
        let parts = rest.split(separator: ".").map(String.init)
        for (index, part) in parts.enumerated() {
            let fields = types[holder].fields
            if index == parts.count - 1, !fields.contains(where: { $0.name == part }) {
                let members = fields.indices.filter { fields[$0].oneof == part }
                guard !members.isEmpty else { throw fail() }
                return Reference(
                    enclosing: enclosing, slots: slots, holders: holders, oneofSlots: members, field: nil,
                    jsonPath: jsonPath)
            }
            guard let slot = fields.firstIndex(where: { $0.name == part }) else { throw fail() }
            slots.append(slot)
            holders.append(holder)
            jsonPath.append(fields[slot].json)
            if index < parts.count - 1 {
                guard fields[slot].kind == .message, !fields[slot].isRepeated else { throw fail() }
                holder = fields[slot].type
            }
        }
        guard let last = slots.last, let lastHolder = holders.last else { throw fail() }
        return Reference(
            enclosing: enclosing, slots: slots, holders: holders, oneofSlots: [],
            field: types[lastHolder].fields[last], jsonPath: jsonPath)
    }

    private func conditions(_ value: JSONValue?, in type: Int) throws -> [Condition] {
        try (value?.elements ?? []).map { item in
            guard let field = item["field"]?.text else { throw RuleTableError(description: "condition \(item)") }
            let reference = try reference(field, in: type)
            var numbers = (item["numbers"]?.elements ?? []).compactMap { $0.number.map { Int64($0) } }
            var strings = (item["strings"]?.elements ?? []).compactMap(\.text)
            if let target = reference.field, target.kind == .enumeration {
                let names = enumNames[target.type]
                for name in strings {
                    if let number = names.first(where: { $0.value == name })?.key { numbers.append(number) }
                }
                strings = []
            }
            return Condition(
                reference: reference, present: item["present"].map(\.flag), numbers: numbers, strings: strings,
                negate: item["negate"]?.flag ?? false)
        }
    }

    private func applied(_ item: JSONValue, in type: Int, field: Int?, limitIndex: [String: Int]) throws -> Applied {
        guard let name = item["limit"]?.text, let limit = limitIndex[name] else {
            throw RuleTableError(description: "applied limit \(item)")
        }
        var entryField: Int?
        if let entry = item["entryField"]?.text {
            guard let field, types[type].fields[field].kind == .message,
                let slot = types[types[type].fields[field].type].fields.firstIndex(where: { $0.name == entry })
            else { throw RuleTableError(description: "entry_field \(entry)") }
            entryField = slot
        }
        var countWhen: [Condition] = []
        if let value = item["countWhen"] {
            guard let field, types[type].fields[field].kind == .message else {
                throw RuleTableError(description: "count_when of \(name)")
            }
            countWhen = try conditions(value, in: types[type].fields[field].type)
        }
        let sumWith = try limits[limit].sumWith.map { sibling in
            guard let slot = types[type].fields.firstIndex(where: { $0.name == sibling }) else {
                throw RuleTableError(description: "sum_with \(sibling)")
            }
            return slot
        }
        return Applied(
            limit: limit, when: try conditions(item["when"], in: type),
            report: Report(rawValue: item["report"]?.text ?? "field") ?? .field, entryField: entryField,
            key: try item["key"]?.text.map { try reference($0, in: type) }, countWhen: countWhen, sumWith: sumWith)
    }

    private func check(_ item: JSONValue, in type: Int) throws -> Check {
        guard let code = item["code"]?.text, let formName = item["form"]?.text, let form = Form(rawValue: formName)
        else { throw RuleTableError(description: "check \(item)") }
        let names = (item["fields"]?.elements ?? []).compactMap(\.text)
        var fields: [Reference] = []
        var entryReference: Reference?
        var entryWhen: [Condition] = []
        switch form {
        case .unique, .entriesPresent, .entriesAbsent:
            guard names.count == 2 else { throw RuleTableError(description: "check \(code) needs two fields") }
            let list = try reference(names[0], in: type)
            guard let field = list.field, field.kind == .message, field.isRepeated else {
                throw RuleTableError(description: "check \(code): \(names[0]) is no message list")
            }
            fields = [list]
            entryReference = try reference(names[1], in: field.type)
            entryWhen = try conditions(item["entryWhen"], in: field.type)
        default:
            fields = try names.map { try reference($0, in: type) }
        }
        var at: Reference?
        if let text = item["at"]?.text {
            at =
                text == "."
                ? Reference(enclosing: nil, slots: [], holders: [], oneofSlots: [], field: nil, jsonPath: [])
                : try reference(text, in: type)
        }
        var predicate: Predicate?
        if let name = item["predicate"]?.text {
            guard let known = Predicate(rawValue: name) else { throw RuleTableError(description: "predicate \(name)") }
            predicate = known
        }
        return Check(
            code: FindingCode(code), form: form, fields: fields, when: try conditions(item["when"], in: type), at: at,
            numbers: item["numbers"].map { $0.elements.compactMap { $0.number.map { Int64($0) } } },
            predicate: predicate, entryReference: entryReference, entryWhen: entryWhen,
            actual: Actual(rawValue: item["actual"]?.text ?? "none") ?? .none)
    }
}
