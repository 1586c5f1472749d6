import HyponaTrackCore

/// Reduces the export's `Record` elements, one at a time, to one value per field and local day
/// of the monitoring window (docs/product.md, "Settled details", Imports):
/// - steps: the largest of the per-`sourceName` sums (phone and watch count the same steps);
///   an interval counts on the local day it starts;
/// - weight: the earliest reading before 12:00 local (morning), the latest at or after 17:00
///   (evening); lb × 0.45359237; rounded to 0.01 kg;
/// - HRV: the mean of the day's SDNN values, rounded to 0.1 ms;
/// - resting heart rate: the median (an even count averages the middle pair), half up;
/// - sleep for day D: the union of the asleep intervals inside [D−1 18:00, D 12:00) local, in
///   whole minutes (floor).
/// State is per window day, so memory follows the window, not the export.
public struct HealthReducer {
    enum Kind { case bodyMass, steps, hrv, restingHR, sleep }

    struct Accumulator {
        var morning: (epoch: Int, kg: Double)?
        var evening: (epoch: Int, kg: Double)?
        var stepSources: [(source: [UInt8], sum: Double)] = []
        var hrvSum = 0.0, hrvCount = 0
        var restingHR: [Double] = []
        var sleep: [(Int, Int)] = []
    }

    let window: ClosedRange<LocalDate>
    var clock: LocalClock
    var days: [Accumulator]
    /// Per window day D: the instants of D−1 18:00 and D 12:00 local.
    let nights: [(Int, Int)]
    public private(set) var summary = HealthSummary()
    static let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]

    public init(zone: ZoneRules, window: ClosedRange<LocalDate>) {
        self.window = window
        clock = LocalClock(zone: zone)
        let count = window.lowerBound.days(to: window.upperBound) + 1
        days = Array(repeating: Accumulator(), count: count)
        nights = (0..<count).map { i in
            let d = window.lowerBound.adding(days: i)
            return (Int(zone.instant(on: d.adding(days: -1), at: LocalTime(hour: 18, minute: 0)!).epochSeconds),
                    Int(zone.instant(on: d, at: LocalTime(hour: 12, minute: 0)!).epochSeconds))
        }
    }

    static func kind(_ type: UnsafeBufferPointer<UInt8>) -> Kind? {
        func equal(_ s: StaticString) -> Bool { type.count == s.utf8CodeUnitCount && memcmp(type.baseAddress!, s.utf8Start, type.count) == 0 }
        guard type.count > 24 else { return nil }
        if equal("HKQuantityTypeIdentifierStepCount") { return .steps }
        if equal("HKQuantityTypeIdentifierBodyMass") { return .bodyMass }
        if equal("HKQuantityTypeIdentifierHeartRateVariabilitySDNN") { return .hrv }
        if equal("HKQuantityTypeIdentifierRestingHeartRate") { return .restingHR }
        if equal("HKCategoryTypeIdentifierSleepAnalysis") { return .sleep }
        return nil
    }

    /// One start tag of export.xml; anything but a `Record` of the five types is ignored.
    public mutating func element(_ tag: XMLStartTag) throws(ImportFileError) {
        guard tag.nameIs("Record") else { return }
        summary.records += 1
        guard let type = tag.value("type"), let kind = Self.kind(type) else { return }
        guard let startText = tag.value("startDate"), let start = HealthDate.epochSeconds(startText) else {
            throw ImportFileError("the Record at byte \(tag.offset) has no startDate in the export's format (2026-11-20 07:10:00 +0100)")
        }
        if kind == .sleep { return try sleep(tag, start: start) }
        guard let valueText = tag.value("value"), let value = Self.number(valueText) else {
            return refuse(tag, .outOfRange, "no numeric value")
        }
        guard Self.recordValues.contains(value) else {
            return refuse(tag, .outOfRange, "value \(String(decoding: valueText.prefix(40), as: UTF8.self)) is outside 0–1000000")
        }
        let date = clock.localDate(start)
        guard window.contains(date) else { summary.skippedOutsideWindow += 1; return }
        let i = window.lowerBound.days(to: date)
        let unit = tag.value("unit")
        func unitIs(_ s: StaticString) -> Bool {
            guard let unit else { return false }
            return unit.count == s.utf8CodeUnitCount && memcmp(unit.baseAddress!, s.utf8Start, unit.count) == 0
        }
        switch kind {
        case .steps:
            guard unitIs("count") else { return refuse(tag, .unit, "steps in \(tag.string("unit") ?? "no unit"), expected count") }
            let source = tag.value("sourceName") ?? UnsafeBufferPointer(start: nil, count: 0)
            if let j = days[i].stepSources.firstIndex(where: { $0.source.elementsEqual(source) }) {
                days[i].stepSources[j].sum += value
            } else {
                days[i].stepSources.append((Array(source), value))
            }
        case .bodyMass:
            let kg: Double
            if unitIs("kg") { kg = value } else if unitIs("lb") { kg = value * 0.45359237 } else if unitIs("g") { kg = value / 1000 } else {
                return refuse(tag, .unit, "body mass in \(tag.string("unit") ?? "no unit"), expected kg or lb")
            }
            let minute = (clock.wall(start) - LocalClock.floorDiv(clock.wall(start), 86_400) * 86_400) / 60
            if minute < 12 * 60, days[i].morning.map({ start < $0.epoch }) ?? true { days[i].morning = (start, kg) }
            if minute >= 17 * 60, days[i].evening.map({ start >= $0.epoch }) ?? true { days[i].evening = (start, kg) }
        case .hrv:
            guard unitIs("ms") else { return refuse(tag, .unit, "HRV in \(tag.string("unit") ?? "no unit"), expected ms") }
            days[i].hrvSum += value
            days[i].hrvCount += 1
        case .restingHR:
            guard unitIs("count/min") else {
                return refuse(tag, .unit, "resting heart rate in \(tag.string("unit") ?? "no unit"), expected count/min")
            }
            days[i].restingHR.append(value)
        case .sleep: break
        }
    }

    /// An asleep interval, clipped to each window day's night it overlaps.
    mutating func sleep(_ tag: XMLStartTag, start: Int) throws(ImportFileError) {
        guard let v = tag.value("value"), v.starts(with: "HKCategoryValueSleepAnalysisAsleep".utf8) else { return }
        guard let endText = tag.value("endDate"), let end = HealthDate.epochSeconds(endText) else {
            throw ImportFileError("the Record at byte \(tag.offset) has no endDate in the export's format (2026-11-20 07:10:00 +0100)")
        }
        guard end > start else { return }
        // The nights that can overlap: those of the local days the interval touches, and the next.
        let first = max(0, window.lowerBound.days(to: clock.localDate(start)))
        let last = min(days.count - 1, window.lowerBound.days(to: clock.localDate(end)) + 1)
        var used = false
        if first <= last {
            for i in first...last {
                let a = max(start, nights[i].0), b = min(end, nights[i].1)
                guard b > a else { continue }
                days[i].sleep.append((a, b))
                used = true
                if days[i].sleep.count > 4096 { days[i].sleep = mergeIntervals(days[i].sleep) }
            }
        }
        if !used, end <= nights[0].0 || start >= nights[nights.count - 1].1 { summary.skippedOutsideWindow += 1 }
    }

    mutating func refuse(_ tag: XMLStartTag, _ reason: RefusalReason, _ detail: String) {
        summary.refuse(ImportRefusal(entry: "Record at byte \(tag.offset)", reason: reason, detail: detail))
    }

    /// What any record's value may be, whatever its type and unit: no measurement of the five
    /// types is negative or above a million, and the reductions sum, average and round these
    /// into the day's fields, two of them integers. A value outside (`1e300`, `-5`) is refused
    /// here, per record; whether a day's value lies in its field's range stays the proposal's
    /// check (`ProposalField.accepts`, ValueRanges), so the reductions themselves are unchanged.
    static let recordValues = 0.0...1_000_000.0

    /// The reduced days, in date order (only days with a value).
    public func finish() -> HealthSummary {
        var s = summary
        s.days = days.enumerated().compactMap { i, a in
            var d = HealthDay(date: window.lowerBound.adding(days: i))
            d.weightMorningKg = a.morning.map { rounded($0.kg, per: 100) }
            d.weightEveningKg = a.evening.map { rounded($0.kg, per: 100) }
            // Each record is within `recordValues`, so a sum fits an Int; `exactly` keeps it from trapping regardless.
            d.steps = a.stepSources.map(\.sum).max().flatMap { Int(exactly: $0.rounded()) }
            d.hrvSdnnMs = a.hrvCount > 0 ? rounded(a.hrvSum / Double(a.hrvCount), per: 10) : nil
            d.restingHeartRate = medianHalfUp(a.restingHR)
            d.sleepMinutes = a.sleep.isEmpty ? nil : unionMinutes(a.sleep)
            return d.isEmpty ? nil : d
        }
        return s
    }

    /// A decimal number as the export writes it (`231`, `72.5`, `1.2e-05`).
    static func number(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0, negative = false
        if i < b.count, b[i] == 0x2D { negative = true; i += 1 }
        var mantissa: UInt64 = 0, digits = 0, scale = 0
        while i < b.count, b[i] >= 0x30, b[i] <= 0x39, digits < 15 { mantissa = mantissa * 10 + UInt64(b[i] - 0x30); digits += 1; i += 1 }
        if i < b.count, b[i] == 0x2E {
            i += 1
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39, digits < 15 {
                mantissa = mantissa * 10 + UInt64(b[i] - 0x30); digits += 1; scale += 1; i += 1
            }
        }
        guard digits > 0 else { return nil }
        // Exponent or long: the slow path, which also parses `1e999` (infinity): not a number of the export.
        if i < b.count { return Double(String(decoding: b, as: UTF8.self)).flatMap { $0.isFinite ? $0 : nil } }
        // Exact: a mantissa below 2^53 divided by an exact power of ten rounds once, correctly.
        let v = Double(mantissa) / powersOfTen[scale]
        return negative ? -v : v
    }
}

#if canImport(Glibc)
import Glibc
#endif
