import Foundation
import HTJSON
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackConfigFile
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// Consent in the profile (docs/product.md, "Settled details", Consent): `consentVersion` and
/// `consentDate` on enrolment and PATCH, `consentRequired` in the configuration. In process, with
/// a clock the test sets: 2026-03-09 09:00 in Berlin.
@Suite struct ConsentTests {
    typealias Harness = InProcessApplication

    static let now = Berlin.at("2026-03-09", "09:00")

    static func profile(_ studyId: String, surgery: String = "2026-03-02", _ extra: [(String, JSONValue)] = []) -> JSONValue {
        Simulation.profile(studyId, surgery: surgery, extra)
    }

    static func refusal(_ r: (status: Int, json: JSONValue)) -> (Int, String?, String?) {
        func text(_ v: JSONValue?) -> String? { if case .string(let s)? = v { s } else { nil } }
        return (r.status, text(InProcessAPITests.errorCode(r.json)), text(InProcessAPITests.errorField(r.json)))
    }

    @Test func anEnrolmentWithConsentKeepsItInTheProfileAndTheEnrolmentAudit() throws {
        let h = try Harness(clock: SimulationClock(Self.now))
        let enrolled = h.send(.post, "/v1/patients", body: Self.profile("CONSENT-1", [("consentVersion", "ICF-2.1_de"),
                                                                                      ("consentDate", "2026-03-01")]))
        #expect(enrolled.status == 201, "\(enrolled.json)")
        guard case .object(let shown) = h.send(.get, "/v1/patients/CONSENT-1").json, case .object(let profile)? = shown["profile"] else {
            Issue.record("no profile"); return
        }
        #expect(profile["consentVersion"] == "ICF-2.1_de" && profile["consentDate"] == "2026-03-01")
        guard case .array(let entries) = h.send(.get, "/v1/audit?subject=CONSENT-1").json,
              case .object(let enrolment)? = entries.first, case .object(let details)? = enrolment["details"],
              case .object(let audited)? = details["profile"] else {
            Issue.record("no enrolment audit row"); return
        }
        #expect(enrolment["action"] == "patient.enroll")
        #expect(audited["consentVersion"] == "ICF-2.1_de" && audited["consentDate"] == "2026-03-01")
        // Without consentRequired (the default) consent is optional.
        #expect(h.send(.post, "/v1/patients", body: Self.profile("CONSENT-2")).status == 201)
    }

    @Test func withConsentRequiredAnEnrolmentWithoutBothIsRefusedNamingTheMissingField() throws {
        let h = try Harness(clock: SimulationClock(Self.now)) { $0.consentRequired = true }
        let without = h.send(.post, "/v1/patients", body: Self.profile("REQ-1"))
        #expect(Self.refusal(without) == (400, "invalid_value", "consentVersion"), "\(without.json)")
        let onlyDate = h.send(.post, "/v1/patients", body: Self.profile("REQ-1", [("consentDate", "2026-03-01")]))
        #expect(Self.refusal(onlyDate) == (400, "invalid_value", "consentVersion"))
        let onlyVersion = h.send(.post, "/v1/patients", body: Self.profile("REQ-1", [("consentVersion", "v3")]))
        #expect(Self.refusal(onlyVersion) == (400, "invalid_value", "consentDate"))
        #expect(h.send(.get, "/v1/patients").json == [], "a refused enrolment leaves no patient behind")
        let both = h.send(.post, "/v1/patients", body: Self.profile("REQ-1", [("consentVersion", "v3"), ("consentDate", "2026-03-01")]))
        #expect(both.status == 201, "\(both.json)")
        // An update may correct consent but never remove it.
        #expect(h.send(.patch, "/v1/patients/REQ-1", body: ["consentDate": "2026-03-02"]).status == 200)
        let cleared = h.send(.patch, "/v1/patients/REQ-1", body: ["consentVersion": nil])
        #expect(Self.refusal(cleared) == (400, "invalid_value", "consentVersion"))
    }

