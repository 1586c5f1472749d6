import HyponaTrackCore
import SQLite

extension AlertRepository {
    /// What the ward board says about handling, for every patient in two queries: each
    /// unresolved alert and each patient's last resolved one of each kind (not one merged into another), with
    /// the contact attempts about them (`AlertView.contacts`).
    static func boardViews(_ db: Connection, scope: SiteScope = .allSites) throws -> [AlertView] {
        let reach = scope.isAllSites ? "" : " AND \(scope.condition("p.site_id"))"
        let views = try db.query("""
            SELECT a.*, p.study_id, 0 AS fired FROM alerts a JOIN patients p ON p.id = a.patient_id
            WHERE (a.state != 'resolved'
               OR a.id IN (SELECT MAX(id) FROM alerts WHERE state = 'resolved' AND merged_into IS NULL GROUP BY patient_id, kind))\(reach)
            ORDER BY a.id
            """).map(view)
        return try withContacts(db, views)
    }
}
