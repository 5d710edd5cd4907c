import IMCodec
import IMCodecREST

/// Reports every problem of a Tencent REST document (Sources/IMCodecREST/IMCodecREST.docc/REST.md,
/// "Validation"), each with its JSON path.
///
/// ```swift
/// let findings = RESTValidator.validate(Array(text.utf8))   // the default profile, sdk-guide
/// for finding in findings { print(finding) }   // rest.missing-key at MsgBody[1].MsgContent.URL: …
/// ```
///
/// Import problems come first and alone: when the document does not import,
/// each problem is an error finding with its `json.*`, `rest.*` or `limit.*`
/// code, the first `decodingLimits.maxProblems` of them in document order
/// and then, when there are more, one `limit.problems` finding with their
/// number. A document that imports is checked with ``Validator`` against
/// `limits`, paths turned into REST paths, and with the rules measured on the
/// REST form: the body size (`limits.maxMessageBodyBytes`, the UTF-8 bytes of
/// the compact canonical `MsgBody`), download flags
/// (`limits.restDownloadFlag`) and image formats (`limits.restImageFormats`).
public enum RESTValidator {
    /// Validates a REST document: a `MsgBody` array, a message object or a
    /// message list.
    ///
    /// - Parameters:
    ///   - utf8: The document's UTF-8 text.
    ///   - limits: The validation profile.
    ///   - decodingLimits: Bounds on elements, arrays, batch size and relay
    ///     nesting while reading, and how many import problems to report.
    /// - Returns: Every finding; empty for a clean document.
    public static func validate(
        _ utf8: some Collection<UInt8>,
        limits: ValidationLimits = .sdkGuide,
        decodingLimits: DecodingLimits = .default
    ) -> [ValidationFinding] {
        var findings: [ValidationFinding] = []
        validate(utf8, limits: limits, decodingLimits: decodingLimits) { findings.append($0) }
        return findings
    }