    @Test func aMalformedConsentIsRefusedNamingItsField() throws {
        let h = try Harness(clock: SimulationClock(Self.now))
        for date: JSONValue in ["2026-3-1", "01.03.2026", "2026-02-30", "2026-03-01T00:00:00Z", 20260301, ""] {
            let r = h.send(.post, "/v1/patients", body: Self.profile("BAD-1", [("consentVersion", "v1"), ("consentDate", date)]))
            #expect(Self.refusal(r) == (400, "invalid_value", "consentDate"), "\(date): \(r.json)")
        }
        for version: JSONValue in ["", .string(String(repeating: "v", count: 33)), "v 1", "v/1", "Einwilligung-ä", 3] {
            let r = h.send(.post, "/v1/patients", body: Self.profile("BAD-1", [("consentVersion", version), ("consentDate", "2026-03-01")]))
            #expect(Self.refusal(r) == (400, "invalid_value", "consentVersion"), "\(version): \(r.json)")
        }
        let longest = String(repeating: "v", count: 32)
        let ok = h.send(.post, "/v1/patients", body: Self.profile("BAD-1", [("consentVersion", .string(longest)),
                                                                             ("consentDate", "2026-03-01")]))
        #expect(ok.status == 201, "\(ok.json)")
    }

    @Test func aConsentDateInTheFutureOrMoreThanSixtyDaysAfterSurgeryIsRefused() throws {
        let clock = SimulationClock(Self.now)
        let h = try Harness(clock: clock)
        let tomorrow = h.send(.post, "/v1/patients", body: Self.profile("DATE-1", [("consentVersion", "v1"), ("consentDate", "2026-03-10")]))
        #expect(Self.refusal(tomorrow) == (400, "invalid_value", "consentDate"), "\(tomorrow.json)")
        let today = h.send(.post, "/v1/patients", body: Self.profile("DATE-1", [("consentVersion", "v1"), ("consentDate", "2026-03-09")]))
        #expect(today.status == 201, "\(today.json)")
        // Ten weeks later the nurse corrects the consent date: surgery + 60 days is the latest.
        clock.set(Berlin.at("2026-05-12", "09:00"))
        let late = h.send(.patch, "/v1/patients/DATE-1", body: ["consentDate": "2026-05-02"])
        #expect(Self.refusal(late) == (400, "invalid_value", "consentDate"), "\(late.json)")
        let future = h.send(.patch, "/v1/patients/DATE-1", body: ["consentDate": "2026-05-13"])
        #expect(Self.refusal(future) == (400, "invalid_value", "consentDate"))
        #expect(h.send(.patch, "/v1/patients/DATE-1", body: ["consentDate": "2026-05-01"]).status == 200)
    }
}

/// `consentRequired` in `hyponatrack.json`: a boolean, default false; a misspelt key is refused
/// naming it.
@Suite struct ConsentConfigurationTests {
    static let directory = URL(fileURLWithPath: "/etc/hyponatrack")

    func parse(_ json: JSONValue) throws(FieldError) -> ServerConfiguration {
        try ServerConfiguration.parse(json, directory: Self.directory, file: nil)
    }

    @Test func consentRequiredIsOffUnlessConfigured() throws {
        #expect(try parse([:]).consentRequired == false)
        #expect(try parse(["consentRequired": true]).consentRequired == true)
        #expect(try parse(["consentRequired": false]).consentRequired == false)
    }

    @Test func aWrongKeyOrValueIsRefusedNamingIt() {
        #expect(throws: FieldError(.unknownField, field: "consentRequierd", "unknown field")) {
            try parse(["consentRequierd": true])
        }
        #expect(throws: FieldError.invalid("consentRequired", "expected true or false, got a string")) {
            try parse(["consentRequired": "yes"])
        }
    }
}
