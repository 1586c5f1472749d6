import HyponaTrackCore

/// What an admin says a site is (`AddSite`), and what is stored of it beside its id (`Site`).
public struct SiteDefinition: Sendable, Equatable {
    /// `[a-z][a-z0-9_]{0,31}`: what commands, the API and the configuration name it by.
    public var code: String
    public var name: String
    /// The enrolment default (nil: `defaultTimeZone`).
    public var timeZone: String?
    /// Shown by the web check-in to this site's patients (nil: `app.clinicPhone`).
    public var clinicPhone: String?
    /// Named by the web check-in to this site's patients (nil: `app.emergencyNumber`).
    public var emergencyNumber: String?
    /// The REDCap Data Access Group's unique name (nil: none).
    public var redcapDAG: String?
}

/// A centre of the study (docs/product.md, third round, S): its definition's members read as
/// its own (`site.code`).
@dynamicMemberLookup
public struct Site: Sendable, Equatable {
    public var id: Int64
    public var definition: SiteDefinition
    public var createdAt: Int64

    public subscript<T>(dynamicMember member: WritableKeyPath<SiteDefinition, T>) -> T {
        get { definition[keyPath: member] }
        set { definition[keyPath: member] = newValue }
    }
}

/// A site with how many patients and active staff members belong to it (`site list`).
public struct SiteView: Sendable, Equatable {
    public var site: Site
    public var patients: Int
    public var staff: Int
}

/// The rules for what a site's fields may hold, checked before anything is written.
public enum SiteRules {
    public static let nameLength = 1...100
    public static let dagLength = 1...32

    /// `[a-z][a-z0-9_]{0,31}`: no capitals, no spaces.
    public static func isValidCode(_ code: String) -> Bool {
        let bytes = Array(code.utf8)
        guard let first = bytes.first, (1...32).contains(bytes.count), (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first) else {
            return false
        }
        return bytes.allSatisfy { lowerOrDigit($0) || $0 == UInt8(ascii: "_") }
    }

    /// A REDCap unique group name: lower-case letters, digits and `_` (REDCap makes them so).
    public static func isValidDAG(_ dag: String) -> Bool {
        let bytes = Array(dag.utf8)
        return dagLength.contains(bytes.count) && bytes.allSatisfy { lowerOrDigit($0) || $0 == UInt8(ascii: "_") }
    }

    /// A name people read: no control characters, not blank.
    public static func isValidName(_ name: String) -> Bool {
        nameLength.contains(name.count) && !name.trimmingCharacters(in: .whitespaces).isEmpty
            && !name.unicodeScalars.contains { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format }
    }

    public static func isValidTimeZone(_ zone: String) -> Bool { zone.count <= 64 && ZoneRules(identifier: zone) != nil }

    /// A telephone number of digits, spaces and a leading + (as `app.clinicPhone`, `app.emergencyNumber`).
    public static func isValidPhone(_ phone: String, length: ClosedRange<Int>) -> Bool {
        length.contains(phone.count) && ServerConfiguration.App.isEmergencyNumber(phone)
    }

    private static func lowerOrDigit(_ b: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b)
    }
}
