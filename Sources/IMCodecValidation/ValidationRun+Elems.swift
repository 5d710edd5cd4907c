import IMCodec
import IMCodecREST

extension ValidationRun {
    /// Checks one elem at the current position (`elems[i]`).
    ///
    /// - Parameters:
    ///   - elem: The elem.
    ///   - index: Its index in the message's elems.
    ///   - message: The message that holds it.
    ///   - node: The message's node.
    ///   - layer: The message's merger layer.
    mutating func visit(elem: Elem, at index: Int, in message: Message, node: Int, layer: Int) {
        switch elem.kind {
        case nil:
            report(.unknownKind, "the elem has no kind this schema knows")
        case .text, .face:
            break
        case .custom(let custom):
            push("custom")
            checkCount(
                custom.desc.utf8.count + custom.ext.utf8.count, against: limits.maxCustomDescExtBytes,
                .customDescExtBytes, what: "desc and ext together")
            pop()
        case .image(let image):
            push("image")
            visit(image: image)
            pop()
        case .sound(let sound):
            push("sound")
            checkCount(Int(sound.size), against: limits.maxSoundBytes, .soundSize, at: "size", what: "the sound")
            pop()
        case .video(let video):
            push("video")
            checkCount(
                Int(video.videoSize), against: limits.maxVideoBytes, .videoSize, at: "videoSize", what: "the video")
            if !video.videoUUID.isEmpty && video.snapshotUUID.isEmpty && video.snapshotURL.isEmpty {
                report(.videoSnapshotMissing, "a video elem without its image: no snapshot UUID or URL")
            }
            pop()
        case .file(let file):
            push("file")
            checkCount(Int(file.size), against: limits.maxFileBytes, .fileSize, at: "size", what: "the file")
            pop()
        case .location(let location):
            push("location")
            checkCoordinate(
                location.latitude, in: DeclaredRanges.latitude, .locationLatitude, at: "latitude", what: "latitude")
            checkCoordinate(
                location.longitude, in: DeclaredRanges.longitude, .locationLongitude, at: "longitude", what: "longitude"
            )
            pop()
        case .merger(let merger):
            push("merger")
            visit(merger: merger, at: index, node: node, layer: layer)
            pop()
        case .groupTips(let tips):
            push("groupTips")
            visit(groupTips: tips, groupType: message.groupType)
            pop()
        case .groupSystem(let system):
            push("groupSystem")
            visit(groupSystem: system, groupType: message.groupType)
            pop()
        case .snsSystem(let sns):
            push("snsSystem")
            visit(snsSystem: sns)
            pop()
        case .profileSystem(let profile):
            push("profileSystem")
            visit(profileSystem: profile)
            pop()
        }
    }

    /// M9: a coordinate within its declared range; NaN and infinities are
    /// out. The finding's limit is the range's upper bound.
    private mutating func checkCoordinate(
        _ value: Double, in range: ClosedRange<Double>, _ code: FindingCode, at field: StaticString,
        what: StaticString
    ) {
        guard !range.contains(value) else { return }
        report(
            code, at: field, limit: Int64(range.upperBound),
            "\(what) \(value) is outside [\(Int(range.lowerBound)), \(Int(range.upperBound))]")
    }

