/// Builds a preset deflate dictionary from sample payloads.
///
/// zlib has no trainer, so this follows the COVER algorithm of zstd's
/// dictionary builder (Liao, Petri, Moffat and Wirth, "Effective
/// Construction of Relative Lempel-Ziv Dictionaries", 2016), adapted to
/// deflate:
///
/// 1. Every `dmerLength`-byte substring (d-mer) of every sample is counted
///    once per sample it occurs in: its frequency is the number of payloads
///    a dictionary holding it could shorten. Counting per sample, not per
///    occurrence, ignores repeats inside one payload, which deflate already
///    finds without a dictionary; a d-mer of a single payload counts 0.
/// 2. The samples, back to back, are cut into as many epochs as the
///    dictionary has `segmentLength`-byte segments. From each epoch the
///    segment whose distinct d-mers have the largest total frequency is
///    taken, trimmed of d-mers worth nothing at either end, and its d-mers'
///    frequencies are set to 0 so no later segment is paid for them again.
///    Passes over the epochs repeat until the segments fill the dictionary.
/// 3. The segments are ordered by their estimated savings, most valuable
///    last: deflate codes a match's distance back from the current position
///    in fewer bits when it is short, and the end of the dictionary is
///    closest to the payload. If there is more than fits, the least valuable
///    segments at the front are cut.
///
/// Everything is deterministic: ties go to the earliest position, and no
/// decision depends on hash-table iteration order.
struct DictionaryTrainer {
    /// The length of the substrings whose frequencies are counted, 4...8.
    var dmerLength = 8
    /// The length of the segments the dictionary is made of.
    var segmentLength = 64

    /// A segment of the training corpus chosen for the dictionary.
    struct Segment {
        var bytes: ArraySlice<UInt8>
        /// Its estimated savings: the total frequency of its distinct d-mers.
        var score: Int
        /// When it was chosen, to break ties between equal scores.
        var order: Int
    }

    /// Builds a dictionary of at most `size` bytes.
    ///
    /// - Parameters:
    ///   - samples: The training payloads.
    ///   - size: The dictionary size in bytes.
    /// - Returns: The dictionary.
    func train(samples: [[UInt8]], size: Int) -> [UInt8] {
        precondition((4...8).contains(dmerLength) && segmentLength > dmerLength && size > 0)
        let corpus = Array(samples.joined())

        // d-mer ids by position (-1 where a d-mer would cross into the next
        // sample), and each id's document frequency.
        var idsByKey: [UInt64: Int32] = [:]
        var frequency: [Int] = []
        var lastSample: [Int] = []
        var dmerAt = [Int32](repeating: -1, count: corpus.count)
        let mask: UInt64 = dmerLength == 8 ? .max : (1 << UInt64(8 * dmerLength)) - 1
        var start = 0
        for (sampleIndex, sample) in samples.enumerated() {
            var key: UInt64 = 0
            for offset in 0..<sample.count {
                key = (key << 8 | UInt64(sample[offset])) & mask
                guard offset + 1 >= dmerLength else { continue }
                let position = start + offset + 1 - dmerLength
                let id: Int32
                if let known = idsByKey[key] {
                    id = known
                } else {
                    id = Int32(frequency.count)
                    idsByKey[key] = id
                    frequency.append(0)
                    lastSample.append(-1)
                }
                dmerAt[position] = id
                if lastSample[Int(id)] != sampleIndex {
                    lastSample[Int(id)] = sampleIndex
                    frequency[Int(id)] += 1
                }
            }
            start += sample.count
        }
        // A d-mer in one payload only would help no other payload.
        for id in frequency.indices where frequency[id] < 2 { frequency[id] = 0 }

        // Choose segments, epoch by epoch.
        let epochs = max(1, size / segmentLength)
        let epochLength = max(segmentLength, corpus.count / epochs)
        var inWindow = [Int32](repeating: 0, count: frequency.count)
        var segments: [Segment] = []
        var total = 0
        var pass = 0
        while total < size && pass < 16 {
            var found = false
            for epoch in 0..<epochs where total < size {
                let begin = epoch * epochLength
                let end = min(corpus.count, begin + epochLength)
                guard end - begin >= segmentLength else { continue }
                guard let best = bestSegment(in: begin..<end, dmerAt: dmerAt, frequency: frequency, inWindow: &inWindow)
                else { continue }
                found = true
                for position in best.range.lowerBound..<(best.range.upperBound - dmerLength + 1) {
                    let id = dmerAt[position]
                    if id >= 0 { frequency[Int(id)] = 0 }
                }
                segments.append(Segment(bytes: corpus[best.range], score: best.score, order: segments.count))
                total += best.range.count
            }
            if !found { break }
            pass += 1
        }

        // Most valuable last; cut the least valuable from the front.
        let ordered = segments.sorted { ($0.score, -$0.order) < ($1.score, -$1.order) }
        let dictionary = Array(ordered.map(\.bytes).joined())
        return Array(dictionary.suffix(size))
    }

    /// The segment of `range` with the highest total frequency of distinct
    /// d-mers, trimmed of zero-frequency d-mers at both ends, or `nil` when
    /// every d-mer in the range is worth nothing.
    private func bestSegment(
        in range: Range<Int>, dmerAt: [Int32], frequency: [Int], inWindow: inout [Int32]
    ) -> (range: Range<Int>, score: Int)? {
        // A segment of segmentLength bytes holds this many d-mer positions.
        let width = segmentLength - dmerLength + 1
        let last = range.upperBound - dmerLength
        var score = 0
        var bestScore = 0
        var bestStart = -1
        var windowStart = range.lowerBound
        for position in range.lowerBound...max(range.lowerBound, last) where position <= last {
            let id = dmerAt[position]
            if id >= 0 {
                if inWindow[Int(id)] == 0 { score += frequency[Int(id)] }
                inWindow[Int(id)] += 1
            }
            if position - windowStart + 1 > width {
                let leaving = dmerAt[windowStart]
                if leaving >= 0 {
                    inWindow[Int(leaving)] -= 1
                    if inWindow[Int(leaving)] == 0 { score -= frequency[Int(leaving)] }
                }
                windowStart += 1
            }
            if score > bestScore {
                bestScore = score
                bestStart = windowStart
            }
        }
        // Empty the window counts for the next call.
        for position in windowStart...max(windowStart, last) where position <= last {
            let id = dmerAt[position]
            if id >= 0 { inWindow[Int(id)] = 0 }
        }
        guard bestStart >= 0 else { return nil }

        var first = bestStart
        var final = min(bestStart + width - 1, last)
        func worth(_ position: Int) -> Bool {
            let id = dmerAt[position]
            return id >= 0 && frequency[Int(id)] > 0
        }
        while first < final && !worth(first) { first += 1 }
        while final > first && !worth(final) { final -= 1 }
        return (first..<(final + dmerLength), bestScore)
    }
}
