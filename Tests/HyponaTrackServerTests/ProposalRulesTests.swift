import Foundation
import Testing
import HTJSON
import SQLite
import HyponaTrackCore
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// What becomes a proposal and what confirming it does, in process over a real database
/// (docs/product.md, "Import details"): the same Observation proposes once, amendments supersede
/// or replace the value in force, entered-in-error withdraws or proposes a deletion, Apple
/// Health values already stored or out of range are refused.
@Suite struct ProposalRulesTests {
    static let system = "urn:hyponatrack:study-id"

    static func observation(_ id: String, status: String = "final", value: Double? = 131, time: String = "2026-11-19T08:00:00+01:00",
                            studyId: String = "PR-1") -> JSONValue {
        var o = JSONObject([("resourceType", "Observation"), ("id", .string(id)), ("status", .string(status)),
                            ("code", ["coding": [["system": "http://loinc.org", "code": "2951-2"]]]),
                            ("subject", ["identifier": ["system": .string(system), "value": .string(studyId)]]),
                            ("effectiveDateTime", .string(time))])
        if let value { o["valueQuantity"] = ["value": .number(value), "unit": "mmol/L"] }
        return .object(o)
    }

    func start() throws -> Simulation {
        let sim = try Simulation(start: Berlin.at("2026-11-20", "10:00"))
        _ = try sim.activate("PR-1", code: try sim.enroll("PR-1", surgery: "2026-11-15"))
        return sim
    }

    func fhir(_ sim: Simulation, _ doc: JSONValue) throws -> ImportReport {
        try sim.service.imports.fhir(ImportFHIR(document: JSONSerializer.bytes(doc), scope: .allSites, actor: "staff:nurse"))
    }

    func decide(_ sim: Simulation, _ id: Int64, confirm: Bool = true, override: Bool = false) throws -> ProposalView {
        let command = DecideProposal(id: id, note: "checked", override: override, actor: "staff:nurse")
        return confirm ? try sim.service.proposals.confirm(command) : try sim.service.proposals.reject(command)
    }

    func labs(_ sim: Simulation, _ date: String = "2026-11-19") throws -> [Double] {
        try sim.database.read { db in
            let id = try PatientRepository.load(db, studyId: "PR-1")!.id
            return try DayRepository.load(db, patientId: id, date: LocalDate(date)!).labSodium.map(\.value)
        }
    }

    func proposal(_ sim: Simulation, _ id: Int64) throws -> Proposal {
        try sim.database.read { db in try ProposalRepository.load(db, id: id)! }
    }

    @Test func amendmentsSupersedePendingAndReplaceTheConfirmedValueInForce() throws {
        let sim = try start()
        let a = try fhir(sim, Self.observation("o1")).proposed
        #expect(a.count == 1)
        let b = try fhir(sim, Self.observation("o1", status: "amended", value: 129)).proposed
        #expect(try proposal(sim, a[0]).status == .superseded && b.count == 1)
        #expect(try decide(sim, b[0]).proposal.status == .confirmed)
        #expect(try labs(sim) == [129])
        let c = try fhir(sim, Self.observation("o1", status: "corrected", value: 128)).proposed
        let corrected = try proposal(sim, c[0])
        #expect(corrected.replaces == 129 && corrected.value == 128)
        #expect(try decide(sim, c[0]).current == 128)
        #expect(try labs(sim) == [128])
        #expect(try fhir(sim, Self.observation("o1", status: "corrected", value: 128)).refused.map(\.reason) == [.duplicate])
    }

    @Test func enteredInErrorWithdrawsAPendingProposalAndProposesDeletingAConfirmedValue() throws {
        let sim = try start()
        let pending = try fhir(sim, Self.observation("o2", value: 132)).proposed
        let withdrawn = try fhir(sim, Self.observation("o2", status: "entered-in-error", value: nil))
        #expect(withdrawn.withdrawn == pending && withdrawn.proposed.isEmpty)
        #expect(try proposal(sim, pending[0]).status == .withdrawn)

        let confirmed = try fhir(sim, Self.observation("o3", value: 133)).proposed
        _ = try decide(sim, confirmed[0])
        let deletion = try fhir(sim, Self.observation("o3", status: "entered-in-error", value: nil)).proposed
        let d = try proposal(sim, deletion[0])
        #expect(d.value == nil && d.replaces == 133 && d.status == .pending)
        #expect(try fhir(sim, Self.observation("o3", status: "entered-in-error")).refused.map(\.reason) == [.duplicate])
        _ = try decide(sim, deletion[0])
        #expect(try labs(sim).isEmpty)
        #expect(try fhir(sim, Self.observation("never", status: "entered-in-error")).refused.map(\.reason) == [.status])
    }

