import HTJSON

/// `hyponatrack site add|list|update`, `staff sites` and `transfer` (docs/product.md, third
/// round, S): admin only.
enum SiteCommands {
    static let site = CommandGroup(name: "site", about: """
        The study's sites (admin only). A site's code is a lower-case letter, then up to 31
        lower-case letters, digits or _. Its time zone is the default for patients enrolled
        there; its clinic phone and emergency number are shown to its patients on the web
        check-in instead of app.clinicPhone and app.emergencyNumber.
        `hyponatrack site SUBCOMMAND --help` describes one subcommand.
        """, subcommands: [add, list, update, remove])

    static let fields = [("name", "name"), ("time-zone", "timeZone"), ("clinic-phone", "clinicPhone"),
                         ("emergency-number", "emergencyNumber"), ("redcap-dag", "redcapDag")]

    static let add = StaffCommand(name: "site add", usage: ["""
        site add CODE --name NAME [--time-zone TZ] [--clinic-phone P] [--emergency-number N]
                      [--redcap-dag DAG] [--json]
        """], about: "Adds a site.", operands: ["CODE"], spec: .init(options: Set(fields.map(\.0)))) { a, client in
        var body = JSONObject([("code", .string(a.positionals[0]))])
        for (option, key) in fields { if let v = a.value(option) { body[key] = .string(v) } }
        let r = try client.post("/v1/sites", .object(body))
        return Reply(json: r) { io in io.out("Added the site \(Show.text(r, "code")) (\(Show.text(r, "name"))).") }
    }

    static let update = StaffCommand(name: "site update", usage: ["""
        site update CODE [--name NAME] [--time-zone TZ] [--clinic-phone P] [--emergency-number N]
                         [--redcap-dag DAG] [--json]
        """], about: """
        Changes a site; an empty value ("") clears it, so the site uses the study's again.
        """, operands: ["CODE"], spec: .init(options: Set(fields.map(\.0)))) { a, client in
        var body = JSONObject()
        for (option, key) in fields { if let v = a.value(option) { body[key] = v.isEmpty && key != "name" ? .null : .string(v) } }
        let r = try client.patch("/v1/sites/\(DaemonClient.segment(a.positionals[0]))", .object(body))
        return Reply(json: r) { io in io.out("Updated the site \(Show.text(r, "code")).") }
    }

    static let remove = StaffCommand(name: "site remove", usage: ["site remove CODE [--json]"], about: """
        Removes a site that no patient and no active staff member belongs to (transfer them
        first: hyponatrack transfer, hyponatrack staff sites). Audited.
        """, operands: ["CODE"], spec: .init()) { a, client in
        let code = a.positionals[0]
        _ = try client.send(.delete, "/v1/sites/\(DaemonClient.segment(code))", body: nil)
        return Reply(json: ["code": .string(code), "removed": true]) { io in io.out("Removed the site \(code).") }
    }

    static let list = StaffCommand(name: "site list", usage: ["site list [--json]"], about: """
        Every site with its name, time zone, numbers, REDCap DAG and how many patients and active staff belong to it.
        """, spec: .init()) { _, client in
        let r = try client.get("/v1/sites")
        return Reply(json: r) { io in
            guard case .array(let items) = r else { return }
            io.out(Show.table(["CODE", "NAME", "TIME ZONE", "CLINIC", "EMERGENCY", "DAG", "PATIENTS", "STAFF"], items.map { s in
                ["code", "name", "timeZone", "clinicPhone", "emergencyNumber", "redcapDag", "patients", "staff"].map { Show.text(s, $0) }
            }))
        }
    }

    static let staffSites = StaffCommand(name: "staff sites", usage: ["staff sites NAME (--site CODE [--site CODE]… | --all-sites) [--json]"],
                                         about: """
        Sets the sites a nurse or viewer works for (admin only; audited): they then see and act on
        the patients of those sites only. Admins always work for every site.
        """, operands: ["NAME"], spec: .init(flags: ["all-sites"], repeatable: ["site"])) { a, client in
        let r = try client.put("/v1/staff/\(DaemonClient.segment(a.positionals[0]))/sites", .object(body(a)))
        return Reply(json: r) { io in io.out("\(Show.text(r, "name")) works for \(sitesText(r)).") }
    }

    /// `--site CODE`… / `--all-sites` as the staff body's `sites` and `allSites`.
    static func body(_ a: Arguments) -> JSONObject {
        var body = JSONObject()
        if !a.all("site").isEmpty { body["sites"] = .array(a.all("site").map { .string($0) }) }
        if a.flag("all-sites") { body["allSites"] = true }
        return body
    }

    /// "all sites" or the codes.
    static func sitesText(_ member: JSONValue) -> String {
        if Show.field(member, "allSites") == .bool(true) { return "all sites" }
        guard case .array(let codes)? = Show.field(member, "sites") else { return "no site" }
        return codes.isEmpty ? "no site" : codes.compactMap { if case .string(let s) = $0 { s } else { nil } }.joined(separator: ", ")
    }

    static let transfer = StaffCommand(name: "transfer", usage: ["transfer ID --site CODE [--json]"], about: """
        Moves a patient to another site (admin only; audited): their days, alerts, contacts and
        reminders go along, and staff of the new site see them from then on.
        """, operands: ["ID"], spec: .init(options: ["site"])) { a, client in
        let r = try client.post("/v1/patients/\(DaemonClient.segment(a.positionals[0]))/transfer", ["site": .string(try a.required("site"))])
        return Reply(json: r) { io in io.out("Transferred \(Show.text(r, "studyId")) from \(Show.text(r, "from")) to \(Show.text(r, "to")).") }
    }
}
