import Testing
import HyponaTrackCore
@testable import HyponaTrackDomain
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// The console's form values read the way a browser sends them (docs/operations.md §4.4).
@Suite struct FormInputTests {
    let berlin = ZoneRules(identifier: "Europe/Berlin")!

    @Test func aLabTimeIsTheWallClockOfADatetimeLocalInputWithOrWithoutSeconds() {
        let minute = FormInput.localDateTime("2026-12-02T08:30", zone: berlin)
        #expect(minute?.description == "2026-12-02T08:30:00+01:00")
        let seconds = FormInput.localDateTime("2026-12-02T08:30:15", zone: berlin)
        #expect(seconds.map { $0.epochSeconds - (minute?.epochSeconds ?? 0) } == 15)
        #expect(FormInput.localDateTime("2026-12-02T23:59:59", zone: berlin) != nil)
        #expect(FormInput.localDateTime("2026-12-02T00:00", zone: berlin) != nil)
    }

    @Test func aLabTimeWithTrailingTextAZoneOrOutOfRangeFieldsIsRefused() {
        for text in ["2026-12-02T08:30junk", "2026-12-02T08:30:00Z", "2026-12-02T08:30+01:00", "2026-12-02T08:30:00.5",
                     "2026-12-02T24:00", "2026-12-02T23:60", "2026-12-02T08:30:60", "2026-12-02T8:30", "2026-12-02T08:30:",
                     "2026-12-02T08", "2026-12-02T", "2026-12-02", "2026-12-02 08:30", "2026-12-02T08:30T09:00", "2026-02-30T08:30",
                     "2026-12-02T+8:30", "2026-12-02T08:٣٠"] {
            #expect(FormInput.localDateTime(text, zone: berlin) == nil, "\(text)")
        }
    }
}
