import HyponaTrackCore
import SQLite

/// The stored profiles against rules about to be put in force (at start, on SIGHUP, by
/// `--check-config`). Enrolment and updates refuse a code the rules do not know, but a rule file
/// that renames or drops a histology, risk-medication or post-op nausea code leaves the patients
/// enrolled with it behind, and the risk model scores an unknown code 0 points: a silent
/// under-scoring, with lower thresholds lost for a patient who should be high risk. So such rules
/// are refused while an active patient carries the code; for patients no longer scored for care
/// (withdrawn, or past their monitoring window) the code is reported and the rules are taken.
struct StoredProfileCodes: Sendable, Equatable {
    /// One unknown code and who carries it (study IDs in order).
    struct Finding: Sendable, Equatable {
        let code: UnknownRuleCode
        /// Not withdrawn and monitoring not over (or not begun): evaluated with these rules.
        var active: [String] = []
        /// Withdrawn, or past the last day their monitoring window could reach.
        var inactive: [String] = []
    }

    let findings: [Finding]

    static func check(_ db: Connection, rules: RuleSet, now: Double, defaultTimeZone: String) throws -> StoredProfileCodes {
        var byCode: [UnknownRuleCode: Finding] = [:]
        for patient in try PatientRepository.all(db) {
            let unknown = rules.riskModel.unknownCodes(in: patient.profile)
            guard !unknown.isEmpty else { continue }
            let active = try !patient.isWithdrawn && isMonitoredOrAhead(db, patient, rules, now: now, defaultTimeZone: defaultTimeZone)
            for code in unknown {
                if active { byCode[code, default: Finding(code: code)].active.append(patient.studyId) }
                else { byCode[code, default: Finding(code: code)].inactive.append(patient.studyId) }
            }
        }
        return StoredProfileCodes(findings: byCode.keys.sorted().map { byCode[$0]! })
    }

    /// Whether today (the patient's) is on or before the window's last day. An unknown histology
    /// may be one the window is extended for, so then the extended end counts.
    private static func isMonitoredOrAhead(_ db: Connection, _ patient: PatientRecord, _ rules: RuleSet, now: Double,
                                           defaultTimeZone: String) throws -> Bool {
        let profile = patient.profile
        let zone = ZoneCache.rules(profile.timeZone) ?? ZoneCache.rules(defaultTimeZone) ?? ZoneRules(identifier: "UTC")!
        let window = try MonitoringWindow.stored(db, patient, rules: rules.reminders)
        var last = window.last
        if let h = profile.histology, rules.riskModel.histologyPoints[h] == nil {
            last = max(last, profile.date(ofPOD: rules.reminders.extendedToPOD))
        }
        return zone.localDate(atEpochSeconds: now) <= last
    }

    /// What stops the start or the reload: every code an active patient carries, naming the rule
    /// file's key, the code and the patients. Nil when no active patient carries one.
    var refusal: RulesError? {
        let blocking = findings.filter { !$0.active.isEmpty }
        guard !blocking.isEmpty else { return nil }
        let messages = blocking.map { f in
            "has no \"\(f.code.code)\", which active patients carry: \(Self.list(f.active)); the risk model would score it 0 points"
                + (f.inactive.isEmpty ? "" : " (withdrawn or finished patients with it: \(Self.list(f.inactive)))")
        }
        let advice = "; put the code back, or correct those profiles under the rules that know it, before anyone is scored"
        if blocking.count == 1 { return RulesError(file: "risk-model.json", key: blocking[0].code.key, message: messages[0] + advice) }
        return RulesError(file: "risk-model.json", key: nil,
                          message: zip(blocking, messages).map { "\($0.code.key): \($1)" }.joined(separator: "; ") + advice)
    }

    /// Codes only withdrawn or finished patients carry: taken, but worth a warning (their risk
    /// class in statistics and reports counts the code as 0 points).
    var warnings: [(key: String, code: String, studyIds: String)] {
        findings.filter { $0.active.isEmpty }.map { (key: $0.code.key, code: $0.code.code, studyIds: Self.list($0.inactive)) }
    }

    /// At most 20 study IDs, then how many more.
    static func list(_ ids: [String]) -> String {
        let shown = ids.prefix(20).joined(separator: ", ")
        return ids.count > 20 ? "\(shown) and \(ids.count - 20) more" : shown
    }
}

extension StoredProfileCodes {
    /// Checks `rules` against the database's stored profiles before they are put in force:
    /// throws the refusal, logs the codes only inactive patients carry.
    static func enforce(_ database: Database, rules: RuleSet, configuration: ServerConfiguration, now: Double,
                        logger: Logger) throws(RulesError) {
        let codes: StoredProfileCodes
        do {
            codes = try database.read { db in
                try check(db, rules: rules, now: now, defaultTimeZone: configuration.defaultTimeZone)
            }
        } catch {
            throw RulesError(file: database.path, key: nil, message: "the stored profiles cannot be checked against the rules: \(error)")
        }
        if let refusal = codes.refusal { throw configuration.locating(refusal) }
        for w in codes.warnings {
            logger.warning("withdrawn or finished patients carry a code the rules do not know; taken, but their risk counts it 0 points",
                           ["file": "risk-model.json", "key": w.key, "code": w.code, "study_ids": w.studyIds])
        }
    }
}
