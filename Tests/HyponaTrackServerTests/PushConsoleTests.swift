import Foundation
import HTJSON
import HTTPServer
import HyponaTrackCore
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// Push reminders in the console (docs/product.md, W, "Staff see it"): the board flags a patient
/// in monitoring whom nothing reminds, and the patient page lists the devices and the reminders
/// pushed with each delivery's state.
@Suite struct PushConsoleTests {
    static func text(_ r: HTTPResponse) -> String { r.bodyText ?? "" }

    @Test func theBoardFlagsAPatientInMonitoringWithoutAnyReminderChannel() throws {
        let s = try PushDeliveryTests.Scene()
        let session = try s.h.consoleSession()
        // PD-0 has no device; the scene's patient PU-1 registered a browser.
        _ = try s.h.enrollAndActivate("PD-0", surgeryDate: "2026-03-04")
        let board = Self.text(s.h.console.send(.get, "/console/", headers: session))
        let rows = board.components(separatedBy: "<tr").filter { $0.contains("PD-0") || $0.contains("PU-1") }
        #expect(rows.count == 2)
        #expect(rows.first { $0.contains("PD-0") }?.contains("no-reminder-channel") == true)
        #expect(rows.first { $0.contains("PU-1") }?.contains("no-reminder-channel") == false)
    }

    @Test func aGatewaySubscribedToReminderDueIsAReminderChannel() throws {
        let gateway = HookConfiguration(name: "gateway", kind: .command(path: "/bin/true", args: [], timeoutSeconds: 5),
                                        events: [.reminderDue])
        let h = try InProcessApplication(clock: SimulationClock(Berlin.at("2026-03-09", "09:00"))) { $0.hooks = [gateway] }
        _ = try h.enrollAndActivate("PD-0", surgeryDate: "2026-03-04")
        let board = Self.text(h.console.send(.get, "/console/", headers: try h.consoleSession()))
        #expect(board.contains("PD-0") && !board.contains("no-reminder-channel"))
    }

    @Test func aGatewayForSomeSitesIsAReminderChannelForTheirPatientsOnly() throws {
        let gateway = HookConfiguration(name: "gateway", kind: .command(path: "/bin/true", args: [], timeoutSeconds: 5),
                                        events: [.reminderDue], sites: ["main"])
        let h = try InProcessApplication(clock: SimulationClock(Berlin.at("2026-03-09", "09:00"))) { $0.hooks = [gateway] }
        _ = try h.enrollAndActivate("PD-MAIN", surgeryDate: "2026-03-04")
        #expect(h.send(.post, "/v1/sites", body: ["code": "b", "name": "Site b"]).status == 201)
        let enrolled = h.send(.post, "/v1/patients", body: [
            "studyId": "PD-B", "site": "b", "surgeryDate": "2026-03-04", "timeZone": "Europe/Berlin", "age": 50, "sex": "male",
            "bmi": 27.0, "baselineWeightKg": 80.0,
        ])
        guard case .object(let e) = enrolled.json, case .string(let code)? = e["activationCode"] else { throw TestError("\(enrolled.json)") }
        #expect(h.send(.post, "/v1/activate", body: ["studyId": "PD-B", "code": .string(code)], token: "-").status == 200)
        let board = Self.text(h.console.send(.get, "/console/", headers: try h.consoleSession()))
        let rows = board.components(separatedBy: "<tr")
        #expect(rows.first { $0.contains("PD-MAIN") }?.contains("no-reminder-channel") == false)
        #expect(rows.first { $0.contains("PD-B") }?.contains("no-reminder-channel") == true)
    }

    @Test func thePatientPageListsDevicesAndEachReminderWithItsDeliveries() throws {
        let s = try PushDeliveryTests.Scene()
        s.transport.answer(.retry("Web Push HTTP 503", afterSeconds: nil))
        try s.at("08:00")
        try s.delivery.deliverDue()
        var german = try s.h.consoleSession()
        german.add(name: "Accept-Language", value: "de")
        let page = Self.text(s.h.console.send(.get, "/console/patients/PU-1", headers: german))
        #expect(page.contains("id=\"push-devices\"") && page.contains("browser-01") && page.contains("Browser (Web Push)"))
        #expect(page.contains("id=\"push-reminders\"") && page.contains("browser-01: fehlgeschlagen (1)"))
        // The 08:00 morning check in words, the codes kept as data attributes.
        #expect(page.contains(#"<td data-kind="check">Messung</td><td data-slot="morning">morgens</td><td>08:00</td>"#),
                "the due time alone beside its day")
        let english = Self.text(s.h.console.send(.get, "/console/patients/PU-1", headers: try s.h.consoleSession()))
        #expect(english.contains(#"<td data-kind="check">check</td><td data-slot="morning">morning</td>"#))
    }

    @Test func everyReminderKindAndSlotHasWordsInBothLanguages() {
        for language in [Language.en, .de] {
            let v = Vocabulary(language: language)
            for kind in ["check", "task", "missed", "catch_up", "nudge"] {
                let word = v.reminderKind(kind)
                #expect(!word.contains("_") && (language == .en || word != kind), "\(language) \(kind): \(word)")
            }
            for slot in ReminderRules.Deadline.allCases { #expect(language == .en || v.slot(slot.rawValue) != slot.rawValue) }
        }
        #expect(Vocabulary(language: .de).reminderKind("catch_up") == "Nachholen")
    }
}
