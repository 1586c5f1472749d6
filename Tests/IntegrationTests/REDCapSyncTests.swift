import Foundation
import Testing
import HTJSON

/// The REDCap sync end to end: the real daemon drains its outbox over TLS to
/// `scripts/redcap-emulator`, which validates and stores the rows as REDCap would. Each test has
/// its own daemon and emulator.
@Suite struct REDCapSyncTests {
    // MARK: helpers

    /// `YYYY-MM-DD HH:MM` in Berlin for an ISO 8601 instant (what REDCap must hold: local study time).
    static func berlin(_ iso: String) -> String {
        let parser = ISO8601DateFormatter()
        parser.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let date = parser.date(from: iso) ?? ISO8601DateFormatter().date(from: iso)!
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = Study.zone
        f.dateFormat = "yyyy-MM-dd HH:mm"
        return f.string(from: date)
    }

    static func symptom(_ id: String, _ time: String, _ slot: String, _ items: [Int], vas: Int) -> JSONValue {
        ["id": .string(id), "time": .string(time), "slot": .string(slot), "nausea": .int(items[0]), "headache": .int(items[1]),
         "fatigue": .int(items[2]), "confusion": .int(items[3]), "muscleCramps": .int(items[4]), "vas": .int(vas)]
    }

    static func string(_ v: JSONValue?) -> String? { if case .string(let s)? = v { s } else { nil } }
    static func int(_ v: JSONValue?) -> Int? { if case .number(let n)? = v { Int(n) } else { nil } }

    /// Enrolls without activating (a baseline row is queued).
    static func enroll(_ rig: SyncRig, _ id: String, _ extra: [(String, JSONValue)] = []) throws {
        let r = try rig.daemon.request(.post, "/v1/patients", token: rig.admin, body: Study.profile(id, extra))
        guard r.status == 201 else { throw TestFailure("enroll \(id): \(r.status) \(r.text)") }
    }

    static func putDay(_ rig: SyncRig, _ token: String, _ date: String, _ body: JSONValue) throws {
        let r = try rig.daemon.request(.put, "/v1/me/days/\(date)", token: token, body: body)
        guard r.status == 200 else { throw TestFailure("PUT day \(date): \(r.status) \(r.text)") }
    }

