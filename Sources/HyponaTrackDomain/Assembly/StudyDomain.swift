import Foundation
import HTJSON
import HyponaTrackCore
import HyponaTrackKit
import SQLite

/// The domain assembled (docs/product.md, third round, R): from the configuration, a logger and
/// a clock it opens the database, loads the rules, creates the bootstrap admin, and wires the
/// services, alerting, the scheduler, the hook and sync outboxes and their workers (unstarted).
/// The web layer builds its routes and pages over this; nothing here knows HTTP or HTML.
public final class StudyDomain: Sendable {
    public let configuration: ServerConfiguration
    public let logger: Logger
    public let database: Database
    public let rules: ActiveRules
    public let service: StudyService
    public let activation: ActivationService
    public let sessions: SessionService
    /// TOTP second factors for console sign-in.
    public let secondFactor: SecondFactorService
    /// Console sign-in through an OpenID provider (nil: `console.oidc` not configured).
    public let singleSignOn: SingleSignOnService?
    public let patientSessions: PatientWebSessions
    public let sync: SyncService?
    public let metrics: Metrics
    /// Refused activation attempts per address (counted for `/metrics` and summarised).
    public let refusals: ActivationRefusals
    /// The per-address bucket of anonymous requests (activation and sign-in share it).
    public let anonymousLimiter: AnonymousRateLimiter
    /// Bounds the console's password checks (PBKDF2) running at once.
    public let passwordChecks: AdmissionGate
    public let healthCheck: HealthCheck
    /// The push services' keys (read and checked before anything else starts).
    public let pushKeys: PushKeys
    let delivery: HookDelivery
    let scheduler: Scheduler
    /// Sends the push reminders (nil: no push platform configured).
    let push: PushDelivery?
    /// The push deliveries' figures for `/metrics`.
    public let pushMetrics: PushMetrics
    /// Writes the refused activation attempts' summaries to the audit trail (every minute, at stop).
    let refusalSummaries: RefusalSummaries
    /// Scheduled backups (nil: no `backup` block, on-demand backups only).
    let backups: BackupScheduler?
    /// Hook events listed, retried; hooks enabled again (admin).
    public let hookAdmin: HookAdmin
    let operations: OperationsMetrics
    /// Hook delivery, REDCap sync, push delivery, scheduler, refusal summaries, scheduled
    /// backups: started by the daemon in this order, stopped in reverse.
    public let workers: [any BackgroundService]
    let clock: any ServerClock

