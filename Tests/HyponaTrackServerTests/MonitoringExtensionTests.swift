import HTJSON
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// The window extends to POD 21 when anything was yellow or red from POD 10 on
/// (docs/clinical-rules.md §6), read from the stored evaluations and alerts of those PODs only
/// (`EvaluationRepository.alertPODs`).
@Suite struct MonitoringExtensionTests {
    typealias Harness = InProcessApplication

    static func monitoringEnds(_ h: Harness, _ studyId: String) -> JSONValue? {
        guard case .object(let o) = h.send(.get, "/v1/patients/\(studyId)").json else { return nil }
        return o["monitoringEnds"]
    }

    /// Surgery 2026-03-02: POD 9 is 2026-03-11, POD 10 is 2026-03-12, POD 14 2026-03-16, POD 21 2026-03-23.
    @Test func aRedOnPOD9LeavesTheWindowARedOnPOD10ExtendsIt() throws {
        let h = try Harness(clock: SimulationClock(Berlin.at("2026-03-14", "10:00")))
        _ = try ActivationRefusalTests.enroll(h, "EXT-1")
        #expect(h.send(.post, "/v1/patients/EXT-1/labs", body: ["sodium": 124, "time": "2026-03-11T10:00:00+01:00"]).status == 201)
        #expect(Self.monitoringEnds(h, "EXT-1") == "2026-03-16", "a red before POD 10 does not extend")
        #expect(h.send(.post, "/v1/patients/EXT-1/labs", body: ["sodium": 124, "time": "2026-03-12T10:00:00+01:00"]).status == 201)
        #expect(Self.monitoringEnds(h, "EXT-1") == "2026-03-23", "a red on POD 10 extends to POD 21")
    }
}