    /// M2, M4, M5: the merger's own fields, then its messages are queued
    /// unless they are one layer too deep.
    private mutating func visit(merger: MergerElem, at elem: Int, node: Int, layer: Int) {
        if merger.title.isEmpty {
            report(.mergerTitleMissing, at: "title", "the merger has no title to display it by")
        }
        if merger.abstracts.isEmpty {
            report(.mergerAbstractsMissing, at: "abstracts", "the merger has no abstract line to display it by")
        }
        checkCount(
            merger.messages.count, against: limits.maxMergerMessages, .mergerMessages, at: "messages",
            what: "the merged message list", unit: "messages")
        checkCount(
            merger.abstracts.count, against: limits.maxMergerAbstracts, .mergerAbstracts, at: "abstracts",
            what: "the abstract list", unit: "entries")
        if let limit = limits.maxMergerAbstractLength {
            push("abstracts")
            for (index, abstract) in merger.abstracts.enumerated() {
                let length = abstract.utf16.count
                guard length > limit else { continue }
                push(index: index)
                report(
                    .mergerAbstractLength, limit: Int64(limit), actual: Int64(length),
                    "the abstract is \(length) UTF-16 code units, above \(limit)")
                pop()
            }
            pop()
        }
        if limits.requiresMergerCompatibleText && merger.compatibleText.isEmpty {
            report(.mergerCompatibleTextMissing, at: "compatibleText", "the merger has no compatible text")
        }
        if merger.msgNum != 0 && !merger.messages.isEmpty && Int(merger.msgNum) != merger.messages.count {
            report(
                .mergerMsgNum, at: "msgNum", limit: Int64(merger.messages.count), actual: Int64(merger.msgNum),
                "msgNum is \(merger.msgNum) but the merger carries \(merger.messages.count) messages")
        }
        if !merger.jsonMsgKey.isEmpty && !merger.messages.isEmpty {
            report(.mergerKeyWithMessages, at: "jsonMsgKey", "the merger carries messages and a jsonMsgKey")
        }
        guard !merger.messages.isEmpty else { return }
        let nestedLayer = layer + 1
        if let limit = limits.maxMergerDepth, nestedLayer > limit {
            report(
                .mergerDepth, at: "messages", limit: Int64(limit), actual: Int64(nestedLayer),
                "the merged messages are at layer \(nestedLayer), deeper than \(limit); they are not validated")
            return
        }
        pending.append(PendingList(messages: merger.messages, next: 0, parent: node, elem: elem, layer: nestedLayer))
    }

    /// M1, M6, M7, M8, M18: level types, duplicates, byte sizes and pixel sizes.
    private mutating func visit(image: ImageElem) {
        checkEnum(image.format.isKnown, image.format.rawValue, at: "format", what: "image format")
        if image.levels.isEmpty {
            report(.imageLevelsMissing, at: "levels", "the image carries no level")
        }
        let original = image.levels.first { $0.type == .original }
        let originalShortSide = original.flatMap(Self.shortSide(of:))
        var seen: UInt8 = 0
        push("levels")
        for (index, level) in image.levels.enumerated() {
            push(index: index)
            checkDiscriminator(level.type.isKnown, level.type.rawValue, at: "type", what: "image level type")
            if level.type == .original || level.type == .large || level.type == .thumbnail {
                let bit: UInt8 = 1 << UInt8(level.type.rawValue)
                if seen & bit != 0 {
                    report(.imageDuplicateLevel, at: "type", "a second \(level.type) level")
                }
                seen |= bit
            }
            checkCount(Int(level.size), against: limits.maxImageBytes, .imageSize, at: "size", what: "the image")
            switch level.type {
            case .large:
                checkScaled(level, bound: limits.largeImageShortSide, original: originalShortSide, .imageLargeSize)
            case .thumbnail:
                checkScaled(level, bound: limits.thumbnailShortSide, original: originalShortSide, .imageThumbnailSize)
            default:
                break
            }
            pop()
        }
        pop()
    }

    /// M7: a scaled level's shorter side is `bound`, or the original's when
    /// that is smaller (the original is reused). Without a known original
    /// only the upper bound can be checked. Zero sizes mean "not reported"
    /// (the REST samples send 0) and are not checked.
    private mutating func checkScaled(
        _ level: ImageLevel, bound: Int?, original: Int?, _ code: FindingCode
    ) {
        guard let bound, let side = Self.shortSide(of: level) else { return }
        if let original {
            let expected = min(bound, original)
            guard side != expected else { return }
            report(
                code, limit: Int64(expected), actual: Int64(side),
                "the shorter side is \(side) px; scaling the original gives \(expected) px")
        } else if side > bound {
            report(
                code, limit: Int64(bound), actual: Int64(side),
                "the shorter side is \(side) px, above \(bound) px")
        }
    }

    /// The shorter side of a level, or `nil` when its size is not reported.
    private static func shortSide(of level: ImageLevel) -> Int? {
        guard level.width > 0, level.height > 0 else { return nil }
        return Int(min(level.width, level.height))
    }
}
