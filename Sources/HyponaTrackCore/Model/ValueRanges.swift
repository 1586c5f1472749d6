/// The accepted range of every measured or entered value (docs/product.md, "Value ranges").
/// A value outside is refused with `invalid_value`, never clamped.
public enum ValueRanges {
    public static let studyIdLength = 1...64
    public static let age = 18...110
    public static let bmi = 12.0...70.0
    public static let weightKg = 25.0...350.0
    public static let fluidIntakeMl = 0.0...10_000.0
    public static let fluidLimitMl = 500.0...5_000.0
    public static let urineSG = 1.000...1.040
    public static let symptomItem = 0...3
    public static let vas = 0...10
    public static let vomitingEpisodes = 0...50
    public static let reactionTimeMs = 100.0...5_000.0
    public static let reactionErrors = 0...1_000
    public static let taps = 0...1_000
    public static let tappingSeconds = 1.0...120.0
    public static let sodium = 100.0...180.0
    public static let steps = 0...100_000
    public static let hrvMs = 1.0...300.0
    public static let sleepMinutes = 0...1_440
    public static let restingHeartRate = 20...250
    public static let desmopressinMcg = 0.0...1_000.0
    public static let operationMinutes = 1...1_440
    public static let itemIdLength = 1...64
    /// Surgery date: not more than this many days ago (enrolment only; case files are exempt).
    public static let surgeryDateMaxDaysAgo = 60
    /// Consent date: not later than this many days after the surgery date.
    public static let consentDateMaxDaysAfterSurgery = 60
    /// Consent form version: 1–32 characters of `[A-Za-z0-9._-]`.
    public static let consentVersionLength = 1...32
    /// A list item's time may lie on the day's local date ± this many days.
    public static let itemTimeSlackDays = 1

    /// `[A-Za-z0-9_-]{1,64}`
    public static func isValidStudyId(_ s: String) -> Bool {
        studyIdLength.contains(s.utf8.count) && s.utf8.allSatisfy(isIdentifierByte)
    }

    /// Consent form versions: `[A-Za-z0-9._-]{1,32}`.
    public static func isValidConsentVersion(_ s: String) -> Bool {
        consentVersionLength.contains(s.utf8.count) && s.utf8.allSatisfy { isIdentifierByte($0) || $0 == UInt8(ascii: ".") }
    }

    /// Client item ids: 1–64 printable ASCII characters without spaces.
    public static func isValidItemId(_ s: String) -> Bool {
        itemIdLength.contains(s.utf8.count) && s.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    /// REDCap event names and checkbox codes: lower-case letters, digits and `_`.
    public static func isLowerCodeByte(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_")
    }

    public static func isIdentifierByte(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
            || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_") || b == UInt8(ascii: "-")
    }
}