    public init(configuration: ServerConfiguration, logger: Logger, clock: any ServerClock = SystemClock()) throws {
        self.configuration = configuration
        self.logger = logger
        self.clock = clock
        // What the configuration names — rules, secrets, keys — is checked before anything is
        // opened; each failure is a configuration error (exit 78, as `--check-config`).
        if let problem = configuration.crossKeyProblem { throw DaemonError.configuration(problem) }
        let rules: ActiveRules
        do { rules = try ActiveRules(files: configuration.ruleFiles) } catch {
            throw DaemonError.configuration("invalid rules: \(configuration.locating(error))")
        }
        self.rules = rules
        do { pushKeys = try PushKeys.load(configuration.push) } catch { throw DaemonError.configuration(error) }
        let auditKey: AuditKey
        do { auditKey = try AuditKeySource.load(configuration: configuration, logger: logger) } catch {
            throw DaemonError.configuration(error)
        }
        let transports: [String: any HookTransport]
        do { transports = try HookTransports.make(configuration.hooks, rules: rules) } catch { throw DaemonError.configuration(error) }
        let redcapToken: String?
        do { redcapToken = try configuration.redcap.map { try REDCapToken.load(tokenFile: $0.tokenFile) } } catch {
            throw DaemonError.configuration(error)
        }
        let clientSecret: String?
        do { clientSecret = try configuration.console.oidc.map { try ClientSecret.load($0) } } catch { throw DaemonError.configuration(error) }
        let secondFactorKey: SecondFactorKey
        do { secondFactorKey = try SecondFactorKeySource.load(configuration: configuration, logger: logger) } catch {
            throw DaemonError.configuration(error)
        }
        let database = try Database(directory: configuration.dataDirectory, auditKey: auditKey,
                                    readers: Database.readerCount(handlerThreads: configuration.http.threads),
                                    longReads: .longReads(handlerThreads: configuration.http.threads,
                                                          connections: Database.longReaderCount)) { applied, created, file in
            // What an upgrade did to the schema, in the journal beside the release that did it.
            if created {
                logger.notice("database created", ["file": file, "migrations": String(applied.count)])
            } else {
                logger.notice("database migrated", ["file": file, "applied": applied.joined(separator: ",")])
            }
        }
        self.database = database
        if let rekey = database.auditRekey {
            // Expected once, at the first start of the release that keys the chain; anywhere else
            // it means the trail was turned back into the unkeyed form (docs/operations.md §8).
            logger.warning("audit chain verified under the legacy unkeyed scheme and re-keyed once under the audit key",
                           ["rows": String(rekey.rows), "old_head": rekey.oldHead.description, "key": database.auditKey.fingerprint])
        }
        // Before anyone is scored: no active patient may carry a code these rules do not know.
        do {
            try StoredProfileCodes.enforce(database, rules: rules.snapshot.rules, configuration: configuration, now: clock.now(),
                                           logger: logger)
        } catch {
            database.close()
            throw DaemonError.configuration("invalid rules: \(error)")
        }
        do {
            // A site the configuration names must be in the database (exit 78 otherwise).
            try ConfiguredSites.check(configuration, sites: try database.read { try SiteRepository.all($0).map(\.code) })
        } catch {
            database.close()
            throw DaemonError.configuration(error)
        }
        do {
            try Self.bootstrapAdmin(database, configuration: configuration, logger: logger, now: clock.now())
            try AdminRecovery.auditPending(database, dataDirectory: configuration.dataDirectory, logger: logger, now: clock.now())
        } catch {
            database.close()
            throw error
        }
        let metrics = Metrics()
        self.metrics = metrics
        let hooks = configuration.hooks
        let delivery: HookDelivery, sync: SyncService?
        do {
            delivery = HookDelivery(database: database, transports: transports, logger: logger, clock: clock)
            // sync.unhealthy / sync.halted go to the hooks that subscribe to them.
            sync = try Self.makeSync(configuration: configuration, token: redcapToken, database: database, rules: rules, logger: logger,
                                     metrics: SyncMetrics(), clock: clock,
                                     events: SyncHookEvents(hooks: hooks, wake: { delivery.wake() }))
        } catch {
            database.close()
            throw error
        }
        self.delivery = delivery
        self.sync = sync
        let alerting = Alerting(ladder: configuration.escalation, hooks: hooks, outbox: sync?.outbox) { patient in
            rules.snapshot.engine.risk.assess(patient.profile).riskClass.rawValue
        }
        let reload: @Sendable () -> Result<String, RulesError> = {
            Self.reload(rules, database: database, configuration: configuration, clock: clock, logger: logger, metrics: metrics)
        }
        let service = StudyService(database: database, rules: rules, clock: clock, configuration: configuration, metrics: metrics,
                                   outbox: sync?.outbox, alerting: alerting, shadow: ShadowRules(), reloadRules: reload,
                                   hooksWake: { delivery.wake() })
        self.service = service
        do { try service.ruleTrials.loadShadow() } catch {
            database.close()
            throw error
        }
        let refusals = ActivationRefusals()
        self.refusals = refusals
        let pushMetrics = PushMetrics()
        self.pushMetrics = pushMetrics
        let push = PushDelivery.make(configuration: configuration.push, keys: pushKeys, database: database, rules: rules,
                                     logger: logger, clock: clock, metrics: pushMetrics)
        self.push = push
        scheduler = Scheduler(database: database, rules: rules, alerting: alerting, hooks: hooks, logger: logger,
                              interval: configuration.schedulerIntervalSeconds, clock: clock, checkpoints: service.audit.checkpoints,
                              push: push.map { _ in PushQueue(database: database) }, onPushQueued: { push?.wake() },
                              onQueued: { delivery.wake() }, patients: service.context.everyPatient)
        activation = ActivationService(database: database, clock: clock, configuration: configuration, rules: rules,
                                           outbox: sync?.outbox, refusals: refusals)
        refusalSummaries = RefusalSummaries(database: database, refusals: refusals, clock: clock, logger: logger)
        anonymousLimiter = AnonymousRateLimiter(perMinute: configuration.limits.anonymousPerMinute, clock: clock)
        let passwordChecks = AdmissionGate.passwordChecks()
        self.passwordChecks = passwordChecks
        let healthCheck = HealthCheck(database: database, rules: rules, clock: clock, syncEnabled: sync != nil,
                                      escalation: configuration.escalation, backups: service.backup.status,
                                      backupConfigured: configuration.backup != nil)
        self.healthCheck = healthCheck
        if !healthCheck.escalationConfigured {
            logger.warning("no escalation tier is configured: alerts are stored and shown but reach nobody; add an escalation block (docs/operations.md)",
                           ["hooks": String(hooks.count)])
        }
        let secondFactor = SecondFactorService(transactions: service.context.transactions, clock: clock, key: secondFactorKey)
        self.secondFactor = secondFactor
        sessions = SessionService(transactions: service.context.transactions, clock: clock, lockout: activation.policy,
                                  passwordChecks: passwordChecks, secondFactor: secondFactor,
                                  requireMFA: configuration.console.requireMFA)
        if let sso = configuration.console.oidc, let clientSecret {
            singleSignOn = SingleSignOnService(configuration: sso, clientSecret: clientSecret, transactions: service.context.transactions,
                                               sessions: sessions, clock: clock, logger: logger)
        } else {
            singleSignOn = nil
        }
        patientSessions = PatientWebSessions(database: database, clock: clock, lifetime: activation.tokenLifetime)
        hookAdmin = HookAdmin(transactions: service.context.transactions, hooks: hooks, clock: clock, wake: { delivery.wake() })
        operations = OperationsMetrics(database: database, hooks: hooks, scheduler: scheduler.statistics, backups: service.backup.status,
                                       clock: clock)
        backups = configuration.backup.map { BackupScheduler(service: service.backup, everyMinutes: $0.everyMinutes, clock: clock, logger: logger) }
        workers = [delivery] + (sync.map { [$0.worker] } ?? []) + (push.map { [$0] } ?? []) + [scheduler, refusalSummaries]
            + (backups.map { [$0] } ?? [])
    }

