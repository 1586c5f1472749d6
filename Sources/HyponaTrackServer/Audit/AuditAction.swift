/// What an audit row records, as a dotted verb (`subject.verb`). The raw value is what the trail
/// stores and hashes, so a case's raw value never changes once shipped.
public enum AuditAction: String, Sendable, CaseIterable {
    // Patients and their data
    case patientEnroll = "patient.enroll"
    case patientUpdate = "patient.update"
    case patientWithdraw = "patient.withdraw"
    case daySubmit = "day.submit"
    case evaluationRecord = "evaluation.record"
    case labAdd = "lab.add"
    case labDelete = "lab.delete"
    case itemDelete = "item.delete"
    // Activation
    case activationReissue = "activation.reissue"
    case activationSuccess = "activation.success"
    case activationFailure = "activation.failure"
    // Alerts
    case alertOpen = "alert.open"
    case alertWorsened = "alert.worsened"
    case alertEscalated = "alert.escalated"
    case alertAcknowledge = "alert.acknowledge"
    case alertResolve = "alert.resolve"
    // Staff
    case staffBootstrap = "staff.bootstrap"
    case staffAdd = "staff.add"
    case staffRevoke = "staff.revoke"
    // Operations
    case backupCreate = "backup.create"
    case hookDisabled = "hook.disabled"
    case syncRetry = "sync.retry"
    case syncResume = "sync.resume"
    case syncExportAll = "sync.export_all"
    // The trail itself
    case auditRekey = "audit.rekey"
    case auditCheckpoint = "audit.checkpoint"
}
