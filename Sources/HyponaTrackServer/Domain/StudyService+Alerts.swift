import HTJSON
import HyponaTrackCore
import SQLite

extension StudyService {
    /// `GET /v1/alerts?open=true`.
    public func alerts(open: String?) throws -> JSONValue {
        let openOnly: Bool
        switch open {
        case nil, "false": openOnly = false
        case "true": openOnly = true
        default: throw DomainError.invalid("open", "true or false")
        }
        return try database.read { db in try AlertRepository.list(db, openOnly: openOnly) }
    }

    /// `POST /v1/alerts/{id}/acknowledgement` `{"note"?}`: stops the climb.
    public func acknowledgeAlert(id text: String, body: JSONValue, actor: String) throws -> JSONValue {
        guard let id = Int64(text), id > 0 else { throw DomainError.invalid("alertId", "not an alert id") }
        let note: String?
        do {
            let r = try ObjectReader(body)
            note = try r.optional("note", .string(length: 1...1000))
            try r.finish()
        } catch { throw DomainError.from(error) }
        guard let alerting else { throw DomainError.notFound("no alert \(id)") }
        let (_, ms) = nowMilliseconds()
        return try write { db in
            let a = try alerting.acknowledge(db, id: id, by: actor, note: note, at: ms)
            return try alertJSON(db, a.id)
        }
    }

    /// `POST /v1/alerts/{id}/resolution` `{"note", "sodium"?}`.
    public func resolveAlert(id text: String, body: JSONValue, actor: String) throws -> JSONValue {
        guard let id = Int64(text), id > 0 else { throw DomainError.invalid("alertId", "not an alert id") }
        let note: String, sodium: Double?
        do {
            let r = try ObjectReader(body)
            note = try r.required("note", .string(length: 1...1000))
            sodium = try r.optional("sodium", .number(ValueRanges.sodium))
            try r.finish()
        } catch { throw DomainError.from(error) }
        guard let alerting else { throw DomainError.notFound("no alert \(id)") }
        let (_, ms) = nowMilliseconds()
        return try write { db in
            let a = try alerting.resolve(db, id: id, by: actor, note: note, sodium: sodium, at: ms)
            return try alertJSON(db, a.id)
        }
    }

    func alertJSON(_ db: Connection, _ id: Int64) throws -> JSONValue {
        guard let row = try db.queryOne("""
            SELECT a.*, p.study_id, (SELECT COUNT(*) FROM escalation_steps s WHERE s.alert_id = a.id AND s.fired_at IS NOT NULL) AS fired
            FROM alerts a JOIN patients p ON p.id = a.patient_id WHERE a.id = ?
            """, [id]) else { throw DomainError.notFound("no alert \(id)") }
        return try AlertRepository.json(row)
    }
}
