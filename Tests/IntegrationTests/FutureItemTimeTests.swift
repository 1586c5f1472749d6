import Foundation
import Testing
import HTJSON

/// An item timed more than 15 minutes after the server's clock is refused (docs/product.md, third
/// round, C): a phone may be offline and send late, never early. A symptom entry 43 hours ahead
/// used to be stored and evaluated.
@Suite struct FutureItemTimeTests {
    /// Now plus `minutes`, as a Berlin wall-clock timestamp with its offset.
    static func berlin(minutesFromNow minutes: Double) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = Study.zone
        f.dateFormat = "yyyy-MM-dd'T'HH:mm:ssxxx"
        return f.string(from: Date().addingTimeInterval(minutes * 60))
    }

    static func symptom(_ id: String, at time: String) -> JSONValue {
        ["id": .string(id), "time": .string(time), "slot": "morning", "nausea": 0, "headache": 0, "fatigue": 0, "confusion": 0,
         "muscleCramps": 0, "vas": 9]
    }

    @Test func anItemTimedMoreThanFifteenMinutesAheadIsRefusedNamingItsTimeAndNothingIsStored() throws {
        let d = try TestDaemon()
        let token = try Study.enrollAndActivate(d, "EARLY-1", surgeryDaysAgo: 5)
        // Within the hour before Berlin midnight the items would fall on tomorrow, a date the URL
        // may not name yet: the check is about the time, so it needs today's date.
        guard String(Self.berlin(minutesFromNow: 61).prefix(10)) == Study.date(0) else { return }
        let ahead = Self.berlin(minutesFromNow: 16), date = Study.date(0)
        let refused = try d.request(.put, "/v1/me/days/\(date)", token: token,
                                    body: ["symptoms": .array([Self.symptom("m1", at: ahead)])])
        #expect(refused.status == 400 && refused.errorCode == "invalid_value" && refused.errorField == "symptoms[0].time",
                "\(refused.text)")
        let days = try d.request(.get, "/v1/me/days", token: token)
        #expect(!days.text.contains("\"m1\""), "nothing stored: \(days.text.prefix(300))")

        let test: JSONValue = ["id": "r1", "time": .string(Self.berlin(minutesFromNow: 60)), "medianMs": 600, "meanMs": 620, "errors": 0]
        let reaction = try d.request(.put, "/v1/me/days/\(date)", token: token,
                                     body: ["reactionTests": .array([test])])
        #expect(reaction.status == 400 && reaction.errorField == "reactionTests[0].time", "\(reaction.text)")
    }

    @Test func aClockAFewMinutesFastIsStillAccepted() throws {
        let d = try TestDaemon()
        let token = try Study.enrollAndActivate(d, "EARLY-2", surgeryDaysAgo: 5)
        guard String(Self.berlin(minutesFromNow: 11).prefix(10)) == Study.date(0) else { return }   // as above
        let soon = Self.berlin(minutesFromNow: 10)
        let ok = try d.request(.put, "/v1/me/days/\(Study.date(0))", token: token,
                               body: ["symptoms": .array([Self.symptom("m1", at: soon)])])
        #expect(ok.status == 200, "\(ok.text)")
    }
}
