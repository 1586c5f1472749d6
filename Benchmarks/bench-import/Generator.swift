import Foundation
import HyponaTrackCore

/// A synthetic Apple Health `export.xml` in the Health app's layout: the DTD, `Me`, then
/// `records` Record elements (one a line, every attribute the exporter writes, some with
/// `MetadataEntry` children) spread over two years ending on `end`, of the types a phone and a
/// watch write most: steps from both, heart rate, active energy, plus the five types the import
/// reduces. Deterministic.
enum Generator {
    static let types: [(type: String, unit: String, share: Int)] = [
        ("HKQuantityTypeIdentifierStepCount", "count", 35), ("HKQuantityTypeIdentifierHeartRate", "count/min", 30),
        ("HKQuantityTypeIdentifierActiveEnergyBurned", "kcal", 20), ("HKQuantityTypeIdentifierDistanceWalkingRunning", "km", 8),
        ("HKQuantityTypeIdentifierHeartRateVariabilitySDNN", "ms", 2), ("HKQuantityTypeIdentifierRestingHeartRate", "count/min", 2),
        ("HKQuantityTypeIdentifierBodyMass", "kg", 1), ("HKCategoryTypeIdentifierSleepAnalysis", "", 2),
    ]

    static func write(records: Int, end: LocalDate, to path: String) throws {
        guard let out = OutputStream(toFileAtPath: path, append: false) else { throw CocoaError(.fileWriteUnknown) }
        out.open()
        defer { out.close() }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20)
        func flush() {
            _ = buffer.withUnsafeBufferPointer { out.write($0.baseAddress!, maxLength: $0.count) }
            buffer.removeAll(keepingCapacity: true)
        }
        func emit(_ s: String) {
            buffer.append(contentsOf: s.utf8)
            if buffer.count > (1 << 20) - 4096 { flush() }
        }
        emit("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE HealthData [
            <!-- HealthKit Export Version: 14 -->
            <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
            <!ATTLIST HealthData locale CDATA #REQUIRED>
            <!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
            <!ATTLIST Record type CDATA #REQUIRED unit CDATA #IMPLIED value CDATA #IMPLIED sourceName CDATA #REQUIRED
              sourceVersion CDATA #IMPLIED device CDATA #IMPLIED creationDate CDATA #IMPLIED startDate CDATA #REQUIRED
              endDate CDATA #REQUIRED>
            ]>
            <HealthData locale="de_DE">
             <ExportDate value="\(end) 21:00:00 +0100"/>
             <Me HKCharacteristicTypeIdentifierDateOfBirth="1962-03-04" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>

            """)
        var state: UInt64 = 0x2545F4914F6CDD1D
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        let start = end.adding(days: -730)
        let secondsPerRecord = max(1, 730 * 86_400 / max(records, 1))
        let watch = "&lt;&lt;HKDevice: 0x283a1c2d0&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.1&gt;"
        for i in 0..<records {
            var pick = next(100)
            var kind = types[0]
            for t in types { if pick < t.share { kind = t; break }; pick -= t.share }
            let t0 = start.daysSinceEpoch * 86_400 + i * secondsPerRecord + next(60)
            let fromWatch = next(2) == 0
            let source = fromWatch ? "Anna’s Apple Watch" : "Anna’s iPhone"
            let value: String, endOffset: Int
            switch kind.type {
            case "HKCategoryTypeIdentifierSleepAnalysis":
                value = ["HKCategoryValueSleepAnalysisAsleepCore", "HKCategoryValueSleepAnalysisAsleepDeep",
                         "HKCategoryValueSleepAnalysisAsleepREM", "HKCategoryValueSleepAnalysisAwake", "HKCategoryValueSleepAnalysisInBed"][next(5)]
                endOffset = 600 + next(3600)
            case "HKQuantityTypeIdentifierBodyMass": value = "\(60 + next(20)).\(next(10))"; endOffset = 0
            case "HKQuantityTypeIdentifierStepCount": value = "\(next(800))"; endOffset = 60 + next(600)
            case "HKQuantityTypeIdentifierHeartRateVariabilitySDNN": value = "\(20 + next(80)).\(next(1000))"; endOffset = 60
            default: value = "\(next(180)).\(next(100))"; endOffset = next(120)
            }
            var line = " <Record type=\"\(kind.type)\" sourceName=\"\(source)\" sourceVersion=\"\(fromWatch ? "10.1" : "17.1")\""
            if fromWatch { line += " device=\"\(watch)\"" }
            if !kind.unit.isEmpty { line += " unit=\"\(kind.unit)\"" }
            line += " creationDate=\"\(date(t0 + endOffset + 30))\" startDate=\"\(date(t0))\" endDate=\"\(date(t0 + endOffset))\" value=\"\(value)\""
            if i % 10 == 0 {
                line += ">\n  <MetadataEntry key=\"HKMetadataKeySyncVersion\" value=\"2\"/>\n </Record>\n"
            } else {
                line += "/>\n"
            }
            emit(line)
        }
        emit("</HealthData>\n")
        flush()
    }

    /// `2026-11-20 07:10:00 +0100` (the generator writes every date at +0100).
    static func date(_ epoch: Int) -> String {
        let local = epoch + 3600
        let d = LocalDate(daysSinceEpoch: local >= 0 ? local / 86_400 : (local - 86_399) / 86_400)
        let s = local - d.daysSinceEpoch * 86_400
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(d) \(two(s / 3600)):\(two(s / 60 % 60)):\(two(s % 60)) +0100"
    }
}
