import HTJSON

/// `hyponatrack staff mfa NAME [--confirm CODE | --reset]` (docs/product.md, third round, T).
enum SecondFactorCommand {
    static let staffMFA = StaffCommand(name: "staff mfa", usage: ["staff mfa NAME [--json]", "staff mfa NAME --confirm CODE [--json]",
                                                                  "staff mfa NAME --reset [--json]"], about: """
        Sets up NAME's second factor for console sign-in (the member themself, or an admin for a
        member without one): prints the otpauth:// URI for an authenticator app and 10 recovery
        codes, each usable once — shown once, keep them safe. The factor becomes active with
        --confirm and a first 6-digit code from the app. --reset (admin) removes NAME's factor and
        ends their console sessions. --json prints {"otpauthURI", "recoveryCodes"}.
        """, operands: ["NAME"], spec: .init(flags: ["reset"], options: ["confirm"])) { a, client in
        let name = a.positionals[0]
        let path = "/v1/staff/\(DaemonClient.segment(name))/mfa"
        if a.flag("reset") {
            guard a.value("confirm") == nil else { throw UsageError("--confirm and --reset exclude each other") }
            let r = try client.post(path + "/reset")
            return Reply(json: r) { io in io.out("Removed \(name)'s second factor; their console sessions have ended.") }
        }
        if let code = a.value("confirm") {
            let r = try client.post(path + "/confirmation", ["code": .string(code)])
            return Reply(json: r) { io in io.out("\(name)'s second factor is active: console sign-in asks for a code.") }
        }
        let r = try client.post(path)
        let json: JSONValue = ["otpauthURI": Show.field(r, "otpauthURI") ?? .null, "recoveryCodes": Show.field(r, "recoveryCodes") ?? .array([])]
        return Reply(json: json) { io in
            io.out("Add this to the authenticator app (shown once):")
            io.out(Show.text(r, "otpauthURI"))
            io.out("Recovery codes (each works once; keep them apart from the phone):")
            if case .array(let codes)? = Show.field(r, "recoveryCodes") { for code in codes { io.out("  " + Show.string(code)) } }
            io.out("Then confirm with a first code: hyponatrack staff mfa \(name) --confirm CODE")
        }
    }
}
