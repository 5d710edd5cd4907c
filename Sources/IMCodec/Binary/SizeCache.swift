/// The sizes of every nested message of a value, computed once before writing.
///
/// The canonical encoder writes each nested message behind its length, so the
/// length must be known before the body. Computing it on the way down would
/// recompute every inner size once per enclosing level; instead a first pass
/// records each nested message's size in pre-order (a slot is reserved before
/// the children are sized), and the writing pass reads them back in the same
/// order.
///
/// The encoder starts the cache on scratch memory on the stack
/// (``withScratch(_:)``), which holds the sizes of typical messages, so
/// encoding allocates nothing but its output; a value with more nested
/// messages moves the sizes to the heap, freed when the encoder is done. The
/// cache holds raw memory, never an object, so growing it releases nothing:
/// that lets the optimizer pass nested values to their size and write
/// functions in place instead of copying them first. Caches exist only
/// inside ``withScratch(_:)``.
@usableFromInline package struct SizeCache {
    @usableFromInline var slots: UnsafeMutablePointer<Int>
    @usableFromInline var capacity: Int
    /// The number of slots reserved.
    @usableFromInline var count: Int
    /// The next slot ``next()`` reads.
    @usableFromInline var cursor: Int
    /// Whether `slots` is heap memory the cache must free.
    @usableFromInline var ownsSlots: Bool
    /// Whether a value sized with this cache holds unknown fields anywhere.
    @usableFromInline package var holdsUnknownFields: Bool
    /// The merger layer of the message being sized (0 for the value itself).
    @usableFromInline var layer: Int
    /// The deepest merger layer of a message the value holds.
    @usableFromInline var deepestLayer: Int

    /// The number of sizes the stack scratch holds.
    @usableFromInline static var scratchSlots: Int { 128 }

    @inlinable init(scratch: UnsafeMutableBufferPointer<Int>) {
        slots = scratch.baseAddress ?? UnsafeMutablePointer(bitPattern: MemoryLayout<Int>.alignment)!
        capacity = scratch.count
        count = 0
        cursor = 0
        ownsSlots = false
        holdsUnknownFields = false
        layer = 0
        deepestLayer = 0
    }

    /// Calls `body` with an empty cache whose first sizes live on the stack.
    ///
    /// - Parameter body: Sizes and writes one value; the cache must not
    ///   escape it.
    /// - Returns: What `body` returns.
    @inlinable
    package static func withScratch<Result>(_ body: (inout SizeCache) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: scratchSlots) { scratch in
            var cache = SizeCache(scratch: scratch)
            let result = body(&cache)
            if cache.ownsSlots { cache.slots.deallocate() }
            return result
        }
    }

    /// Notes that a merger's message, one layer deeper, is about to be sized.
    @inlinable @inline(__always)
    package mutating func enterLayer() {
        layer &+= 1
        if layer > deepestLayer { deepestLayer = layer }
    }

    /// Notes that a merger's message has been sized.
    @inlinable @inline(__always)
    package mutating func leaveLayer() { layer &-= 1 }

    /// Reserves the slot for a nested message about to be sized.
    @inlinable @inline(__always)
    package mutating func reserve() -> Int {
        if count == capacity { grow() }
        let slot = count
        count &+= 1
        return slot
    }

    /// Moves the sizes to heap memory twice as large.
    ///
    /// Only raw memory is allocated and freed here, so the promise that this
    /// releases no object holds; without it every caller up the encoder
    /// would copy the nested values it passes down.
    @usableFromInline @inline(never) @_effects(releasenone)
    mutating func grow() {
        let newCapacity = Swift.max(capacity &* 2, Self.scratchSlots)
        let newSlots = UnsafeMutablePointer<Int>.allocate(capacity: newCapacity)
        newSlots.initialize(from: slots, count: count)
        if ownsSlots { slots.deallocate() }
        slots = newSlots
        capacity = newCapacity
        ownsSlots = true
    }

    /// Records the size of the nested message in `slot`.
    @inlinable @inline(__always)
    package mutating func record(_ size: Int, at slot: Int) {
        precondition(slot >= 0 && slot < count, "size recorded in a slot that was not reserved")
        slots[slot] = size
    }

    /// Returns the next recorded size, in the order the slots were reserved.
    @inlinable @inline(__always)
    package mutating func next() -> Int {
        precondition(cursor < count, "more sizes read than were recorded")
        let size = slots[cursor]
        cursor &+= 1
        return size
    }
}
