import Foundation
import Testing
import HTJSON
import HyponaTrackCore
import HyponaTrackKit
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// The surgery date fixes every postoperative day (POD) stored and sent to REDCap under it: it
/// may move only while nothing is stored under a POD — no day, no lab value, no evaluation,
/// no alert (a lab value alone used to let it move, leaving REDCap a second daily row).
@Suite struct SurgeryDateChangeTests {
    static let surgery = "2026-03-02"

    func moveSurgery(_ sim: Simulation, _ studyId: String, to date: String) throws {
        _ = try sim.service.enrollment.updateProfile(UpdateProfile(studyId: studyId, patch: ProfilePatch(JSONObject([("surgeryDate", .string(date))])),
                                                                   actor: "staff:nurse"))
    }

    func expectRefused(_ sim: Simulation, _ studyId: String) throws {
        do {
            try moveSurgery(sim, studyId, to: "2026-03-01")
            Issue.record("the surgery date moved although data is stored")
        } catch DomainError.conflict(_, let field, _) {
            #expect(field == "surgeryDate")
        }
        let stored = try sim.database.read { db in try PatientRepository.load(db, studyId: studyId) }
        #expect(stored?.profile.surgeryDate == LocalDate(Self.surgery))
    }

    @Test func theSurgeryDateMovesWhileNothingIsStored() throws {
        let sim = try Simulation(start: Berlin.at("2026-03-04", "09:00"))
        _ = try sim.enroll("SD-1", surgery: Self.surgery)
        try moveSurgery(sim, "SD-1", to: "2026-03-01")
        let stored = try sim.database.read { db in try PatientRepository.load(db, studyId: "SD-1") }
        #expect(stored?.profile.surgeryDate == LocalDate("2026-03-01"))
    }

    @Test func aLabValueAloneKeepsTheSurgeryDate() throws {
        let sim = try Simulation(start: Berlin.at("2026-03-04", "09:00"))
        _ = try sim.enroll("SD-2", surgery: Self.surgery)
        try sim.lab("SD-2", 124)
        try expectRefused(sim, "SD-2")
    }

    @Test func aMissingDataAlertBeforeAnyDataKeepsTheSurgeryDate() throws {
        let sim = try Simulation(start: Berlin.at("2026-03-04", "09:00"))
        let code = try sim.enroll("SD-3", surgery: Self.surgery)
        _ = try sim.activate("SD-3", code: code)
        try sim.run(to: Berlin.at("2026-03-07", "00:30"))
        #expect(try sim.alerts().contains { $0.studyId == "SD-3" }, "the scheduler raised no alert to test with")
        try expectRefused(sim, "SD-3")
    }
}