    /// Checks that `invariant` holds throughout `seconds` (for "nothing happens while halted").
    static func holds(for seconds: Double, _ what: String, _ invariant: () throws -> Bool) throws {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            guard try invariant() else { throw TestFailure("\(what) stopped holding") }
            usleep(100_000)
        }
    }

    // MARK: 1. exact values

    @Test func recordsArriveWithExactValues() throws {
        let rig = try SyncRig()
        let id = "SYNC-Exact-1"
        let token = try Study.enrollAndActivate(rig.daemon, id, [
            ("histology", "cushing"), ("riskMedications", ["thiazide", "opioid"]),
            ("katB", ["podSodium": 134.5, "operationMinutes": 95, "csfLeak": true]),
            ("katC", ["postopNausea": "antiemetic", "newCortisolDeficiency": true]), ("loanDevice", true)])
        let day = Study.date(-1)                 // POD 5
        let lateEvening = "\(day)T14:00:00-05:00"   // written on a device in New York
        try Self.putDay(rig, token, day, [
            "weightMorningKg": 80.4, "weightEveningKg": 80.9, "fluidIntakeMl": 1400, "urineSG": 1.015, "vomitingEpisodes": 1,
            "emergencySymptoms": ["drowsiness"],
            "symptoms": [Self.symptom("m1", Study.time(day, "07:00"), "morning", [1, 1, 1, 0, 0], vas: 8),
                         Self.symptom("m2", Study.time(day, "09:30"), "morning", [2, 1, 0, 0, 1], vas: 6),
                         Self.symptom("e1", lateEvening, "evening", [0, 2, 1, 0, 0], vas: 7),
                         Self.symptom("e0", Study.time(day, "18:00"), "evening", [3, 3, 3, 3, 3], vas: 0)],
            "reactionTests": [["id": "r1", "time": .string(Study.time(day, "08:15")), "medianMs": 640, "meanMs": 652.4, "errors": 1],
                              ["id": "r2", "time": .string(Study.time(day, "12:40")), "medianMs": 700, "meanMs": 715, "errors": 2]],
            "tappingTests": [["id": "t1", "time": .string(Study.time(day, "21:00")), "taps": 55, "durationSeconds": 10.5],
                             ["id": "t0", "time": .string(Study.time(day, "09:00")), "taps": 48, "durationSeconds": 10]],
            "desmopressinDoses": [["id": "d1", "time": .string(Study.time(day, "08:00")), "doseMcg": 0.1],
                                  ["id": "d2", "time": .string(Study.time(day, "20:00")), "doseMcg": 0.2]],
            "steps": 4200, "hrvSdnnMs": 42.5, "sleepMinutes": 420, "restingHeartRate": 66])
        for (sodium, clock) in [(133.4, "10:00"), (136.0, "16:00")] {
            let lab = try rig.post("/v1/patients/\(id)/labs", ["sodium": .number(sodium), "time": .string(Study.time(day, clock))])
            #expect(lab.status == 201, "\(lab.text)")
        }
        try rig.waitUntilDrained()

        // What the server holds, to compare with.
        let shown = try rig.daemon.request(.get, "/v1/patients/\(id)", token: rig.admin)
        guard case .object(let p) = shown.json, case .array(let timeline)? = p["timeline"],
              case .object(let dayView)? = timeline.first(where: { if case .object(let o) = $0 { o["date"] == .string(day) } else { false } }),
              case .object(let evaluation)? = dayView["evaluation"] else {
            Issue.record("unexpected patient view: \(shown.text)"); return
        }
        let records = try rig.emulator.records()
        #expect(Array(records.keys) == [id])
        let record = try #require(records[id])
        let b = record.baseline
        let expectedBaseline: [String: String] = [
            "surgery_date": Study.date(-6), "time_zone": "Europe/Berlin", "age": "50", "sex": "male", "bmi": "27.0",
            "baseline_weight_kg": "80.0", "histology": "cushing", "stalk_deviation": "0",
            "risk_med___thiazide": "1", "risk_med___opioid": "1", "risk_med___carbamazepine": "0",
            "risk_med___spironolactone": "0", "pod_sodium": "134.5", "operation_minutes": "95", "csf_leak": "1",
            "kat_b_pending": "0", "postop_nausea": "antiemetic", "diabetes_insipidus": "0", "desmopressin_postop": "0",
            "new_cortisol_deficiency": "1", "fluid_limit_ml": "1500", "di_active": "0", "baseline_rt_ms": "600",
            "simplified_mode": "0", "desmopressin_prescribed": "0", "loan_device": "1", "web_only": "0", "baseline_is_preop": "0",
            "kat_a_points": "5", "kat_b_points": String(Self.int(p["katB"]) ?? -1), "kat_c_points": String(Self.int(p["katC"]) ?? -1),
            "risk_score": String(Self.int(p["riskScore"]) ?? -1), "risk_class": Self.string(p["riskClass"]) ?? "?",
            "enrolled_at": Self.berlin(Self.string(p["enrolledAt"]) ?? ""), "activated_at": Self.berlin(Self.string(p["activatedAt"]) ?? ""),
            "withdrawn": "0", "baseline_rules_version": Self.string(evaluation["rulesVersion"]) ?? "?", "patient_baseline_complete": "2",
        ]
        for (k, v) in expectedBaseline { #expect(b[k] == v, "baseline \(k): \(b[k] ?? "blank") ≠ \(v)") }
        #expect(b["withdrawal_date"] == nil && b["preop_sodium"] == nil && b["consent_version"] == nil && b["consent_date"] == nil,
                "blank fields stay blank")
        #expect(Self.int(p["katA"]) == 5)

        #expect(Array(record.instances.keys) == [5], "only POD 5 has a row: \(record.instances.keys.sorted())")
        let i = try #require(record.instances[5])
        let reasons: [String] = {
            guard case .array(let a)? = evaluation["reasons"] else { return [] }
            return a.compactMap { if case .object(let o) = $0 { Self.string(o["code"]) } else { Self.string($0) } }
        }()
        let expectedDaily: [String: String] = [
            "dm_date": day, "dm_pod": "5", "weight_morning_kg": "80.4", "weight_evening_kg": "80.9", "fluid_intake_ml": "1400",
            "urine_sg": "1.015", "vomiting_episodes": "1",
            "emergency_symptoms___seizure": "0", "emergency_symptoms___collapse": "0", "emergency_symptoms___drowsiness": "1",
            // The latest morning entry (m2, 09:30): 3·2 + 3·1 + 2·0 + 4·0 + 2·1 + (10 − 6) = 15.
            "sym_m_time": "\(day) 09:30", "sym_m_nausea": "2", "sym_m_headache": "1", "sym_m_fatigue": "0", "sym_m_confusion": "0",
            "sym_m_cramps": "1", "sym_m_vas": "6", "sym_m_score": "15",
            // The latest evening entry is e1, written at 14:00 −05:00: later than e0 (18:00 Berlin), in Berlin time.
            "sym_e_time": Self.berlin(lateEvening), "sym_e_nausea": "0", "sym_e_headache": "2", "sym_e_fatigue": "1",
            "sym_e_confusion": "0", "sym_e_cramps": "0", "sym_e_vas": "7", "sym_e_score": "11",
            // The session with the largest slowing (700 ms against 600: 16.7 %) and the count.
            "rt_sessions": "2", "rt_time": "\(day) 12:40", "rt_median_ms": "700", "rt_mean_ms": "715", "rt_errors": "2",
            "rt_slowing_pct": "16.7",
            "tap_time": "\(day) 21:00", "tap_taps": "55", "tap_duration_s": "10.5",
            "desmo_doses": "2", "desmo_total_mcg": "0.3",
            "lab_sodium_min": "133.4", "lab_sodium_count": "2",
            "steps": "4200", "hrv_sdnn_ms": "42.5", "sleep_minutes": "420", "resting_hr": "66",
            "morning_check_complete": "1", "evening_check_complete": "1",
            "alert_level": Self.string(evaluation["level"]) ?? "?", "alert_reasons": reasons.joined(separator: ","),
            "risk_factor": String(format: "%.2f", { if case .number(let f)? = evaluation["factor"] { f } else { -1 } }()),
            "daily_rules_version": Self.string(evaluation["rulesVersion"]) ?? "?",
            "evaluated_at": Self.berlin(Self.string(evaluation["evaluatedAt"]) ?? ""), "daily_monitoring_complete": "1",
        ]
        for (k, v) in expectedDaily { #expect(i[k] == v, "POD 5 \(k): \(i[k] ?? "blank") ≠ \(v)") }
        #expect(i["alert_level"] == "red" && reasons.contains("emergency_symptom"), "drowsiness makes the day red: \(reasons)")
        #expect(Set(i.keys).subtracting(expectedDaily.keys).isEmpty, "unexpected values: \(Set(i.keys).subtracting(expectedDaily.keys))")

        // Every import used overwrite (REDCap mirrors the server), no auto-numbering, no "new" instance.
        let imports = try rig.emulator.requests().filter { $0["content"] == "record" && $0["outcome"] == "imported" }
        #expect(!imports.isEmpty && imports.allSatisfy { $0["overwriteBehavior"] == "overwrite" })
        #expect(try rig.emulator.counter("newInstances") == 0 && rig.emulator.counter("autoNumbered") == 0)
        let reconcile = try rig.reconcile()
        #expect(reconcile["inSync"] == true, "\(JSONSerializer.string(.object(reconcile)))")
        // The baseline, POD 5, an alert_log row per alert (the red day raised one) and the
        // outcome_log row of the 133.4 mmol/L lab value's hyponatremia episode.
        let alerts = try rig.alerts(id).count
        #expect(alerts >= 1 && record.alertLog.count == alerts && record.repeating["outcome_log"]?.count == 1)
        #expect(reconcile["localRows"] == .int(3 + alerts) && reconcile["remoteRows"] == .int(3 + alerts))
        let status = try rig.status()
        #expect(status["deadLetters"] == 0 && status["halted"] == false && Self.int(status["sentRows"]) ?? 0 >= 2)
    }

    // MARK: 2. corrections and cleared values

    @Test func correctionsAndClearedValuesPropagate() throws {
        let rig = try SyncRig()
        let id = "SYNC-CORR-1"
        let token = try Study.enrollAndActivate(rig.daemon, id)
        let day = Study.date(-2)                                  // POD 4
        try Self.putDay(rig, token, day, ["weightMorningKg": 80.4, "fluidIntakeMl": 900, "urineSG": 1.012,
                                          "emergencySymptoms": ["collapse"]])
        let lab = try rig.post("/v1/patients/\(id)/labs", ["sodium": 131.0, "time": .string(Study.time(day, "11:00"))])
        guard case .number(let labId)? = lab["labId"] else { Issue.record("lab: \(lab.text)"); return }
        try rig.waitUntilDrained()
        var i = try #require(try rig.emulator.records()[id]?.instances[4])
        #expect(i["weight_morning_kg"] == "80.4" && i["fluid_intake_ml"] == "900" && i["lab_sodium_min"] == "131.0")

        // The patient corrects the weight and clears the fluid; the nurse deletes the lab value,
        // corrects the profile and finally withdraws the patient.
        try Self.putDay(rig, token, day, ["weightMorningKg": 81.0, "fluidIntakeMl": nil])
        #expect(try rig.post("/v1/patients/\(id)/labs/\(Int(labId))/deletion", ["reason": "haemolysed sample"]).status == 200)
        let patch = try rig.daemon.request(.patch, "/v1/patients/\(id)", token: rig.admin,
                                           body: ["bmi": 24.0, "katB": ["podSodium": 133.0], "fluidLimitMl": nil])
        #expect(patch.status == 200, "\(patch.text)")
        #expect(try rig.post("/v1/patients/\(id)/withdrawal", ["reason": "moved away"]).status == 200)
        try rig.waitUntilDrained()

        let record = try #require(try rig.emulator.records()[id])
        i = try #require(record.instances[4])
        #expect(i["weight_morning_kg"] == "81.0")
        #expect(i["fluid_intake_ml"] == nil, "cleared by the patient, so blank in REDCap: \(i["fluid_intake_ml"] ?? "")")
        #expect(i["urine_sg"] == "1.012", "untouched values stay")
        #expect(i["emergency_symptoms___collapse"] == "1")
        #expect(i["lab_sodium_min"] == nil && i["lab_sodium_count"] == nil, "the deleted lab value is gone from REDCap")
        let b = record.baseline
        #expect(b["bmi"] == "24.0" && b["pod_sodium"] == "133.0" && b["kat_b_pending"] == "0")
        #expect(b["fluid_limit_ml"] == nil, "a cleared profile value is blank in REDCap")
        #expect(b["withdrawn"] == "1" && b["withdrawal_date"] == Study.date(0) && b["withdrawal_reason"] == "moved away")
        let reconcile = try rig.reconcile()
        #expect(reconcile["inSync"] == true, "\(JSONSerializer.string(.object(reconcile)))")
    }

    @Test func aNewBaselineReactionTimeReachesTheDaysThatShowTheSlowing() throws {
        // rt_slowing_pct is computed against the profile's baseline reaction time: correcting the
        // baseline changes the daily rows even where the day's traffic light stays the same.
        let rig = try SyncRig()
        let id = "SYNC-RT-1"
        let token = try Study.enrollAndActivate(rig.daemon, id)       // baseline 600 ms
        let day = Study.date(-3)
        try Self.putDay(rig, token, day, ["reactionTests": [["id": "r1", "time": .string(Study.time(day, "09:00")),
                                                            "medianMs": 620, "meanMs": 630, "errors": 0]]])
        try rig.waitUntilDrained()
        #expect(try rig.emulator.records()[id]?.instances[3]?["rt_slowing_pct"] == "3.3")
        let patch = try rig.daemon.request(.patch, "/v1/patients/\(id)", token: rig.admin, body: ["baselineReactionTimeMs": 610])
        #expect(patch.status == 200, "\(patch.text)")
        try rig.waitUntilDrained()
        #expect(try rig.emulator.records()[id]?.instances[3]?["rt_slowing_pct"] == "1.6")
        let reconcile = try rig.reconcile()
        #expect(reconcile["inSync"] == true, "\(JSONSerializer.string(.object(reconcile)))")
    }

    // MARK: 3. outage then recovery

    @Test func anOutageKeepsRowsPendingUntilREDCapIsBack() throws {
        let rig = try SyncRig()
        let emu = rig.emulator
        try emu.control(["mode": "error500"])
        let token = try Study.enrollAndActivate(rig.daemon, "SYNC-OUT-1")
        try Self.putDay(rig, token, Study.date(-1), ["weightMorningKg": 80.2, "urineSG": 1.010])
        for n in 2...3 { try Self.enroll(rig, "SYNC-OUT-\(n)") }
        // Every kind of outage is transient: rows stay pending, the sync is not halted, status tells.
        for (mode, fragment) in [("error500", "500"), ("drop", ""), ("maintenance", "offline"), ("errorpage", "error page")] {
            try emu.control(["mode": .string(mode)])
            let before = try emu.modeCount(mode)
            let failures = Self.int(try rig.status()["consecutiveFailures"]) ?? 0
            try rig.post("/v1/sync/retry")                            // due now instead of after the backoff
            try rig.waitUntil("a \(mode) answer was taken as a transient failure") {
                let s = try rig.status()
                return try emu.modeCount(mode) > before && (Self.int(s["consecutiveFailures"]) ?? 0) > failures
                    && (fragment.isEmpty || (Self.string(s["lastFailure"]) ?? "").contains(fragment))
            }
            let s = try rig.status()
            #expect(s["halted"] == false, "\(mode) must not halt the sync")
            #expect((Self.int(s["pending"]) ?? 0) >= 4 && s["oldestPendingSeconds"] != .null, "\(mode): rows stay pending")
            #expect(try emu.records().isEmpty)
        }
        let health = try rig.daemon.request(.get, "/healthz")
        if case .object(let sync)? = health["sync"] { #expect((Self.int(sync["pending"]) ?? 0) >= 4 && sync["halted"] == false) }
        try emu.control(["mode": "normal"])
        try rig.post("/v1/sync/retry")
        try rig.waitUntilDrained()
        #expect(try emu.records().count == 3)
        #expect(try rig.reconcile()["inSync"] == true)
        #expect(try rig.status()["lastSuccessAt"] != .null)
    }

    @Test func rowsArriveAfterAnOutageWithoutAnyoneRetrying() throws {
        // The worker's own backoff (base 2 s) brings the rows once REDCap answers again.
        let rig = try SyncRig()
        try rig.emulator.control(["mode": "maintenance", "count": 2])
        try Self.enroll(rig, "SYNC-BACKOFF-1")
        try rig.waitUntilDrained(timeout: 30)
        #expect(try rig.emulator.modeCount("maintenance") == 2)
        #expect(try rig.emulator.records().keys.sorted() == ["SYNC-BACKOFF-1"])
    }

    // MARK: 4. a bad value is dead-lettered, the rest of its batch arrives

    @Test func aRejectedRowIsDeadLetteredWhileTheRestOfItsBatchArrives() throws {
        // The project's histology lacks the choice `other`.
        let dictionary = try REDCapEmulator.modifiedDictionary { line in
            line.hasPrefix("histology,") ? line.replacingOccurrences(of: " | other, Other", with: "") : line
        }
        let rig = try SyncRig(emulator: try REDCapEmulator(dictionary: dictionary))
        let emu = rig.emulator
        // Hold the queue (revoked token → halt) so that all five baselines go out in one batch.
        try emu.control(["revokeToken": true])
        try Self.enroll(rig, "SYNC-DEAD-1", [("histology", "other")])
        try rig.waitUntil("the sync halts on the revoked token") { try rig.status()["halted"] == true }
        for n in 2...5 { try Self.enroll(rig, "SYNC-DEAD-\(n)", [("histology", "macroadenoma")]) }
        try emu.control(["revokeToken": false])
        #expect(try rig.post("/v1/sync/resume").status == 200)
        try rig.waitUntil("four rows sent, one dead") {
            let s = try rig.status()
            return s["pending"] == 0 && s["deadLetters"] == 1
        }
        let status = try rig.status()
        guard case .array(let dead)? = status["dead"], case .object(let letter)? = dead.first else {
            Issue.record("no dead letter listed: \(status)"); return
        }
        #expect(letter["record"] == "SYNC-DEAD-1" && letter["instance"] == 0)
        #expect(Self.string(letter["error"])?.contains("not a valid category for histology") == true, "\(letter)")
        #expect(try emu.records().keys.sorted() == (2...5).map { "SYNC-DEAD-\($0)" })
        // One batch of 5 rejected, split to [1, 2) … the bad row first: 5 → 2 → 1 rejected requests.
        #expect(try emu.counter("rejected") == 3)
        #expect(status["halted"] == false)
        let health = try rig.daemon.request(.get, "/healthz")
        if case .object(let sync)? = health["sync"] { #expect(sync["deadLetters"] == 1) }
        let cli = try rig.cli(["status"])
        #expect(cli.status == 0 && cli.stdout.contains("SYNC-DEAD-1") && cli.stdout.contains("not a valid category"), "\(cli.stdout)")
        // `sync check` names the mismatch.
        let check = try rig.daemon.request(.get, "/v1/sync/check", token: rig.admin)
        #expect(check["ok"] == false && check.text.contains("choices lack other"), "\(check.text)")
        #expect(try rig.cli(["check"]).status == 1)
    }
}
