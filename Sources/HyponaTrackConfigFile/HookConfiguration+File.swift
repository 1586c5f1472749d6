import HTJSON
import HyponaTrackDomain

/// `hooks` and `escalation` of `hyponatrack.json`, read into the domain's typed values.
extension HookConfiguration {
    static func parse(_ json: JSONValue, resolve: (String) -> String) throws(FieldError) -> [HookConfiguration] {
        guard case .array(let items) = json else { throw FieldError.invalid("hooks", "expected an array") }
        var hooks: [HookConfiguration] = []
        for (i, item) in items.enumerated() {
            let r = try ObjectReader(item, path: "hooks[\(i)]")
            let name = try r.required("name", .string(length: 1...64, expected: "a name of letters, digits, '.', '_' or '-'", isValidName))
            guard !hooks.contains(where: { $0.name == name }) else { throw FieldError.invalid(r.fieldPath("name"), "\(name) is used twice") }
            let type = try r.required("type", .oneOf(["webhook", "email", "command"]))
            let events = try r.optionalArray("events", maxCount: 10) { v, p throws(FieldError) in
                try subscribableEvent.convert(v, p)
            } ?? []
            let path = JSONRead.string(length: 1...4096)
            let kind: Kind
            switch type {
            case "webhook":
                let url = try r.required("url", .string(length: 8...2000))
                if let problem = WebhookTransport.validateURL(url) { throw FieldError.invalid(r.fieldPath("url"), problem) }
                kind = .webhook(url: url, secretFile: resolve(try r.required("secretFile", path)),
                                caFile: try r.optional("caFile", path).map(resolve))
            case "email":
                let url = try r.required("smtpUrl", .string(length: 8...2000))
                if let problem = smtpURLProblem(url) { throw FieldError.invalid(r.fieldPath("smtpUrl"), problem) }
                let address = JSONRead.string(length: 3...254, expected: "an e-mail address", isEmailAddress)
                let to = try r.optionalArray("to", maxCount: 50) { v, p throws(FieldError) in try address.convert(v, p) } ?? []
                guard !to.isEmpty else { throw FieldError.invalid(r.fieldPath("to"), "needs at least one recipient") }
                kind = .email(smtpURL: url, from: try r.required("from", address), to: to,
                              credentialsFile: try r.optional("credentialsFile", path).map(resolve),
                              caFile: try r.optional("caFile", path).map(resolve))
            default:
                let p = try r.required("path", path)
                if let problem = commandPathProblem(p) { throw FieldError.invalid(r.fieldPath("path"), problem) }
                kind = .command(path: resolve(p), args: try r.optionalArray("args", maxCount: 32) { v, p throws(FieldError) in
                    try JSONRead.string(length: 0...1000).convert(v, p)
                } ?? [], timeoutSeconds: try r.optional("timeoutSeconds", .number(1...300)) ?? 30)
            }
            let sites = try r.optionalArray("sites", maxCount: 100) { v, p throws(FieldError) in try siteCode.convert(v, p) }
            if sites?.isEmpty == true { throw FieldError.invalid(r.fieldPath("sites"), "name at least one site, or leave sites out for all") }
            try r.finish()
            hooks.append(HookConfiguration(name: name, kind: kind, events: events, sites: sites))
        }
        return hooks
    }

    /// A site code as the configuration names one (whether the site exists is checked at start).
    static var siteCode: JSONRead<String> {
        JSONRead.string(length: 1...32, expected: "a site code: a lower-case letter, then lower-case letters, digits or _", SiteRules.isValidCode)
    }

    /// One entry of `events`: a subscribable event type, by its raw value.
    static var subscribableEvent: JSONRead<HookEventType> {
        // oneOf has let only raw values of cases through, so the conversion cannot fail.
        JSONRead.oneOf(HookEventType.subscribable.map(\.rawValue)).map { raw, _ in HookEventType(rawValue: raw)! }
    }
}

extension EscalationLadder {
    /// `escalation`: `red` and `yellow`, each a list of tiers naming configured `hooks`; `sites`:
    /// by site code, a site's own `red` and/or `yellow` (a level left out uses the study's).
    static func parse(_ json: JSONValue, hooks: [String]) throws(FieldError) -> EscalationLadder {
        let r = try ObjectReader(json, path: "escalation")
        var result = EscalationLadder(red: try tiers(r, "red", hooks: hooks), yellow: try tiers(r, "yellow", hooks: hooks))
        if let sites = r.raw("sites"), !sites.isNull {
            guard case .object(let object) = sites else { throw FieldError.invalid(r.fieldPath("sites"), "expected an object of site codes") }
            for member in object.members {
                let path = r.fieldPath("sites") + "." + member.key
                guard SiteRules.isValidCode(member.key) else {
                    throw FieldError.invalid(path, "not a site code: a lower-case letter, then lower-case letters, digits or _")
                }
                let sr = try ObjectReader(member.value, path: path)
                let own = SiteTiers(red: sr.has("red") ? try tiers(sr, "red", hooks: hooks) : nil,
                                    yellow: sr.has("yellow") ? try tiers(sr, "yellow", hooks: hooks) : nil)
                try sr.finish()
                result.sites[member.key] = own
            }
        }
        try r.finish()
        return result
    }

    /// One level's tiers: increasing `afterMinutes`, each naming configured hooks.
    private static func tiers(_ r: ObjectReader, _ key: String, hooks: [String]) throws(FieldError) -> [Tier] {
        var previous = -1.0
        return try r.optionalArray(key, maxCount: 20) { v, p throws(FieldError) -> Tier in
            let t = try ObjectReader(v, path: p)
            let after = try t.required("afterMinutes", .number(0...10_080))
            guard after >= previous else { throw FieldError.invalid(t.fieldPath("afterMinutes"), "tiers must be in increasing order") }
            previous = after
            let names = try t.optionalArray("hooks", maxCount: 20) { v, p throws(FieldError) in
                try JSONRead.oneOf(hooks).convert(v, p)
            } ?? []
            try t.finish()
            return Tier(afterMinutes: after, hooks: names)
        } ?? []
    }
}
