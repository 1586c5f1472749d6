// Reading the stored `reasons` column (release build: scripts/bench-reasons).
//
// Every evaluation and alert read from the database decodes its reasons column (the ward board,
// a patient page, the alert list, the exports). This measures StoredReasonsColumn.decode (HTJSON's
// parser and field reader) beside the Foundation JSONDecoder reading it replaced, kept here only
// as the comparison, over the same columns: one to five reasons, full precision and the older
// 6-decimal rows, missing-data reasons without values. Each figure is repeated and reported as
// min/median/max µs per column; nothing here is a test.
import Foundation
import HyponaTrackCore
import HyponaTrackDomain

let arguments = CommandLine.arguments
let repetitions = arguments.firstIndex(of: "--repetitions").flatMap { Int(arguments[$0 + 1]) } ?? 7
let columnsPerRun = arguments.firstIndex(of: "--columns").flatMap { Int(arguments[$0 + 1]) } ?? 20_000

/// The reading this replaced: Foundation's JSONDecoder, an element that is not a reason skipped.
enum FoundationReading {
    struct Element: Decodable {
        let code: String
        let level: String
        let value: Double?
        let threshold: Double?
    }

    struct Lenient: Decodable {
        let element: Element?
        init(from decoder: any Decoder) throws { element = try? Element(from: decoder) }
    }

    static func decode(_ text: String) -> [StoredReason] {
        guard let items = try? JSONDecoder().decode([Lenient].self, from: Data(text.utf8)) else { return [] }
        return items.compactMap { item in
            guard let e = item.element, let level = Level(rawValue: e.level) else { return nil }
            return StoredReason(code: e.code, level: level, value: e.value, threshold: e.threshold)
        }
    }
}

let samples: [[StoredReason]] = [
    [StoredReason(code: "weight_gain_24h", level: .yellow, value: 1.2345678901, threshold: 1.0)],
    [StoredReason(code: "sodium_low", level: .red, value: 124, threshold: 125),
     StoredReason(code: "urine_sg_low", level: .yellow, value: 1.0031234, threshold: 1.005),
     StoredReason(code: "fluid_intake_high", level: .info, value: 2400, threshold: 2000)],
    [StoredReason(code: "missing_checkin", level: .yellow, value: nil, threshold: nil)],
    (0..<5).map { StoredReason(code: "reason_\($0)", level: $0 % 2 == 0 ? .red : .yellow, value: 100.123456 + Double($0),
                                 threshold: 99.5) },
]
let columns = (0..<columnsPerRun).map { StoredReasonsColumn.encode(samples[$0 % samples.count]) }
    + ["[{\"code\":\"old_row\",\"level\":\"yellow\",\"value\":1.234568,\"threshold\":1.0}]"]

for column in columns.prefix(samples.count + 1) where StoredReasonsColumn.decode(column) != FoundationReading.decode(column) {
    print("bench-reasons: the two readings differ on \(column)")
    exit(1)
}

func measure(_ name: String, _ decode: (String) -> [StoredReason]) -> Double {
    var perColumn: [Double] = []
    var count = 0
    for _ in 0..<repetitions {
        let start = DispatchTime.now().uptimeNanoseconds
        for column in columns { count &+= decode(column).count }
        perColumn.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000 / Double(columns.count))
    }
    perColumn.sort()
    let median = perColumn[perColumn.count / 2]
    print("\(name): \(String(format: "%.2f / %.2f / %.2f", perColumn.first!, median, perColumn.last!)) µs per column "
          + "(min/median/max of \(repetitions) runs × \(columns.count) columns; \(count) reasons read)")
    return median
}

let foundation = measure("Foundation JSONDecoder (before)", FoundationReading.decode)
let htjson = measure("StoredReasonsColumn.decode (HTJSON)", StoredReasonsColumn.decode)
print(String(format: "ratio: HTJSON takes %.2f× the time of JSONDecoder (%.1f× faster)", htjson / foundation, foundation / htjson))
