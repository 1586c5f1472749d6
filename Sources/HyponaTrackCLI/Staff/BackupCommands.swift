import HTJSON

/// `hyponatrack backup [list|verify FILE]` (admin).
enum BackupCommands {
    static let group = CommandGroup(name: "backup", about: """
        Backups (admin). Without a subcommand: asks the daemon for a consistent online copy of
        its database now (SQLite's backup API, while it keeps serving), written to
        backup.directory (else DATA_DIR/backups/) under a hidden name, checked (integrity, the
        audit chain, the schema version), then named; prints its path. With backup configured
        the daemon also makes them on a schedule and prunes them. list: every backup, newest
        first. verify FILE: checks a backup of the directory again (exit 1 when it is not good).
        Restore: docs/operations.md §6, or rehearse it with scripts/restore-drill.
        `hyponatrack backup SUBCOMMAND --help` describes one subcommand.
        """, subcommands: [list, verify], bare: create)

    static let create = StaffCommand(name: "backup", usage: ["backup [--json]"], about: """
        Admin: a consistent online copy of the database, checked (integrity, audit chain, schema
        version) before its path is printed. Restore: docs/operations.md §6.
        """, spec: .init()) { _, client in
        let r = try client.post("/v1/backup")
        return Reply(json: r) { io in
            io.out(Show.text(r, "path"))
            io.error("backup: \(Show.text(r, "bytes")) bytes, integrity \(Show.text(r, "integrity")), audit chain \(Show.field(r, "auditIntact") == .bool(true) ? "intact" : "BROKEN") (\(Show.text(r, "auditRows")) rows), schema \(Show.text(r, "schemaVersion"))")
            if case .array(let pruned)? = Show.field(r, "pruned"), !pruned.isEmpty {
                io.error("backup: retention deleted \(pruned.count) older backup\(pruned.count == 1 ? "" : "s")")
            }
        }
    }

    static let list = StaffCommand(name: "backup list", usage: ["backup list [--json]"], about: """
        Admin: the backups in the backup directory, newest first: when, size, and whether it was
        checked when written (a manifest with its SHA-256; backups of earlier releases have none).
        """, spec: .init()) { _, client in
        let r = try client.get("/v1/backups")
        return Reply(json: r) { io in
            io.out("Backups in \(Show.text(r, "directory"))" + (Show.field(r, "configured") == .bool(true) ? " (scheduled)" : " (on demand only)"))
            guard case .array(let items)? = Show.field(r, "backups"), !items.isEmpty else { io.out("none"); return }
            io.out(Show.table(["CREATED", "BYTES", "CHECKED", "SCHEMA", "NAME"], items.map { b in
                ["createdAt", "bytes", "checked", "schemaVersion", "name"].map { Show.text(b, $0) }
            }))
        }
    }

    static let verify = StaffCommand(name: "backup verify", usage: ["backup verify FILE [--json]"], about: """
        Admin: checks FILE, a backup in the backup directory (its name or path), again: its
        SHA-256 against the manifest written with it, SQLite's integrity check, the audit chain
        under the server's key, the schema version. Prints every problem; exit 1 when it is not good.
        """, operands: ["FILE"], spec: .init()) { a, client in
        let r = try client.post("/v1/backups/verification", ["file": .string(a.positionals[0])])
        let ok = Show.field(r, "ok") == .bool(true)
        return Reply(json: r, status: ok ? ExitCode.success : ExitCode.failure) { io in
            if ok {
                io.out("Backup \(Show.text(r, "file")) is good: integrity ok, audit chain intact (\(Show.text(r, "auditRows")) rows), schema \(Show.text(r, "schemaVersion")), SHA-256 \(Show.field(r, "checksumMatches") == .null ? "not recorded" : "matches").")
                return
            }
            io.error("Backup \(Show.text(r, "file")) is NOT good:")
            if case .array(let problems)? = Show.field(r, "problems") { for p in problems { io.error("  - \(Show.string(p))") } }
        }
    }
}
