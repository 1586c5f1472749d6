import HyponaTrackCore
import Imports
import Testing

@Suite struct HealthReducerTests {
    static let zone = ZoneRules(identifier: "Europe/Berlin")!
    static let window = LocalDate("2026-11-18")!...LocalDate("2026-11-22")!
    typealias X = SyntheticExport

    /// Every trap of the contract's reductions in one export.
    static let traps = X.document([
        // Weight: the earliest before 12:00 is in lb; a later kg reading that morning and one at
        // 14:00 do not count; the evening is the latest at or after 17:00, in lb again.
        X.record("HKQuantityTypeIdentifierBodyMass", "2026-11-20 06:50:00 +0100", value: "150", unit: "lb"),
        X.record("HKQuantityTypeIdentifierBodyMass", "2026-11-20 07:30:00 +0100", value: "69.0", unit: "kg"),
        X.record("HKQuantityTypeIdentifierBodyMass", "2026-11-20 14:00:00 +0100", value: "70.0", unit: "kg"),
        X.record("HKQuantityTypeIdentifierBodyMass", "2026-11-20 18:00:00 +0100", value: "68.9", unit: "kg"),
        X.record("HKQuantityTypeIdentifierBodyMass", "2026-11-20 21:30:00 +0100", value: "152.5", unit: "lb"),
        // Steps: phone and watch count the same walk; the larger source's sum wins.
        X.record("HKQuantityTypeIdentifierStepCount", "2026-11-20 07:00:00 +0100", "2026-11-20 07:30:00 +0100", value: "1000", unit: "count"),
        X.record("HKQuantityTypeIdentifierStepCount", "2026-11-20 12:00:00 +0100", "2026-11-20 12:30:00 +0100", value: "2000", unit: "count"),
        X.record("HKQuantityTypeIdentifierStepCount", "2026-11-20 07:00:00 +0100", "2026-11-20 07:30:00 +0100", value: "1200", unit: "count",
                 source: "Anna&#8217;s Apple Watch"),
        X.record("HKQuantityTypeIdentifierStepCount", "2026-11-20 12:00:00 +0100", "2026-11-20 12:30:00 +0100", value: "2100", unit: "count",
                 source: "Anna&#8217;s Apple Watch"),
        // Written in UTC: 00:30 on the 21st in Berlin.
        X.record("HKQuantityTypeIdentifierStepCount", "2026-11-20 23:30:00 +0000", "2026-11-20 23:50:00 +0000", value: "500", unit: "count"),
        // HRV mean 45.25 → 45.3 (half away from zero), with the metadata children the export writes.
        X.record("HKQuantityTypeIdentifierHeartRateVariabilitySDNN", "2026-11-20 03:00:00 +0100", value: "40", unit: "ms",
                 children: "  <HeartRateVariabilityMetadataList>\n   <InstantaneousBeatsPerMinute bpm=\"61\" time=\"3:00:01,12 AM\"/>\n  </HeartRateVariabilityMetadataList>"),
        X.record("HKQuantityTypeIdentifierHeartRateVariabilitySDNN", "2026-11-20 04:00:00 +0100", value: "45.5", unit: "ms"),
        X.record("HKQuantityTypeIdentifierHeartRateVariabilitySDNN", "2026-11-20 05:00:00 +0100", value: "50.25", unit: "ms"),
        // Resting HR with an absurd outlier: median of 58, 60, 61, 180 = 60.5 → 61.
        X.record("HKQuantityTypeIdentifierRestingHeartRate", "2026-11-20 08:00:00 +0100", value: "58", unit: "count/min"),
        X.record("HKQuantityTypeIdentifierRestingHeartRate", "2026-11-20 09:00:00 +0100", value: "180", unit: "count/min"),
        X.record("HKQuantityTypeIdentifierRestingHeartRate", "2026-11-20 10:00:00 +0100", value: "61", unit: "count/min"),
        X.record("HKQuantityTypeIdentifierRestingHeartRate", "2026-11-20 11:00:00 +0100", value: "60", unit: "count/min"),
        // Sleep for the 21st: overlapping stages merge (23:00–04:00), REM 05:00–06:30:45, a legacy
        // Asleep 11:30–12:30 clipped at 12:00; in bed and awake do not count: 420.75 → 420 min.
        X.record("HKCategoryTypeIdentifierSleepAnalysis", "2026-11-20 22:30:00 +0100", "2026-11-21 07:00:00 +0100",
                 value: "HKCategoryValueSleepAnalysisInBed"),
        X.record("HKCategoryTypeIdentifierSleepAnalysis", "2026-11-20 23:00:00 +0100", "2026-11-21 03:00:00 +0100",
                 value: "HKCategoryValueSleepAnalysisAsleepCore"),
        X.record("HKCategoryTypeIdentifierSleepAnalysis", "2026-11-21 02:00:00 +0100", "2026-11-21 04:00:00 +0100",
                 value: "HKCategoryValueSleepAnalysisAsleepDeep"),
        X.record("HKCategoryTypeIdentifierSleepAnalysis", "2026-11-21 04:00:00 +0100", "2026-11-21 05:00:00 +0100",
                 value: "HKCategoryValueSleepAnalysisAwake"),
        X.record("HKCategoryTypeIdentifierSleepAnalysis", "2026-11-21 05:00:00 +0100", "2026-11-21 06:30:45 +0100",
                 value: "HKCategoryValueSleepAnalysisAsleepREM"),
        X.record("HKCategoryTypeIdentifierSleepAnalysis", "2026-11-21 11:30:00 +0100", "2026-11-21 12:30:00 +0100",
                 value: "HKCategoryValueSleepAnalysisAsleep"),
        // Outside the window: counted, not reduced (a heart rate is not a type read: not counted).
        X.record("HKQuantityTypeIdentifierStepCount", "2026-11-10 07:00:00 +0100", value: "9999", unit: "count"),
        X.record("HKQuantityTypeIdentifierBodyMass", "2026-11-23 07:00:00 +0100", value: "60", unit: "kg"),
        X.record("HKCategoryTypeIdentifierSleepAnalysis", "2026-11-01 23:00:00 +0100", "2026-11-02 06:00:00 +0100",
                 value: "HKCategoryValueSleepAnalysisAsleepCore"),
        X.record("HKQuantityTypeIdentifierHeartRate", "2026-11-01 07:00:00 +0100", value: "70", unit: "count/min"),
    ])

