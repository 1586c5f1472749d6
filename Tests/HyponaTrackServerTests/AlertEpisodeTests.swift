import Foundation
import Testing
import HTJSON
import SQLite
import HyponaTrackCore
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// Alerts as episodes (docs/product.md, third round, C, and its settled details): a patient has
/// at most one unresolved alert per kind; later days join it; a worse level worsens it; a day
/// joining an acknowledged alert after a gap tells tier 0 again; after a resolve the next
/// finding opens a new alert. Over the daemon's database with the real repositories.
@Suite struct AlertEpisodeTests {
    final class Rig {
        let store = try! DaemonDatabase()
        let alerting: Alerting
        let patient: PatientRecord
        static let t0: Int64 = MapperFixture.enrolledAt + 7_000

        init() throws {
            var ladder = EscalationLadder()
            ladder.yellow = [EscalationLadder.Tier(afterMinutes: 0, hooks: ["ward"]),
                             EscalationLadder.Tier(afterMinutes: 60, hooks: ["lead"])]
            ladder.red = ladder.yellow
            alerting = Alerting(ladder: ladder, hooks: [], outbox: nil) { _ in "low" }
            patient = try store.database.write { db in
                let id = try PatientRepository.insert(db, profile: MapperFixture.profile("EP-1"), by: "staff:nina", at: Self.t0)
                _ = try StaffRepository.insert(db, name: "nina", role: .nurse, by: "system", at: Self.t0)
                return try PatientRepository.load(db, id: id)!
            }
        }

        static func day(_ n: Int) -> LocalDate { LocalDate("2026-03-09")!.adding(days: n) }

        /// A finding of `level` for POD 7 + `n`, `minutes` after t0.
        func raise(_ n: Int, _ level: Level, codes: [String] = ["weight_gain_pct"], minutes: Int = 0,
                   kind: AlertKind = .evaluation) throws {
            try store.database.write { db in
                try alerting.raise(db, patient, date: Self.day(n), kind: kind, level: level,
                                   reasons: codes.map { StoredReason(code: $0, level: level, value: 1, threshold: 1) },
                                   pod: 7 + n, at: Self.t0 + Int64(minutes) * 60_000)
            }
        }

        func alerts() throws -> [Alert] { try store.database.read { try $0.query("SELECT \(AlertRepository.columns) FROM alerts ORDER BY id").map(AlertRepository.decode) } }

        func days(_ id: Int64) throws -> [String] {
            try store.database.read { db in
                try AlertRepository.days(db, alertId: id).values.sorted { $0.date < $1.date }.map { "\($0.date) \($0.level)" }
            }
        }

        /// The alert events queued, in order: `type hook`.
        func events() throws -> [String] {
            try store.database.read { db in
                try db.query("SELECT type, hook FROM hook_outbox ORDER BY id").map { "\(try $0.string(0)) \(try $0.string(1))" }
            }
        }

        func acknowledge(_ id: Int64, minutes: Int) throws {
            try store.database.write { db in try alerting.acknowledge(db, id: id, by: "staff:nina", note: "called", at: Self.t0 + Int64(minutes) * 60_000) }
        }

        func resolve(_ id: Int64, minutes: Int) throws {
            try store.database.write { db in
                try alerting.resolve(db, id: id, by: "staff:nina", note: "settled", sodium: nil, at: Self.t0 + Int64(minutes) * 60_000)
            }
        }

        func newDataAt(_ id: Int64) throws -> Int64? {
            try store.database.read { try $0.queryOne("SELECT new_data_at FROM alerts WHERE id = ?", [id])?.optionalInt64(0) }
        }
    }

    @Test func laterDaysAtTheSameOrALowerLevelJoinTheAlertWithNoNewEventOrLadder() throws {
        let rig = try Rig()
        try rig.raise(0, .red, codes: ["sodium_low"])
        try rig.raise(1, .yellow, minutes: 1440)
        try rig.raise(2, .red, codes: ["sodium_low"], minutes: 2880)
        let alerts = try rig.alerts()
        #expect(alerts.count == 1, "one episode: \(alerts)")
        let a = try #require(alerts.first)
        #expect(a.date == Rig.day(0) && a.lastDate == Rig.day(2) && a.level == .red && a.ladder == 1 && a.pod == 7)
        #expect(try rig.days(a.id) == ["2026-03-09 red", "2026-03-10 yellow", "2026-03-11 red"])
        #expect(try rig.events() == ["alert.opened ward"], "tier 0 once, no event for the joined days")
    }

