import Foundation
import HyponaTrackCore
import SQLite

/// `hyponatrackd --check-config` (like `nginx -t`): everything a start would validate short of
/// writing the database or binding the port — `hyponatrack.json` (already parsed by the caller),
/// the four rule files, each hook's secret file and command, the REDCap token and CA files, the
/// audit key file, and (read-only, when the database exists) the recorded migrations, the
/// stored profiles' codes against the rules and the site codes the configuration names
/// (`escalation.sites`, `hooks[].sites`) against the database's sites, as a start checks them;
/// without a database, the site codes against the one site a new database starts with (`main`).
/// Run it as the service user: file permissions and executability are checked for this process.
public enum ConfigCheck {
    /// What the configuration sets up, for the one-line summary.
    public struct Summary: Sendable, Equatable {
        var file: String
        var rulesVersion: String
        var hooks: [String]
        var escalationConfigured: Bool
        /// The REDCap API URL; nil when the sync is off.
        var redcapURL: String?
        /// False when the token is left to systemd (`LoadCredential=`), which is not there now.
        var tokenChecked: Bool
        /// What the operator should know though the check passed (codes only inactive patients carry).
        var notes: [String] = []
        /// "backups every 60 min into /srv/backup/hyponatrack"; nil without a `backup` block.
        var backups: String?

        /// "…/hyponatrack.json: ok; rules version fd1d91c1e1305d33; 2 hooks (pager, mail); escalation
        /// configured; sync on (https://redcap.example.org/api/)".
        public var line: String {
            let hookList = hooks.isEmpty ? "no hooks"
                : "\(hooks.count) hook\(hooks.count == 1 ? "" : "s") (\(hooks.joined(separator: ", ")))"
            let escalation = escalationConfigured ? "escalation configured" : "escalation not configured (alerts reach nobody)"
            var sync = "sync off"
            if let redcapURL {
                sync = "sync on (\(redcapURL)"
                    + (tokenChecked ? ")" : "; token not checked: expected from $CREDENTIALS_DIRECTORY under systemd)")
            }
            return "\(file): ok; rules version \(rulesVersion); \(hookList); \(escalation); \(sync)"
                + (backups.map { "; \($0)" } ?? "") + notes.map { "; \($0)" }.joined()
        }
    }

