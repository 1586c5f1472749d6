import HTJSON
import HyponaTrackCore
import Zip

/// The Health app's export, as `export.zip` or its `export.xml`: read in one pass, streamed
/// (one chunk of the XML and zlib's window in memory), reduced to days of the monitoring
/// window, with the sodium results of `clinical-records/*.json`. `export_cda.xml` is ignored.
public enum AppleHealthExport {
    /// Reads the file at `path`; throws, having reduced nothing usable, when it is not a
    /// complete export (malformed XML, a truncated or damaged zip, neither zip nor XML).
    public static func read(path: String, studyId: String, zone: ZoneRules,
                            window: ClosedRange<LocalDate>) throws(ImportFileError) -> HealthSummary {
        let head: [UInt8]
        do { head = try FileByteStream(path: path).peek(512) } catch { throw ImportFileError(error.message) }
        if head.starts(with: [0x50, 0x4B]) { return try readZip(path: path, studyId: studyId, zone: zone, window: window) }
        guard head.first(where: { !XMLScanner.isSpace($0) && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }) == UInt8(ascii: "<") else {
            throw ImportFileError("neither an export.zip nor an export.xml from the Health app")
        }
        var stream: FileByteStream
        do { stream = try FileByteStream(path: path) } catch { throw ImportFileError(error.message) }
        return try reduceXML(&stream, zone: zone, window: window).finish()
    }

    public static func reduceXML<S: ByteStream>(_ stream: inout S, zone: ZoneRules,
                                                window: ClosedRange<LocalDate>) throws(ImportFileError) -> HealthReducer {
        var reducer = HealthReducer(zone: zone, window: window)
        try XMLScanner().scan(&stream) { (tag) throws(ImportFileError) in try reducer.element(tag) }
        return reducer
    }

    /// - Parameter clinicalRecordsCap: `maxClinicalRecordsBytes`; lower in tests, so that
    ///   passing it takes kilobytes instead of 256 MiB.
    static func readZip(path: String, studyId: String, zone: ZoneRules, window: ClosedRange<LocalDate>,
                        clinicalRecordsCap: UInt64 = maxClinicalRecordsBytes) throws(ImportFileError) -> HealthSummary {
        do {
            let archive = try ZipArchive(path: path)
            guard let xml = exportEntry(archive.entries) else {
                throw ImportFileError("the zip archive holds no export.xml (is it the Health app's export?)")
            }
            var stream = try open(archive, xml)
            var summary = try reduceXML(&stream, zone: zone, window: window).finish()
            var budget = ClinicalRecordsBudget(cap: clinicalRecordsCap)
            for entry in archive.entries where isClinicalRecord(entry.name) {
                try clinicalRecord(archive, entry, studyId: studyId, zone: zone, window: window, budget: &budget, into: &summary)
            }
            return summary
        } catch let error as ZipError {
            throw ImportFileError(error.message)
        } catch let error as ImportFileError {
            throw error
        } catch {
            throw ImportFileError("\(error)")
        }
    }

    /// `apple_health_export/export.xml` (the name in any folder, any case).
    static func exportEntry(_ entries: [ZipArchive.Entry]) -> ZipArchive.Entry? {
        entries.first { ($0.name.split(separator: "/").last ?? "").lowercased() == "export.xml" }
    }

    static func isClinicalRecord(_ name: String) -> Bool {
        let parts = name.split(separator: "/")
        return parts.count >= 2 && parts[parts.count - 2] == "clinical-records" && name.lowercased().hasSuffix(".json")
    }

    /// Deflate does not do better than about 1032:1, and an export's XML and JSON compress
    /// 10–30:1; an entry that declares more than this many times its compressed size (past its
    /// first MiB) is a zip bomb honest about its size, refused before a byte is inflated (a
    /// 3 MB zip declaring 3 GB of export.xml kept a handler thread busy for 14 s).
    static let maxCompressionRatio: UInt64 = 200

    static func open(_ archive: ZipArchive, _ entry: ZipArchive.Entry) throws -> ZipEntryStream {
        // Division, not multiplication: both sizes are the sender's and may be near UInt64.max.
        guard entry.uncompressedSize <= 1 << 20 || entry.uncompressedSize / maxCompressionRatio <= entry.compressedSize else {
            throw ImportFileError("\(entry.name) in the zip archive declares \(entry.uncompressedSize) bytes from \(entry.compressedSize): "
                                  + "more than \(maxCompressionRatio) times its compressed size, which no Health export is (a zip bomb?)")
        }
        return try archive.open(entry)
    }

    /// A clinical record is parsed in memory: one past this is refused unread.
    static let maxClinicalRecordBytes: UInt64 = 16 << 20
    /// All of an export's clinical records together (a real export's are a few MB): the
    /// records past it are refused unread, so many small bombs cannot add up either.
    static let maxClinicalRecordsBytes: UInt64 = 256 << 20

    /// What is left of the clinical records' total cap while an export is read.
    struct ClinicalRecordsBudget {
        let cap: UInt64
        private(set) var left: UInt64

        init(cap: UInt64) {
            self.cap = cap
            left = cap
        }

        /// Takes `bytes` if they fit in what is left.
        mutating func take(_ bytes: UInt64) -> Bool {
            guard bytes <= left else { return false }
            left -= bytes
            return true
        }

        /// "256 MiB" (or, for a cap that is no whole number of MiB, the bytes).
        var capText: String { cap % (1 << 20) == 0 ? "\(cap >> 20) MiB" : "\(cap) bytes" }
    }

    /// One FHIR resource of `clinical-records/`: a sodium Observation becomes a lab reading of
    /// this patient; anything else is reported as refused, with the file's name.
    static func clinicalRecord(_ archive: ZipArchive, _ entry: ZipArchive.Entry, studyId: String, zone: ZoneRules,
                               window: ClosedRange<LocalDate>, budget: inout ClinicalRecordsBudget,
                               into summary: inout HealthSummary) throws {
        let name = String(entry.name.split(separator: "/").last ?? "")
        guard entry.uncompressedSize <= maxClinicalRecordBytes else {
            return summary.refuse(ImportRefusal(entry: name, reason: .otherCode, detail: "larger than 16 MiB"))
        }
        guard budget.take(entry.uncompressedSize) else {
            return summary.refuse(ImportRefusal(entry: name, reason: .otherCode,
                                                detail: "not read: the clinical records pass \(budget.capText) in all"))
        }
        // The declared size (≤ 16 MiB) bounds what is read: the stream refuses a byte more, and
        // so does this loop, whatever the stream does.
        let limit = Int(entry.uncompressedSize)
        var stream = try open(archive, entry)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try stream.read(into: $0) }
            if n == 0 { break }
            guard n <= limit - bytes.count else {
                throw ImportFileError("\(name) in the zip archive holds more than the \(limit) bytes its header declares")
            }
            bytes += chunk[0..<n]
        }
        guard let json = try? JSONParser.parse(bytes) else {
            return summary.refuse(ImportRefusal(entry: name, reason: .otherCode, detail: "not a FHIR resource in JSON"))
        }
        do {
            let result = try FHIRReader.read(json, subject: .given(studyId))
            for var o in result.observations {
                o.entry = name
                if let date = o.time?.localDate(in: zone), !window.contains(date) {
                    summary.skippedOutsideWindow += 1
                } else {
                    summary.labs.append(o)
                }
            }
            for r in result.refused { summary.refuse(ImportRefusal(entry: name, reason: r.reason, detail: r.detail)) }
        } catch {
            summary.refuse(ImportRefusal(entry: name, reason: .otherCode, detail: error.message))
        }
    }
}
