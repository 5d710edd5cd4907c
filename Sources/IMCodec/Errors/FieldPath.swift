/// Where in a value something is: a sequence of fields and entries from the
/// root, as ``IMCodecError`` and `ValidationFinding` (IMCodecValidation) carry it.
///
/// A path is made of components: a field, named by its proto3 JSON name
/// (`msgId`, `elems`) or, in a Tencent REST document, by its JSON key
/// (`MsgBody`, `MsgContent`); and an index into a repeated field or a JSON
/// array, counted from 0. The empty path is the root of the value.
///
/// Its text form, ``description``, is the path syntax of the documentation,
/// the golden vectors and the testee protocol: fields separated by `.`,
/// each index in brackets right after what it indexes.
///
/// ```swift
/// let path: FieldPath = [.field("elems"), .index(2), .field("image"), .field("levels"), .index(1)]
/// print(path.appending(.field("width")))   // elems[2].image.levels[1].width
/// print(path.prepending(.index(0)))       // [0].elems[2].image.levels[1]
/// ```
///
/// Compare paths as values, never their text: two paths are equal when
/// their components are.
public struct FieldPath: Hashable, Sendable, CustomStringConvertible, ExpressibleByArrayLiteral {
    /// One step of a path.
    public enum Component: Hashable, Sendable, CustomStringConvertible {
        /// A field, by its proto3 JSON name (`msgId`), or a member of a JSON
        /// document by its key (`MsgBody`, or a key the schema does not
        /// know).
        case field(String)
        /// An entry of a repeated field or a JSON array, counted from 0.
        case index(Int)

        /// The field's name, or the index in brackets (`[2]`).
        public var description: String {
            switch self {
            case .field(let name): name
            case .index(let index): "[\(index)]"
            }
        }
    }

    /// The components, from the root inwards.
    public var components: [Component]

    /// Creates a path from its components.
    ///
    /// - Parameter components: The components, from the root inwards; none
    ///   for the root.
    public init(_ components: [Component] = []) {
        self.components = components
    }

    /// Creates a path from its components, written as an array literal.
    ///
    /// - Parameter elements: The components, from the root inwards.
    public init(arrayLiteral elements: Component...) {
        self.components = elements
    }

    /// The root of the value: the path with no components.
    public static var root: FieldPath { FieldPath() }

    /// Whether this is the root.
    public var isEmpty: Bool { components.isEmpty }

    /// Appends a component at the inner end.
    ///
    /// - Parameter component: The field or index below this path.
    public mutating func append(_ component: Component) {
        components.append(component)
    }

    /// Appends a path at the inner end.
    ///
    /// - Parameter path: The path from this one further in.
    public mutating func append(_ path: FieldPath) {
        components.append(contentsOf: path.components)
    }

    /// Returns this path with a component appended at the inner end.
    ///
    /// - Parameter component: The field or index below this path.
    /// - Returns: The longer path.
    public func appending(_ component: Component) -> FieldPath {
        var copy = self
        copy.append(component)
        return copy
    }

    /// Returns this path with a path appended at the inner end.
    ///
    /// - Parameter path: The path from this one further in.
    /// - Returns: The longer path.
    public func appending(_ path: FieldPath) -> FieldPath {
        var copy = self
        copy.append(path)
        return copy
    }

    /// Puts a component in front, at the root end: the path as seen from
    /// the value that holds this path's root.
    ///
    /// - Parameter component: The field or index that leads to this path's
    ///   root.
    public mutating func prepend(_ component: Component) {
        components.insert(component, at: 0)
    }

    /// Puts a path in front, at the root end.
    ///
    /// - Parameter path: The path that leads to this path's root.
    public mutating func prepend(_ path: FieldPath) {
        components.insert(contentsOf: path.components, at: 0)
    }

    /// Returns this path with a component put in front, at the root end.
    ///
    /// - Parameter component: The field or index that leads to this path's
    ///   root.
    /// - Returns: The longer path.
    public func prepending(_ component: Component) -> FieldPath {
        var copy = self
        copy.prepend(component)
        return copy
    }

    /// Returns this path with a path put in front, at the root end.
    ///
    /// - Parameter path: The path that leads to this path's root.
    /// - Returns: The longer path.
    public func prepending(_ path: FieldPath) -> FieldPath {
        var copy = self
        copy.prepend(path)
        return copy
    }

    /// The path in the documented syntax: fields separated by `.`, indexes
    /// in brackets (`elems[2].image.levels[1].width`, `[0].elems[1]`,
    /// `MsgBody[1].MsgContent.URL`); the empty string for the root. A field
    /// that is not the first component follows a `.`, even when its name is
    /// empty.
    public var description: String {
        var text = ""
        for (position, component) in components.enumerated() {
            switch component {
            case .field(let name):
                if position > 0 { text += "." }
                text += name
            case .index(let index):
                text += "["
                text += String(index)
                text += "]"
            }
        }
        return text
    }
}
