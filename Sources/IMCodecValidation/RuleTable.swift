import IMCodec

/// The constraint declarations of `Schemas/`, compiled for ``ValidationRun``:
/// every name resolved once to a type index, a field slot, a limit index or
/// an enum number, so that validating a value looks nothing up by string.
///
/// The table is plain values: each kind of entry (fields, references,
/// conditions, applied limits, checks, field rules) sits in one array, and an
/// entry names the entries it holds as a ``Span`` of another array, so that
/// walking the table copies numbers and counts no references. (Held as
/// objects, the same table spent a third of the validator's time retaining
/// and releasing them: docs/PERFORMANCE.md, "Validation".)
///
/// The library's table is compiled from the generated declarations
/// (``RuleTable/declarations``, written by
/// `scripts/codegen/generate_swift_rules.py` in the shape of
/// `js/generated/rules.js`) through ``DeclaredRules``; a developer tool may
/// compile another.
final class RuleTable: Sendable {
    typealias FieldKind = DeclaredRules.FieldKind
    typealias Measure = DeclaredRules.Measure
    typealias Predicate = DeclaredRules.Predicate
    typealias Report = DeclaredRules.Report
    typealias Form = DeclaredRules.Form
    typealias Actual = DeclaredRules.Actual

    /// Consecutive entries of one of the table's arrays.
    struct Span: Sendable {
        var start: Int32 = 0
        var count: Int32 = 0

        /// The entries' indices.
        var indices: Range<Int> { Int(start)..<Int(start) + Int(count) }
        var isEmpty: Bool { count == 0 }
    }

    /// One field of a message type.
    struct Field: Sendable {
        var kind: FieldKind
        /// The message type's index for a message field, the enum's index
        /// for an enum field, else -1.
        var type: Int
        var isRepeated: Bool
        /// Whether it belongs to a oneof.
        var isOneofMember: Bool
        /// Its field number.
        var number: Int
        /// Whether its messages wait on the run's pending stack instead of
        /// being visited in place (``DeclaredRules/Field/isDeferred``).
        var isDeferred: Bool
        /// Its proto3 JSON name, as paths spell it: an index in ``strings``.
        var json: Int32
    }

    /// A field reference of a declaration (``DeclaredRules/Reference``).
    struct Reference: Sendable {
        /// The type of the enclosing message `^Type` names, or -1.
        var enclosing: Int32
        /// The slots from the message read to the field (``ints``).
        var slots: Span
        /// The slots of the oneof's members, when it names a oneof (``ints``).
        var oneofSlots: Span
        /// The referenced field (``fields``), or -1 for a oneof or `^Type` alone.
        var field: Int32
        /// The proto3 JSON names of the path (``strings``).
        var jsonPath: Span
        /// The slot, when the reference is one field of the message read
        /// itself (the common case, read without a walk); else -1.
        var directSlot: Int32
    }

    /// A `Condition`.
    struct Condition: Sendable {
        /// ``references``.
        var reference: Int32
        /// `present`: 1 when the field must be set, 0 when unset, -1 when
        /// the condition compares values instead.
        var present: Int8
        /// The numbers (and enum value names, as numbers) that match (``numbers``).
        var numbers: Span
        /// The strings that match a string field (``strings``).
        var strings: Span
        var negate: Bool
    }

    /// A field of a sub-message left out of an encoded size.
    struct Exclusion: Sendable {
        var type: Int
        var slot: Int
    }

    /// Where an exclusion applies: field `child` of the message in the
    /// singular message field `slot` of a message of type `holder`.
    struct ExclusionSite: Sendable {
        var holder: Int
        var slot: Int
        var child: Int
    }

    /// A `Limit`.
    struct Limit: Sendable {
        /// ``codes``.
        var code: Int32
        var severity: ValidationFinding.Severity
        var measure: Measure
        var predicate: Predicate?
        /// The index of the prefix limit an `after_prefix` names, or -1.
        var afterPrefix: Int32
        /// The byte ranges of a `charset` (``charsets``).
        var charset: Span
        /// Whether it applies to the REST form only.
        var isRESTOnly: Bool
        /// `exclude` (``exclusions``).
        var exclude: Span
        /// The places its exclusions apply, in every type
        /// (``exclusionSites``).
        var excludeSites = Span()
        /// The index of its property in ``ValidationLimits/boundNames``, or -1.
        var property: Int
    }

