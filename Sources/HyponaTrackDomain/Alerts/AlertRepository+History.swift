import HyponaTrackCore
import SQLite

extension AlertRepository {
    /// `views` with the acknowledgements that a later worsening superseded (docs/product.md,
    /// "Alerts": a worsening reopens the alert, so it needs acknowledging again, and the earlier
    /// acknowledgement stays in the history). `alerts` keeps only the acknowledgement since the
    /// last worsening, so they come from the audit trail, in the order written: `alert.open` and
    /// `alert.worsened` carry the level, and every `alert.acknowledge` before the last worsening
    /// acknowledged the level of its time. Only alerts that worsened are looked up.
    static func withEarlierAcknowledgements(_ db: Connection, _ views: [AlertView]) throws -> [AlertView] {
        try views.map { view in
            guard view.worsenedAt != nil else { return view }
            var out = view
            out.earlierAcknowledgements = try earlierAcknowledgements(db, alertId: view.id, studyId: view.studyId)
            return out
        }
    }

    /// `views` with the contact attempts about each alert (`AlertView.contacts`).
    static func withContacts(_ db: Connection, _ views: [AlertView]) throws -> [AlertView] {
        let contacts = try ContactRepository.byAlert(db, alertIds: views.map(\.id))
        guard !contacts.isEmpty else { return views }
        return views.map { view in
            var out = view
            out.contacts = contacts[view.id] ?? []
            return out
        }
    }

    private static func earlierAcknowledgements(_ db: Connection, alertId: Int64,
                                                studyId: String) throws -> [AlertView.EarlierAcknowledgement] {
        var level = Level.yellow
        var superseded: [AlertView.EarlierAcknowledgement] = [], sinceWorsening: [AlertView.EarlierAcknowledgement] = []
        for row in try db.query("""
            SELECT at, actor, action, json_extract(details, '$.level') AS level, json_extract(details, '$.note') AS note
            FROM audit_log
            WHERE subject = ? AND action IN ('alert.open', 'alert.worsened', 'alert.acknowledge')
              AND json_extract(details, '$.alertId') = ?
            ORDER BY seq
            """, [studyId, alertId]) {
            let action = try row.string("action")
            if action == "alert.acknowledge" {
                let transition = AlertView.Transition(at: try row.int64("at"), by: try row.string("actor"),
                                                      note: try row.optionalString("note"))
                sinceWorsening.append(AlertView.EarlierAcknowledgement(acknowledged: transition, level: level))
                continue
            }
            if action == "alert.worsened" {
                superseded += sinceWorsening
                sinceWorsening = []
            }
            level = try row.optionalString("level").flatMap(Level.init(rawValue:)) ?? level
        }
        return superseded
    }
}