    @Test func observationsOutsideTheWindowOrInTheFutureAndUnknownPatientsAreRefused() throws {
        let sim = try start()
        let r = try fhir(sim, ["resourceType": "Bundle", "type": "batch", "entry": [
            ["resource": Self.observation("w1", time: "2026-11-10T08:00:00+01:00")],
            ["resource": Self.observation("w2", time: "2026-11-22T08:00:00+01:00")],
            ["resource": Self.observation("w3", studyId: "NOBODY")],
            ["resource": Self.observation("w4", time: "2026-11-19")],
        ]])
        #expect(r.refused.map(\.reason) == [.outsideWindow, .outsideWindow, .unknownPatient])
        #expect(r.proposed.count == 1)
        // A date-only result is stored at 12:00 local when confirmed.
        _ = try decide(sim, r.proposed[0])
        let time = try sim.database.read { db in
            try DayRepository.load(db, patientId: PatientRepository.load(db, studyId: "PR-1")!.id, date: LocalDate("2026-11-19")!)
                .labSodium.first?.time.description
        }
        #expect(time == "2026-11-19T12:00:00+01:00")
    }

    func export(_ sim: Simulation, _ records: [(String, String, String, String)]) throws -> String {
        let lines = records.map { type, start, value, unit in
            " <Record type=\"\(type)\" sourceName=\"Phone\" unit=\"\(unit)\" startDate=\"\(start)\" endDate=\"\(start)\" value=\"\(value)\"/>\n"
        }
        let path = sim.directory.appendingPathComponent("export-\(UUID().uuidString).xml").path
        try Data(("<HealthData>\n" + lines.joined() + "</HealthData>\n").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func appleHealth(_ sim: Simulation, _ path: String) throws -> ImportReport {
        try sim.service.imports.appleHealth(ImportAppleHealth(studyId: "PR-1", path: path, actor: "staff:nurse"))
    }

    @Test func appleHealthValuesAlreadyStoredOrOutOfRangeAreRefusedAndANewValueSupersedes() throws {
        let sim = try start()
        let patientId = try sim.database.read { db in try PatientRepository.load(db, studyId: "PR-1")!.id }
        try sim.submit(patientId, "2026-11-19", ["weightMorningKg": 80.0])
        let first = try appleHealth(sim, try export(sim, [
            ("HKQuantityTypeIdentifierBodyMass", "2026-11-19 07:00:00 +0100", "80", "kg"),
            ("HKQuantityTypeIdentifierStepCount", "2026-11-19 09:00:00 +0100", "150000", "count"),
            ("HKQuantityTypeIdentifierStepCount", "2026-11-18 09:00:00 +0100", "5000", "count"),
        ]))
        #expect(first.refused.map(\.reason) == [.duplicate, .outOfRange])   // 11-19: weight, then steps
        #expect(first.proposed.count == 1)
        let second = try appleHealth(sim, try export(sim, [("HKQuantityTypeIdentifierStepCount", "2026-11-18 09:00:00 +0100", "6000", "count")]))
        #expect(try proposal(sim, first.proposed[0]).status == .superseded)
        #expect(try proposal(sim, second.proposed[0]).value == 6000)
        #expect(try decide(sim, second.proposed[0], confirm: false).proposal.status == .rejected)
        #expect(throws: DomainError.self) { try decide(sim, second.proposed[0]) }
        let again = try appleHealth(sim, try export(sim, [("HKQuantityTypeIdentifierStepCount", "2026-11-18 09:00:00 +0100", "6000", "count")]))
        #expect(again.proposed.isEmpty && again.refused.map(\.detail) == ["proposed before and rejected"])
    }

    @Test func aWithdrawnPatientsProposalCannotBeConfirmed() throws {
        let sim = try start()
        let p = try fhir(sim, Self.observation("x1")).proposed
        try sim.withdraw("PR-1")
        #expect(throws: DomainError.conflict("the patient is withdrawn", problem: .patientWithdrawn)) { try decide(sim, p[0]) }
    }

    /// A FHIR import names its patients itself, so a withdrawn one is refused per entry, as the
    /// Apple Health import refuses them up front; others in the same Bundle are still proposed.
    @Test func aWithdrawnPatientsObservationIsRefusedAtImport() throws {
        let sim = try start()
        _ = try sim.activate("PR-2", code: try sim.enroll("PR-2", surgery: "2026-11-15"))
        try sim.withdraw("PR-1")
        let r = try fhir(sim, ["resourceType": "Bundle", "type": "batch", "entry": [
            ["resource": Self.observation("w1")],
            ["resource": Self.observation("w2", studyId: "PR-2")],
        ]])
        #expect(r.refused.map(\.reason) == [.unknownPatient])
        #expect(r.refused.first?.detail.contains("withdrawn") == true)
        #expect(r.proposed.count == 1)
        #expect(try proposal(sim, r.proposed[0]).studyId == "PR-2")
    }

    /// Final 140 confirmed, then corrected to 138 (pending): the first file imported again is a
    /// duplicate and the correction stays pending (it used to be superseded by 140 replacing 140).
    @Test func anOlderVersionImportedAgainLeavesTheCorrectionPending() throws {
        let sim = try start()
        let first = try fhir(sim, Self.observation("r1", value: 140)).proposed
        _ = try decide(sim, first[0])
        let correction = try fhir(sim, Self.observation("r1", status: "corrected", value: 138)).proposed
        try #require(correction.count == 1)
        let again = try fhir(sim, Self.observation("r1", value: 140))
        #expect(again.proposed.isEmpty)
        #expect(again.refused.map(\.reason) == [.duplicate])
        #expect(try proposal(sim, correction[0]).status == .pending)
    }

    /// Version 2 (corrected 138) pending, then version 1 (final 140) arrives late: not proposed,
    /// and the correction stays pending (140 used to supersede it, as a value never seen before);
    /// version 3 still supersedes. Ordered by meta.versionId, else meta.lastUpdated, else issued.
    @Test func anOlderVersionArrivingLateNeverSupersedesANewerOne() throws {
        func version(_ o: JSONValue, _ meta: JSONValue) -> JSONValue {
            guard case .object(var v) = o else { return o }
            v["meta"] = meta
            return .object(v)
        }
        for (older, newer, newest) in [("1", "2", "3"), ("2026-11-19T09:00:00Z", "2026-11-19T10:00:00Z", "2026-11-19T11:00:00Z")] {
            let sim = try start()
            func meta(_ v: String) -> JSONValue { v.count == 1 ? ["versionId": .string(v)] : ["lastUpdated": .string(v)] }
            let correction = try fhir(sim, version(Self.observation("r2", status: "corrected", value: 138), meta(newer))).proposed
            try #require(correction.count == 1)
            let late = try fhir(sim, version(Self.observation("r2", value: 140), meta(older)))
            #expect(late.proposed.isEmpty, "ordered by \(older)")
            #expect(late.refused.map(\.reason) == [.duplicate])
            #expect(late.refused.first?.detail.contains("is older than the version imported before") == true)
            #expect(try proposal(sim, correction[0]).status == .pending)
            let latest = try fhir(sim, version(Self.observation("r2", status: "corrected", value: 137), meta(newest))).proposed
            #expect(latest.count == 1)
            #expect(try proposal(sim, correction[0]).status == .superseded)
        }
    }

    /// An Observation without id or identifier, confirmed, then the same document again: not
    /// proposed a second time (confirming it stored a second identical lab row).
    @Test func aKeylessObservationConfirmedBeforeIsNotProposedAgain() throws {
        let sim = try start()
        guard case .object(var keyless) = Self.observation("x", value: 133) else { Issue.record("fixture shape changed"); return }
        keyless["id"] = nil
        let first = try fhir(sim, .object(keyless)).proposed
        try #require(first.count == 1)
        _ = try decide(sim, first[0])
        let again = try fhir(sim, .object(keyless))
        #expect(again.proposed.isEmpty && again.refused.map(\.reason) == [.duplicate])
        #expect(try labs(sim) == [133])
    }

    /// A correction that moves only the measurement time is a new proposal, and confirming it
    /// moves the value to its day.
    @Test func aCorrectedTimeWithTheSameValueIsProposed() throws {
        let sim = try start()
        let first = try fhir(sim, Self.observation("d1", value: 135, time: "2026-11-19T08:00:00+01:00")).proposed
        _ = try decide(sim, first[0])
        let moved = try fhir(sim, Self.observation("d1", status: "corrected", value: 135, time: "2026-11-18T08:00:00+01:00")).proposed
        try #require(moved.count == 1)
        _ = try decide(sim, moved[0])
        #expect(try labs(sim, "2026-11-19").isEmpty)
        #expect(try labs(sim, "2026-11-18") == [135])
    }
}
