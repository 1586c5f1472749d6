import Foundation
import Testing
@testable import HyponaTrackCore

/// LocalDate, LocalTime and Timestamp: the calendar arithmetic POD, windows and reminders rest on.
struct CalendarTests {
    // MARK: LocalDate

    @Test func aDateParsesFromExactlyYearMonthDay() {
        let d = LocalDate("2026-03-02")
        #expect(d?.year == 2026 && d?.month == 3 && d?.day == 2)
        #expect(d?.description == "2026-03-02")
    }

    @Test(arguments: ["2026-3-02", "2026-03-2", "2026/03/02", " 2026-03-02", "2026-03-02 ", "2026-03-02T00:00",
                      "+026-03-02", "2026-0a-02", "20260302", "", "2026-03--1"])
    func aDateInAnyOtherShapeIsRefused(text: String) {
        #expect(LocalDate(text) == nil)
    }

    @Test func februaryTwentyNinthExistsOnlyInLeapYears() {
        #expect(LocalDate("2026-02-29") == nil)
        #expect(LocalDate("2024-02-29") != nil)
        #expect(LocalDate("2000-02-29") != nil)     // divisible by 400
        #expect(LocalDate("1900-02-29") == nil)     // divisible by 100 only
        #expect(LocalDate("2028-02-29") != nil)
    }

    @Test func aDateOutsideItsMonthIsRefused() {
        for text in ["2026-04-31", "2026-06-31", "2026-09-31", "2026-11-31", "2026-01-32", "2026-02-30",
                     "2026-13-01", "2026-00-10", "2026-03-00", "0000-01-01"] {
            #expect(LocalDate(text) == nil, "\(text)")
        }
        #expect(LocalDate(year: 2026, month: 12, day: 31) != nil)
        #expect(LocalDate(year: 2026, month: 2, day: 29) == nil)
    }

    @Test func daysSinceEpochMatchesTheGregorianCalendar() {
        #expect(Fixtures.date("1970-01-01").daysSinceEpoch == 0)
        #expect(Fixtures.date("1969-12-31").daysSinceEpoch == -1)
        #expect(Fixtures.date("2000-03-01").daysSinceEpoch == 11017)
        #expect(Fixtures.date("2026-03-09").daysSinceEpoch == 20521)
        #expect(Fixtures.date("0001-01-01").daysSinceEpoch == -719162)
        #expect(Fixtures.date("9999-12-31").daysSinceEpoch == 2932896)
    }

    @Test func daysSinceEpochRoundTripsEveryDayOfALeapCentury() {
        var date = Fixtures.date("1999-12-01")
        for n in date.daysSinceEpoch...Fixtures.date("2101-03-01").daysSinceEpoch {
            #expect(LocalDate(daysSinceEpoch: n) == date)
            #expect(LocalDate(date.description) == date)
            date = date.adding(days: 1)
            if date.daysSinceEpoch != n + 1 { Issue.record("gap after \(n)"); return }
        }
    }

    @Test func addingDaysCrossesMonthsYearsAndLeapDays() {
        #expect(Fixtures.date("2024-02-28").adding(days: 1).description == "2024-02-29")
        #expect(Fixtures.date("2024-02-28").adding(days: 2).description == "2024-03-01")
        #expect(Fixtures.date("2026-02-28").adding(days: 1).description == "2026-03-01")
        #expect(Fixtures.date("2025-12-31").adding(days: 1).description == "2026-01-01")
        #expect(Fixtures.date("2026-01-01").adding(days: -1).description == "2025-12-31")
        #expect(Fixtures.date("2024-03-01").adding(days: -1).description == "2024-02-29")
        #expect(Fixtures.date("2026-03-02").adding(days: 14).description == "2026-03-16")
        #expect(Fixtures.date("2026-03-02").adding(days: 0) == Fixtures.date("2026-03-02"))
    }

    @Test func daysBetweenDatesIsSignedAndSpansYears() {
        #expect(Fixtures.date("2026-03-02").days(to: Fixtures.date("2026-03-09")) == 7)
        #expect(Fixtures.date("2026-03-09").days(to: Fixtures.date("2026-03-02")) == -7)
        #expect(Fixtures.date("2024-01-01").days(to: Fixtures.date("2025-01-01")) == 366)
        #expect(Fixtures.date("2025-12-25").days(to: Fixtures.date("2026-01-08")) == 14)
    }

    @Test func podCountsLocalCalendarDaysSinceSurgery() {
        let profile = Fixtures.profile { $0.surgeryDate = Fixtures.date("2024-02-20") }
        #expect(profile.pod(at: Fixtures.date("2024-02-20")) == 0)
        #expect(profile.pod(at: Fixtures.date("2024-03-05")) == 14)   // through 02-29
        #expect(profile.date(ofPOD: 9).description == "2024-02-29")
        #expect(profile.pod(at: Fixtures.date("2024-02-19")) == -1)
    }