    @Test func aWorseDayWorsensTheEpisodeNeedsAcknowledgingAgainAndRestartsTheLadder() throws {
        let rig = try Rig()
        try rig.raise(0, .yellow)
        let id = try #require(try rig.alerts().first?.id)
        try rig.acknowledge(id, minutes: 10)
        try rig.raise(1, .red, codes: ["sodium_low"], minutes: 1440)
        let a = try #require(try rig.alerts().first)
        #expect(try rig.alerts().count == 1)
        #expect(a.state == .open && a.level == .red && a.ladder == 2 && a.lastDate == Rig.day(1))
        #expect(Set(a.reasons.map(\.code)) == ["weight_gain_pct", "sodium_low"], "the union of the days' reasons")
        #expect(try rig.events().filter { $0.hasPrefix("alert.worsened") } == ["alert.worsened ward"])
    }

    @Test func aDayJoiningAnAcknowledgedAlertAfterAGapTellsTierZeroAgainWithoutANewLadder() throws {
        let rig = try Rig()
        try rig.raise(0, .yellow)
        let id = try #require(try rig.alerts().first?.id)
        try rig.acknowledge(id, minutes: 10)
        try rig.raise(1, .yellow, minutes: 1440)
        #expect(try rig.events().filter { $0.hasPrefix("alert.updated") }.isEmpty, "no gap: no event")
        #expect(try rig.newDataAt(id) == Rig.t0 + 1440 * 60_000, "new data since acknowledged")
        try rig.raise(3, .yellow, minutes: 4320)      // day 2 had no finding
        #expect(try rig.events().filter { $0.hasPrefix("alert.updated") } == ["alert.updated ward"])
        let a = try #require(try rig.alerts().first)
        #expect(a.state == .acknowledged && a.ladder == 1, "still acknowledged; the ladder does not climb again")
        try rig.acknowledge(id, minutes: 4400)
        #expect(try rig.newDataAt(id) == nil, "acknowledging again clears it")
    }

    @Test func reEvaluatingACoveredDayAtTheSameOrALowerLevelChangesNothing() throws {
        let rig = try Rig()
        try rig.raise(0, .red, codes: ["sodium_low"])
        let before = try rig.events()
        try rig.raise(0, .yellow, minutes: 30)
        try rig.raise(0, .red, codes: ["sodium_low"], minutes: 60)
        #expect(try rig.events() == before)
        #expect(try rig.days(try #require(try rig.alerts().first?.id)) == ["2026-03-09 red"])
    }

    @Test func afterAResolveTheNextFindingOpensANewAlertButARevisitedDayDoesNot() throws {
        let rig = try Rig()
        try rig.raise(0, .yellow)
        let first = try #require(try rig.alerts().first?.id)
        try rig.resolve(first, minutes: 60)
        try rig.raise(0, .yellow, minutes: 90)
        #expect(try rig.alerts().count == 1, "a re-evaluated day the resolved alert covered is no finding")
        try rig.raise(1, .yellow, minutes: 1440)
        let alerts = try rig.alerts()
        #expect(alerts.count == 2 && alerts[1].state == .open && alerts[1].date == Rig.day(1))
    }

    @Test func eachKindIsItsOwnEpisode() throws {
        let rig = try Rig()
        try rig.raise(0, .yellow)
        try rig.raise(0, .yellow, codes: ["missing_checkin"], kind: .missingCheckin)
        try rig.raise(1, .yellow, codes: ["missing_checkin"], minutes: 1440, kind: .missingCheckin)
        #expect(try rig.alerts().map { "\($0.kind.rawValue) \($0.date)…\($0.lastDate)" }
                == ["evaluation 2026-03-09…2026-03-09", "missing_checkin 2026-03-09…2026-03-10"])
    }

    @Test func todayShowsTheLevelTheAlertHoldsForTodayNotItsHighest() throws {
        let rig = try Rig()
        try rig.raise(0, .red, codes: ["sodium_low"])
        try rig.raise(1, .yellow, minutes: 1440)
        let held = try rig.store.database.read { db in try AlertRepository.holding(db, patientId: rig.patient.id, date: Rig.day(1)) }
        #expect(held.map(\.level) == [.yellow])
        let none = try rig.store.database.read { db in try AlertRepository.holding(db, patientId: rig.patient.id, date: Rig.day(2)) }
        #expect(none.isEmpty)
    }
}
