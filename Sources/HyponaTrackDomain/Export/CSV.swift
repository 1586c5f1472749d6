/// One cell of an export row, typed by what its column holds (`REDCapFields.Validation`), never
/// by what its text looks like: a study ID `-12` stays text, a slowing of `-1.5` stays a number.
public enum CSVCell: Sendable, Equatable {
    /// Anything a person or a code wrote: written as stored, or in the excel dialect guarded
    /// against being run as a formula.
    case text(String)
    /// A number as the REDCap mapper writes it (`-1.5`, `12`, blank when there is none): the
    /// excel dialect only changes its decimal point for a German spreadsheet.
    case number(String)
}

/// How an export is written (docs/product.md, "Exports and statistics", `?dialect=`).
public enum CSVDialect: Sendable, Equatable {
    /// RFC 4180 (https://www.rfc-editor.org/rfc/rfc4180#section-2): UTF-8 without a byte order
    /// mark, `,` between fields, every value exactly as stored.
    case rfc4180
    /// What a spreadsheet opens as columns in the language's locale: UTF-8 with a byte order
    /// mark (without one Excel reads the file as the system's code page), `;` between fields
    /// (German Excel splits on the locale's list separator, `;`, so a `,` file opens as one
    /// column), numbers with a decimal comma in German, and text that a spreadsheet would run as
    /// a formula neutralised with a leading `'`.
    case excel(Language)

    /// The language of the spreadsheet (nil: none, the default dialect).
    public var language: Language? {
        if case .excel(let language) = self { return language }
        return nil
    }

    var separator: UInt8 { self == .rfc4180 ? UInt8(ascii: ",") : UInt8(ascii: ";") }

    /// What the file starts with: the UTF-8 byte order mark for a spreadsheet, nothing for RFC 4180.
    var preamble: [UInt8] { self == .rfc4180 ? [] : [0xEF, 0xBB, 0xBF] }
}

/// The fields and records of both dialects. Records end with CRLF (the last one too); a field is
/// enclosed in double quotes when it holds the separator, a double quote, CR or LF, with each
/// double quote inside doubled (RFC 4180: "If double-quotes are used to enclose fields, then a
/// double-quote appearing inside a field must be escaped by preceding it with another double quote").
///
/// Spreadsheet formulas (the excel dialect only): a text cell that starts with `=`, `+`, `-`,
/// `@`, a tab or CR is read as a formula by Excel, LibreOffice and Google Sheets ("CSV
/// injection", OWASP), so it gets a leading `'`, which spreadsheets take as "this is text". A
/// number cell never does: its type, not its text, says it is a number. The RFC 4180 default
/// keeps every value as stored, for programs that read the file.
public enum CSV {
    /// One cell as it appears in a record of `dialect`.
    public static func field(_ cell: CSVCell, _ dialect: CSVDialect = .rfc4180) -> String {
        var text: String
        switch (cell, dialect) {
        case (.text(let value), .rfc4180), (.number(let value), .rfc4180), (.number(let value), .excel(.en)):
            text = value
        case (.number(let value), .excel(.de)):
            text = value.replacingOccurrences(of: ".", with: ",")
        case (.text(let value), .excel):
            text = value
            if let first = text.unicodeScalars.first, formulaStarts.contains(first) { text = "'" + text }
        }
        let separator = dialect.separator
        guard text.utf8.contains(where: { $0 == separator || $0 == UInt8(ascii: "\"") || $0 == 13 || $0 == 10 }) else {
            return text
        }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// One record with its CRLF.
    public static func record(_ cells: [CSVCell], _ dialect: CSVDialect = .rfc4180) -> String {
        cells.map { field($0, dialect) }.joined(separator: String(UnicodeScalar(dialect.separator))) + "\r\n"
    }

    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]
}

/// A CSV file built record by record in one dialect, with the number of data records written.
public struct CSVDocument: Sendable {
    public let dialect: CSVDialect
    public private(set) var bytes: [UInt8]
    /// Data records, the header not counted.
    public private(set) var rows = 0

    /// The header's names are text cells.
    public init(header: [String], dialect: CSVDialect = .rfc4180) {
        self.dialect = dialect
        bytes = dialect.preamble
        bytes.append(contentsOf: CSV.record(header.map(CSVCell.text), dialect).utf8)
    }

    public mutating func append(_ cells: [CSVCell]) {
        bytes.append(contentsOf: CSV.record(cells, dialect).utf8)
        rows += 1
    }
}
