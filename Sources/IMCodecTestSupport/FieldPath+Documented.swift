import IMCodec

extension FieldPath {
    /// Reads a path written in the documented syntax (`elems[2].text`,
    /// `[1].elems`), for expected values written by hand as text.
    ///
    /// - Parameter text: The path's text; its names hold no `.` or `[`.
    public init(documented text: String) {
        var components: [Component] = []
        guard !text.isEmpty else {
            self.init(components)
            return
        }
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            let name = part.prefix { $0 != "[" }
            if !name.isEmpty || part.isEmpty { components.append(.field(String(name))) }
            var rest = part.dropFirst(name.count)
            while rest.first == "[", let close = rest.firstIndex(of: "]") {
                components.append(.index(Int(rest[rest.index(after: rest.startIndex)..<close]) ?? -1))
                rest = rest[rest.index(after: close)...]
            }
        }
        self.init(components)
    }
}
