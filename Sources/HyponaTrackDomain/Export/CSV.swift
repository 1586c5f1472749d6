/// RFC 4180 text/csv (https://www.rfc-editor.org/rfc/rfc4180#section-2): UTF-8 without a byte
/// order mark, records ended by CRLF (the last one too), a header record first, and a field
/// enclosed in double quotes when it holds a comma, a double quote, CR or LF, with each double
/// quote inside doubled ("If double-quotes are used to enclose fields, then a double-quote
/// appearing inside a field must be escaped by preceding it with another double quote").
///
/// Spreadsheet formulas: a cell that starts with `=`, `+`, `-`, `@`, a tab or CR is read as a
/// formula by Excel, LibreOffice and Google Sheets ("CSV injection", OWASP). Study IDs and staff
/// names may start with `-` (`-A1` is a cell reference), so such a field gets a leading `'`,
/// which spreadsheets take as "this is text" — unless the field is a plain decimal number
/// (`-1.5`, `+3`), which must stay a number. The apostrophe is part of the exported text: a
/// program reading the file sees `'-A1` (docs/product.md, "Exports and statistics").
public enum CSV {
    /// One field as it appears in a record: neutralised if it could be a formula, quoted if needed.
    public static func field(_ value: String) -> String {
        var text = value
        if let first = text.unicodeScalars.first, formulaStarts.contains(first), !isPlainNumber(text) {
            text = "'" + text
        }
        guard text.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 13 || $0 == 10 }) else {
            return text
        }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// One record with its CRLF.
    public static func record(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }

    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// `[+-]?[0-9]+(\.[0-9]+)?`: how the exports write numbers.
    static func isPlainNumber(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let parts = bytes.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        let digits = { (p: ArraySlice<UInt8>) in !p.isEmpty && p.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } }
        return parts.count <= 2 && parts.allSatisfy(digits)
    }
}

/// A CSV file built record by record, with the number of data records written.
public struct CSVDocument: Sendable {
    public private(set) var bytes: [UInt8] = []
    /// Data records, the header not counted.
    public private(set) var rows = 0

    public init(header: [String]) {
        bytes.append(contentsOf: CSV.record(header).utf8)
    }

    public mutating func append(_ fields: [String]) {
        bytes.append(contentsOf: CSV.record(fields).utf8)
        rows += 1
    }
}