    /// Validates a REST document, handing each finding to `body` as soon as
    /// it is known, in the order ``validate(_:limits:decodingLimits:)`` returns them.
    ///
    /// A document is read twice and never held whole: once for its import
    /// problems, which come first and alone, then, when it has none, to
    /// validate its messages, one at a time: a message as the validator
    /// reaches it, the document's message or a message list's, or a message
    /// its relays forward, read then from the document. Memory holds the
    /// messages from the top-level one to the one being checked, not every
    /// message a relay forwards.
    ///
    /// - Parameters:
    ///   - utf8: The document's UTF-8 text.
    ///   - limits: The validation profile.
    ///   - decodingLimits: Bounds on elements, arrays, batch size and relay
    ///     nesting while reading, and how many import problems to report.
    ///   - body: Called with each finding.
    public static func validate(
        _ utf8: some Collection<UInt8>,
        limits: ValidationLimits = .sdkGuide,
        decodingLimits: DecodingLimits = .default,
        onFinding body: (ValidationFinding) -> Void
    ) {
        // The import problems, the first `maxProblems` of them in document
        // order. This walk keeps no message: the messages are read again to
        // be validated, one at a time.
        let importing = RESTReader(limits: decodingLimits, keep: decodingLimits.maxProblems, keepsMessages: false)
        let isMessage: Bool
        do {
            isMessage = try RESTReader.withDocument(utf8, limits: decodingLimits) { document in
                if document.kind() == .object, importing.isMessageList(document) {
                    _ = importing.batch(document: &document) { _, _ in }
                    return false
                }
                _ = importing.message(document: &document)
                return true
            }
        } catch {
            return body(finding(error))
        }
        guard importing.problemCount == 0 else { return importFindings(importing).forEach(body) }

        var modelLimits = limits
        modelLimits.maxMessageBodyBytes = nil
        var bodyFindings: [ValidationFinding] = []
        /// The image formats outside the profile's: the REST rule replaces
        /// the model's warning about the same value.
        func replacedByRESTRule(_ finding: ValidationFinding, _ reader: RESTReader) -> Bool {
            guard finding.code == .unknownEnumValue, let formats = limits.restImageFormats else { return false }
            return reader.imageFormats.contains { $0.path == finding.path && !formats.contains($0.value) }
        }
        /// The model's findings of one message, as REST findings: message
        /// `index` of the list `listKey`, or the document's message.
        func report(_ findings: [ValidationFinding], index: Int?, listKey: String?, _ reader: RESTReader) {
            for var finding in findings {
                if let index { finding.path.prepend(FieldPath([.field("messages"), .index(index)])) }
                finding = translated(finding, root: listKey)
                // REST requests name their target in the call (sendmsg, send_group_msg), and the
                // documentation's bodies name none: only a message naming two targets is wrong.
                // A forwarded message, inside a relay's MsgContent, keeps the finding.
                if finding.code == .messageTargetMissing && !finding.path.components.contains(.field("MsgContent")) {
                    continue
                }
                if !replacedByRESTRule(finding, reader) { body(finding) }
            }
        }
        /// The body-size rule on a message's `MsgBody` of `size` bytes.
        func checkBody(size: Int, index: Int?, listKey: String?) {
            guard let limit = limits.maxMessageBodyBytes, size > limit else { return }
            var path: FieldPath = [.field("MsgBody")]
            if let listKey, let index { path.prepend(FieldPath([.field(listKey), .index(index)])) }
            bodyFindings.append(
                ValidationFinding(
                    .messageBodyBytes, path: path, severity: FindingCode.messageBodyBytes.severity,
                    limit: Int64(limit), actual: Int64(size),
                    reason: "the MsgBody is \(size) bytes of compact JSON, above \(limit)"))
        }
        // The download flags and image formats of the whole document, read
        // once by the import walk in document order.
        let reader = importing
        // Each forwarded message is read from the document when the
        // validator reaches it: memory holds the messages from the
        // top-level one to the one visited, however many a relay forwards.
        if isMessage {
            let walking = RESTReader(limits: decodingLimits, keep: 0)
            _ = try? RESTReader.withDocument(utf8, limits: decodingLimits) { document in
                let (message, lists) = walking.messageLeavingForwarded(document: &document)
                report(validated(message, lists, walking, limits: modelLimits), index: nil, listKey: nil, reader)
                if limits.maxMessageBodyBytes != nil {
                    checkBody(size: bodySize(message, lists, walking), index: nil, listKey: nil)
                }
            }
        } else {
            let walking = RESTReader(limits: decodingLimits, keep: 0)
            _ = try? RESTReader.withDocument(utf8, limits: decodingLimits) { document in
                let listKey = walking.messageListKey(document) ?? "MsgList"
                walking.batchLeavingForwarded(document: &document) { message, lists, index in
                    report(
                        validated(message, lists, walking, limits: modelLimits), index: index, listKey: listKey, reader
                    )
                    if limits.maxMessageBodyBytes != nil {
                        checkBody(size: bodySize(message, lists, walking), index: index, listKey: listKey)
                    }
                }
            }
        }
        bodyFindings.forEach(body)
        if let required = limits.restDownloadFlag {
            for flag in reader.downloadFlags where flag.value != required {
                body(
                    ValidationFinding(
                        .restDownloadFlag, path: flag.path, severity: FindingCode.restDownloadFlag.severity,
                        limit: Int64(required), actual: Int64(flag.value),
                        reason: "download flag \(flag.value); REST senders must set \(required)"))
            }
        }
        if let formats = limits.restImageFormats {
            for format in reader.imageFormats where !formats.contains(format.value) {
                body(
                    ValidationFinding(
                        .restImageFormat, path: format.path, severity: FindingCode.restImageFormat.severity,
                        actual: Int64(format.value),
                        reason: "ImageFormat \(format.value) is not a documented code (1, 2, 3, 4, 255)"))
            }
        }
    }

    /// The model's findings of a message read with
    /// ``RESTReader/messageLeavingForwarded(document:)``, its forwarded
    /// messages read from the document as the validator reaches them.
    private static func validated(
        _ message: Message, _ lists: [RESTReader.ForwardedList], _ reader: RESTReader, limits: ValidationLimits
    ) -> [ValidationFinding] {
        // The lists of each message visited, by the validator's node of the
        // message; a list is dropped once its last message is read.
        var waiting: [Int: [RESTReader.ForwardedList]] = lists.isEmpty ? [:] : [0: lists]
        return Validator.validate(message, limits: limits) { parent, elem, index, node in
            guard let list = waiting[parent]?.first(where: { $0.elem == elem }) else {
                preconditionFailure("the validator asks only for the messages of lists it was given")
            }
            let (forwarded, nested) = reader.forwardedMessage(in: list, at: index)
            if !nested.isEmpty { waiting[node] = nested }
            if index == list.count - 1 {
                waiting[parent]?.removeAll { $0.elem == elem }
                if waiting[parent]?.isEmpty == true { waiting[parent] = nil }
            }
            return forwarded
        }
    }

