// Apple Health import benchmark (release build): parse and reduce an export.xml as the server
// does (Imports.AppleHealthExport: streaming XMLScanner + HealthReducer), report time and peak RSS.
//
//   bench-import --generate N FILE [--end YYYY-MM-DD]   write a synthetic N-record export.xml
//   bench-import FILE [--repetitions R] [--window-days D] [--end YYYY-MM-DD] [--zone Z]
//
// For each repetition: read only (the bytes through the same 1 MiB chunks), scan only (the XML
// reader, no reduction) and the full import (scan + reduce); min/median/max seconds, records/s
// and MB/s, and the process's peak RSS (getrusage) at the end. Nothing here is a test.
import Foundation
import HyponaTrackCore
import Imports
import Zip

let arguments = CommandLine.arguments
func option(_ name: String) -> String? { arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil } }
let end = option("--end").flatMap(LocalDate.init) ?? ZoneRules(identifier: "Europe/Berlin")!.localDate(atEpochSeconds: Date().timeIntervalSince1970)

if let count = option("--generate").flatMap(Int.init) {
    let at = arguments.firstIndex(of: "--generate")! + 2
    guard at < arguments.count, !arguments[at].hasPrefix("--") else { fatalError("usage: bench-import --generate N FILE") }
    let path = arguments[at]
    try Generator.write(records: count, end: end, to: path)
    print("wrote \(count) records to \(path)")
    exit(0)
}

guard arguments.count >= 2, !arguments[1].hasPrefix("--") else {
    FileHandle.standardError.write(Data("usage: bench-import FILE [--repetitions R] [--window-days D] [--end DATE] [--zone Z]\n".utf8))
    exit(64)
}
let path = arguments[1]
let repetitions = option("--repetitions").flatMap(Int.init) ?? 5
let zone = ZoneRules(identifier: option("--zone") ?? "Europe/Berlin")!
let window = end.adding(days: -(option("--window-days").flatMap(Int.init) ?? 30))...end
let bytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.doubleValue ?? 0

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func readOnly() throws {
    let stream = try FileByteStream(path: path)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
    defer { buffer.deallocate() }
    while try stream.read(into: buffer) > 0 {}
}

func scanOnly() throws -> Int {
    var stream = try FileByteStream(path: path)
    var records = 0
    try XMLScanner().scan(&stream) { tag in if tag.nameIs("Record") { records += 1 } }
    return records
}

// An export.zip is timed as a whole (inflate + scan + reduce); the phases are for export.xml.
let isZip = (try FileByteStream(path: path).peek(2)) == [0x50, 0x4B]
var summary = HealthSummary()
var timings: [String: [Double]] = [:]
for _ in 0..<repetitions {
    if !isZip {
        timings["read", default: []].append(try seconds { try readOnly() })
        timings["scan", default: []].append(try seconds { _ = try scanOnly() })
    }
    timings["import", default: []].append(try seconds {
        summary = try AppleHealthExport.read(path: path, studyId: "BENCH", zone: zone, window: window)
    })
}

var usage = rusage()
getrusage(RUSAGE_SELF.rawValue, &usage)
let peakMB = Double(usage.ru_maxrss) / 1024
@MainActor func line(_ name: String, _ label: String) {
    let t = timings[name]!.sorted()
    let median = t[t.count / 2]
    print("\(label): min \(String(format: "%.3f", t[0])) s, median \(String(format: "%.3f", median)) s, max \(String(format: "%.3f", t[t.count - 1])) s"
          + "; \(String(format: "%.0f", Double(summary.records) / median)) records/s, \(String(format: "%.0f", bytes / median / 1e6)) MB/s")
}
print("file: \(path), \(String(format: "%.1f", bytes / 1e6)) MB, \(summary.records) records; window \(window.lowerBound)…\(window.upperBound) (\(zone.identifier)); \(repetitions) repetitions")
if !isZip {
    line("read", "read only (1 MiB chunks)     ")
    line("scan", "XML scan only (every tag)    ")
}
line("import", isZip ? "import of export.zip (inflate + scan + reduce)" : "import (scan + reduce)       ")
print("reduced: \(summary.days.count) days proposed from, \(summary.skippedOutsideWindow) records outside the window, \(summary.refused.count) refused")
print("peak RSS: \(String(format: "%.1f", peakMB)) MB")
