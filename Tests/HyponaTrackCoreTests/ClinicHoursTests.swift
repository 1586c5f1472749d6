import Testing
@testable import HyponaTrackCore

/// `app.clinicHours` and the call a yellow light may promise (docs/product.md, W): today until
/// closing, later today, or the next working day — never a call on a Sunday at 05:30.
struct ClinicHoursTests {
    static func hours(_ text: String) -> ClinicHours {
        guard case .success(let h) = ClinicHours.parse(text) else { fatalError("\(text) did not parse") }
        return h
    }

    static let weekdays = hours("Mo-Fr 08:00-16:00")
    // 2026-12-05 is a Saturday, 2026-12-06 a Sunday, 2026-12-07 a Monday.
    static let saturday = LocalDate("2026-12-05")!, sunday = LocalDate("2026-12-06")!, monday = LocalDate("2026-12-07")!
    static let wednesday = LocalDate("2026-12-09")!

    @Test func weekdaysAreCountedFromMonday() {
        #expect(ClinicHours.weekday(Self.monday) == 0 && ClinicHours.weekday(Self.saturday) == 5 && ClinicHours.weekday(Self.sunday) == 6)
        #expect(ClinicHours.weekday(LocalDate("1970-01-01")!) == 3 && ClinicHours.weekday(LocalDate("1969-12-29")!) == 0)
    }

    @Test func insideTheHoursTheClinicCallsTodayUntilClosing() {
        #expect(Self.weekdays.call(on: Self.wednesday, at: LocalTime("10:00")!) == .today(until: LocalTime("16:00")!))
        #expect(Self.weekdays.call(on: Self.wednesday, at: LocalTime("08:00")!) == .today(until: LocalTime("16:00")!))
    }

    @Test func beforeOpeningTheClinicCallsLaterToday() {
        #expect(Self.weekdays.call(on: Self.monday, at: LocalTime("05:30")!) == .laterToday(from: LocalTime("08:00")!, until: LocalTime("16:00")!))
    }

    @Test func atClosingAndAtTheWeekendTheCallIsOnTheNextWorkingDay() {
        #expect(Self.weekdays.call(on: Self.wednesday, at: LocalTime("16:00")!) == .nextWorkingDay(LocalDate("2026-12-10")!, from: LocalTime("08:00")!))
        #expect(Self.weekdays.call(on: Self.sunday, at: LocalTime("05:30")!) == .nextWorkingDay(Self.monday, from: LocalTime("08:00")!))
        #expect(Self.weekdays.call(on: Self.saturday, at: LocalTime("05:30")!) == .nextWorkingDay(Self.monday, from: LocalTime("08:00")!))
        #expect(Self.weekdays.call(on: LocalDate("2026-12-11")!, at: LocalTime("17:00")!) == .nextWorkingDay(LocalDate("2026-12-14")!, from: LocalTime("08:00")!),
                "Friday evening → Monday")
    }

    @Test func commasRangesAndSeveralGroupsAreRead() {
        let h = Self.hours("Mo,We-Th 09:00-12:00; Sa 10:00-11:30")
        #expect(h.spans.map(\.weekdays) == [[0, 2, 3], [5]])
        #expect(h.call(on: Self.saturday, at: LocalTime("10:30")!) == .today(until: LocalTime("11:30")!))
        #expect(h.call(on: LocalDate("2026-12-08")!, at: LocalTime("10:00")!) == .nextWorkingDay(Self.wednesday, from: LocalTime("09:00")!),
                "Tuesday is closed")
    }

    @Test(arguments: ["", "Mo-Fr", "08:00-16:00", "Mo-Fr 8:00-16:00", "Fr-Mo 08:00-16:00", "Mo-Fr 16:00-08:00", "Mon-Fri 08:00-16:00",
                      "Mo-Fr 08:00-16:00 extra", "Mo-Fr 08:00-25:00", "Mo,,Fr 08:00-16:00", "Mo-Fr 08:00"])
    func anythingElseIsRefusedWithAReason(text: String) {
        guard case .failure(let e) = ClinicHours.parse(text) else { Issue.record("\(text) parsed"); return }
        #expect(!e.message.isEmpty)
    }
}
