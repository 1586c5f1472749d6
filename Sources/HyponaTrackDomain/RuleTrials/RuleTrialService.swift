import Foundation
import HyponaTrackCore
import HyponaTrackKit
import SQLite

/// Trying rules on the study's own data (docs/product.md, third round, O): a backtest replays
/// every stored patient-day under candidate rules and writes nothing but its audit row; shadow
/// rules are evaluated beside the live ones on every evaluation; promotion makes the shadow live
/// through the reload path. Admin only (the routes say so).
public final class RuleTrialService: Sendable {
    let context: StudyContext
    /// Writes the promoted files and reloads the live rules (the daemon's reload path); nil: no
    /// rule files to write (rules built in memory, as some tests do).
    let reload: (@Sendable () -> Result<String, RulesError>)?

    init(context: StudyContext, reload: (@Sendable () -> Result<String, RulesError>)? = nil) {
        self.context = context
        self.reload = reload
    }

    public func backtest(_ request: BacktestRequest) throws -> BacktestResult {
        let candidate = ActiveRules.Snapshot(try Self.parse(request.candidate))
        let live = context.rules.snapshot
        let now = context.clock.now()
        let query = OutcomeReportQuery(from: request.from, to: request.to, scope: request.scope)
        let (comparison, reasonsChanged) = try context.transactions.longRead { db in
            let patients = try context.everyPatient.all(db).filter { request.scope.contains(site: $0.siteId) }
            return try Backtest.run(db, candidate: candidate, liveVersion: live.rules.version, patients: patients,
                             query: query, lookback: context.configuration.outcomes.lookbackDays,
                             today: { context.today($0.profile, now: now) })
        }
        // Audited once it is done: a backtest cut short wrote nothing at all.
        let ms = epochMilliseconds(context.clock.now())
        try context.write { db in
            try AuditLog.append(db, at: ms, actor: request.actor, action: .rulesBacktest, subject: nil,
                                details: RuleTrialAudit.Backtest(candidateVersion: candidate.rules.version,
                                                                 from: request.from?.description, to: request.to?.description,
                                                                 site: request.site,
                                                                 daysCompared: comparison.daysCompared,
                                                                 changedDays: comparison.changedDayCount))
        }
        return BacktestResult(candidateVersion: candidate.rules.version, from: request.from, to: request.to, comparison: comparison,
                              reasonsChangedDays: reasonsChanged)
    }

    /// The shadow rules in force (nil: none).
    public var shadow: ShadowRules.Current? { context.shadow.state }

    /// Sets the shadow rules (stored in the database: they win over `rules.shadow` and survive a
    /// restart), or turns them off with nil.
    public func setShadow(_ texts: RuleTexts?, actor: String) throws -> ShadowRules.Current? {
        let rules = try texts.map { try Self.parse($0) }
        let ms = epochMilliseconds(context.clock.now())
        try context.write { db in
            try ShadowRepository.store(db, texts, by: actor, at: ms)
            try AuditLog.append(db, at: ms, actor: actor, action: .rulesShadow, subject: nil,
                                details: RuleTrialAudit.Shadow(shadowVersion: rules?.version, liveVersion: context.rules.snapshot.rules.version))
        }
        if let texts, let rules { context.shadow.set(texts, rules: rules, source: .database) } else { context.shadow.clear() }
        return context.shadow.state
    }

    /// Makes the shadow rules live: the live rule files are written atomically (the old ones kept
    /// as `*.previous`), the rules reloaded as SIGHUP does, the shadow turned off; stored days
    /// are not re-evaluated. Returns the new live version.
    public func promote(actor: String) throws -> String {
        guard let shadow = context.shadow.state else { throw DomainError.conflict("no shadow rules are set", field: "shadow") }
        guard let reload else { throw DomainError.conflict("the live rules are not read from files here", field: "shadow") }
        let before = context.rules.snapshot.rules.version
        try PromotedFiles.write(shadow.texts, to: context.configuration.ruleFiles)
        switch reload() {
        case .success(let version):
            let ms = epochMilliseconds(context.clock.now())
            try context.write { db in
                try ShadowRepository.store(db, nil, by: actor, at: ms)
                try AuditLog.append(db, at: ms, actor: actor, action: .rulesPromote, subject: nil,
                                    details: RuleTrialAudit.Promote(previousVersion: before, liveVersion: version))
            }
            context.shadow.clear()
            return version
        case .failure(let error):
            try PromotedFiles.restore(context.configuration.ruleFiles)
            throw DomainError.invalid("shadow", "the shadow rules were refused by the reload (\(error)); the live rules are unchanged")
        }
    }

    /// At start: the shadow the CLI stored, else `rules.shadow`, else none. Invalid stored or
    /// configured shadow rules stop the start (as invalid live rules do).
    func loadShadow() throws {
        let stored = try context.read { db in try ShadowRepository.load(db) }
        switch stored {
        case .on(let texts)?:
            do { context.shadow.set(texts, rules: try texts.rules(), source: .database) } catch {
                throw DaemonError("invalid shadow rules stored by `hyponatrack rules shadow`: \(error)")
            }
        case .off?: context.shadow.clear()
        case nil:
            guard let directory = context.configuration.shadowRulesDirectory else { return }
            do {
                let texts = try RuleTexts.read(directory: directory)
                context.shadow.set(texts, rules: try texts.rules(), source: .configuration)
            } catch {
                throw DaemonError("invalid shadow rules (rules.shadow): \(error)")
            }
        }
    }

    /// Candidate rules parsed; an invalid file is refused naming the body member and the key.
    static func parse(_ texts: RuleTexts) throws -> RuleSet {
        do { return try texts.rules() } catch {
            let member = RuleTexts.bodyKeys.first { $0.1 == error.file }?.0 ?? error.file
            throw DomainError.invalid(error.key.map { "\(member).\($0)" } ?? member, error.description)
        }
    }
}

/// The rule trials' audit payloads.
enum RuleTrialAudit {
    struct Backtest: Encodable, Sendable {
        let candidateVersion: String
        let from: String?
        let to: String?
        let site: String?
        let daysCompared: Int
        let changedDays: Int
    }

    struct Shadow: Encodable, Sendable {
        /// nil: turned off.
        let shadowVersion: String?
        let liveVersion: String
    }

    struct Promote: Encodable, Sendable {
        let previousVersion: String
        let liveVersion: String
    }
}

/// Writing promoted rule files: each atomically (a temporary file renamed over it), the old one
/// kept as `*.previous`.
enum PromotedFiles {
    static func write(_ texts: RuleTexts, to files: [String: URL]) throws {
        let manager = FileManager.default
        for name in RuleSet.fileNames {
            guard let url = files[name], let bytes = texts.files[name] else { continue }
            let previous = URL(fileURLWithPath: url.path + ".previous")
            if manager.fileExists(atPath: url.path) {
                try? manager.removeItem(at: previous)
                try manager.copyItem(at: url, to: previous)
            }
            let temporary = URL(fileURLWithPath: url.path + ".promoting")
            try Data(bytes).write(to: temporary)
            guard rename(temporary.path, url.path) == 0 else {
                throw DaemonError("cannot replace \(url.path): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Puts the `*.previous` files back (the reload refused the promoted ones).
    static func restore(_ files: [String: URL]) throws {
        for name in RuleSet.fileNames {
            guard let url = files[name] else { continue }
            let previous = url.path + ".previous"
            if FileManager.default.fileExists(atPath: previous) { _ = rename(previous, url.path) }
        }
    }
}
