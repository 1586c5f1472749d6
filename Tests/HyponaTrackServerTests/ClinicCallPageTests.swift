import Foundation
import HTJSON
import HTTPServer
import Testing
@testable import HyponaTrackCore
@testable import HyponaTrackDomain
@testable import HyponaTrackWeb
@testable import HyponaTrackServer
@testable import HyponaTrackTestSupport

/// What the web check-in's yellow light promises about the clinic's call (docs/product.md, W),
/// in-process with a clock the test sets: inside `app.clinicHours` today until closing, before
/// opening later today, at the weekend the next working day — and no promise at all when no
/// yellow escalation tier would tell anyone.
@Suite struct ClinicCallPageTests {
    /// A Berlin patient operated on 2026-11-29, yellow (+2.5 % weight) on `date` at `time`; the
    /// German today page as the patient sees it then.
    static func yellowPage(on date: String, at time: String, tiers: Bool = true) throws -> String {
        let clock = SimulationClock(Berlin.at(date, time))
        let h = try InProcessApplication(clock: clock) { config in
            config.app.clinicHours = { if case .success(let h) = ClinicHours.parse("Mo-Fr 08:00-16:00") { h } else { nil } }()
            config.app.clinicPhone = "+49 30 555 0100"
            if tiers { config.escalation.yellow = [.init(afterMinutes: 0, hooks: [])] }
        }
        let token = try h.enrollAndActivate("CALL-1", surgeryDate: "2026-11-29")
        let put = h.send(.put, "/v1/me/days/\(date)", body: ["weightMorningKg": 82.0], token: token)
        guard put.status == 200, case .object(let o) = put.json, o["level"] == "yellow" else { throw TestError("day: \(put.json)") }
        let page = h.client.send(.get, "/app/", headers: ["Cookie": "ht_patient=\(token)", "Accept-Language": "de-DE,de;q=0.9"])
        guard page.status == .ok, let html = page.bodyText else { throw TestError("page: \(page.status)") }
        return html
    }

    /// The same promise in the API's instructions (what the app shows), at the same moment.
    @Test func theAppIsToldTheSameCallAsTheWebPage() throws {
        let clock = SimulationClock(Berlin.at("2026-12-05", "05:30"))
        let h = try InProcessApplication(clock: clock) { config in
            config.app.clinicHours = { if case .success(let h) = ClinicHours.parse("Mo-Fr 08:00-16:00") { h } else { nil } }()
            config.escalation.yellow = [.init(afterMinutes: 0, hooks: [])]
        }
        let token = try h.enrollAndActivate("CALL-2", surgeryDate: "2026-11-29")
        let put = h.send(.put, "/v1/me/days/2026-12-05", body: ["weightMorningKg": 82.0], token: token)
        guard case .object(let o) = put.json, case .object(let i)? = o["instructions"], case .string(let text)? = i["text"] else {
            throw TestError("day: \(put.json)")
        }
        #expect(text.contains("The clinic will call you on the next working day (Monday 2026-12-07, from 08:00) — call the clinic if you feel worse."),
                "\(text)")
        #expect(text.hasSuffix("emergency services."), "the disclaimer stays last: \(text)")
        clock.set(Berlin.at("2026-12-07", "09:00"))
        _ = h.send(.put, "/v1/me/days/2026-12-07", body: ["weightMorningKg": 82.0], token: token)
        guard case .object(let t) = h.send(.get, "/v1/me/today", token: token).json, case .object(let ti)? = t["instructions"],
              case .string(let today)? = ti["text"] else { throw TestError("today") }
        #expect(today.contains("The clinic will call you today, until 16:00."), "\(today)")
    }

    @Test func onASaturdayAt0530TheClinicCallsOnTheNextWorkingDay() throws {
        let html = try Self.yellowPage(on: "2026-12-05", at: "05:30")
        #expect(html.contains("Die Klinik ruft Sie am nächsten Werktag an (Montag, 7.12.2026, ab 08:00 Uhr) — rufen Sie die Klinik an, wenn es Ihnen schlechter geht."),
                "\(html)")
        #expect(!html.contains("ruft Sie heute"))
    }

    @Test func insideTheHoursTheClinicCallsTodayUntilClosing() throws {
        let html = try Self.yellowPage(on: "2026-12-09", at: "10:00")
        #expect(html.contains("Die Klinik ruft Sie heute an, bis 16:00 Uhr."), "\(html)")
        #expect(html.contains("Tag 10 nach Ihrer Operation") && html.contains("9.12.2026"))
    }

    @Test func beforeOpeningOnAWorkingDayTheClinicCallsLaterToday() throws {
        let html = try Self.yellowPage(on: "2026-12-07", at: "05:30")
        #expect(html.contains("Die Klinik ruft Sie heute zwischen 08:00 und 16:00 Uhr an."), "\(html)")
    }

    @Test func withoutAYellowTierNoCallIsPromisedAndThePatientIsAskedToCall() throws {
        let html = try Self.yellowPage(on: "2026-12-09", at: "10:00", tiers: false)
        #expect(html.contains("Bitte rufen Sie heute die Klinik an.") && !html.contains("Die Klinik ruft Sie"), "\(html)")
        #expect(html.contains("href=\"tel:+49305550100\""))
    }
}
