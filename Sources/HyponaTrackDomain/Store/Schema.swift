import SQLite

/// The database's migrations, in order. Each runs in one immediate transaction (Migrator);
/// never edit a shipped migration — add a new one.
enum Schema {
    static let migrations: [(name: String, run: @Sendable (Connection) throws -> Void)] = [
        ("v1_patients", { try $0.execute(PatientsSchema.v1) }),
        ("v1_days", { try $0.execute(DaysSchema.v1) }),
        ("v1_security", { try $0.execute(SecuritySchema.v1) }),
        ("v1_audit", { try $0.execute(AuditSchema.v1) }),
        ("v2_sync", { try $0.execute(SyncSchema.v1) }),
        ("v3_alerts", { try $0.execute(v3Alerts) }),
        // The REDCap alert_log instrument: alert instances, first acknowledgements, the outbox
        // keyed by instrument, and the list of older alerts still to queue.
        ("v4_alert_log", { db in
            try db.execute(AlertsSchema.v2)
            try db.execute(SyncSchema.v2)
        }),
        // The keyed audit chain: the key's fingerprint, and an older unkeyed chain verified and
        // re-hashed under the key attached to the connection (AuditKeyMigration).
        ("v5_audit_hmac", { try AuditKeyMigration.migrate($0) }),
        ("v5_scheduler_daily_marks", { try $0.execute(SchedulerSchema.v2) }),
        // Patient revisions for submissions worked out off the writer (PatientsSchema.v2).
        ("v6_patient_revision", { try $0.execute(PatientsSchema.v2) }),
        // Outbox rows whose last request has an unknown outcome are confirmed once more (SyncSchema.v3).
        ("v7_sync_in_flight", { try $0.execute(SyncSchema.v3) }),
        // Staff passwords and the browser console's sessions (SessionSchema).
        ("v8_console_sessions", { try $0.execute(SessionSchema.v1) }),
        // Imported values a nurse confirms or rejects (ProposalsSchema.v1).
        ("v9_import_proposals", { try $0.execute(ProposalsSchema.v1) }),
        // The patient revision in a table of its own (PatientsSchema.v3).
        ("v10_patient_revisions", { try $0.execute(PatientsSchema.v3) }),
        // The REDCap requests of the last minute, for the rate cap across restarts (SyncSchema.v4).
        ("v11_sync_requests", { try $0.execute(SyncSchema.v4) }),
        // Whether sync.unhealthy was raised, stored with the event (SyncSchema.v5).
        ("v12_sync_unhealthy_reported", { try $0.execute(SyncSchema.v5) }),
        // The Observation version a lab proposal was made from (ProposalsSchema.v2).
        ("v13_import_proposal_versions", { try $0.execute(ProposalsSchema.v2) }),
        // When the patient last wrote each day themself, for the board (DaysSchema.v2).
        ("v14_days_submitted_at", { try $0.execute(DaysSchema.v2) }),
        // Evaluations of days that are not evaluated, with no level (DaysSchema.v3).
        ("v15_evaluations_without_level", { try $0.execute(DaysSchema.v3) }),
        // The contact log and each alert's first acknowledgement note (ContactsSchema.v1).
        ("v16_contacts", { try $0.execute(ContactsSchema.v1) }),
        // Alerts as episodes: the days an alert covers, one unresolved alert per patient and
        // kind, older duplicates merged into the newest (AlertEpisodesSchema).
        ("v17_alert_episodes", { try AlertEpisodesSchema.migrate($0) }),
        // The patients' push devices (PushSchema.v1).
        ("v18_push", { try $0.execute(PushSchema.v1) }),
        // Sites: every existing patient in the site `main`, existing staff all-sites (SitesSchema).
        ("v19_sites", { try $0.execute(SitesSchema.v1) }),
        // Outcomes, the evaluations under shadow rules, the shadow set by the CLI (OutcomesSchema).
        ("v20_outcomes", { try $0.execute(OutcomesSchema.v1) }),
        // Second factors: each member's sealed TOTP secret and hashed recovery codes (SecondFactorSchema).
        ("v21_mfa", { try $0.execute(SecondFactorSchema.v1) }),
        // Single sign-on: members bound to the provider's subject; sessions that came through it (SingleSignOnSchema).
        ("v22_oidc", { try $0.execute(SingleSignOnSchema.v1) }),
    ]

    /// Every migration, or those up to and including `last` (a database as an older release
    /// left it, for upgrade tests).
    static func migrator(through last: String? = nil) -> Migrator {
        var m = Migrator()
        for migration in migrations {
            m.register(migration.name, migration.run)
            if migration.name == last { break }
        }
        return m
    }

    /// `v3_alerts` as shipped, byte for byte: its tables now live with their owners (alerts,
    /// hooks, scheduler), joined back in the original order.
    static let v3Alerts = [AlertsSchema.v1, HooksSchema.v1, SchedulerSchema.v1].joined(separator: "\n\n")
}
