import Foundation
import Testing
import HTJSON

/// The `alert_log` instrument end to end: the real daemon queues a row with every alert change
/// and drains it over TLS to `scripts/redcap-emulator`; reconcile and sync check against
/// projects that differ from ours. Expected values come from the server's API (`/v1/alerts`),
/// converted independently (Foundation) to Berlin time and minutes.
@Suite struct AlertLogSyncTests {
    // MARK: helpers

    static func instant(_ v: JSONValue?) -> Date? {
        guard case .string(let iso)? = v else { return nil }
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.date(from: iso)
    }

    /// `YYYY-MM-DD HH:MM:SS` in Berlin (datetime_seconds_ymd, local study time).
    static func berlinSeconds(_ v: JSONValue?) -> String {
        guard let date = instant(v) else { return "?" }
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = Study.zone
        f.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return f.string(from: date)
    }

    static func minutes(_ from: JSONValue?, _ to: JSONValue?) -> String {
        guard let a = instant(from), let b = instant(to) else { return "?" }
        let ms = (b.timeIntervalSince1970 * 1000).rounded() - (a.timeIntervalSince1970 * 1000).rounded()
        return String(format: "%.1f", ms / 60_000)
    }

    static func string(_ v: JSONValue?) -> String? { if case .string(let s)? = v { s } else { nil } }
    static func id(_ alert: JSONObject) -> Int { Int(SyncRig.number(alert["id"]) ?? -1) }
    static func codes(_ alert: JSONObject) -> String {
        guard case .array(let reasons)? = alert["reasons"] else { return "?" }
        return reasons.compactMap { if case .object(let r) = $0 { string(r["code"]) } else { nil } }.joined(separator: ",")
    }

    /// What REDCap must hold for an alert as the API shows it (blank values are not stored).
    static func expectedRow(_ a: JSONObject, firstAcknowledgedBy role: String? = nil) -> [String: String] {
        var row: [String: String] = [
            "alert_id": String(id(a)), "alert_kind": string(a["kind"]) ?? "?", "alert_log_level": string(a["level"]) ?? "?",
            "alert_date": string(a["date"]) ?? "?", "alert_last_date": string(a["lastDate"]) ?? "?",
            "alert_pod": String(Int(SyncRig.number(a["pod"]) ?? -1)),
            "alert_log_reasons": codes(a), "alert_opened_at": berlinSeconds(a["openedAt"]),
            "alert_log_complete": a["resolvedAt"] == .null ? "1" : "2", "alert_contact_attempts": "0",
        ]
        if let note = string(a["acknowledgeNote"]) { row["alert_ack_note"] = note }
        if let note = string(a["resolveNote"]) { row["alert_resolution_note"] = note }
        if a["acknowledgedAt"] != .null {
            row["alert_ack_at"] = berlinSeconds(a["acknowledgedAt"])
            row["alert_ack_role"] = role ?? "?"
            row["alert_min_to_ack"] = minutes(a["openedAt"], a["acknowledgedAt"])
        }
        if a["resolvedAt"] != .null {
            row["alert_resolved_at"] = berlinSeconds(a["resolvedAt"])
            row["alert_min_to_resolve"] = minutes(a["openedAt"], a["resolvedAt"])
            if case .number(let na)? = a["resolveSodium"] { row["alert_resolution_na"] = String(format: "%.1f", na) }
        }
        return row
    }

    /// A red day (an emergency symptom) `daysAgo` days before today.
    static func redDay(_ rig: SyncRig, _ token: String, daysAgo: Int) throws {
        try REDCapSyncTests.putDay(rig, token, Study.date(-daysAgo), ["weightMorningKg": 80.4, "emergencySymptoms": ["seizure"]])
    }

    @discardableResult
    static func act(_ rig: SyncRig, _ token: String, _ alert: Int, _ step: String, _ body: JSONValue) throws -> JSONObject {
        let r = try rig.daemon.request(.post, "/v1/alerts/\(alert)/\(step)", token: token, body: body)
        guard r.status == 200, case .object(let o) = r.json else { throw TestFailure("\(step) of alert \(alert): \(r.status) \(r.text)") }
        return o
    }

