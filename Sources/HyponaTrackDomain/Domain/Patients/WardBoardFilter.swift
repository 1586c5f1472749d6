import Foundation
import HyponaTrackCore

/// What the ward board is narrowed to (docs/product.md, "Ward board": "Filters (level, handling
/// state, site, study ID text) are query parameters"). Each is optional; a row shows when it
/// matches all that are set.
public struct WardBoardFilter: Sendable, Equatable {
    /// The level filter: one of the lights, or no data yet.
    public enum LevelChoice: String, Sendable, CaseIterable {
        case red, yellow, green, none
    }

    public var level: LevelChoice?
    public var handling: BoardHandling?
    /// Part of the study ID, any case.
    public var studyId: String
    /// A site's code ("" for every site the member reaches). The rows are narrowed by the
    /// router's scope step (`?site=` on a list), which refuses a code that is not a site; the
    /// filter only keeps it in the page's links.
    public var site: String

    public init(level: LevelChoice? = nil, handling: BoardHandling? = nil, studyId: String = "", site: String = "") {
        self.level = level
        self.handling = handling
        self.studyId = studyId.trimmingCharacters(in: .whitespaces)
        self.site = site
    }

    /// The query parameters' names.
    public static let levelParameter = "level", handlingParameter = "handling", studyIdParameter = "q", siteParameter = "site"

    /// From a page's query; an unknown value is no filter.
    public init(query: (String) -> String?) {
        self.init(level: query(Self.levelParameter).flatMap(LevelChoice.init(rawValue:)),
                  handling: query(Self.handlingParameter).flatMap(BoardHandling.init(rawValue:)),
                  studyId: query(Self.studyIdParameter) ?? "", site: query(Self.siteParameter) ?? "")
    }

    public var isEmpty: Bool { level == nil && handling == nil && studyId.isEmpty && site.isEmpty }

    /// The filter as query items, in a fixed order (the refresh and the links keep it).
    public var queryItems: [(name: String, value: String)] {
        [level.map { (Self.levelParameter, $0.rawValue) }, handling.map { (Self.handlingParameter, $0.rawValue) },
         studyId.isEmpty ? nil : (Self.studyIdParameter, studyId), site.isEmpty ? nil : (Self.siteParameter, site)].compactMap { $0 }
    }

    public func matches(_ row: WardBoard.Row) -> Bool {
        if let level {
            let rowLevel: LevelChoice = switch row.level {
            case .red?: .red
            case .yellow?: .yellow
            case .green?, .info?: .green
            case nil: .none
            }
            guard rowLevel == level else { return false }
        }
        if let handling, row.handling != handling { return false }
        return studyId.isEmpty || row.patient.studyId.lowercased().contains(studyId.lowercased())
    }
}
