import HTJSON

extension ServerConfiguration {
    /// `imports`: FHIR and Apple Health uploads (docs/operations.md, `imports`).
    public struct Imports: Sendable {
        /// The largest upload an import route accepts; bodies are spooled to `DATA_DIR/spool/`.
        public var maxUploadBytes = 1 << 30
        /// The `subject.identifier.system` whose value is a study ID.
        public var fhirPatientIdentifierSystem = "urn:hyponatrack:study-id"

        public init() {}
    }

    /// Where import uploads wait while they are read (removed afterwards).
    public var spoolDirectory: URL { dataDirectory.appendingPathComponent("spool") }

    static func parseImports(_ r: ObjectReader, into config: inout ServerConfiguration) throws(FieldError) {
        guard let block = try r.optional("imports", .any) else { return }
        let ir = try ObjectReader(block, path: "imports")
        config.imports.maxUploadBytes = try ir.optional("maxUploadBytes", .integer(1024...(64 << 30))) ?? config.imports.maxUploadBytes
        config.imports.fhirPatientIdentifierSystem = try ir.optional("fhirPatientIdentifierSystem", .string(length: 1...500))
            ?? config.imports.fhirPatientIdentifierSystem
        try ir.finish()
    }
}

import Foundation
