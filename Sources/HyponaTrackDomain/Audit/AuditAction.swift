/// What an audit row records, as a dotted verb (`subject.verb`). The raw value is what the trail
/// stores and hashes, so a case's raw value never changes once shipped.
public enum AuditAction: String, Sendable, CaseIterable {
    // Patients and their data
    case patientEnroll = "patient.enroll"
    case patientUpdate = "patient.update"
    case patientWithdraw = "patient.withdraw"
    /// A patient moved to another site (`hyponatrack transfer`): days, alerts and contacts go along.
    case patientTransfer = "patient.transfer"
    case daySubmit = "day.submit"
    /// A staff correction of a day (`PATCH /v1/patients/{studyId}/days/{date}`, a confirmed import).
    case dayCorrect = "day.correct"
    /// An evaluation a lab value, a profile change or a rule change caused. A day submission's or
    /// correction's own row lists the evaluations it caused instead (`details.evaluations`).
    case evaluationRecord = "evaluation.record"
    case labAdd = "lab.add"
    case labDelete = "lab.delete"
    case itemDelete = "item.delete"
    // Imports (proposed, then confirmed or rejected by a nurse)
    case importFhir = "import.fhir"
    case importAppleHealth = "import.apple_health"
    case proposalConfirm = "proposal.confirm"
    case proposalReject = "proposal.reject"
    // Activation
    case activationReissue = "activation.reissue"
    /// A further code for another device (`reissue --add-device`): existing tokens keep working.
    case activationAddDevice = "activation.add_device"
    case activationSuccess = "activation.success"
    /// Written one row per refused attempt by earlier releases; now counted and summarised.
    case activationFailure = "activation.failure"
    /// A patient signed out of the web check-in (or switched the browser to another study ID):
    /// the cookie's token is revoked, so a loan phone keeps no working token.
    case patientSignOut = "patient.sign_out"
    /// The failure that locked an enrolled study ID (once per lockout).
    case activationLockout = "activation.lockout"
    /// Refused attempts from one address since the last summary (at most once a minute each).
    case activationRefusedSummary = "activation.refused_summary"
    // Alerts
    case alertOpen = "alert.open"
    case alertWorsened = "alert.worsened"
    case alertEscalated = "alert.escalated"
    case alertAcknowledge = "alert.acknowledge"
    case alertResolve = "alert.resolve"
    /// The upgrade to alert episodes merged an unresolved alert into the newest of its kind.
    case alertMerged = "alert.merge"
    /// A contact attempt logged (`POST /v1/patients/{studyId}/contacts`); one about an open
    /// alert is followed by that alert's `alert.acknowledge` row.
    case contactAdd = "contact.add"
    // Outcomes and the rules' trials (docs/product.md, third round, O)
    /// An outcome recorded by staff, or from a lab sodium below `outcomes.hyponatremiaBelow`.
    case outcomeRecord = "outcome.record"
    /// A lab-derived outcome withdrawn because its lab value was deleted.
    case outcomeWithdraw = "outcome.withdraw"
    /// A backtest of candidate rules over the stored days: who, the candidate version, the filters.
    case rulesBacktest = "rules.backtest"
    /// Shadow rules set or turned off (`hyponatrack rules shadow`).
    case rulesShadow = "rules.shadow"
    /// The shadow rules made live (`hyponatrack rules promote`).
    case rulesPromote = "rules.promote"
    // Push devices (never their tokens or subscriptions)
    /// A patient registered or replaced a push device (`PUT /v1/me/devices/{deviceId}`).
    case deviceRegister = "device.register"
    /// A device removed: by its patient, or because another patient registered its token.
    case deviceRemove = "device.remove"
    /// A push service said a device's token or subscription no longer exists: it is disabled.
    case deviceGone = "device.gone"
    // Staff
    case staffBootstrap = "staff.bootstrap"
    /// An admin created offline (`hyponatrackd --new-admin-token FILE`), audited at the next start.
    case staffRecover = "staff.recover"
    case staffAdd = "staff.add"
    case staffRevoke = "staff.revoke"
    case staffRotate = "staff.rotate"
    case staffPassword = "staff.password"
    /// The sites a member works for changed (`hyponatrack staff sites`).
    case staffSites = "staff.sites"
    /// A second factor set up (not yet active), confirmed with a first code, or removed by an admin.
    case staffMFASetUp = "staff.mfa_set_up"
    case staffMFAConfirm = "staff.mfa_confirm"
    case staffMFAReset = "staff.mfa_reset"
    /// A member bound to the OpenID provider's subject (issuer + `sub`) at their first sign-in.
    case staffOIDCBind = "staff.oidc_bind"
    /// A console sign-in completed with a recovery code (one of the ten used up).
    case consoleRecoveryCode = "console.recovery_code"
    // Sites
    case siteAdd = "site.add"
    case siteUpdate = "site.update"
    case siteRemove = "site.remove"
    case consoleSignIn = "console.sign_in"
    case consoleSignOut = "console.sign_out"
    case consoleLockout = "console.lockout"
    // Operations
    case backupCreate = "backup.create"
    /// A scheduled or on-demand backup that failed (not written, or refused by its checks).
    case backupFailed = "backup.failed"
    case hookDisabled = "hook.disabled"
    /// An admin enabled a hook again after its endpoint answered 410 (`hooks enable NAME`).
    case hookEnable = "hook.enable"
    /// An admin asked for a failed or dead hook event to be sent again (`hooks retry EVENT_ID`).
    case hookRetry = "hook.retry"
    case syncRetry = "sync.retry"
    case syncResume = "sync.resume"
    case syncExportAll = "sync.export_all"
    /// A CSV export of days or alerts (`GET /v1/export/…`, `…/export.csv`): who took which data.
    case exportDays = "export.days"
    case exportAlerts = "export.alerts"
    case exportContacts = "export.contacts"
    case exportOutcomes = "export.outcomes"
    /// A patient's clinical report as a PDF (`…/report.pdf`, `hyponatrack report`).
    case exportReport = "export.report"
    // The trail itself
    case auditRekey = "audit.rekey"
    case auditCheckpoint = "audit.checkpoint"
}
