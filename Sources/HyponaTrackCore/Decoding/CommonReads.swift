import HTJSON

/// Field readers shared by the profile, day and case decoders.
enum Reads {
    static var localDate: JSONRead<LocalDate> {
        JSONRead.string(expected: "a date YYYY-MM-DD") { LocalDate($0) != nil }.map { s, _ in LocalDate(s)! }
    }
    static var timestamp: JSONRead<Timestamp> {
        JSONRead.string(length: 16...40, expected: "an ISO 8601 time with a UTC offset") { Timestamp($0) != nil }
            .map { s, _ in Timestamp(s)! }
    }
    static var itemId: JSONRead<String> {
        JSONRead.string(length: ValueRanges.itemIdLength, expected: "an id of printable characters without spaces",
                        ValueRanges.isValidItemId)
    }
    static var studyId: JSONRead<String> {
        JSONRead.string(length: ValueRanges.studyIdLength, expected: "a study ID of letters, digits, _ and -",
                        ValueRanges.isValidStudyId)
    }
    static var consentVersion: JSONRead<String> {
        JSONRead.string(length: ValueRanges.consentVersionLength, expected: "a consent version of letters, digits, ., _ and -",
                        ValueRanges.isValidConsentVersion)
    }
    static var timeZone: JSONRead<String> {
        JSONRead.string(length: 1...64, expected: "an IANA time zone such as Europe/Berlin") { ZoneRules(identifier: $0) != nil }
    }
    /// One of the rule set's codes; nil accepts any identifier-shaped code.
    static func code(_ allowed: [String: Int]?) -> JSONRead<String> {
        guard let allowed else {
            return .string(length: 1...64, expected: "a code") { $0.utf8.allSatisfy(ValueRanges.isIdentifierByte) }
        }
        return .oneOf(allowed.keys.sorted())
    }
}