    @Test func datesOrderByDay() {
        #expect(Fixtures.date("2025-12-31") < Fixtures.date("2026-01-01"))
        #expect(!(Fixtures.date("2026-01-01") < Fixtures.date("2026-01-01")))
        #expect(LocalDate(year: 5, month: 1, day: 2)?.description == "0005-01-02")
    }

    // MARK: LocalTime

    @Test func aTimeParsesFromHoursAndMinutes() {
        #expect(LocalTime("08:00")?.minuteOfDay == 480)
        #expect(LocalTime("00:00")?.minuteOfDay == 0)
        #expect(LocalTime("23:59")?.minuteOfDay == 1439)
        #expect(LocalTime("10:15")?.hour == 10 && LocalTime("10:15")?.minute == 15)
        #expect(LocalTime("07:05")?.description == "07:05")
    }

    @Test func twentyFourHundredIsTheEndOfTheDay() {
        #expect(LocalTime("24:00")?.minuteOfDay == 1440)
        #expect(LocalTime("24:00")?.description == "24:00")
        #expect(LocalTime("24:01") == nil)
    }

    @Test(arguments: ["8:00", "08:0", "08:60", "25:00", "08-00", "0800", "08:00:00", "ab:cd", "", " 8:00", "-1:00"])
    func aTimeInAnyOtherShapeIsRefused(text: String) {
        #expect(LocalTime(text) == nil)
    }

    @Test func timesOrderByMinuteOfDay() {
        #expect(LocalTime("07:00")! < LocalTime("07:01")!)
        #expect(LocalTime("22:00")! < LocalTime("24:00")!)
    }

    // MARK: Timestamp

    @Test func aTimestampKeepsItsInstantAndItsOffset() throws {
        let t = try #require(Timestamp("2026-03-09T08:05:00+01:00"))
        #expect(t.epochSeconds == 1_773_039_900)
        #expect(t.utcOffsetSeconds == 3600)
        #expect(t.description == "2026-03-09T08:05:00+01:00")
        #expect(t.localDate == Fixtures.date("2026-03-09"))
    }

    @Test func zuluMeansUtc() {
        #expect(Timestamp("2026-03-09T07:05:00Z")?.epochSeconds == 1_773_039_900)
        #expect(Timestamp("2026-03-09T07:05:00Z")?.utcOffsetSeconds == 0)
        #expect(Timestamp("2026-03-09t07:05:00z")?.epochSeconds == 1_773_039_900)
        #expect(Timestamp("2026-03-09T07:05:00+00:00")?.description == "2026-03-09T07:05:00Z")
    }

    @Test func secondsMayBeLeftOut() {
        #expect(Timestamp("2026-03-09T08:05+01:00")?.epochSeconds == 1_773_039_900)
        #expect(Timestamp("2026-03-09T07:05Z")?.description == "2026-03-09T07:05:00Z")
    }

    @Test func fractionalSecondsAreKeptToTheMillisecond() throws {
        let t = try #require(Timestamp("2026-03-09T08:05:30.250+01:00"))
        #expect(t.epochSeconds == 1_773_039_930.25)
        #expect(t.description == "2026-03-09T08:05:30.250+01:00")
        #expect(Timestamp("2026-03-09T08:05:30.5Z")?.description == "2026-03-09T08:05:30.500Z")
        #expect(Timestamp("2026-03-09T08:05:30.123456Z")?.description == "2026-03-09T08:05:30.123Z")
        #expect(Timestamp("2026-03-09T08:05:30.000Z")?.description == "2026-03-09T08:05:30Z")
    }

    @Test func aFractionThatRoundsToAWholeSecondCarriesIntoTheSeconds() {
        #expect(Timestamp("2026-03-09T08:05:59.9996Z")?.description == "2026-03-09T08:06:00Z")
        #expect(Timestamp("2026-12-31T23:59:59.9999+01:00")?.description == "2027-01-01T00:00:00+01:00")
        #expect(Timestamp("1969-12-31T23:59:59.500Z")?.description == "1969-12-31T23:59:59.500Z")
        #expect(Timestamp("2026-03-09T08:05:59.9994Z")?.description == "2026-03-09T08:05:59.999Z")
    }

    @Test func negativeOffsetsPlaceTheInstantLater() throws {
        let t = try #require(Timestamp("2026-03-08T23:30:00-05:00"))
        #expect(t.epochSeconds == Timestamp("2026-03-09T04:30:00Z")!.epochSeconds)
        #expect(t.localDate == Fixtures.date("2026-03-08"))
        #expect(t.description == "2026-03-08T23:30:00-05:00")
        #expect(Timestamp("2026-03-09T05:00:00+05:30")?.description == "2026-03-09T05:00:00+05:30")
        #expect(Timestamp("2026-03-09T05:00:00+14:00")?.localDate == Fixtures.date("2026-03-09"))
    }