    /// Every patient's alert_log instances in REDCap are exactly 1…n for their n alerts on the
    /// server, in creation order, with the server's values.
    static func expectAlertLogsMatch(_ rig: SyncRig, _ ids: [String], roles: [Int: String] = [:]) throws {
        let records = try rig.emulator.records()
        for id in ids {
            let alerts = try rig.alerts(id)
            let log = records[id]?.alertLog ?? [:]
            #expect(log.keys.sorted() == Array(1..<(alerts.count + 1)), "\(id): \(log.keys.sorted())")
            for (n, a) in alerts.enumerated() {
                #expect(log[n + 1] == expectedRow(a, firstAcknowledgedBy: roles[Self.id(a)]), "\(id) instance \(n + 1)")
            }
        }
    }

    // MARK: exact values

    @Test func aRedAlertsRowsArriveWithExactValuesAfterOpenAcknowledgeAndResolve() throws {
        let rig = try SyncRig()
        let nurse = try Study.staff(rig.daemon, "nina", role: "nurse")
        let id = "ALOG-EXACT-1"
        let token = try Study.enrollAndActivate(rig.daemon, id)
        let day = Study.date(-1)                                     // POD 5
        try Self.redDay(rig, token, daysAgo: 1)
        try rig.waitUntilDrained()
        let alerts = try rig.alerts(id)
        let index = try #require(alerts.firstIndex { $0["kind"] == "evaluation" && $0["date"] == .string(day) })
        let instance = index + 1
        let aid = Self.id(alerts[index])
        #expect(alerts[index]["level"] == "red" && Self.codes(alerts[index]).contains("emergency_symptom"))
        var row = try #require(try rig.emulator.records()[id]?.alertLog[instance])
        #expect(row == Self.expectedRow(alerts[index]))
        #expect(row["alert_pod"] == "5" && row["alert_date"] == day && row["alert_ack_at"] == nil && row["alert_log_complete"] == "1",
                "opened: acknowledgement and resolution still blank")

        // The nurse acknowledges: the same instance fills in, with the nurse's role.
        let acknowledged = try Self.act(rig, nurse, aid, "acknowledgement", ["note": "phoned the patient"])
        try rig.waitUntilDrained()
        row = try #require(try rig.emulator.records()[id]?.alertLog[instance])
        #expect(row == Self.expectedRow(acknowledged, firstAcknowledgedBy: "nurse"))
        #expect(row["alert_ack_role"] == "nurse" && row["alert_resolved_at"] == nil)

        // The admin resolves with a sodium: complete.
        let resolved = try Self.act(rig, rig.admin, aid, "resolution", ["note": "sodium normal", "sodium": 131.5])
        try rig.waitUntilDrained()
        row = try #require(try rig.emulator.records()[id]?.alertLog[instance])
        #expect(row == Self.expectedRow(resolved, firstAcknowledgedBy: "nurse"))
        #expect(row["alert_resolution_na"] == "131.5" && row["alert_log_complete"] == "2")
        #expect(row["alert_min_to_resolve"] == Self.minutes(resolved["openedAt"], resolved["resolvedAt"]))

