import ArgumentParser

/// The `--from` and `--to` values: which JSON a command reads or writes.
enum DocumentFormatOption: String, ExpressibleByArgument, CaseIterable {
    /// The proto3 JSON mapping of the schema (docs/PAYLOAD.md).
    case json
    /// Tencent Cloud IM REST `MsgBody` JSON (docs/REST.md).
    case restapi
}
