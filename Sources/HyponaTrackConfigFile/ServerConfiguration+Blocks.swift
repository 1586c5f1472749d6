import HTJSON
import HyponaTrackCore
import HyponaTrackDomain

/// The blocks of `hyponatrack.json` below the top level, each read from the top-level reader `r`
/// into `config` (absent: the domain's defaults stay).
extension ServerConfiguration {
    /// `redcap`: the sync is on when the block is there.
    static func parseREDCap(_ block: JSONValue, resolve: (String) -> String) throws(FieldError) -> REDCap {
        let rc = try ObjectReader(block, path: "redcap")
        let url = try rc.required("url", .string(length: 8...2000))
        if let problem = REDCap.urlProblem(url) { throw FieldError.invalid("redcap.url", problem) }
        var redcap = REDCap(url: url, tokenFile: try rc.optional("tokenFile", .string(length: 1...4096)).map(resolve),
                            caFile: try rc.optional("caFile", .string(length: 1...4096)).map(resolve),
                            batchSize: try rc.optional("batchSize", .integer(1...1000)) ?? 100,
                            maxRequestsPerMinute: try rc.optional("maxRequestsPerMinute", .integer(1...600)) ?? 120)
        if let events = try rc.optional("events", .any) {
            let er = try ObjectReader(events, path: "redcap.events")
            let name = JSONRead.string(length: 1...100, expected: "a REDCap event name such as baseline_arm_1", REDCap.isEventName)
            redcap.baselineEvent = try er.required("baseline", name)
            redcap.dailyEvent = try er.required("daily", name)
            try er.finish()
        }
        redcap.unhealthyAfterMinutes = try rc.optional("unhealthyAfterMinutes", .number(1...10_080)) ?? 60
        redcap.settleSeconds = try rc.optional("settleSeconds", .number(0...3600)) ?? 60
        try rc.finish()
        return redcap
    }

    static func parseApp(_ r: ObjectReader, into config: inout ServerConfiguration) throws(FieldError) {
        guard let a = try r.optional("app", .any) else { return }
        let ar = try ObjectReader(a, path: "app")
        config.app.emergencyNumber = try ar.optional("emergencyNumber", JSONRead.string(length: 1...20,
            expected: "a telephone number of digits, spaces and a leading +", App.isEmergencyNumber)) ?? "112"
        config.app.clinicPhone = try ar.optional("clinicPhone", JSONRead.string(length: 1...30,
            expected: "a telephone number of digits, spaces and a leading +", App.isEmergencyNumber))
        if let hours = try ar.optional("clinicHours", .string(length: 1...200)) {
            switch ClinicHours.parse(hours) {
            case .success(let parsed): config.app.clinicHours = parsed
            case .failure(let e): throw FieldError.invalid("app.clinicHours", e.message)
            }
        }
        if var url = try ar.optional("publicURL", .string(length: 8...500)) {
            while url.hasSuffix("/") { url.removeLast() }
            if let problem = App.publicURLProblem(url) { throw FieldError.invalid("app.publicURL", problem) }
            config.app.publicURL = url
        }
        try ar.finish()
    }

    static func parseActivation(_ r: ObjectReader, into config: inout ServerConfiguration) throws(FieldError) {
        guard let a = try r.optional("activation", .any) else { return }
        let ar = try ObjectReader(a, path: "activation")
        config.activation.codeTTLSeconds = (try ar.optional("codeTtlHours", .number(0.1...720)) ?? 72) * 3600
        config.activation.maxFailures = try ar.optional("maxFailures", .integer(1...100)) ?? 5
        config.activation.lockoutSeconds = (try ar.optional("lockoutMinutes", .number(0.1...1440)) ?? 15) * 60
        try ar.finish()
    }

    static func parseHTTP(_ r: ObjectReader, into config: inout ServerConfiguration) throws(FieldError) {
        guard let h = try r.optional("http", .any) else { return }
        let hr = try ObjectReader(h, path: "http")
        if try hr.optional("perIPConnections", .any) != nil {
            throw FieldError.invalid("http.perIPConnections", "is now http.maxConnectionsPerIP (default 32; trustedProxies are exempt)")
        }
        if try hr.optional("threading", .any) != nil {
            throw FieldError.invalid("http.threading", "is gone: connections are always served by libmicrohttpd's event loop and handlers by http.threads threads; remove the key")
        }
        config.http.threads = try hr.optional("threads", .integer(1...256)) ?? config.http.threads
        config.http.maxConnections = try hr.optional("maxConnections", .integer(2...100_000)) ?? config.http.maxConnections
        config.http.maxConnectionsPerIP = try hr.optional("maxConnectionsPerIP", .integer(0...100_000)) ?? config.http.maxConnectionsPerIP
        config.http.headerTimeoutSeconds = try hr.optional("headerTimeoutSeconds", .number(0.1...3600)) ?? config.http.headerTimeoutSeconds
        config.http.bodyTimeoutSeconds = try hr.optional("bodyTimeoutSeconds", .number(0.1...3600)) ?? config.http.bodyTimeoutSeconds
        config.http.timeoutSeconds = try hr.optional("timeoutSeconds", .integer(1...3600)) ?? config.http.timeoutSeconds
        try hr.finish()
    }

    /// `limits` and `tokens`.
    static func parseLimitsAndTokens(_ r: ObjectReader, into config: inout ServerConfiguration) throws(FieldError) {
        if let limits = try r.optional("limits", .any) {
            let lr = try ObjectReader(limits, path: "limits")
            config.limits.anonymousPerMinute = try lr.optional("anonymousPerMinute", .integer(1...100_000))
                ?? config.limits.anonymousPerMinute
            config.limits.itemsPerList = try lr.optional("itemsPerList", .integer(1...10_000)) ?? config.limits.itemsPerList
            try lr.finish()
        }
        if let tokens = try r.optional("tokens", .any) {
            let tr = try ObjectReader(tokens, path: "tokens")
            config.tokens.patientDaysAfterMonitoring = try tr.optional("patientDaysAfterMonitoring", .integer(0...3650))
                ?? config.tokens.patientDaysAfterMonitoring
            try tr.finish()
        }
    }

    static func parseImports(_ r: ObjectReader, into config: inout ServerConfiguration) throws(FieldError) {
        guard let block = try r.optional("imports", .any) else { return }
        let ir = try ObjectReader(block, path: "imports")
        config.imports.maxUploadBytes = try ir.optional("maxUploadBytes", .integer(1024...(64 << 30))) ?? config.imports.maxUploadBytes
        config.imports.fhirPatientIdentifierSystem = try ir.optional("fhirPatientIdentifierSystem", .string(length: 1...500))
            ?? config.imports.fhirPatientIdentifierSystem
        try ir.finish()
    }

    static func parseOutcomes(_ r: ObjectReader, into config: inout ServerConfiguration) throws(FieldError) {
        guard let block = try r.optional("outcomes", .any) else { return }
        let o = try ObjectReader(block, path: "outcomes")
        config.outcomes.hyponatremiaBelow = try o.optional("hyponatremiaBelow", .number(100...180)) ?? config.outcomes.hyponatremiaBelow
        config.outcomes.lookbackDays = try o.optional("lookbackDays", .integer(1...30)) ?? config.outcomes.lookbackDays
        try o.finish()
    }
}
