import HTML
import HyponaTrackCore
import HyponaTrackDomain

/// The patient page's push reminders (docs/product.md, W, "Staff see it"): the devices with
/// their state and last success, and the reminders of the last 14 days with each delivery's
/// state — what `GET /v1/patients/{studyId}/reminders` answers, for a nurse asking "was she
/// reminded?".
struct ReminderSection {
    let t: ConsoleText
    let reminders: PatientReminders
    let zone: ZoneRules

    func render() -> HTML {
        """
        <h2 id="reminders">\(t.s("Push reminders", "Push-Erinnerungen"))</h2>
        \(devices())\(sent())
        """
    }

    private func devices() -> HTML {
        guard !reminders.devices.isEmpty else {
            return "<p>\(t.s("No device registered for push reminders.", "Kein Gerät für Push-Erinnerungen registriert."))</p>"
        }
        let rows: [HTML] = reminders.devices.map { d in
            """
            <tr data-state="\(d.state.rawValue)"><td><code>\(d.deviceId)</code></td><td>\(platform(d.platform))</td>\
            <td>\(d.state == .active ? t.s("active", "aktiv") : t.s("gone (the push service no longer knows it)", "abgemeldet (dem Push-Dienst unbekannt)"))</td>\
            <td>\(t.time(d.registeredAt, zone: zone))</td><td>\(t.time(d.lastSuccessAt, zone: zone))</td></tr>
            """
        }
        return ConsoleLayout.scrolling("""
            <table id="push-devices"><thead><tr><th scope="col">\(t.s("Device", "Gerät"))</th><th scope="col">\(t.s("Service", "Dienst"))</th>
            <th scope="col">\(t.s("State", "Zustand"))</th><th scope="col">\(t.s("Registered", "Registriert"))</th>
            <th scope="col">\(t.s("Last delivered", "Zuletzt zugestellt"))</th></tr></thead><tbody>\(rows)</tbody></table>
            """, labelledBy: "reminders")
    }

    private func sent() -> HTML {
        guard !reminders.reminders.isEmpty else {
            return "<p>\(t.s("No push reminder in the last 14 days.", "Keine Push-Erinnerung in den letzten 14 Tagen."))</p>"
        }
        let rows: [HTML] = reminders.reminders.map { r in
            let deliveries = r.deliveries.map { "\($0.deviceId): \(state($0.state)) (\($0.attempts))" }.joined(separator: "; ")
            // The time alone when it falls on the reminder's day (the first column says which).
            let due = t.time(r.dueAt, zone: zone), day = t.date(r.date) + " "
            return """
                <tr><td>\(t.date(r.date))</td><td data-kind="\(r.kind)">\(t.vocabulary.reminderKind(r.kind))</td><td data-slot="\(r.slot)">\(t.vocabulary.slot(r.slot))</td><td>\(due.hasPrefix(day) ? String(due.dropFirst(day.count)) : due)</td><td>\(deliveries)</td></tr>
                """
        }
        return ConsoleLayout.scrolling("""
            <table id="push-reminders"><thead><tr><th scope="col">\(t.s("Day", "Tag"))</th><th scope="col">\(t.s("Kind", "Art"))</th>
            <th scope="col">\(t.s("Slot", "Zeitfenster"))</th><th scope="col">\(t.s("Due", "Fällig"))</th>
            <th scope="col">\(t.s("Deliveries (attempts)", "Zustellungen (Versuche)"))</th></tr></thead><tbody>\(rows)</tbody></table>
            """, labelledBy: "reminders")
    }

    private func platform(_ p: PushPlatform) -> String {
        switch p {
        case .apns: return "Apple (APNs)"
        case .fcm: return "Android (FCM)"
        case .webpush: return t.s("Browser (Web Push)", "Browser (Web Push)")
        }
    }

    private func state(_ s: PushDeliveryState) -> String {
        switch s {
        case .pending: return t.s("pending", "ausstehend")
        case .sent: return t.s("sent", "gesendet")
        case .gone: return t.s("device gone", "Gerät abgemeldet")
        case .failed: return t.s("failed", "fehlgeschlagen")
        case .expired: return t.s("expired", "abgelaufen")
        }
    }
}