    /// A limit applied to a field (or, without one, to its message).
    struct Applied: Sendable {
        /// ``limits``.
        var limit: Int32
        /// ``conditions``.
        var when: Span
        var report: Report
        /// The slot of `entry_field` in the entries' type, or -1.
        var entryField: Int32
        /// ``references``, or -1.
        var key: Int32
        /// ``conditions``, read in an entry.
        var countWhen: Span
        /// The slots of the limit's `sum_with` fields in the holder (``ints``).
        var sumWith: Span
    }

    /// The field rules of one field.
    struct FieldRules: Sendable {
        var slot: Int
        /// ``codes``, or -1 for each optional rule.
        var nonEmpty: Int32
        var rangeCode: Int32
        var rangeMin: Double
        var rangeMax: Double
        /// The numbers of a `defined_enum` field's enum (``numberSets``), or -1.
        var definedEnum: Int32
        var isDiscriminator: Bool
        /// ``conditions``.
        var discriminatorWhen: Span
        var namedValuesCode: Int32
        /// ``numberSets``.
        var namedValues: Int32
        /// ``applied``.
        var applied: Span

        /// Whether any rule besides the applied limits reads the value.
        var readsValue: Bool {
            nonEmpty >= 0 || rangeCode >= 0 || definedEnum >= 0 || isDiscriminator || namedValuesCode >= 0
        }
    }

    /// A check of a `MessageRule`.
    struct Check: Sendable {
        /// ``codes``.
        var code: Int32
        var form: Form
        /// Reference indices (``ints``).
        var fields: Span
        /// ``conditions``.
        var when: Span
        /// `at` (``references``; `.` is a reference with no slot), or -1.
        var at: Int32
        /// The numbers a `unique` check compares (``numbers``), when `hasNumbers`.
        var numbers: Span
        var hasNumbers: Bool
        var predicate: Predicate?
        /// For the entry forms: `fields[1]` read in an entry of `fields[0]`
        /// (``references``), or -1.
        var entryReference: Int32
        /// ``conditions``.
        var entryWhen: Span
        var actual: Actual
    }

    /// A message field as the walk visits it (``MessageType/children``).
    struct Child: Sendable {
        var slot: Int
        var isRepeated: Bool
        var isOneofMember: Bool
        /// Whether its entries wait on the run's pending stack.
        var isDeferred: Bool
        /// Whether its type is a deferred field's entry type, whose visit
        /// then drains what it deferred.
        var drains: Bool
    }

    /// A message type with its declarations.
    struct MessageType: Sendable {
        /// The fields by slot (``fields``).
        var fields: Span
        /// Its message-level limits (``applied``).
        var limits: Span
        /// ``checks``.
        var checks: Span
        /// Field rules in the table's order (``fieldRules``).
        var fieldRules: Span
        /// The slots of its message fields, in field order: what the walk
        /// visits (``ints``).
        var messageSlots: Span
        /// ``messageSlots`` as the walk reads them (``children``).
        var children = Span()
        /// Whether messages of this type are the entries of a deferred field.
        var isDeferredTarget: Bool
        /// The layer limits of its repeated message fields: pairs of a slot
        /// and a limit index (``ints``).
        var layerLimits: Span
    }

