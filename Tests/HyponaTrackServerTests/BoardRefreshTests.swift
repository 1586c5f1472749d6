import Foundation
import HTTPServer
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// The ward board on a wall screen (docs/product.md, third round, C): it reloads itself every
/// 60 s without script, keeping its view, with the red and yellow counts in the tab's title; its
/// own reloads are not activity, so a session left on a wall screen still ends after 30 minutes.
/// In-process, on a settable clock.
@Suite struct BoardRefreshTests {
    static func body(_ r: HTTPResponse) -> String { String(decoding: r.body, as: UTF8.self) }

    @Test func theBoardReloadsItselfEveryMinuteKeepingItsViewAndCountsInTheTitle() throws {
        let clock = SimulationClock(Berlin.at("2026-03-09", "09:00"))
        let h = try InProcessApplication(clock: clock)
        let token = try h.enrollAndActivate("RF-1", surgeryDate: "2026-03-04")
        let red = h.send(.put, "/v1/me/days/2026-03-09", body: ["emergencySymptoms": ["drowsiness"]], token: token)
        #expect(red.status == 200, "\(red.json)")
        let session = try h.consoleSession()
        let board = Self.body(h.console.send(.get, "/console/", headers: session))
        #expect(board.contains("<meta http-equiv=\"refresh\" content=\"60; url=/console/?auto=1\">"), "\(board.prefix(600))")
        #expect(board.contains("<title>(1 red) Ward board · "), "\(board.prefix(600))")
        let all = Self.body(h.console.send(.get, "/console/?all=1", headers: session))
        #expect(all.contains("url=/console/?all=1&amp;auto=1"), "the view is kept")
        var german = session
        german.add(name: "Accept-Language", value: "de")
        #expect(Self.body(h.console.send(.get, "/console/", headers: german)).contains("<title>(1 rot) Stationsübersicht · "))
    }

    @Test func theBoardsOwnReloadsDoNotKeepAnIdleSessionAlive() throws {
        let start = Berlin.at("2026-03-09", "09:00")
        let clock = SimulationClock(start)
        let h = try InProcessApplication(clock: clock)
        let session = try h.consoleSession()
        // Reloads every minute for 35 minutes, nobody at the keyboard: the session ends at 30.
        var last = HTTPStatus.ok
        for minute in 1...35 {
            clock.set(start + Double(minute) * 60)
            last = h.console.send(.get, "/console/?auto=1", headers: session).status
        }
        #expect(last == .seeOther, "after 30 idle minutes a reload lands on the sign-in page: \(last)")
        // A person's request is activity: the same 35 minutes with one look at minute 20 stay signed in.
        let other = try InProcessApplication(clock: clock)
        clock.set(start)
        let active = try other.consoleSession()
        clock.set(start + 20 * 60)
        #expect(other.console.send(.get, "/console/", headers: active).status == .ok)
        clock.set(start + 35 * 60)
        #expect(other.console.send(.get, "/console/?auto=1", headers: active).status == .ok)
    }
}
