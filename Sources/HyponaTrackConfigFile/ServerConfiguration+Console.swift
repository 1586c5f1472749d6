import HTJSON
import HyponaTrackDomain

extension ServerConfiguration {
    /// `console {requireMFA, mfaKeyFile, passwordSignIn, oidc}`.
    static func parseConsole(_ r: ObjectReader, into config: inout ServerConfiguration, resolve: (String) -> String) throws(FieldError) {
        guard let c = try r.optional("console", .any) else { return }
        let cr = try ObjectReader(c, path: "console")
        config.console.requireMFA = try cr.optional("requireMFA", .bool) ?? false
        config.console.mfaKeyFile = try cr.optional("mfaKeyFile", .string(length: 1...4096)).map(resolve)
        config.console.passwordSignIn = try cr.optional("passwordSignIn", .bool) ?? true
        if let o = try cr.optional("oidc", .any) { config.console.oidc = try parseSingleSignOn(o, resolve: resolve) }
        try cr.finish()
        if !config.console.passwordSignIn && config.console.oidc == nil {
            throw FieldError.invalid("console.passwordSignIn", "false needs console.oidc (else nobody can sign in to the console)")
        }
    }

    /// `console.oidc`: the provider, the client, and how claims map to members.
    static func parseSingleSignOn(_ json: JSONValue, resolve: (String) -> String) throws(FieldError) -> SingleSignOn {
        let o = try ObjectReader(json, path: "console.oidc")
        let issuer = try o.required("issuer", .string(length: 8...2000))
        if let problem = SingleSignOn.issuerProblem(issuer) { throw FieldError.invalid(o.fieldPath("issuer"), problem) }
        let redirect = try o.required("redirectURL", .string(length: 8...2000))
        if let problem = SingleSignOn.redirectURLProblem(redirect) { throw FieldError.invalid(o.fieldPath("redirectURL"), problem) }
        var sso = SingleSignOn(issuer: issuer, clientId: try o.required("clientId", .string(length: 1...500)), redirectURL: redirect)
        let path = JSONRead.string(length: 1...4096)
        sso.clientSecretFile = try o.optional("clientSecretFile", path).map(resolve)
        sso.caFile = try o.optional("caFile", path).map(resolve)
        let token = JSONRead.string(length: 1...200, expected: "printable ASCII without spaces") { $0.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F } }
        if let scopes = try o.optionalArray("scopes", maxCount: 20, { v, p throws(FieldError) in try token.convert(v, p) }) {
            guard scopes.contains("openid") else { throw FieldError.invalid(o.fieldPath("scopes"), "must include openid") }
            sso.scopes = scopes
        }
        sso.usernameClaim = try o.optional("usernameClaim", token) ?? sso.usernameClaim
        sso.groupsClaim = try o.optional("groupsClaim", token)
        sso.displayName = try o.optional("displayName", .string(length: 1...60)) ?? sso.displayName
        sso.roles = try map(o, "roles") { v, p throws(FieldError) in
            let name = try JSONRead.oneOf(Role.allCases.map(\.rawValue)).convert(v, p)
            return Role(rawValue: name)!   // oneOf let only a role's raw value through
        }
        sso.sites = try map(o, "sites") { v, p throws(FieldError) in
            guard case .array(let items) = v, items.count <= 100 else { throw FieldError.invalid(p, "expected an array of site codes") }
            var codes: [String] = []
            for (i, item) in items.enumerated() { codes.append(try HookConfiguration.siteCode.convert(item, "\(p)[\(i)]")) }
            guard !codes.isEmpty else { throw FieldError.invalid(p, "name at least one site") }
            return codes
        }
        sso.usernames = try map(o, "usernames") { v, p throws(FieldError) in
            try JSONRead.string(length: 1...64, expected: "a staff name of letters, digits, '.', '_', '-' or '@'", StaffDirectory.isValidName).convert(v, p)
        }
        for group in sso.sites.keys.sorted() where sso.roles[group] == nil {
            throw FieldError.invalid(o.fieldPath("sites") + "." + group, "group \(group) has sites but no role in console.oidc.roles")
        }
        if !sso.roles.isEmpty && sso.groupsClaim == nil {
            throw FieldError.invalid(o.fieldPath("groupsClaim"), "is needed when roles map groups")
        }
        try o.finish()
        return sso
    }

    /// An object of `key` whose members each convert with `read` (absent: empty).
    private static func map<T>(_ o: ObjectReader, _ key: String, _ read: (JSONValue, String) throws(FieldError) -> T) throws(FieldError) -> [String: T] {
        guard let raw = o.raw(key), !raw.isNull else { return [:] }
        guard case .object(let object) = raw else { throw FieldError.invalid(o.fieldPath(key), "expected an object") }
        var result: [String: T] = [:]
        for member in object.members {
            guard !member.key.isEmpty, member.key.utf8.count <= 200 else { throw FieldError.invalid(o.fieldPath(key), "a group name of 1–200 characters") }
            result[member.key] = try read(member.value, o.fieldPath(key) + "." + member.key)
        }
        return result
    }
}
