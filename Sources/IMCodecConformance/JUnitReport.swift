/// A run as JUnit XML, the format CI systems read test results from.
///
/// One `<testsuite>` per area and one `<testcase>` per case, named by the
/// case id with the vector file as its class name. A failure or an unexpected
/// pass has a `<failure>` element; a skipped case and a known failure have a
/// `<skipped>` element (JUnit has no "expected failure"), whose message says
/// which it is. Problems of the run itself (``RunReport/problems``) are
/// failed test cases of a suite named `run`.
public enum JUnitReport {
    /// The XML document.
    ///
    /// - Parameters:
    ///   - report: The run.
    ///   - suiteName: The name of the `<testsuites>` element.
    /// - Returns: The document, UTF-8 text.
    public static func xml(_ report: RunReport, suiteName: String = "imcodec-conformance") -> String {
        let summary = report.summary
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"\(escape(suiteName))\" tests=\"\(summary.total.total + report.problems.count)\""
        out += " failures=\"\(summary.total.failed + summary.total.unexpectedPasses + report.problems.count)\""
        out += " errors=\"0\""
        out += " skipped=\"\(summary.total.skipped + summary.total.knownFailures)\""
        out += " time=\"\(seconds(report.seconds))\">\n"
        for (area, counts) in summary.areas {
            let results = report.results.filter { $0.area == area }
            let time = results.reduce(0) { $0 + $1.seconds }
            out += "  <testsuite name=\"\(escape(area))\" tests=\"\(counts.total)\""
            out += " failures=\"\(counts.failed + counts.unexpectedPasses)\" errors=\"0\""
            out += " skipped=\"\(counts.skipped + counts.knownFailures)\" time=\"\(seconds(time))\">\n"
            for result in results {
                out += "    <testcase classname=\"\(escape(className(result.file)))\" name=\"\(escape(result.id))\""
                out += " time=\"\(seconds(result.seconds))\""
                let message = result.messages.joined(separator: "\n")
                switch result.status {
                case .passed:
                    out += "/>\n"
                case .failed, .unexpectedPass:
                    let type = result.status == .failed ? "failure" : "unexpected-pass"
                    let first = result.messages.first ?? type
                    out +=
                        ">\n      <failure type=\"\(type)\" message=\"\(escape(first))\">\(escape(message))</failure>\n"
                    out += "    </testcase>\n"
                case .skipped, .knownFailure:
                    let first = result.messages.first ?? "skipped"
                    out += ">\n      <skipped message=\"\(escape(first))\">\(escape(message))</skipped>\n"
                    out += "    </testcase>\n"
                }
            }
            out += "  </testsuite>\n"
        }
        if !report.problems.isEmpty {
            out += "  <testsuite name=\"run\" tests=\"\(report.problems.count)\" failures=\"\(report.problems.count)\""
            out += " errors=\"0\" skipped=\"0\" time=\"0.000\">\n"
            for (index, problem) in report.problems.enumerated() {
                out += "    <testcase classname=\"run\" name=\"problem-\(index + 1)\" time=\"0.000\">\n"
                out += "      <failure type=\"run\" message=\"\(escape(problem))\">\(escape(problem))</failure>\n"
                out += "    </testcase>\n"
            }
            out += "  </testsuite>\n"
        }
        out += "</testsuites>\n"
        return out
    }

    /// `elems/text.json` → `vectors.elems.text`.
    static func className(_ file: String) -> String {
        let stem = file.hasSuffix(".json") ? String(file.dropLast(5)) : file
        return "vectors." + stem.split(separator: "/").joined(separator: ".")
    }

    static func seconds(_ value: Double) -> String {
        let milliseconds = Int((value * 1000).rounded())
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    /// Escapes text for an attribute or element, dropping characters XML 1.0
    /// cannot hold.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\t": out += "&#9;"
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                out += "?"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