    /// The message types, by ``ReflectedMessage/reflectedType``.
    let types: [MessageType]
    let fields: [Field]
    /// The message fields of every type, in field order.
    let children: [Child]
    let references: [Reference]
    let conditions: [Condition]
    let limits: [Limit]
    let applied: [Applied]
    let fieldRules: [FieldRules]
    let checks: [Check]
    /// Slots, reference indices and slot-limit pairs.
    let ints: [Int]
    let numbers: [Int64]
    /// JSON names and the strings conditions compare.
    let strings: [String]
    /// The number sets of `defined_enum` and named values, each a span of
    /// ``setMembers`` (``contains(_:inSet:)``).
    let numberSets: [Span]
    /// The members of every number set, each set's in ascending order.
    let setMembers: [Int64]
    let charsets: [ClosedRange<UInt8>]
    let exclusions: [Exclusion]
    let exclusionSites: [ExclusionSite]
    /// The finding codes the table names.
    let codes: [FindingCode]
    /// The severity of each of ``codes``.
    let severities: [ValidationFinding.Severity]
    /// The code of a `defined_enum` finding (``codes``).
    let definedEnumCode: Int32
    /// The code of a `discriminator` finding (``codes``).
    let discriminatorCode: Int32
    /// The fields the named predicates read.
    let predicateFields: PredicateFields
    /// What the table was compiled from: names and each limit's declared
    /// values, read when a run starts, never while it walks.
    let declared: DeclaredRules

    /// The table of the library: the generated declarations, compiled once.
    static let library: RuleTable = {
        do {
            return try RuleTable(json: declarations)
        } catch {
            preconditionFailure("the generated rule table does not compile: \(error)")
        }
    }()

    /// Compiles a table in the JSON form of `generate_swift_rules.py`.
    ///
    /// - Parameter json: The table's text.
    /// - Throws: ``RuleTableError`` for a table that names a type, field,
    ///   limit or enum value the schema does not have.
    convenience init(json: String) throws {
        self.init(try DeclaredRules(json: json))
    }

    /// Flattens resolved declarations.
    init(_ declared: DeclaredRules) {
        self.declared = declared
        predicateFields = declared.predicateFields
        var builder = Builder()
        builder.flatten(declared)
        var types = builder.types
        var children: [Child] = []
        for type in types.indices {
            let start = children.count
            for entry in types[type].messageSlots.indices {
                let slot = builder.ints[entry]
                let field = builder.fields[Int(types[type].fields.start) + slot]
                children.append(
                    Child(
                        slot: slot, isRepeated: field.isRepeated, isOneofMember: field.isOneofMember,
                        isDeferred: field.isDeferred, drains: builder.types[field.type].isDeferredTarget))
            }
            types[type].children = Span(start: Int32(start), count: Int32(children.count - start))
        }
        self.types = types
        self.children = children
        fields = builder.fields
        references = builder.references
        conditions = builder.conditions
        var limits = builder.limits
        var sites: [ExclusionSite] = []
        for index in limits.indices where !limits[index].exclude.isEmpty {
            let start = sites.count
            for (holder, type) in builder.types.enumerated() {
                for entry in type.messageSlots.indices {
                    let slot = builder.ints[entry]
                    let field = builder.fields[Int(type.fields.start) + slot]
                    guard !field.isRepeated else { continue }
                    for exclusion in builder.exclusions[limits[index].exclude.indices]
                    where exclusion.type == field.type {
                        sites.append(ExclusionSite(holder: holder, slot: slot, child: exclusion.slot))
                    }
                }
            }
            limits[index].excludeSites = Span(start: Int32(start), count: Int32(sites.count - start))
        }
        self.limits = limits
        exclusionSites = sites
        applied = builder.applied
        fieldRules = builder.fieldRules
        checks = builder.checks
        ints = builder.ints
        numbers = builder.numbers
        strings = builder.strings
        numberSets = builder.numberSets
        setMembers = builder.setMembers
        referencePaths = builder.references.map { reference in
            builder.strings[reference.jsonPath.indices].map { .field($0) }
        }
        charsets = builder.charsets
        exclusions = builder.exclusions
        codes = builder.codes
        severities = builder.severities
        definedEnumCode = builder.definedEnumCode
        discriminatorCode = builder.discriminatorCode
    }

