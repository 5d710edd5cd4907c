import IMCodec

/// One pass of the validator over a message, batch or event: the findings so
/// far and where the walk is.
///
/// The walk is iterative: the message lists of mergers wait on ``pending``
/// instead of being visited by recursion, so a hand-built model nested any
/// depth cannot overflow the stack, and a waiting list holds the merger's
/// array rather than copies of its messages. Paths are not built while
/// walking: the position is a stack of static components (``local``) below
/// the current message, whose place is a node in a tree of message positions
/// (``nodes``), and a ``FieldPath`` is made only when a finding is
/// reported. So the work is linear in the size of the value, plus the length
/// of the reported paths.
struct ValidationRun {
    /// One step of a path: a field name or an index into a repeated field.
    enum PathComponent {
        case field(StaticString)
        case index(Int)
    }

    /// Where a message sits relative to the message (or root) above it.
    enum PathStep {
        /// `messages[i]` of a batch.
        case batchMessage(Int)
        /// `modification.message` of an event.
        case modificationMessage
        /// `groupProfiles.groups[i].lastMsg` of an event.
        case groupLastMessage(Int)
        /// `conversations.conversations[i].lastMessage` of an event.
        case conversationLastMessage(Int)
        /// `elems[elem].merger.messages[message]` of the message above.
        case mergerMessage(elem: Int, message: Int)
    }

    /// A message position: its parent node and the step from there.
    struct PathNode {
        /// The parent node; 0 is the root of the validated value.
        var parent: Int
        /// The step from the parent.
        var step: PathStep
    }

    /// The messages of one merger, waiting to be visited in order.
    struct PendingList {
        /// The merger's messages.
        var messages: [Message]
        /// The index of the next message to visit.
        var next: Int
        /// The node of the message that holds the merger.
        var parent: Int
        /// The index of the merger elem in that message.
        var elem: Int
        /// The merger layer of the messages.
        var layer: Int
    }

    /// The limits checked.
    let limits: ValidationLimits
    /// The findings, in the order they were found.
    private(set) var findings: [ValidationFinding] = []
    /// Message positions below the root; node `n` is `nodes[n - 1]`.
    private var nodes: [PathNode] = []
    /// The node of the message being visited; 0 is the root.
    private(set) var node = 0
    /// The components from the current node to the field being checked.
    private(set) var local: [PathComponent] = []
    /// Merger message lists still to visit, the next one last.
    var pending: [PendingList] = []
    /// Gives each merger's messages as the walk reaches them, when the
    /// mergers hold stand-ins (as many empty messages as they forward)
    /// instead of their messages; `nil` when they hold their messages.
    var forwarded: ((ForwardedPlace) -> Message)?

    /// Where a forwarded message stands, as ``forwarded`` is asked for it.
    struct ForwardedPlace {
        /// The node of the message whose merger forwards it.
        var parent: Int
        /// The index of the merger elem in that message.
        var elem: Int
        /// The message's index in the merger's list.
        var index: Int
        /// The node made for the message.
        var node: Int
    }

    /// Creates a run.
    ///
    /// - Parameter limits: The limits to check against.
    init(limits: ValidationLimits) {
        self.limits = limits
        local.reserveCapacity(12)
    }

    // MARK: Position

    /// Makes `node` the current message position, with no local components.
    mutating func moveTo(node: Int) {
        self.node = node
        if !local.isEmpty { local.removeAll(keepingCapacity: true) }
    }

    /// Enters a field below the current position.
    @inline(__always)
    mutating func push(_ field: StaticString) {
        local.append(.field(field))
    }

    /// Enters an entry of the repeated field just entered.
    @inline(__always)
    mutating func push(index: Int) {
        local.append(.index(index))
    }

    /// Leaves the `count` innermost components.
    @inline(__always)
    mutating func pop(_ count: Int = 1) {
        local.removeLast(count)
    }

    /// Creates the node of a message.
    ///
    /// - Parameters:
    ///   - parent: The node above it.
    ///   - step: The step from there.
    /// - Returns: The new node.
    mutating func makeNode(parent: Int, _ step: PathStep) -> Int {
        nodes.append(PathNode(parent: parent, step: step))
        return nodes.count
    }

    /// The path of the current position, with `last` appended.
    func path(appending last: StaticString?) -> FieldPath {
        var chain: [PathStep] = []
        var index = node
        while index > 0 {
            chain.append(nodes[index - 1].step)
            index = nodes[index - 1].parent
        }
        var path = FieldPath()
        path.components.reserveCapacity(chain.count * 5 + local.count + 1)
        for step in chain.reversed() {
            switch step {
            case .batchMessage(let message):
                path.append(.field("messages"))
                path.append(.index(message))
            case .modificationMessage:
                path.append(.field("modification"))
                path.append(.field("message"))
            case .groupLastMessage(let group):
                path.append(.field("groupProfiles"))
                path.append(.field("groups"))
                path.append(.index(group))
                path.append(.field("lastMsg"))
            case .conversationLastMessage(let conversation):
                path.append(.field("conversations"))
                path.append(.field("conversations"))
                path.append(.index(conversation))
                path.append(.field("lastMessage"))
            case .mergerMessage(let elem, let message):
                path.append(.field("elems"))
                path.append(.index(elem))
                path.append(.field("merger"))
                path.append(.field("messages"))
                path.append(.index(message))
            }
        }
        for component in local {
            switch component {
            case .field(let name): path.append(.field(name.description))
            case .index(let index): path.append(.index(index))
            }
        }
        if let last { path.append(.field(last.description)) }
        return path
    }

    // MARK: Reporting

    /// Records a finding at the current position.
    ///
    /// - Parameters:
    ///   - code: The rule broken; its severity comes from ``FindingCode/severity``.
    ///   - last: A field below the current position, or `nil` for the
    ///     position itself.
    ///   - limit: The limit crossed.
    ///   - actual: The observed value.
    ///   - reason: A human explanation, built only when reported.
    mutating func report(
        _ code: FindingCode,
        at last: StaticString? = nil,
        limit: Int64? = nil,
        actual: Int64? = nil,
        _ reason: @autoclosure () -> String
    ) {
        findings.append(
            ValidationFinding(
                code, path: path(appending: last), severity: code.severity,
                limit: limit, actual: actual, reason: reason()))
    }

    /// Reports `code` when `count` is above `limit`.
    ///
    /// - Parameters:
    ///   - count: The observed byte or entry count.
    ///   - limit: The limit, or `nil` when the rule is off.
    ///   - code: The rule.
    ///   - last: A field below the current position, or `nil`.
    ///   - what: What was counted, for the reason.
    ///   - unit: `bytes`, `entries` or another unit, for the reason.
    mutating func checkCount(
        _ count: Int,
        against limit: Int?,
        _ code: FindingCode,
        at last: StaticString? = nil,
        what: StaticString,
        unit: StaticString = "bytes"
    ) {
        guard let limit, count > limit else { return }
        report(code, at: last, limit: Int64(limit), actual: Int64(count), "\(what) is \(count) \(unit), above \(limit)")
    }
}
