import Testing
import HTJSON
import HyponaTrackCore
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// The alert lists: every unresolved alert at once, all alerts a page at a time.
@Suite struct AlertListTests {
    /// One unresolved alert each for `count` patients (a patient holds at most one per kind).
    static func openAlerts(_ sim: Simulation, _ count: Int) throws {
        try sim.database.write { db in
            let patients = try (0..<count).map { n in
                try PatientRepository.insert(db, profile: MapperFixture.profile("LIST-\(n)"), by: "staff:nina", at: MapperFixture.enrolledAt)
            }
            for (n, patient) in patients.enumerated() {
                _ = try AlertRepository.open(db, patientId: patient, date: LocalDate("2026-03-04")!.adding(days: n),
                                             kind: .evaluation, level: n % 3 == 0 ? .red : .yellow, reasons: [], pod: 2 + n,
                                             at: Berlin.ms(Berlin.at("2026-03-04", "09:00")) + Int64(n))
            }
        }
    }

    @Test func everyUnresolvedAlertIsListedHoweverManyThereAre() throws {
        let sim = try Simulation(start: Berlin.at("2026-03-04", "09:00"))
        try Self.openAlerts(sim, 620)
        let open = try sim.service.alerts.alerts(AlertsQuery(openOnly: true))
        #expect(open.alerts.count == 620 && open.olderBefore == nil, "none of the oldest reds is left out")
        #expect(open.alerts.first?.id == 620 && open.alerts.last?.id == 1, "newest first")
    }

    @Test func allAlertsComeInPagesOfTheNewestWithTheWayToTheOlderOnes() throws {
        let sim = try Simulation(start: Berlin.at("2026-03-04", "09:00"))
        try Self.openAlerts(sim, 620)
        let first = try sim.service.alerts.alerts(AlertsQuery(openOnly: false, limit: AlertsQuery.defaultLimit))
        #expect(first.alerts.count == 500 && first.alerts.first?.id == 620 && first.olderBefore == 121)
        let second = try sim.service.alerts.alerts(AlertsQuery(openOnly: false, before: first.olderBefore, limit: 500))
        #expect(second.alerts.map(\.id) == Array((1...120).reversed()) && second.olderBefore == nil)
        let exact = try sim.service.alerts.alerts(AlertsQuery(openOnly: false, before: 121, limit: 120))
        #expect(exact.alerts.count == 120 && exact.olderBefore == nil, "a page that ends exactly at the oldest has no next page")
    }
}