    /// The table's arrays while they are filled.
    private struct Builder {
        /// The message types, by ``ReflectedMessage/reflectedType``.
        var types: [MessageType] = []
        var fields: [Field] = []
        var references: [Reference] = []
        var conditions: [Condition] = []
        var limits: [Limit] = []
        var applied: [Applied] = []
        var fieldRules: [FieldRules] = []
        var checks: [Check] = []
        /// Slots, reference indices and slot-limit pairs.
        var ints: [Int] = []
        var numbers: [Int64] = []
        /// JSON names and the strings conditions compare.
        var strings: [String] = []
        var numberSets: [Span] = []
        var setMembers: [Int64] = []
        var charsets: [ClosedRange<UInt8>] = []
        var exclusions: [Exclusion] = []
        /// The finding codes the table names.
        var codes: [FindingCode] = []
        /// The severity of each of ``codes``.
        var severities: [ValidationFinding.Severity] = []
        /// The code of a `defined_enum` finding (``codes``).
        var definedEnumCode: Int32 = -1
        /// The code of a `discriminator` finding (``codes``).
        var discriminatorCode: Int32 = -1

        /// Appends the entries of `declared`.
        mutating func flatten(_ declared: DeclaredRules) {
            var codeIndex: [String: Int32] = [:]
            func code(_ code: FindingCode) -> Int32 {
                if let index = codeIndex[code.rawValue] { return index }
                let index = Int32(codes.count)
                codeIndex[code.rawValue] = index
                codes.append(code)
                severities.append(declared.severities[code.rawValue] ?? code.severity)
                return index
            }
            definedEnumCode = code(declared.definedEnumCode)
            discriminatorCode = code(declared.discriminatorCode)

            // Fields first, so that a reference can name any type's field.
            var fieldStart: [Int] = []
            for type in declared.types {
                fieldStart.append(fields.count)
                for field in type.fields {
                    strings.append(field.json)
                    fields.append(
                        Field(
                            kind: field.kind, type: field.type, isRepeated: field.isRepeated,
                            isOneofMember: field.oneof != nil, number: field.number, isDeferred: field.isDeferred,
                            json: Int32(strings.count - 1)))
                }
            }
            var fieldIndex: [ObjectIdentifier: Int32] = [:]
            for (type, start) in zip(declared.types, fieldStart) {
                for (slot, field) in type.fields.enumerated() {
                    fieldIndex[ObjectIdentifier(field)] = Int32(start + slot)
                }
            }
            for limit in declared.limits {
                let charset = RuleTable.span(&charsets, limit.charset)
                let exclude = RuleTable.span(&exclusions, limit.exclude.map { Exclusion(type: $0.type, slot: $0.slot) })
                limits.append(
                    Limit(
                        code: code(limit.code), severity: limit.severity, measure: limit.measure,
                        predicate: limit.predicate, afterPrefix: Int32(limit.afterPrefix ?? -1), charset: charset,
                        isRESTOnly: limit.isRESTOnly, exclude: exclude, property: limit.property))
            }

            var referenceIndex: [ObjectIdentifier: Int32] = [:]
            func reference(_ reference: DeclaredRules.Reference) -> Int32 {
                if let index = referenceIndex[ObjectIdentifier(reference)] { return index }
                let direct =
                    reference.enclosing == nil && reference.oneofSlots.isEmpty && reference.slots.count == 1
                    ? Int32(reference.slots[0]) : -1
                let flat = Reference(
                    enclosing: Int32(reference.enclosing ?? -1), slots: RuleTable.span(&ints, reference.slots),
                    oneofSlots: RuleTable.span(&ints, reference.oneofSlots),
                    field: reference.field.flatMap { fieldIndex[ObjectIdentifier($0)] } ?? -1,
                    jsonPath: RuleTable.span(&strings, reference.jsonPath), directSlot: direct)
                references.append(flat)
                let index = Int32(references.count - 1)
                referenceIndex[ObjectIdentifier(reference)] = index
                return index
            }
            func conditions(_ list: [DeclaredRules.Condition]) -> Span {
                let flat = list.map { condition in
                    Condition(
                        reference: reference(condition.reference),
                        present: condition.present.map { $0 ? 1 : 0 } ?? -1,
                        numbers: RuleTable.span(&numbers, condition.numbers),
                        strings: RuleTable.span(&strings, condition.strings),
                        negate: condition.negate)
                }
                return RuleTable.span(&self.conditions, flat)
            }
            func applied(_ list: [DeclaredRules.Applied]) -> Span {
                let flat = list.map { applied in
                    Applied(
                        limit: Int32(applied.limit), when: conditions(applied.when), report: applied.report,
                        entryField: Int32(applied.entryField ?? -1), key: applied.key.map(reference) ?? -1,
                        countWhen: conditions(applied.countWhen), sumWith: RuleTable.span(&ints, applied.sumWith))
                }
                return RuleTable.span(&self.applied, flat)
            }
            var setIndex: [Set<Int64>: Int32] = [:]
            func numberSet(_ set: Set<Int64>?) -> Int32 {
                guard let set else { return -1 }
                if let index = setIndex[set] { return index }
                numberSets.append(RuleTable.span(&setMembers, set.sorted()))
                setIndex[set] = Int32(numberSets.count - 1)
                return Int32(numberSets.count - 1)
            }

            for (index, type) in declared.types.enumerated() {
                let limits = applied(type.limits)
                let checks = type.checks.map { check in
                    let fields = check.fields.map { Int(reference($0)) }
                    return Check(
                        code: code(check.code), form: check.form, fields: RuleTable.span(&ints, fields),
                        when: conditions(check.when), at: check.at.map(reference) ?? -1,
                        numbers: RuleTable.span(&numbers, check.numbers ?? []), hasNumbers: check.numbers != nil,
                        predicate: check.predicate, entryReference: check.entryReference.map(reference) ?? -1,
                        entryWhen: conditions(check.entryWhen), actual: check.actual)
                }
                let rules = type.fieldRules.map { rules in
                    FieldRules(
                        slot: rules.slot, nonEmpty: rules.nonEmpty.map(code) ?? -1,
                        rangeCode: rules.range.map { code($0.code) } ?? -1, rangeMin: rules.range?.min ?? 0,
                        rangeMax: rules.range?.max ?? 0, definedEnum: numberSet(rules.definedEnum),
                        isDiscriminator: rules.isDiscriminator, discriminatorWhen: conditions(rules.discriminatorWhen),
                        namedValuesCode: rules.namedValues.map { code($0.code) } ?? -1,
                        namedValues: numberSet(rules.namedValues?.numbers), applied: applied(rules.applied))
                }
                types.append(
                    MessageType(
                        fields: Span(start: Int32(fieldStart[index]), count: Int32(type.fields.count)), limits: limits,
                        checks: RuleTable.span(&self.checks, checks), fieldRules: RuleTable.span(&fieldRules, rules),
                        messageSlots: RuleTable.span(&ints, type.messageSlots), isDeferredTarget: type.isDeferredTarget,
                        layerLimits: RuleTable.span(&ints, type.layerLimits.flatMap { [$0.slot, $0.limit] })))
            }
        }

    }

    /// Appends `values` to `pool` as one span.
    fileprivate static func span<Value>(_ pool: inout [Value], _ values: [Value]) -> Span {
        pool.append(contentsOf: values)
        return Span(start: Int32(pool.count - values.count), count: Int32(values.count))
    }

    // MARK: Reading

    /// Field `slot` of message type `type`.
    func field(_ type: Int, _ slot: Int) -> Field {
        fields[Int(types[type].fields.start) + slot]
    }

    /// The proto3 JSON name of field `slot` of message type `type`.
    func json(_ type: Int, _ slot: Int) -> String {
        strings[Int(field(type, slot).json)]
    }

    /// Each reference's path as findings spell it: the proto3 JSON names of
    /// ``Reference/jsonPath``, made once.
    let referencePaths: [[FieldPath.Component]]

    /// Whether number set `set` (an index in ``numberSets``) holds `number`:
    /// a scan of a few sorted numbers, which costs less than hashing.
    func contains(_ number: Int64, inSet set: Int32) -> Bool {
        for index in numberSets[Int(set)].indices {
            let member = setMembers[index]
            if member >= number { return member == number }
        }
        return false
    }
}
