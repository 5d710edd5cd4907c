import ArgumentParser

/// The `--from` and `--to` values: which JSON a command reads or writes.
enum DocumentFormatOption: String, ExpressibleByArgument, CaseIterable {
    /// The proto3 JSON mapping of the schema (docs/spec/payloads.md).
    case json
    /// Tencent Cloud IM REST `MsgBody` JSON (Sources/IMCodecREST/IMCodecREST.docc/REST.md).
    case restapi
}
