import HyponaTrackCore

/// The plain text of a staff e-mail for one event: what a nurse needs to act — study ID, level
/// and what it asks for, the reasons in words with the measured values, POD, date, alert id
/// and tier, and for later events what happened and by whom. Never a link (staff open
/// HyponaTrack themselves; a link in an alert mail is what phishing looks like) and never a
/// token: the event body has none, and free text (notes, names) is de-linked.
public enum EmailText {
    static let subjectPrefix = "[HyponaTrack]"
    static let footer = """
        Sent automatically by HyponaTrack; replies are not read. This message contains no links: \
        open HyponaTrack or use the hyponatrack command yourself.
        HyponaTrack's thresholds are a study proposal, not a validated medical device; \
        clinical judgement decides.
        """

    /// The subject and the body (lines joined with "\n") for an event body as queued
    /// (`{type, id, timestamp, data}`), worded under `rules` (the rules in force, whose facts
    /// some reasons name: `AlertWording`).
    public static func render(body: [UInt8], rules: RuleSet) -> (subject: String, body: String) {
        render(StoredHookEvent(body: body), rules: rules)
    }

    static func render(_ event: StoredHookEvent, rules: RuleSet) -> (subject: String, body: String) {
        let e = Fields(event)
        switch e.type {
        case "alert.opened", "alert.worsened", "alert.escalated", "alert.acknowledged", "alert.resolved":
            return alert(e, rules: rules)
        case "sync.unhealthy", "sync.halted":
            return sync(e)
        case "reminder.due":
            return reminder(e)
        default:
            let body = ["HyponaTrack event \(e.type.isEmpty ? "(no type)" : e.type)."] + e.otherFields() + [""] + eventLines(e) + ["", footer]
            return ("\(subjectPrefix) \(e.type.isEmpty ? "event" : e.type)", body.joined(separator: "\n"))
        }
    }

    // MARK: - Alerts

    private static func alert(_ e: Fields, rules: RuleSet) -> (subject: String, body: String) {
        let level = e.string("level") ?? "unknown"
        let studyId = e.string("studyId") ?? "unknown patient"
        let pod = e.number("pod").map { "POD \(AlertWording.number($0, digits: 0))" }
        let reasons = ReasonLine.list(e.data["reasons"], kind: e.string("kind"))
        let summary = ReasonLine.summary(reasons, rules: rules)
        let what = "\(level.uppercased()) alert \(studyId)" + (pod.map { " (\($0))" } ?? "")
        let by = e.string("by").map { plain(Principal.displayName(ofActor: $0)) }   // "nina", not "staff:nina"
        let tier = e.number("tier").map { AlertWording.number($0, digits: 0) }

        let subject: String
        var opening: [String]
        switch e.type {
        case "alert.worsened":
            subject = "\(what) worsened: \(summary)"
            opening = ["This alert got worse (a higher level or a new red reason). Its escalation starts again."]
        case "alert.escalated":
            subject = "ESCALATION\(tier.map { " tier \($0)" } ?? ""): \(what) not acknowledged: \(summary)"
            opening = ["Nobody has acknowledged this alert yet; it is escalated to you" + (tier.map { " (tier \($0))" } ?? "") + "."]
        case "alert.acknowledged":
            subject = "Acknowledged: \(what)" + (by.map { " by \($0)" } ?? "")
            opening = ["This alert was acknowledged" + (by.map { " by \($0)" } ?? "") + ". Its escalation has stopped."]
            if let note = e.string("note").map(plain), !note.isEmpty { opening.append("Note: \(note)") }
        case "alert.resolved":
            subject = "Resolved: \(what)" + (by.map { " by \($0)" } ?? "")
            opening = ["This alert was resolved" + (by.map { " by \($0)" } ?? "") + "."]
            if let note = e.string("note").map(plain), !note.isEmpty { opening.append("Note: \(note)") }
            if let sodium = e.number("sodium") { opening.append("Measured sodium: \(AlertWording.number(sodium)) mmol/L") }
        default:
            subject = "\(what): \(summary)"
            opening = ["A \(level.uppercased()) alert was raised for patient \(studyId)."]
        }

        var lines = opening.isEmpty ? [] : opening + [""]
        lines.append("Study ID:  \(studyId)")
        if let site = e.string("site"), !site.isEmpty { lines.append("Site:      \(site)") }
        lines.append("Level:     \(AlertWording.level(level))")
        if let pod { lines.append("Day:       \(pod)" + (e.string("date").map { ", \($0)" } ?? "")) }
        if let risk = e.string("riskClass") { lines.append("Risk:      \(risk) risk class") }
        lines.append("Reasons:")
        lines += reasons.isEmpty ? ["  - (none given)"] : reasons.map { "  - " + $0.line(rules) }
        lines.append("")
        var alertLine = "Alert:     #\(e.numberText("alertId") ?? "?")"
        if let kind = e.string("kind"), kind != "evaluation" { alertLine += " (\(AlertWording.phrase(for: kind, rules: rules).short))" }
        if let tier { alertLine += ", escalation tier \(tier)" }
        if let state = e.string("state") { alertLine += ", state \(state)" }
        lines.append(alertLine)
        lines += eventLines(e)
        if e.type == "alert.opened" || e.type == "alert.worsened" || e.type == "alert.escalated" {
            let id = e.numberText("alertId") ?? "ID"
            lines += ["", "When the patient has been reached, acknowledge the alert (this stops the escalation):",
                      "  hyponatrack ack \(id) --note \"…\"",
                      "and resolve it once settled:",
                      "  hyponatrack resolve \(id) --note \"…\" [--sodium N]"]
        }
        lines += ["", footer]
        return ("\(subjectPrefix) \(subject)", lines.joined(separator: "\n"))
    }

