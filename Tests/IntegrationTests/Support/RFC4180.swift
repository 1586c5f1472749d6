/// A strict RFC 4180 reader for the tests (https://www.rfc-editor.org/rfc/rfc4180#section-2):
/// records end with CRLF (a bare CR or LF outside quotes is an error), a quoted field may hold
/// commas, CRLF and doubled quotes, a quote inside an unquoted field is an error, and the last
/// record must end with CRLF too (the exports always write it). Not the code under test.
enum RFC4180 {
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    static func parse(_ bytes: [UInt8]) throws -> [[String]] {
        guard bytes.prefix(3) != [0xEF, 0xBB, 0xBF] else { throw Malformed(description: "starts with a byte order mark") }
        var records: [[String]] = [], record: [String] = [], field: [UInt8] = []
        var i = 0
        var quoted = false, wasQuoted = false
        func endField() {
            record.append(String(decoding: field, as: UTF8.self))
            field = []
            wasQuoted = false
        }
        while i < bytes.count {
            let b = bytes[i]
            if quoted {
                if b == UInt8(ascii: "\"") {
                    if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "\"") { field.append(b); i += 2; continue }
                    quoted = false
                } else {
                    field.append(b)
                }
                i += 1
                continue
            }
            switch b {
            case UInt8(ascii: "\""):
                guard field.isEmpty, !wasQuoted else { throw Malformed(description: "a quote inside an unquoted field at byte \(i)") }
                quoted = true
                wasQuoted = true
            case UInt8(ascii: ","):
                endField()
            case 13:
                guard i + 1 < bytes.count, bytes[i + 1] == 10 else { throw Malformed(description: "a CR without LF at byte \(i)") }
                endField()
                records.append(record)
                record = []
                i += 1
            case 10:
                throw Malformed(description: "a bare LF at byte \(i)")
            default:
                guard !wasQuoted else { throw Malformed(description: "text after a closing quote at byte \(i)") }
                field.append(b)
            }
            i += 1
        }
        if quoted { throw Malformed(description: "an unterminated quoted field") }
        guard record.isEmpty, field.isEmpty else { throw Malformed(description: "the last record does not end with CRLF") }
        let width = records.first?.count ?? 0
        if let bad = records.firstIndex(where: { $0.count != width }) {
            throw Malformed(description: "record \(bad + 1) has \(records[bad].count) fields, the header \(width)")
        }
        return records
    }

    /// The records after the header as column → value.
    static func table(_ bytes: [UInt8]) throws -> (header: [String], rows: [[String: String]]) {
        let records = try parse(bytes)
        guard let header = records.first else { throw Malformed(description: "no header record") }
        return (header, records.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) })
    }
}
