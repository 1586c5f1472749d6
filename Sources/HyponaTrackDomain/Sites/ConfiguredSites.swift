/// The site codes the configuration names (`escalation.sites`, `hooks[].sites`, `console.oidc.sites`) must be sites
/// of the database at start (docs/product.md, settled S): a typo would otherwise leave a
/// site's alerts on the study's ladder, or a hook deaf, without anyone noticing. The daemon
/// exits 78 (EX_CONFIG) on this error, as on any other invalid configuration.
public struct UnknownConfiguredSite: Error, Sendable, CustomStringConvertible {
    /// The configuration key, e.g. `escalation.sites.muc` or `hooks[2].sites`.
    public let key: String
    public let code: String
    public let known: [String]

    public var description: String {
        "\(key): no site \(code) in the database (sites: \(known.joined(separator: ", "))); add it first (hyponatrack site add) or correct the name"
    }
}

enum ConfiguredSites {
    static func check(_ configuration: ServerConfiguration, sites: [String]) throws(UnknownConfiguredSite) {
        let known = Set(sites)
        for code in configuration.escalation.sites.keys.sorted() where !known.contains(code) {
            throw UnknownConfiguredSite(key: "escalation.sites.\(code)", code: code, known: sites)
        }
        for (group, codes) in (configuration.console.oidc?.sites ?? [:]).sorted(by: { $0.key < $1.key }) {
            for code in codes where !known.contains(code) {
                throw UnknownConfiguredSite(key: "console.oidc.sites.\(group)", code: code, known: sites)
            }
        }
        for (i, hook) in configuration.hooks.enumerated() {
            for code in hook.sites ?? [] where !known.contains(code) {
                throw UnknownConfiguredSite(key: "hooks[\(i)].sites", code: code, known: sites)
            }
        }
    }
}