        // The sodium is also a lab value of today (POD 6): today's daily row carries it.
        let record = try #require(try rig.emulator.records()[id])
        #expect(record.alertLog.count == alerts.count && record.instances.keys.sorted() == [5, 6], "alerts and days kept apart")
        #expect(record.instances[6]?["lab_sodium_min"] == "131.5", "\(String(describing: record.instances[6]))")
        #expect(try rig.emulator.counter("newInstances") == 0)
        let reconcile = try rig.reconcile()
        #expect(reconcile["inSync"] == true, "\(JSONSerializer.string(.object(reconcile)))")
        // The resolve's 131.5 mmol/L is also a hyponatremia episode: its outcome_log row.
        #expect(record.repeating["outcome_log"]?.keys.sorted() == [1])
        #expect(reconcile["localRows"] == .int(4 + alerts.count) && reconcile["remoteRows"] == .int(4 + alerts.count))
    }

    @Test func contactsAboutAnAlertArriveInItsRowWithTheAttemptsTheFirstReachAndBothNotes() throws {
        let rig = try SyncRig()
        let nurse = try Study.staff(rig.daemon, "nina", role: "nurse")
        let id = "ALOG-CONTACT-1"
        let token = try Study.enrollAndActivate(rig.daemon, id)
        try Self.redDay(rig, token, daysAgo: 1)
        try rig.waitUntilDrained()
        let alerts = try rig.alerts(id)
        let index = try #require(alerts.firstIndex { $0["kind"] == "evaluation" })
        let aid = Self.id(alerts[index])
        func contact(_ body: JSONValue) throws -> JSONObject {
            let r = try rig.daemon.request(.post, "/v1/patients/\(id)/contacts", token: nurse, body: body)
            guard r.status == 201, case .object(let o) = r.json else { throw TestFailure("contact: \(r.status) \(r.text)") }
            return o
        }
        func row() throws -> [String: String] {
            try rig.waitUntilDrained()
            return try #require(try rig.emulator.records()[id]?.alertLog[index + 1])
        }

        // No answer: the open alert is acknowledged with the contact's note, one attempt, not reached yet.
        _ = try contact(["outcome": "no_answer", "note": "rang twice", "alertId": .int(aid)])
        var expected = Self.expectedRow(try #require(try rig.alerts(id).first { Self.id($0) == aid }), firstAcknowledgedBy: "nurse")
        expected["alert_contact_attempts"] = "1"
        #expect(try row() == expected)
        #expect(expected["alert_ack_note"] == "rang twice")

        // The patient calls back: two attempts, reached at that contact's time.
        let called = try contact(["outcome": "patient_called", "alertId": .int(aid)])
        expected["alert_contact_attempts"] = "2"
        expected["alert_reached_at"] = Self.berlinSeconds(called["at"])
        #expect(try row() == expected)

        // A contact about no alert changes nothing in the row; the resolution adds its note.
        _ = try contact(["outcome": "other"])
        let resolved = try Self.act(rig, nurse, aid, "resolution", ["note": "sodium 136, fine"])
        expected = Self.expectedRow(resolved, firstAcknowledgedBy: "nurse")
        expected["alert_contact_attempts"] = "2"
        expected["alert_reached_at"] = Self.berlinSeconds(called["at"])
        #expect(try row() == expected)
        #expect(expected["alert_resolution_note"] == "sodium 136, fine" && expected["alert_ack_note"] == "rang twice")
        #expect(try rig.reconcile()["inSync"] == true)
    }

    // MARK: restarts and crashes

    @Test func restartsAndKillNineLoseAndDuplicateNoAlertLogRow() throws {
        var options = SyncConfig.Options()
        options.batchSize = 2
        let rig = try SyncRig(options)
        let emu = rig.emulator
        try emu.control(["mode": "drop"])
        let ids = (1...4).map { "ALOG-CRASH-\($0)" }
        var tokens: [String: String] = [:]
        for id in ids {
            tokens[id] = try Study.enrollAndActivate(rig.daemon, id)
            try Self.redDay(rig, tokens[id]!, daysAgo: 3)                // alert 1: POD 3
            // Resolved, so the next red day opens alert 2 (an unresolved one would take it in).
            let first = try #require(try rig.alerts(id).map(Self.id).first)
            try Self.act(rig, rig.admin, first, "resolution", ["note": "called back, settled"])
            try Self.redDay(rig, tokens[id]!, daysAgo: 2)                // alert 2: POD 4
        }
        let numbering = try ids.map { id in try rig.alerts(id).map(Self.id) }
        #expect(numbering.allSatisfy { $0.count >= 2 }, "\(numbering)")
        try rig.waitUntil("a dropped connection was seen") { (REDCapSyncTests.int(try rig.status()["consecutiveFailures"]) ?? 0) >= 1 }
        let pending = REDCapSyncTests.int(try rig.status()["pending"]) ?? 0
        rig.daemon.stop()
        try rig.daemon.start()
        #expect(REDCapSyncTests.int(try rig.status()["pending"]) == pending, "the queue survived the restart")

        // Each patient's second alert (the first is resolved) is acknowledged while REDCap is slow; a kill -9
        // interrupts the drain.
        var roles: [Int: String] = [:]
        for n in numbering { try Self.act(rig, rig.admin, n[1], "acknowledgement", ["note": "seen"]); roles[n[1]] = "admin" }
        try emu.control(["mode": "slow", "slowSeconds": 0.4])
        try rig.post("/v1/sync/retry")
        try rig.waitUntil("part of the queue is sent") {
            try emu.counter("rowsImported") >= 2 && (REDCapSyncTests.int(try rig.status()["pending"]) ?? 0) >= 4
        }
        rig.daemon.kill9()
        try rig.daemon.start()
        try Self.act(rig, rig.admin, numbering[0][1], "resolution", ["note": "resolved after the crash", "sodium": 134.0])
        try emu.control(["mode": "normal"])
        try rig.waitUntilDrained(timeout: 60)

        #expect(try ids.map { id in try rig.alerts(id).map(Self.id) } == numbering, "no alert appeared or vanished")
        try Self.expectAlertLogsMatch(rig, ids, roles: roles)
        #expect(try emu.records()[ids[0]]?.alertLog[2]?["alert_resolution_na"] == "134.0")
        #expect(try emu.counter("newInstances") == 0 && emu.counter("autoNumbered") == 0)

        // export-all re-sends every alert_log row: the same instances, nothing written twice.
        let writes = try emu.counter("fieldWrites")
        let queued = try rig.post("/v1/sync/export-all")
        #expect(queued.status == 200)
        try rig.waitUntilDrained(timeout: 60)
        #expect(try emu.counter("fieldWrites") == writes)
        try Self.expectAlertLogsMatch(rig, ids, roles: roles)
        let reconcile = try rig.reconcile()
        #expect(reconcile["inSync"] == true && reconcile["onlyInREDCap"] == 0, "\(JSONSerializer.string(.object(reconcile)))")
    }

    // MARK: reconcile beside another repeating instrument

    @Test func reconcileIgnoresAnotherRepeatingInstrumentOfTheProject() throws {
        // The study's own CRF: a repeating adverse-event form with instances 1, 2 and 5 of our record.
        let dictionary = try REDCapEmulator.modifiedDictionary(appending: [
            "ae_term,adverse_events,Adverse events,text,Adverse event,,,,,,,,,,,,,",
            "ae_onset,adverse_events,,text,Onset,,,date_ymd,,,,,,,,,,",
        ])
        let rig = try SyncRig(emulator: try REDCapEmulator(dictionary: dictionary))
        let id = "ALOG-RECON-1"
        let token = try Study.enrollAndActivate(rig.daemon, id)
        try REDCapSyncTests.putDay(rig, token, Study.date(-5), ["weightMorningKg": 80.1])      // daily instance 1
        try Self.redDay(rig, token, daysAgo: 1)                                               // daily instance 5, alert 1
        try rig.waitUntilDrained()
        try rig.emulator.importRows(.array([1, 2, 5].map { n in
            ["record_id": .string(id), "redcap_repeat_instrument": "adverse_events", "redcap_repeat_instance": .string(String(n)),
             "ae_term": .string("headache \(n)"), "ae_onset": .string(Study.date(-n))]
        }))
        let check = try rig.daemon.request(.get, "/v1/sync/check", token: rig.admin)
        #expect(check["ok"] == true, "another instrument is none of the sync's business: \(check.text)")
        let alerts = try rig.alerts(id)
        var reconcile = try rig.reconcile()
        #expect(reconcile["inSync"] == true, "\(JSONSerializer.string(.object(reconcile)))")
        #expect(reconcile["localRows"] == .int(3 + alerts.count) && reconcile["remoteRows"] == .int(3 + alerts.count))
        #expect(reconcile["differingFields"] == 0 && reconcile["onlyInREDCap"] == 0 && reconcile["missingInREDCap"] == 0)

        // A hand edit of our alert_log row is still found, named by its instrument.
        try rig.emulator.importRows([["record_id": .string(id), "redcap_repeat_instrument": "alert_log", "redcap_repeat_instance": "1",
                                      "alert_ack_role": "viewer"]])
        reconcile = try rig.reconcile()
        #expect(reconcile["inSync"] == false && reconcile["differingFields"] == 1 && reconcile["onlyInREDCap"] == 0)
        guard case .array(let differences)? = reconcile["differences"], case .object(let d)? = differences.first else {
            Issue.record("no difference listed: \(reconcile)"); return
        }
        #expect(d["record"] == .string(id) && d["instrument"] == "alert_log" && d["instance"] == 1)
        #expect(d["field"] == "alert_ack_role" && d["local"] == "" && d["remote"] == "viewer" && d["queued"] == false)
        // export-all puts REDCap back in line; the adverse events stay untouched.
        try rig.post("/v1/sync/export-all")
        try rig.waitUntilDrained()
        #expect(try rig.reconcile()["inSync"] == true)
        let record = try #require(try rig.emulator.records()[id])
        #expect(record.repeating["adverse_events"]?.keys.sorted() == [1, 2, 5])
        #expect(record.repeating["adverse_events"]?[5]?["ae_term"] == "headache 5")
    }

    // MARK: sync check

    @Test func syncCheckNamesAnInstrumentNotMarkedRepeatingAndSaysWhenItCannotTell() throws {
        let rig = try SyncRig()
        let emu = rig.emulator
        func check() throws -> TestDaemon.Response {
            let r = try rig.daemon.request(.get, "/v1/sync/check", token: rig.admin)
            guard r.status == 200 else { throw TestFailure("sync check: \(r.status) \(r.text)") }
            return r
        }
        func repeatingCheck(_ r: TestDaemon.Response) -> JSONObject {
            if case .object(let o)? = r["repeatingCheck"] { o } else { JSONObject([]) }
        }
        func problems(_ r: TestDaemon.Response) -> [JSONObject] {
            guard case .array(let a)? = r["problems"] else { return [] }
            return a.compactMap { if case .object(let o) = $0 { o } else { nil } }
        }
        let ok = try check()   // every field of the dictionary (106 before outcome_log's 8)
        #expect(ok["ok"] == true && ok["fieldsChecked"] == 114, "\(ok.text)")
        #expect(repeatingCheck(ok)["scope"] == "instrument" && repeatingCheck(ok)["note"] == .null)

        // alert_log left non-repeating in the project: named, and the CLI fails.
        try emu.control(["repeatingForms": ["daily_monitoring", "outcome_log"]])
        let one = try check()
        #expect(one["ok"] == false)
        #expect(problems(one).map { Self.string($0["field"]) ?? "" } == ["alert_log"], "\(one.text)")
        #expect(problems(one).first?["problem"] == "not marked repeating: mark alert_log repeating")
        let cli = try rig.cli(["check"])
        #expect(cli.status == 1 && cli.stdout.contains("alert_log") && cli.stdout.contains("not marked repeating"), "\(cli.stdout)")

        // Without design rights REDCap will not list the repeating instruments: the project-wide
        // flag is all the check has, and the report says so instead of claiming alert_log is fine.
        try emu.control(["designRight": false])
        let blind = try check()
        #expect(blind["ok"] == true && problems(blind).isEmpty, "\(blind.text)")
        #expect(repeatingCheck(blind)["scope"] == "project")
        let note = Self.string(repeatingCheck(blind)["note"]) ?? ""
        #expect(note.contains("design rights") && note.contains("Project Design and Setup") && note.contains("alert_log"), "\(note)")
        #expect(try rig.status()["halted"] == false, "a refused read never halts the sync")

        try emu.control(["repeating": false])
        let none = try check()
        #expect(problems(none).map { Self.string($0["problem"]) ?? "" } == [
            "the project has no repeating instruments: mark daily_monitoring repeating",
            "the project has no repeating instruments: mark alert_log repeating",
            "the project has no repeating instruments: mark outcome_log repeating",
        ], "\(none.text)")
        #expect(repeatingCheck(none)["scope"] == "project")
    }
}