    /// Reloads and validates the rule files; invalid files are refused and the old kept, and so
    /// are files that lack a code an active patient carries (`StoredProfileCodes`).
    public func reloadRules() {
        _ = Self.reload(rules, database: database, configuration: configuration, clock: clock, logger: logger, metrics: metrics)
    }

    /// The reload path (SIGHUP, and `hyponatrack rules promote`): logged and counted.
    static func reload(_ rules: ActiveRules, database: Database, configuration: ServerConfiguration, clock: any ServerClock,
                       logger: Logger, metrics: Metrics) -> Result<String, RulesError> {
        let checked = rules.reload { new throws(RulesError) in
            try StoredProfileCodes.enforce(database, rules: new, configuration: configuration, now: clock.now(), logger: logger)
        }
        switch checked {
        case .success(let version):
            metrics.rulesReloaded(ok: true)
            logger.notice("rules reloaded", ["rules_version": version])
        case .failure(let error):
            metrics.rulesReloaded(ok: false)
            logger.error("rules reload refused; the previous rules stay in force",
                         ["error": error.description, "rules_version": rules.snapshot.rules.version])
        }
        return checked
    }

    /// Closes the database (after the workers stopped).
    public func close() { database.close() }

    /// Hook delivery, scheduler and backup figures for `/metrics`.
    public func operationsMetrics() -> [MetricFamily] { operations.families() }