    /// The UTF-8 bytes of the compact canonical `MsgBody` of a message read
    /// with ``RESTReader/messageLeavingForwarded(document:)``: its own JSON
    /// and that of every message it forwards, each measured apart.
    private static func bodySize(
        _ message: Message, _ lists: [RESTReader.ForwardedList], _ reader: RESTReader
    ) -> Int {
        var writer = RESTWriter()
        writer.leavesOutForwardedMessages = true
        writer.body(message.elems)
        var size = writer.json.bytes.count
        var stack = lists
        while let list = stack.popLast() {
            size += max(list.count - 1, 0)
            for index in 0..<list.count {
                let (forwarded, nested) = reader.forwardedMessage(in: list, at: index)
                var writer = RESTWriter()
                writer.leavesOutForwardedMessages = true
                writer.forwardedMessage(forwarded)
                size += writer.json.bytes.count
                stack.append(contentsOf: nested)
            }
        }
        return size
    }

    /// The import problems reported, and `limit.problems` when there are more.
    private static func importFindings(_ reader: RESTReader) -> [ValidationFinding] {
        var findings = reader.problems.map(finding)
        if reader.problemCount > findings.count {
            let error = IMCodecError(
                .limitProblems,
                reason: "the document has \(reader.problemCount) problems; the first \(findings.count) are reported",
                limit: reader.keep, observed: reader.problemCount)
            findings.append(finding(error))
        }
        return findings
    }

    private static func finding(_ error: IMCodecError) -> ValidationFinding {
        ValidationFinding(
            FindingCode(error.code.rawValue), path: error.path, severity: .error,
            limit: error.limit, actual: error.observed, reason: error.reason)
    }

    private static func translated(_ finding: ValidationFinding, root: String?) -> ValidationFinding {
        var finding = finding
        finding.path = RESTPath.translate(finding.path, listKey: root)
        return finding
    }
}

/// Turns payload paths (`elems[1].image.levels[0].url`) into REST paths
/// (`MsgBody[1].MsgContent.ImageInfoArray[0].URL`) with the key tables of
/// ``RESTForms``, one component at a time: a field becomes its REST key
/// (`offlinePushInfo.iosSound` becomes two, `OfflinePushInfo.ApnsInfo.Sound`),
/// an index stays as it is. A field without a REST key is kept as it is.
package enum RESTPath {
    private enum Place {
        case message, elem, push, android, apns, other
        case content(RESTElemType)
        case level
    }

    /// The REST path of a payload path.
    ///
    /// - Parameters:
    ///   - path: A path into a message, or, with `listKey`, into a batch.
    ///   - listKey: The key of the document's message list (`MsgList`,
    ///     `RspMsgList`), which stands for the batch's `messages`; `nil` for
    ///     a message.
    /// - Returns: The path into the REST document.
    package static func translate(_ path: FieldPath, listKey: String?) -> FieldPath {
        var place = listKey == nil ? Place.message : .other
        var out = FieldPath()
        out.components.reserveCapacity(path.components.count + 1)
        for (position, component) in path.components.enumerated() {
            guard case .field(let name) = component else {
                out.append(component)
                continue
            }
            if position == 0, let listKey, name == "messages" {
                out.append(.field(listKey))
                place = .message
                continue
            }
            let (keys, next) = step(name, in: place)
            for key in keys { out.append(.field(key)) }
            place = next
        }
        return out
    }

    private static func step(_ name: String, in place: Place) -> ([String], Place) {
        switch place {
        case .message:
            if name == "elems" { return (["MsgBody"], .elem) }
            if name == "offlinePushInfo" { return (["OfflinePushInfo"], .push) }
            return ([key(RESTForms.message, name)], .other)
        case .elem:
            if let type = RESTElemType.allCases.first(where: { $0.kindField == name }) {
                return (["MsgContent"], .content(type))
            }
            return ([name], .other)
        case .content(let type):
            switch (type, name) {
            case (.image, "levels"): return (["ImageInfoArray"], .level)
            case (.relay, "messages"): return (["MsgList"], .message)
            case (.relay, "abstracts"): return (["AbstractList"], .other)
            default: return ([key(type.contentKeys, name)], .other)
            }
        case .level: return ([key(RESTForms.imageLevel, name)], .other)
        case .push:
            if name == "android" { return (["AndroidInfo"], .android) }
            if name == "apns" { return (["ApnsInfo"], .apns) }
            if name == "iosSound" { return (["ApnsInfo", "Sound"], .other) }
            return ([key(RESTForms.offlinePush, name)], .other)
        case .android: return ([key(RESTForms.android, name)], .other)
        case .apns: return ([key(RESTForms.apns, name)], .other)
        case .other: return ([name], .other)
        }
    }

    private static func key<Model>(_ form: RESTForm<Model>, _ field: String) -> String {
        form.keys.first { $0.field == field }?.name ?? field
    }

    private static func key(_ names: [(field: String, name: String)], _ field: String) -> String {
        names.first { $0.field == field }?.name ?? field
    }
}
