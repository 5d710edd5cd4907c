/// The sizes of every nested message of a value, computed once before writing.
///
/// The canonical encoder writes each nested message behind its length, so the
/// length must be known before the body. Computing it on the way down would
/// recompute every inner size once per enclosing level; instead a first pass
/// records each nested message's size in pre-order (a slot is reserved before
/// the children are sized), and the writing pass reads them back in the same
/// order.
public struct SizeCache: Sendable {
    @usableFromInline var sizes: [Int]
    @usableFromInline var cursor: Int

    /// Creates an empty cache.
    @inlinable public init() {
        sizes = []
        cursor = 0
    }

    /// Reserves the slot for a nested message about to be sized.
    @inlinable public mutating func reserve() -> Int {
        sizes.append(0)
        return sizes.count - 1
    }

    /// Records the size of the nested message in `slot`.
    @inlinable public mutating func record(_ size: Int, at slot: Int) {
        sizes[slot] = size
    }

    /// Returns the next recorded size, in the order the slots were reserved.
    @inlinable public mutating func next() -> Int {
        let size = sizes[cursor]
        cursor &+= 1
        return size
    }
}
