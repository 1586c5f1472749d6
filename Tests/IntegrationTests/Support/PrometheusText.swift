import Foundation

/// Checks a `/metrics` body against the Prometheus text format 0.0.4 as the daemon uses it:
/// every family has one `# HELP` and one `# TYPE` line, before its samples, which stay together;
/// names and label names are valid, label values quoted, values numbers; the text ends in a
/// newline. Returns the problems (empty when valid) and the samples by series.
enum PrometheusText {
    struct Parsed {
        var problems: [String] = []
        /// `name{labels}` exactly as written → value.
        var samples: [String: Double] = [:]
        var types: [String: String] = [:]
    }

    static func parse(_ text: String) -> Parsed {
        var parsed = Parsed()
        if !text.hasSuffix("\n") { parsed.problems.append("no final newline") }
        var helped: Set<String> = [], closed: Set<String> = []
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) {
            let words = line.split(separator: " ", maxSplits: 3).map(String.init)
            if line.hasPrefix("# HELP ") {
                if !helped.insert(words[2]).inserted { parsed.problems.append("HELP twice: \(words[2])") }
            } else if line.hasPrefix("# TYPE ") {
                let name = words[2]
                if parsed.types[name] != nil { parsed.problems.append("TYPE twice: \(name)") }
                if !helped.contains(name) { parsed.problems.append("TYPE before HELP: \(name)") }
                if !["counter", "gauge", "histogram", "summary", "untyped"].contains(words.last ?? "") {
                    parsed.problems.append("unknown type: \(line)")
                }
                parsed.types[name] = words.last
                if let current { closed.insert(current) }
                current = name
            } else {
                sample(line, family: current, closed: closed, into: &parsed)
            }
        }
        return parsed
    }

    private static func sample(_ line: String, family: String?, closed: Set<String>, into parsed: inout Parsed) {
        guard let space = line.lastIndex(of: " ") else { return parsed.problems.append("not a sample: \(line)") }
        let series = String(line[..<space]), valueText = String(line[line.index(after: space)...])
        let name = String(series.prefix { $0 != "{" })
        guard let family, name == family || ["_bucket", "_sum", "_count"].contains(where: { name == family + $0 }) else {
            return parsed.problems.append("sample outside its family: \(line)")
        }
        if closed.contains(family) { parsed.problems.append("family split: \(family)") }
        if name.range(of: "^[a-zA-Z_:][a-zA-Z0-9_:]*$", options: .regularExpression) == nil {
            parsed.problems.append("bad name: \(name)")
        }
        let labels = series.dropFirst(name.count)
        if !labels.isEmpty, String(labels).range(of: #"^\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*",?)*\}$"#, options: .regularExpression) == nil {
            parsed.problems.append("bad labels: \(line)")
        }
        guard let value = ["+Inf": Double.infinity, "-Inf": -.infinity, "NaN": .nan][valueText] ?? Double(valueText) else {
            return parsed.problems.append("bad value: \(line)")
        }
        parsed.samples[series] = value
    }
}
