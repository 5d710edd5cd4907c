import IMCodec
import IMCodecREST
import IMCodecValidation

extension FuzzChecks {
    /// Tencent REST import, export and validation (Sources/IMCodecREST/IMCodecREST.docc/REST.md).
    ///
    /// On any input: the validator reports import problems exactly when the
    /// import throws, the first of them is what the import throws, and they
    /// are at most `maxProblems` and the `limit.problems` count. An
    /// accepted document must export (everything REST reads has a REST
    /// form); the export must import to the same value and export to the
    /// same text; and the value must survive a frame unchanged.
    public static func rest(_ input: [UInt8]) -> String? {
        let findings = RESTValidator.validate(input)
        let imported: FramePayload
        do {
            imported = try RESTCodec.importPayload(input).value
        } catch {
            guard let first = findings.first else { return "the import throws \(error) but validation finds nothing" }
            if first.code.rawValue != error.code.rawValue || first.path != error.path {
                return "the import throws \(error) but validation reports \(first.code) at \(first.path) first"
            }
            let bound = DecodingLimits.default.maxProblems + 1
            if findings.count > bound { return "validation reports \(findings.count) import problems, above \(bound)" }
            return nil
        }
        if let problem = findings.first(where: {
            $0.code.rawValue.hasPrefix("rest.") || $0.code.rawValue.hasPrefix("json.")
        }) {
            return "the import accepts what validation reports as \(problem.code) at \(problem.path)"
        }
        let text: String
        do {
            text = try RESTCodec.export(imported)
        } catch {
            return "an imported value does not export: \(error)"
        }
        let again: FramePayload
        do {
            again = try RESTCodec.importPayload(Array(text.utf8)).value
        } catch {
            return "the export does not import: \(error)\n\(text)"
        }
        if again != imported { return "the export imports to another value:\n\(text)" }
        if (try? RESTCodec.export(again)) != text { return "exporting twice gives two texts:\n\(text)" }
        do {
            let frame = try FrameEncoder().encode(imported)
            if try FrameDecoder().decode(frame) != imported { return "the value changes through a frame" }
        } catch {
            return "an imported value does not frame, or its frame does not decode: \(error)"
        }
        return nil
    }
}
