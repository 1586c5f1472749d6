import Foundation
import HyponaTrackCore
import Zip

/// A fresh directory per test, removed by the caller's `defer`.
func temporaryDirectory() -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("imports-tests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Bytes served in small, uneven pieces: every tag boundary case of a chunked reader.
struct PieceStream: ByteStream {
    let bytes: [UInt8]
    let piece: Int
    var position = 0

    init(_ text: String, piece: Int) {
        bytes = Array(text.utf8)
        self.piece = piece
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(ZipError) -> Int {
        let n = min(piece, buffer.count, bytes.count - position)
        for i in 0..<n { buffer[i] = bytes[position + i] }
        position += n
        return n
    }
}

/// A synthetic `export.xml` in the Health app's layout (DTD with internal subset, one element a line).
enum SyntheticExport {
    static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!-- HealthKit Export Version: 14 -->
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout)*)>
        <!ATTLIST HealthData locale CDATA #REQUIRED>
        <!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
        <!ATTLIST Record type CDATA #REQUIRED unit CDATA #IMPLIED value CDATA #IMPLIED sourceName CDATA #REQUIRED>
        ]>
        <HealthData locale="de_DE">
         <ExportDate value="2026-11-25 20:00:00 +0100"/>
         <Me HKCharacteristicTypeIdentifierDateOfBirth="1962-01-01" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>

        """
    static let footer = "</HealthData>\n"

    static func record(_ type: String, _ start: String, _ end: String? = nil, value: String, unit: String? = nil,
                       source: String = "Anna’s iPhone", children: String? = nil) -> String {
        var s = " <Record type=\"\(type)\" sourceName=\"\(source)\" sourceVersion=\"17.1\""
        if let unit { s += " unit=\"\(unit)\"" }
        s += " creationDate=\"\(start)\" startDate=\"\(start)\" endDate=\"\(end ?? start)\" value=\"\(value)\""
        if let children { return s + ">\n" + children + "\n </Record>\n" }
        return s + "/>\n"
    }

    static func document(_ records: [String]) -> String { header + records.joined() + footer }
}
