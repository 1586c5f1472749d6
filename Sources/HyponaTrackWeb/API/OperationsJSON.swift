import HyponaTrackDomain

/// The answers of the operations routes (backups listed and verified, hook events), declared
/// once for the encoder and `/openapi.json`.
enum OperationsJSON {
    /// `GET /v1/backups`.
    struct Listing {
        let directory: String
        let configured: Bool
        let backups: [BackupFile]
    }

    static let listing = ResponseShape<Listing>("BackupList", [
        .member("directory", .string) { $0.directory },
        .member("configured", .bool) { $0.configured },
        .member("backups", .array(.object(backup))) { $0.backups },
    ])

    static let backup = ResponseShape<BackupFile>(nil, [
        .member("name", .string) { $0.name },
        .member("path", .string) { $0.path },
        .member("createdAt", .instant) { $0.createdAt },
        .member("bytes", .integer) { $0.bytes },
        .member("checked", .bool) { $0.manifest != nil },
        .member("sha256", .nullable(.string)) { $0.manifest?.sha256 },
        .member("schemaVersion", .nullable(.string)) { $0.manifest?.schemaVersion },
        .member("auditRows", .nullable(.integer)) { $0.manifest?.auditRows },
    ])

    /// `POST /v1/backups/verification`.
    static let verification = ResponseShape<BackupVerification>("BackupVerification", [
        .member("file", .string) { $0.file },
        .member("ok", .bool) { $0.isGood },
        .member("bytes", .integer) { $0.bytes },
        .member("sha256", .string) { $0.sha256 },
        .member("checksumMatches", .nullable(.bool)) { $0.checksumMatches },
        .member("integrity", .string) { $0.integrity },
        .member("auditIntact", .bool) { $0.auditIntact },
        .member("auditRows", .integer) { $0.auditRows },
        .member("auditHead", .nullable(.string)) { $0.auditHead },
        .member("schemaVersion", .nullable(.string)) { $0.schemaVersion },
        .member("schemaRestorable", .bool) { $0.schemaRestorable },
        .member("problems", .array(.string)) { $0.problems },
    ])

    /// `GET /v1/hooks/events`.
    static let event = ResponseShape<HookEventRow>("HookEvent", [
        .member("eventId", .string) { $0.eventId },
        .member("hook", .string) { $0.hook },
        .member("type", .string) { $0.type },
        .member("state", .oneOf(HookEventState.allCases)) { $0.state },
        .member("attempts", .integer) { $0.attempts },
        .member("createdAt", .instant) { $0.createdAt },
        .member("nextAttemptAt", .nullable(.instant)) { $0.nextAttemptAt },
        .member("deliveredAt", .nullable(.instant)) { $0.deliveredAt },
        .member("lastError", .nullable(.string)) { $0.lastError },
    ])

    /// `POST /v1/hooks/events/{eventId}/retry`.
    struct Retried {
        let eventId: String
        let hooks: [String]
    }

    static let retried = ResponseShape<Retried>(nil, [
        .member("eventId", .string) { $0.eventId },
        .member("hooks", .array(.string)) { $0.hooks },
    ])

    /// `POST /v1/hooks/{name}/enable`.
    static let enabled = ResponseShape<String>(nil, [
        .member("name", .string) { $0 },
        .member("enabled", .bool) { _ in true },
    ])
}