    // MARK: - Sync and reminders

    private static func sync(_ e: Fields) -> (subject: String, body: String) {
        var lines: [String]
        let subject: String
        if e.type == "sync.halted" {
            let reason = e.string("reason").map(plain)
            subject = "REDCap sync HALTED" + (reason.map { ": \(shortened($0, to: 80))" } ?? "")
            lines = ["The REDCap sync has stopped and will not retry by itself. Nothing is lost: data stays queued.",
                     "Reason: \(reason ?? "not given")",
                     "Fix the cause, then run: hyponatrack sync resume"]
        } else {
            let pending = e.numberText("pending")
            let age = e.number("oldestPendingSeconds").map(duration)
            subject = "REDCap sync unhealthy" + (pending.map { ": \($0) rows waiting" } ?? "") + (age.map { " for \($0)" } ?? "")
            lines = ["Data is waiting to reach REDCap longer than expected. The sync keeps retrying by itself."]
            if let pending { lines.append("Rows waiting: \(pending)") }
            if let age { lines.append("Oldest waiting for: \(age)") }
            if let failure = e.string("lastFailure").map(plain) { lines.append("Last failure: \(failure)") }
            lines.append("Status: hyponatrack sync status")
        }
        lines += e.otherFields(excluding: ["reason", "pending", "oldestPendingSeconds", "lastFailure"])
        lines += [""] + eventLines(e) + ["", footer]
        return ("\(subjectPrefix) \(subject)", lines.joined(separator: "\n"))
    }

    private static func reminder(_ e: Fields) -> (subject: String, body: String) {
        let studyId = e.string("studyId") ?? "unknown patient"
        var tasks: [String] = []
        if case .list(let items)? = e.data["tasks"] {
            tasks = items.compactMap { if case .string(let t) = $0 { AlertWording.task(t) } else { nil } }
        }
        let kind = e.string("kind").map(AlertWording.reminderKind) ?? "reminder"
        let subject = "Reminder due for \(studyId)" + (tasks.isEmpty ? "" : ": \(shortened(tasks.joined(separator: ", "), to: 80))")
        var lines = ["A \(kind) is due for patient \(studyId)."]
        lines.append("Study ID:  \(studyId)")
        if let site = e.string("site"), !site.isEmpty { lines.append("Site:      \(site)") }
        if let pod = e.numberText("pod") { lines.append("Day:       POD \(pod)" + (e.string("date").map { ", \($0)" } ?? "")) }
        if let at = e.string("at") { lines.append("Due at:    \(at)") }
        if let intensity = e.string("intensity") { lines.append("Reminder intensity: \(intensity)") }
        lines.append("Open tasks:")
        lines += tasks.isEmpty ? ["  - (none listed)"] : tasks.map { "  - \($0)" }
        lines += [""] + eventLines(e) + ["", footer]
        return ("\(subjectPrefix) \(subject)", lines.joined(separator: "\n"))
    }

    // MARK: - Helpers

    private static func eventLines(_ e: Fields) -> [String] {
        var line = "Event:     \(e.type.isEmpty ? "?" : e.type)"
        if let id = e.id { line += ", \(id)" }
        if let time = e.timestamp { line += ", \(time)" }
        return [line]
    }

    /// Free text from staff or a library, safe for a plain-text mail: one line, printable,
    /// nothing a mail client links (`EmailDelinking`: "https://x" becomes "https[:]//x",
    /// "evil.example" "evil[.]example"), at most 500 characters.
    static func plain(_ text: String) -> String {
        let printable = String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
        return shortened(EmailDelinking.delinked(printable), to: 500)
    }

    static func shortened(_ text: String, to limit: Int) -> String {
        text.count > limit ? String(text.prefix(limit - 1)) + "…" : text
    }

