import HyponaTrackCore
import Imports
import SQLite

/// How one imported day value becomes a proposal: never when the day already holds it or the
/// same value is pending from the same source; a different value supersedes the pending one.
enum DayProposals {
    static func propose(_ db: Connection, patientId: Int64, field: ProposalField, date: LocalDate, value: Double, current: Double?,
                        source: ProposalSource, actor: String, at ms: Int64, into report: inout ImportReport) throws {
        let entry = "\(field.rawValue) \(date)"
        guard field.accepts(value) else { return report.refuse(entry, .outOfRange, "\(value) is outside the range of \(field.rawValue)") }
        guard current != value else { return report.refuse(entry, .duplicate, "the day already holds \(ProposalService.text(value))") }
        let pending = try ProposalRepository.with(.pending, db, patientId: patientId, source: source, field: field, date: date)
        if pending.contains(where: { $0.value == value }) {
            return report.refuse(entry, .duplicate, "already proposed and pending")
        }
        // A value a nurse rejected is not asked about again by the next import of the same export.
        if try ProposalRepository.with(.rejected, db, patientId: patientId, source: source, field: field, date: date)
            .contains(where: { $0.value == value }) {
            return report.refuse(entry, .duplicate, "proposed before and rejected")
        }
        // Superseded by this import: the staff member who sent it is who decided (the audit trail
        // and the proposal list name them, as for every other decision).
        for p in pending { try ProposalRepository.decide(db, id: p.id, status: .superseded, by: actor, note: nil, at: ms) }
        report.proposed.append(try ProposalRepository.insert(db, Proposal(
            id: 0, patientId: patientId, studyId: "", source: source, field: field, date: date, value: value, replaces: current,
            status: .pending, createdAt: ms, createdBy: actor)))
    }
}

/// How a sodium Observation becomes a lab proposal (docs/product.md, "Import details"): the
/// same Observation twice proposes once; `amended`/`corrected` supersedes a pending one, or
/// proposes to replace the value in force; `entered-in-error` withdraws a pending one, or
/// proposes deleting the confirmed value.
enum LabProposals {
    static func propose(_ db: Connection, _ o: SodiumObservation, source: ProposalSource, patient: PatientRecord,
                        window: MonitoringWindow, context: StudyContext, actor: String, now: Double, at ms: Int64,
                        into report: inout ImportReport) throws {
        let earlier = try o.key.map { try ProposalRepository.forSourceKey(db, patientId: patient.id, key: $0) } ?? []
        if o.status == .enteredInError { return try withdraw(db, o, earlier, patient: patient, actor: actor, at: ms, into: &report) }
        guard let time = o.time, let value = o.value else { return report.refuse(o.entry, .noTime, "no time", position: o.position) }
        let date = time.localDate(in: context.zone(patient.profile))
        guard window.contains(date) else {
            return report.refuse(o.entry, .outsideWindow, "\(date) is outside the monitoring window \(window.first)–\(window.last)",
                                 position: o.position)
        }
        guard date <= context.today(patient.profile, now: now) else {
            return report.refuse(o.entry, .outsideWindow, "\(date) is in the future", position: o.position)
        }
        var labTime: Timestamp?
        if case .instant(let t) = time { labTime = t }
        /// The same measurement: value, day and time (a correction may move only the time).
        func same(_ p: Proposal) -> Bool { p.value == value && p.date == date && p.labTime == labTime }
        // Any version of this Observation seen before with this measurement, a superseded one
        // too: an older file imported again must not undo a later correction (it used to
        // supersede the pending correction with the value it corrected).
        if let seen = earlier.last(where: { $0.status != .withdrawn && same($0) }) {
            return report.refuse(o.entry, .duplicate,
                                 "this Observation was imported before with this value and time (proposal \(seen.id), \(seen.status.rawValue))",
                                 position: o.position)
        }
        // Without an id or identifier the measurement itself is the key: confirmed or rejected
        // before, it is not proposed again (a confirmed one would store a second lab row).
        if o.key == nil {
            for status in [ProposalStatus.pending, .confirmed, .rejected] {
                let seen = try ProposalRepository.with(status, db, patientId: patient.id, source: source, field: .labSodium, date: date)
                if seen.contains(where: { $0.sourceKey == nil && same($0) }) {
                    return report.refuse(o.entry, .duplicate, "the same value at the same time for \(date) was imported before (\(status.rawValue))",
                                         position: o.position)
                }
            }
        }
        // An older version than one imported before (a late or repeated file) never supersedes
        // or replaces what that newer version proposed.
        if let newer = earlier.last(where: { $0.status != .withdrawn && o.version.isOlder(than: $0.sourceVersion) }) {
            return report.refuse(o.entry, .duplicate,
                                 "\(o.version.description) is older than the version imported before "
                                 + "(\(newer.sourceVersion.description); proposal \(newer.id), \(newer.status.rawValue))",
                                 position: o.position)
        }
        for p in earlier where p.status == .pending {
            try ProposalRepository.decide(db, id: p.id, status: .superseded, by: actor, note: nil, at: ms)
        }
        // What it would replace: the value a confirmed import of this Observation put in force.
        var target: Int64?, replaces: Double?
        if let confirmed = earlier.last(where: { $0.status == .confirmed && $0.labId != nil }), let labId = confirmed.labId,
           let live = try ProposalRepository.liveLabSodium(db, patientId: patient.id, labId: labId) {
            target = labId
            replaces = live
        }
        var proposal = Proposal(
            id: 0, patientId: patient.id, studyId: patient.studyId, source: source, field: .labSodium, date: date, value: value,
            replaces: replaces, status: .pending, sourceKey: o.key, labTime: labTime, targetLabId: target, createdAt: ms,
            createdBy: actor)
        proposal.sourceVersion = o.version
        report.proposed.append(try ProposalRepository.insert(db, proposal))
    }

    static func withdraw(_ db: Connection, _ o: SodiumObservation, _ earlier: [Proposal], patient: PatientRecord, actor: String,
                         at ms: Int64, into report: inout ImportReport) throws {
        guard o.key != nil, !earlier.isEmpty else {
            return report.refuse(o.entry, .status, "entered-in-error, and no earlier import of this Observation (by id or identifier)",
                                 position: o.position)
        }
        var changed = false
        for p in earlier where p.status == .pending && p.value != nil {
            try ProposalRepository.decide(db, id: p.id, status: .withdrawn, by: actor, note: "entered-in-error", at: ms)
            report.withdrawn.append(p.id)
            changed = true
        }
        let deletionPending = earlier.contains { $0.status == .pending && $0.value == nil }
        if !deletionPending, let confirmed = earlier.last(where: { $0.status == .confirmed && $0.labId != nil }),
           let labId = confirmed.labId, let live = try ProposalRepository.liveLabSodium(db, patientId: patient.id, labId: labId) {
            report.proposed.append(try ProposalRepository.insert(db, Proposal(
                id: 0, patientId: patient.id, studyId: patient.studyId, source: confirmed.source, field: .labSodium,
                date: confirmed.date, value: nil, replaces: live, status: .pending, sourceKey: o.key, labTime: confirmed.labTime,
                targetLabId: labId, createdAt: ms, createdBy: actor)))
            changed = true
        }
        if !changed {
            report.refuse(o.entry, .duplicate, "entered-in-error: nothing of this Observation is pending or in force", position: o.position)
        }
    }
}