    @Test func theLocalDateIsTheDateOnTheDevicesClock() {
        #expect(Timestamp("2026-03-09T00:30:00+01:00")?.localDate == Fixtures.date("2026-03-09"))
        #expect(Timestamp("2026-03-08T23:30:00Z")?.localDate == Fixtures.date("2026-03-08"))
        #expect(Timestamp("1969-12-31T23:00:00Z")?.localDate == Fixtures.date("1969-12-31"))
        #expect(Timestamp("1969-12-31T23:00:00Z")?.epochSeconds == -3600)
        #expect(Timestamp("1969-12-31T23:00:00Z")?.description == "1969-12-31T23:00:00Z")
    }

    @Test func theLocalTimeIsTheTimeOnTheDevicesClockToTheMinute() {
        #expect(Timestamp("2027-03-28T03:30:59+02:00")?.localTime == LocalTime("03:30"))
        #expect(Timestamp("2027-03-28T01:30:00Z")?.localTime == LocalTime("01:30"))
        #expect(Timestamp("2026-03-09T00:00:00-05:00")?.localTime == LocalTime("00:00"))
        #expect(Timestamp("1969-12-31T23:59:00Z")?.localTime == LocalTime("23:59"))
    }

    @Test(arguments: ["2026-03-09T08:05:00", "2026-03-09T08:05", "2026-03-09T08:05:00.250"])
    func aTimestampWithoutAnOffsetIsRefused(text: String) {
        #expect(Timestamp(text) == nil)
    }

    @Test(arguments: ["2026-02-29T08:00:00Z", "2026-03-09T24:00:00Z", "2026-03-09T08:60:00Z", "2026-03-09T08:05:60Z",
                      "2026-03-09T08:05:00+15:00", "2026-03-09T08:05:00+0100", "2026-03-09T08:05:00+01", "2026-03-09 08:05:00Z",
                      "2026-03-09T08:05:00.Z", "2026-03-09T08:05:00Zjunk", "2026-03-09T08:05:00+01:00x",
                      "2026-03-09T8:05:00Z", "2026-03-09T08:05:0Z", "2026-03-09T08:05:00+01:60", ""])
    func aMalformedTimestampIsRefused(text: String) {
        #expect(Timestamp(text) == nil)
    }

    @Test func timestampsOrderByInstantWhateverTheirOffsets() {
        let berlin = Timestamp("2026-03-09T09:00:00+02:00")!      // 07:00Z
        let london = Timestamp("2026-03-09T07:30:00Z")!
        let newYork = Timestamp("2026-03-09T02:00:00-05:00")!     // 07:00Z
        #expect(berlin < london)
        #expect(!(berlin < newYork) && !(newYork < berlin))
        #expect(berlin != newYork)                                  // same instant, different offsets
        #expect(berlin == Timestamp("2026-03-09T09:00:00.000+02:00"))
    }

    @Test func theDescriptionParsesBackToTheSameTimestamp() {
        for text in ["2026-03-09T08:05:00+01:00", "2026-03-29T03:30:00+02:00", "2026-11-01T01:30:00-04:00",
                     "2026-03-09T08:05:30.250Z", "2024-02-29T23:59:59+05:45"] {
            let t = Timestamp(text)!
            #expect(t.description == text)
            #expect(Timestamp(t.description) == t)
        }
    }

    /// The text is written digit by digit into the string's storage; checked against
    /// `String(format:)` over instants from 1900 to 2100, every offset step and with milliseconds.
    @Test func theTextOfManyInstantsMatchesTheZeroPaddedISOForm() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return seed >> 17
        }
        for _ in 0..<20_000 {
            let millis = Int64(next() % 6_311_390_400_000) - 2_208_988_800_000   // 1900 … 2100
            let wholeSeconds = next() % 3 == 0
            let offset = (Int(next() % 105) - 48) * 15 * 60                          // −12:00 … +14:00
            let epoch = wholeSeconds ? Double(millis / 1000) : Double(millis) / 1000
            let t = Timestamp(epochSeconds: epoch, utcOffsetSeconds: offset)
            let local = Int(((epoch + Double(offset)) * 1000).rounded())
            let whole = local >= 0 || local % 1000 == 0 ? local / 1000 : local / 1000 - 1
            let ms = local - whole * 1000
            let day = whole >= 0 || whole % 86_400 == 0 ? whole / 86_400 : whole / 86_400 - 1
            let date = LocalDate(daysSinceEpoch: day), second = whole - day * 86_400
            var expected = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", date.year, date.month, date.day,
                                  second / 3600, second % 3600 / 60, second % 60)
            if ms > 0 { expected += String(format: ".%03d", ms) }
            expected += offset == 0 ? "Z" : (offset < 0 ? "-" : "+") + String(format: "%02d:%02d", abs(offset) / 3600, abs(offset) % 3600 / 60)
            #expect(t.description == expected)
            #expect(date.description == String(format: "%04d-%02d-%02d", date.year, date.month, date.day))
            if wholeSeconds { #expect(Timestamp(expected) == t) }
        }
    }
}