    /// A problem, naming the file and the key.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public static func run(_ configuration: ServerConfiguration,
                    environment: [String: String] = ProcessInfo.processInfo.environment) throws(Failure) -> Summary {
        let file = configuration.configFile?.path ?? "hyponatrack.json"
        if let problem = configuration.crossKeyProblem { throw Failure(description: problem) }
        let rules: ActiveRules
        do { rules = try ActiveRules(files: configuration.ruleFiles) } catch {
            throw Failure(description: configuration.locating(error).description)
        }
        if let shadow = configuration.shadowRulesDirectory {
            do { _ = try RuleTexts.read(directory: shadow).rules() } catch {
                throw Failure(description: "\(file): invalid shadow rules (rules.shadow): \(error)")
            }
        }
        do { _ = try HookTransports.make(configuration.hooks, rules: rules) } catch { throw Failure(description: "\(file): \(error)") }
        for hook in configuration.hooks {
            if let problem = unreadable(caFile(of: hook)) { throw Failure(description: "\(file): hook \(hook.name) caFile: \(problem)") }
        }
        if let keyFile = configuration.audit.keyFile {
            do { _ = try AuditKeySource.read(keyFile, source: "audit.keyFile \(keyFile)", dataDirectory: configuration.dataDirectory) } catch {
                throw Failure(description: "\(file): \(error)")
            }
        }
        do { _ = try PushKeys.load(configuration.push, environment: environment) } catch {
            throw Failure(description: "\(file): \(error)")
        }
        if let sso = configuration.console.oidc {
            if let problem = unreadable(sso.caFile) { throw Failure(description: "\(file): console.oidc.caFile: \(problem)") }
            do { _ = try ClientSecret.load(sso, environment: environment) } catch { throw Failure(description: "\(file): \(error)") }
        }
        var tokenChecked = true
        if let redcap = configuration.redcap {
            if let problem = unreadable(redcap.caFile) { throw Failure(description: "\(file): redcap.caFile: \(problem)") }
            // Under systemd the token usually comes from LoadCredential=, which a check run by hand lacks.
            let sources = ["CREDENTIALS_DIRECTORY", "HYPONATRACK_REDCAP_TOKEN"]
            tokenChecked = redcap.tokenFile != nil || sources.contains { environment[$0] != nil }
            if tokenChecked {
                do { _ = try REDCapToken.load(tokenFile: redcap.tokenFile, environment: environment) } catch {
                    throw Failure(description: "\(file): \(error)")
                }
            }
        }
        return Summary(file: file, rulesVersion: rules.snapshot.rules.version, hooks: configuration.hooks.map(\.name),
                       escalationConfigured: configuration.escalation.isConfigured, redcapURL: configuration.redcap?.url,
                       tokenChecked: tokenChecked, notes: try storedProfiles(configuration, rules.snapshot.rules),
                       backups: configuration.backup.map { "backups every \($0.everyMinutes) min into \($0.directory.path)" })
    }

    /// The recorded migrations, as a start's migrator checks them (`Migrator.checkApplied`: a
    /// gap or a newer release's migration is refused), then the stored profiles' codes against
    /// `rules`, as a start checks them (`StoredProfileCodes`), and the configuration's site codes
    /// against the stored sites (`ConfiguredSites`), on a read-only connection (safe beside a
    /// running daemon). Without a database yet, the site codes are checked against `main`, the
    /// one site a start creates.
    private static func storedProfiles(_ configuration: ServerConfiguration, _ rules: RuleSet) throws(Failure) -> [String] {
        let path = configuration.dataDirectory.appendingPathComponent(Database.fileName).path
        guard FileManager.default.fileExists(atPath: path) else {
            try configuredSites(configuration, sites: [SitesSchema.mainCode])
            return []
        }
        let codes: StoredProfileCodes
        let sites: [String]
        do {
            let connection = try Connection(path: path, options: .readOnly)
            defer { connection.close() }
            try Schema.migrator().checkApplied(in: connection)
            codes = try StoredProfileCodes.check(connection, rules: rules, now: Date().timeIntervalSince1970,
                                                 defaultTimeZone: configuration.defaultTimeZone)
            sites = try SiteRepository.all(connection).map(\.code)
        } catch let refusal as MigrationError {
            throw Failure(description: "\(path): \(refusal)")
        } catch {
            return ["stored profiles and site codes not checked (\(path): \(error))"]
        }
        if let refusal = codes.refusal { throw Failure(description: configuration.locating(refusal).description) }
        try configuredSites(configuration, sites: sites)
        return codes.warnings.map { "\($0.key) \"\($0.code)\" is not in the rules, carried only by withdrawn or finished patients: \($0.studyIds)" }
    }

    private static func configuredSites(_ configuration: ServerConfiguration, sites: [String]) throws(Failure) {
        do { try ConfiguredSites.check(configuration, sites: sites) } catch {
            throw Failure(description: "\(configuration.configFile?.path ?? "hyponatrack.json"): \(error)")
        }
    }

    private static func caFile(of hook: HookConfiguration) -> String? {
        switch hook.kind {
        case .webhook(_, _, let caFile), .email(_, _, _, _, let caFile): return caFile
        case .command: return nil
        }
    }

    /// Why `path` cannot be read by this process, or nil (also when there is no path).
    private static func unreadable(_ path: String?) -> String? {
        guard let path else { return nil }
        return FileManager.default.isReadableFile(atPath: path) ? nil : "\(path) does not exist or cannot be read"
    }
}
