import SQLite

/// The database's migrations, in order. Each runs in one immediate transaction (Migrator);
/// never edit a shipped migration — add a new one.
enum Schema {
    static func migrator() -> Migrator {
        var m = Migrator()
        m.register("v1_patients") { try $0.execute(PatientsSchema.v1) }
        m.register("v1_days") { try $0.execute(DaysSchema.v1) }
        m.register("v1_security") { try $0.execute(SecuritySchema.v1) }
        m.register("v1_audit") { try $0.execute(AuditSchema.v1) }
        m.register("v2_sync") { try $0.execute(SyncSchema.v1) }
        m.register("v3_alerts") { try $0.execute(v3Alerts) }
        return m
    }

    /// `v3_alerts` as shipped, byte for byte: its tables now live with their owners (alerts,
    /// hooks, scheduler), joined back in the original order.
    static let v3Alerts = [AlertsSchema.v1, HooksSchema.v1, SchedulerSchema.v1].joined(separator: "\n\n")
}