    static let expected = [
        HealthDay(date: LocalDate("2026-11-20")!, weightMorningKg: 68.04, weightEveningKg: 69.17, steps: 3300, hrvSdnnMs: 45.3,
                  restingHeartRate: 61),
        HealthDay(date: LocalDate("2026-11-21")!, steps: 500, sleepMinutes: 420),
    ]

    func reduce(_ text: String, piece: Int = 1 << 20) throws -> HealthSummary {
        var stream = PieceStream(text, piece: piece)
        return try AppleHealthExport.reduceXML(&stream, zone: Self.zone, window: Self.window).finish()
    }

    @Test func exportWithTrapsReducesToTheContractsValues() throws {
        let summary = try reduce(Self.traps)
        #expect(summary.days == Self.expected)
        #expect(summary.skippedOutsideWindow == 3)
        #expect(summary.refused.isEmpty)
        #expect(summary.records == 27)
    }

    @Test func resultDoesNotDependOnHowTheFileIsChunked() throws {
        for piece in [1, 7, 64, 4093] {
            #expect(try reduce(Self.traps, piece: piece).days == Self.expected, "piece \(piece)")
        }
    }

    @Test func unknownWeightUnitIsRefusedNotGuessed() throws {
        let summary = try reduce(X.document([X.record("HKQuantityTypeIdentifierBodyMass", "2026-11-20 07:00:00 +0100", value: "11",
                                                      unit: "st")]))
        #expect(summary.days.isEmpty)
        #expect(summary.refused.map(\.reason) == [.unit])
    }

    @Test func hugeOrNegativeValuesAreRefusedPerRecordAndTheRestIsReduced() throws {
        func record(_ type: String, _ clock: String, _ value: String, _ unit: String) -> String {
            X.record("HKQuantityTypeIdentifier\(type)", "2026-11-20 \(clock):00 +0100", value: value, unit: unit)
        }
        let summary = try reduce(X.document([
            record("StepCount", "07:00", "1e300", "count"), record("StepCount", "07:10", "-5", "count"),
            record("StepCount", "07:20", "1200", "count"),
            record("RestingHeartRate", "08:00", "1e300", "count/min"), record("RestingHeartRate", "08:10", "1e999", "count/min"),
            record("RestingHeartRate", "08:20", "62", "count/min"),
            record("BodyMass", "07:00", "1e300", "lb"), record("HeartRateVariabilitySDNN", "03:00", "1e300", "ms"),
        ]))
        #expect(summary.days == [HealthDay(date: LocalDate("2026-11-20")!, steps: 1200, restingHeartRate: 62)])
        #expect(summary.refused.map(\.reason) == Array(repeating: .outOfRange, count: 6))
        #expect(summary.refused.first?.detail == "value 1e300 is outside 0–1000000")
        #expect(summary.refused.map(\.detail).contains("no numeric value"))   // 1e999: infinity
    }

    @Test func refusalsPastTheListedOnesAreCountedNotDropped() throws {
        let records = (0..<300).map { _ in
            X.record("HKQuantityTypeIdentifierBodyMass", "2026-11-20 07:00:00 +0100", value: "11", unit: "st")
        }
        let summary = try reduce(X.document(records))
        #expect(summary.refused.count == HealthSummary.maxListedRefusals)
        #expect(summary.unlistedRefusals == 300 - HealthSummary.maxListedRefusals)
    }

    @Test func recordDateInAnotherFormatRefusesTheFile() {
        let text = X.document([X.record("HKQuantityTypeIdentifierStepCount", "2026-11-20T07:00:00+01:00", value: "5", unit: "count")])
        #expect(throws: ImportFileError.self) { try reduce(text) }
    }

    @Test func oddCountMedianIsTheMiddleValue() {
        #expect(medianOf([70, 58, 60]) == 60)
        #expect(medianOf([60, 61]) == 61)
        #expect(medianOf([60, 60.4]) == 60)
    }

    func medianOf(_ values: [Double]) -> Int? {
        let text = X.document(values.enumerated().map { i, v in
            X.record("HKQuantityTypeIdentifierRestingHeartRate", "2026-11-20 0\(i):00:00 +0100", value: "\(v)", unit: "count/min")
        })
        return (try? reduce(text))?.days.first?.restingHeartRate
    }
}
