import Foundation

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
}