    /// "45 s", "12 min", "3 h 20 min", "2 d 4 h".
    static func duration(_ seconds: Double) -> String {
        let s = Int(max(0, seconds.rounded()))
        if s < 60 { return "\(s) s" }
        if s < 3600 { return "\(s / 60) min" }
        if s < 86_400 { return "\(s / 3600) h" + (s % 3600 / 60 == 0 ? "" : " \(s % 3600 / 60) min") }
        return "\(s / 86_400) d" + (s % 86_400 / 3600 == 0 ? "" : " \(s % 86_400 / 3600) h")
    }

    /// The parts of an event body the text uses, read leniently (a missing field is left out).
    private struct Fields {
        let type: String
        let id: String?
        let timestamp: String?
        let data: StoredHookEvent.Members

        init(_ event: StoredHookEvent) {
            type = event.type
            id = event.id
            timestamp = event.timestamp
            data = event.data
        }

        func string(_ key: String) -> String? {
            if case .string(let s)? = data[key] { return EmailText.plain(s) }
            return nil
        }

        func number(_ key: String) -> Double? {
            if case .number(let n)? = data[key] { return n }
            return nil
        }

        func numberText(_ key: String) -> String? {
            number(key).map { AlertWording.number($0, digits: 3) } ?? string(key)
        }

        /// Scalar data fields the text has no words for, as "key: value" lines (by name).
        func otherFields(excluding known: Set<String> = []) -> [String] {
            data.names.compactMap { key in
                guard !known.contains(key) else { return nil }
                switch data[key] {
                case .string(let s)?: return "\(EmailText.plain(key)): \(EmailText.plain(s))"
                case .number(let n)?: return "\(EmailText.plain(key)): \(AlertWording.number(n, digits: 3))"
                case .bool(let b)?: return "\(EmailText.plain(key)): \(b ? "yes" : "no")"
                default: return nil
                }
            }
        }
    }

    /// One reason of an alert event (`{code, level, value, threshold}`), in words.
    private struct ReasonLine {
        let code: String
        let level: String?
        let value: Double?
        let threshold: Double?

        /// In clinical words, as the console and the report say it (`ReasonWording`):
        /// "Sodium 129 mmol/L (red at ≤ 129)"; a reason without a value (a missing-data
        /// alert, an event from an older build) by its phrase and level.
        func line(_ rules: RuleSet) -> String {
            if let value, let stored = level.flatMap(Level.init(rawValue:)) {
                var text = ReasonWording(.en, rules: rules).sentence(StoredReason(code: code, level: stored, value: value, threshold: threshold))
                // Which symptoms count is a fact of the rules the sentence does not name.
                if code == "emergency_symptom" {
                    text += " — one of \(AlertWording.alternatives(rules.thresholds.emergencySymptoms)); "
                        + "the patient was told to call emergency services"
                }
                if stored == .info { text += " [information only]" }
                return text
            }
            var text = AlertWording.phrase(for: code, rules: rules).long
            if let level, level != "info" { text += " [\(level)]" } else if level == "info" { text += " [information only]" }
            return text
        }

        /// The reasons of `value` (objects or bare code strings); a missing-data alert without
        /// reasons gets its kind as the reason.
        static func list(_ value: StoredHookEvent.Value?, kind: String?) -> [ReasonLine] {
            var reasons: [ReasonLine] = []
            if case .list(let items)? = value {
                for item in items {
                    switch item {
                    case .string(let code):
                        reasons.append(ReasonLine(code: EmailText.plain(code), level: nil, value: nil, threshold: nil))
                    case .reason(let code, let level, let measured, let threshold):
                        reasons.append(ReasonLine(code: EmailText.plain(code), level: level.map(EmailText.plain), value: measured,
                                                  threshold: threshold))
                    case .other:
                        continue
                    }
                }
            }
            if reasons.isEmpty, let kind, kind != "evaluation" {
                reasons.append(ReasonLine(code: kind, level: nil, value: nil, threshold: nil))
            }
            // Red first, then yellow, then information (the engine's order within a level stays).
            let rank: (ReasonLine) -> Int = { $0.level == "red" ? 0 : $0.level == "yellow" ? 1 : $0.level == nil ? 1 : 2 }
            return reasons.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
        }

        /// Short phrases for a subject: the first three that are not information only, "+N more".
        static func summary(_ reasons: [ReasonLine], rules: RuleSet) -> String {
            let shown = reasons.filter { $0.level != "info" }
            guard !shown.isEmpty else { return "no reason given" }
            var text = shown.prefix(3).map { AlertWording.phrase(for: $0.code, rules: rules).short }.joined(separator: ", ")
            if shown.count > 3 { text += " +\(shown.count - 3) more" }
            return text
        }
    }
}