    /// The REDCap sync's own counters for `/metrics` (nil while the sync is off).
    public var syncMetrics: SyncMetrics? { sync?.worker.metrics }

    /// Each configured hook with its delivery figures (the console's sync page).
    public func hookSummaries() throws -> [(hook: HookConfiguration, summary: HookOutboxSummary)] {
        try database.read { db in try configuration.hooks.map { ($0, try HookOutboxRepository.summary(db, hook: $0.name)) } }
    }

    /// Every hook's delivery status (`GET /v1/hooks`).
    public func hookStatus() throws -> [HookStatus] {
        try database.read { db in try HookDelivery.status(db, hooks: configuration.hooks) }
    }

    /// Builds the REDCap sync when a `redcap` block is configured; refuses to start without a
    /// usable token.
    static func makeSync(configuration: ServerConfiguration, token: String?, database: Database, rules: ActiveRules, logger: Logger,
                         metrics: SyncMetrics, clock: any ServerClock, events: SyncHookEvents) throws -> SyncService? {
        guard let rc = configuration.redcap, let token else { return nil }
        if rc.maxRequestsPerMinute > 300 {
            logger.warning("redcap.maxRequestsPerMinute is above half of REDCap's default per-IP ban threshold (600/min, a permanent ban); other traffic from this IP counts too",
                           ["max_requests_per_minute": String(rc.maxRequestsPerMinute)])
        }
        guard let zone = ZoneRules(identifier: configuration.studyTimeZone) else { throw DaemonError.configuration("studyTimeZone is unknown") }
        let mapper = REDCapMapper(studyZone: zone, baselineEvent: rc.baselineEvent, dailyEvent: rc.dailyEvent)
        let pacer = RequestPacer(perMinute: rc.maxRequestsPerMinute,
                                 journal: SyncRequestJournal(database: database, clock: clock, logger: logger))
        let earlier = try pacer.resume()
        if earlier > 0 {
            logger.notice("redcap requests of the last minute before this start count against the rate cap",
                          ["requests": String(earlier), "max_requests_per_minute": String(rc.maxRequestsPerMinute)])
        }
        let client = REDCapClient(url: rc.url, token: token, caFile: rc.caFile, pacer: pacer)
        var settings = REDCapSync.Settings()
        settings.batchSize = rc.batchSize
        settings.unhealthyAfterSeconds = rc.unhealthyAfterMinutes * 60
        settings.settleSeconds = rc.settleSeconds
        let worker = REDCapSync(database: database, client: client, settings: settings, logger: logger, metrics: metrics, clock: clock,
                                events: events)
        let outbox = SyncOutbox(mapper: mapper, wake: { worker.wake() })
        return SyncService(database: database, outbox: outbox, worker: worker, rules: rules, clock: clock,
                           events: (rc.baselineEvent, rc.dailyEvent))
    }

    /// On a database without staff: create the bootstrap admin and write its token to
    /// `DATA_DIR/admin.token` (0600) inside the same transaction, so a crash cannot leave an
    /// admin whose token nobody has. The path is logged, never the token.
    static func bootstrapAdmin(_ database: Database, configuration: ServerConfiguration, logger: Logger, now: Double) throws {
        let file = configuration.dataDirectory.appendingPathComponent("admin.token")
        let created: Bool = try database.write { db in
            guard let token = try StaffDirectory.bootstrapAdmin(db, now: now) else { return false }
            try OwnerOnlyFile.write(token + "\n", to: file.path)
            try AuditLog.append(db, at: epochMilliseconds(now), actor: "system", action: .staffBootstrap,
                                subject: "staff:\(StaffDirectory.bootstrapAdminName)", details: AuditDetails.StaffRole(role: "admin"))
            return true
        }
        if created {
            logger.notice("bootstrap admin token written; create named admins, then delete the file", ["path": file.path])
        }
    }
}
