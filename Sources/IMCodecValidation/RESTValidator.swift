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
        let root: JSONValue
        do {
            root = try RESTCodec.parse(utf8, limits: decodingLimits)
        } catch {
            return [finding(error)]
        }
        let reader = RESTReader(limits: decodingLimits, keep: decodingLimits.maxProblems)
        var modelLimits = limits
        modelLimits.maxMessageBodyBytes = nil
        var findings: [ValidationFinding]
        var bodies: [(path: FieldPath, elems: [Elem])] = []
        if case .object(let members) = root, reader.isMessageList(members) {
            let batch = reader.batch(document: root)
            guard reader.problemCount == 0 else { return importFindings(reader) }
            let listKey = members.first { $0.key == "MsgList" || $0.key == "RspMsgList" }!.key
            findings = Validator.validate(batch, limits: modelLimits).map {
                translated($0, root: listKey)
            }
            for (index, message) in batch.messages.enumerated() {
                bodies.append(([.field(listKey), .index(index), .field("MsgBody")], message.elems))
            }
        } else {
            let message = reader.message(document: root)
            guard reader.problemCount == 0 else { return importFindings(reader) }
            findings = Validator.validate(message, limits: modelLimits).map { translated($0, root: nil) }
            bodies.append(([.field("MsgBody")], message.elems))
        }
        // REST requests name their target in the call (sendmsg, send_group_msg), and the
        // documentation's bodies name none: only a message naming two targets is wrong.
        // A forwarded message, inside a relay's MsgContent, keeps the finding.
        findings.removeAll {
            $0.code == .messageTargetMissing && !$0.path.components.contains(.field("MsgContent"))
        }
        if let limit = limits.maxMessageBodyBytes {
            for body in bodies {
                var writer = RESTWriter()
                writer.body(body.elems)
                let size = writer.json.bytes.count
                guard size > limit else { continue }
                findings.append(
                    ValidationFinding(
                        .messageBodyBytes, path: body.path, severity: FindingCode.messageBodyBytes.severity,
                        limit: Int64(limit), actual: Int64(size),
                        reason: "the MsgBody is \(size) bytes of compact JSON, above \(limit)"))
            }
        }
        if let required = limits.restDownloadFlag {
            for flag in reader.downloadFlags where flag.value != required {
                findings.append(
                    ValidationFinding(
                        .restDownloadFlag, path: flag.path, severity: FindingCode.restDownloadFlag.severity,
                        limit: Int64(required), actual: Int64(flag.value),
                        reason: "download flag \(flag.value); REST senders must set \(required)"))
            }
        }
        if let formats = limits.restImageFormats {
            for format in reader.imageFormats where !formats.contains(format.value) {
                // The REST rule replaces the model's warning about the same value.
                findings.removeAll { $0.code == .unknownEnumValue && $0.path == format.path }
                findings.append(
                    ValidationFinding(
                        .restImageFormat, path: format.path, severity: FindingCode.restImageFormat.severity,
                        actual: Int64(format.value),
                        reason: "ImageFormat \(format.value) is not a documented code (1, 2, 3, 4, 255)"))
            }
        }
        return findings
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
            default: return ([key(form(type), name)], .other)
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

    private static func form(_ type: RESTElemType) -> [(field: String, name: String)] {
        func pairs<Model>(_ form: RESTForm<Model>) -> [(field: String, name: String)] {
            form.keys.map { ($0.field, $0.name) }
        }
        return switch type {
        case .text: pairs(RESTForms.text)
        case .location: pairs(RESTForms.location)
        case .face: pairs(RESTForms.face)
        case .custom: pairs(RESTForms.custom)
        case .sound: pairs(RESTForms.sound)
        case .image: pairs(RESTForms.image)
        case .file: pairs(RESTForms.file)
        case .video: pairs(RESTForms.video)
        case .relay: pairs(RESTForms.relay)
        }
    }
}
