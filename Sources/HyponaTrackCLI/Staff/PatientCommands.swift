import HTJSON
import QRCode

/// enroll, update, reissue, patients, show.
enum PatientCommands {
    static let enroll = StaffCommand(name: "enroll", usage: ["""
        enroll --study-id ID --surgery-date YYYY-MM-DD --age N --sex female|male
                          --bmi X --baseline-weight KG [--time-zone IANA] [--histology CODE]
                          [--stalk-deviation] [--risk-med CODE]... [--fluid-limit ML]
                          [--baseline-rt MS] [--desmopressin-prescribed] [--simplified]
                          [--web-only] [--loan-device] [--baseline-pre-op]
                          [--consent-version V --consent-date YYYY-MM-DD] [--site CODE] [--qr] [--json]
        """], about: """
        Enrolls a patient (pseudonymous study ID only) and prints the risk class and score,
        whether Kat B is still pending, and the one-time activation code with its expiry.
        --site: the patient's site (required when the study has more than one; the member's
        sites only). Without --time-zone the site's time zone applies, else the server's
        configured defaultTimeZone. Study IDs are unique across all sites.
        --histology and --risk-med take the codes of the study's risk-model.json (shipped:
        craniopharyngioma, cushing, rathke_cleft_cyst, macroadenoma, microadenoma, other).
        --consent-version (1-32 of A-Z a-z 0-9 . _ -) and --consent-date (not in the future, not
        more than 60 days after surgery) record the signed consent; a study configured with
        consentRequired refuses an enrolment without both. --web-only: the patient checks in
        only through the web app (/app/); the reaction and tapping tasks are hidden (the last
        activation decides it again). With app.publicURL set the activation link is printed too;
        --qr also prints it as a QR code (UTF-8 half blocks) for the patient's phone to scan off
        the screen. Needs a nurse or admin token.
        """, spec: .init(flags: ["stalk-deviation", "desmopressin-prescribed", "simplified", "web-only", "loan-device", "baseline-pre-op", "qr"],
                         options: ["study-id", "surgery-date", "age", "sex", "bmi", "baseline-weight", "time-zone", "histology",
                                   "fluid-limit", "baseline-rt", "consent-version", "consent-date", "site"],
                         repeatable: ["risk-med"])) { a, client in
        let r = try client.post("/v1/patients", .object(try enrollment(a)))
        return Reply(json: r) { io in
            let f = { (k: String) in Show.text(r, k) }
            io.out("Enrolled \(f("studyId")): risk \(f("riskClass")) (score \(f("riskScore")); Kat A \(f("katA")), Kat B \(f("katB")), Kat C \(f("katC")))")
            if Show.field(r, "katBPending") == .bool(true) {
                io.out("Kat B pending: add POD sodium, operation minutes and CSF leak with `hyponatrack update \(f("studyId")) …`")
            }
            io.out("Activation code: \(f("activationCode"))  (single use, valid until \(f("activationExpiresAt")))")
            if case .string(let url)? = Show.field(r, "activationURL") { io.out("Activation link: \(url)") }
            io.out("Monitoring until \(f("monitoringEnds"))")
            if a.flag("qr") { printQR(r, io) }
        }
    }

    /// The `POST /v1/patients` body `enroll` sends. `timeZone` only when `--time-zone` was
    /// given: otherwise the daemon applies its configured `defaultTimeZone`.
    static func enrollment(_ a: Arguments) throws -> JSONObject {
        var p = JSONObject()
        for (flag, key) in [("study-id", "studyId"), ("surgery-date", "surgeryDate"), ("sex", "sex")] {
            p[key] = .string(try a.required(flag))
        }
        guard let age = try a.integer("age") else { throw UsageError("--age is required") }
        guard let bmi = try a.number("bmi") else { throw UsageError("--bmi is required") }
        guard let weight = try a.number("baseline-weight") else { throw UsageError("--baseline-weight is required") }
        p["age"] = .int(age)
        p["bmi"] = .number(bmi)
        p["baselineWeightKg"] = .number(weight)
        if let zone = a.value("time-zone") { p["timeZone"] = .string(zone) }
        if let site = a.value("site") { p["site"] = .string(site) }
        if let h = a.value("histology") { p["histology"] = .string(h) }
        p["stalkDeviation"] = .bool(a.flag("stalk-deviation"))
        p["riskMedications"] = .array(a.all("risk-med").map { JSONValue.string($0) })
        if let v = try a.number("fluid-limit") { p["fluidLimitMl"] = .number(v) }
        if let v = try a.number("baseline-rt") { p["baselineReactionTimeMs"] = .number(v) }
        p["desmopressinPrescribed"] = .bool(a.flag("desmopressin-prescribed"))
        p["simplifiedMode"] = .bool(a.flag("simplified"))
        if a.flag("web-only") { p["webOnly"] = true }
        p["loanDevice"] = .bool(a.flag("loan-device"))
        p["baselineIsPreOp"] = .bool(a.flag("baseline-pre-op"))
        consent(a, into: &p)
        return p
    }

    /// `--consent-version` and `--consent-date`, checked by the daemon.
    static func consent(_ a: Arguments, into p: inout JSONObject) {
        if let v = a.value("consent-version") { p["consentVersion"] = .string(v) }
        if let v = a.value("consent-date") { p["consentDate"] = .string(v) }
    }

    static let update = StaffCommand(name: "update", usage: ["""
        update ID [--pod-sodium N] [--preop-sodium N] [--operation-minutes N]
                  [--csf-leak yes|no] [--postop-nausea CODE]
                  [--diabetes-insipidus yes|no] [--desmopressin yes|no] [--cortisol-deficiency yes|no]
                  [--histology CODE] [--stalk-deviation yes|no] [--risk-med CODE]... [--clear-risk-meds]
                  [--age N] [--sex S] [--bmi X] [--baseline-weight KG] [--time-zone IANA]
                  [--di-active yes|no] [--fluid-limit ML|none] [--baseline-rt MS]
                  [--desmopressin-prescribed yes|no] [--simplified yes|no] [--web-only yes|no] [--surgery-date D]
                  [--consent-version V] [--consent-date YYYY-MM-DD]
                  [--withdraw --reason T] [--json]
        """], about: """
        Changes profile fields; every stored day of the monitoring window is re-evaluated. The
        surgery date can change only while the patient has no day data. --histology, --risk-med
        and --postop-nausea take the codes of the study's risk-model.json. --consent-version and
        --consent-date record (or correct) the signed consent, as for enroll. --withdraw ends
        monitoring and stops the patient's token.
        """, operands: ["ID"], spec: .init(flags: ["clear-risk-meds", "withdraw"],
                         options: ["pod-sodium", "preop-sodium", "operation-minutes", "csf-leak", "postop-nausea",
                                   "diabetes-insipidus", "desmopressin", "cortisol-deficiency", "histology", "stalk-deviation",
                                   "age", "sex", "bmi", "baseline-weight", "time-zone", "di-active", "fluid-limit", "baseline-rt",
                                   "desmopressin-prescribed", "simplified", "web-only", "surgery-date", "consent-version", "consent-date",
                                   "reason"],
                         repeatable: ["risk-med"])) { a, client in
        let id = a.positionals[0]
        let path = "/v1/patients/\(DaemonClient.segment(id))"
        if a.flag("withdraw") {
            guard let reason = a.value("reason") else { throw UsageError("--withdraw needs --reason") }
            let r = try client.post(path + "/withdrawal", ["reason": .string(reason)])
            return Reply(json: r) { io in io.out("Withdrew \(id); monitoring ended and the app's token stopped working.") }
        }
        var p = JSONObject(), katB = JSONObject(), katC = JSONObject()
        if let v = try a.number("pod-sodium") { katB["podSodium"] = .number(v) }
        if let v = try a.number("preop-sodium") { katB["preopSodium"] = .number(v) }
        if let v = try a.integer("operation-minutes") { katB["operationMinutes"] = .int(v) }
        if let v = try a.yesNo("csf-leak") { katB["csfLeak"] = .bool(v) }
        if let v = a.value("postop-nausea") { katC["postopNausea"] = .string(v) }
        if let v = try a.yesNo("diabetes-insipidus") { katC["diabetesInsipidus"] = .bool(v) }
        if let v = try a.yesNo("desmopressin") { katC["desmopressin"] = .bool(v) }
        if let v = try a.yesNo("cortisol-deficiency") { katC["newCortisolDeficiency"] = .bool(v) }
        if katB.count > 0 { p["katB"] = .object(katB) }
        if katC.count > 0 { p["katC"] = .object(katC) }
        if let v = a.value("histology") { p["histology"] = .string(v) }
        if let v = try a.yesNo("stalk-deviation") { p["stalkDeviation"] = .bool(v) }
        if a.flag("clear-risk-meds") || !a.all("risk-med").isEmpty {
            p["riskMedications"] = .array(a.all("risk-med").map { JSONValue.string($0) })
        }
        if let v = try a.integer("age") { p["age"] = .int(v) }
        if let v = a.value("sex") { p["sex"] = .string(v) }
        if let v = try a.number("bmi") { p["bmi"] = .number(v) }
        if let v = try a.number("baseline-weight") { p["baselineWeightKg"] = .number(v) }
        if let v = a.value("time-zone") { p["timeZone"] = .string(v) }
        if let v = try a.yesNo("di-active") { p["diabetesInsipidusActive"] = .bool(v) }
        if let v = a.value("fluid-limit") {
            if v == "none" { p["fluidLimitMl"] = .null } else { p["fluidLimitMl"] = .number(try a.number("fluid-limit")!) }
        }
        if let v = try a.number("baseline-rt") { p["baselineReactionTimeMs"] = .number(v) }
        if let v = try a.yesNo("desmopressin-prescribed") { p["desmopressinPrescribed"] = .bool(v) }
        if let v = try a.yesNo("simplified") { p["simplifiedMode"] = .bool(v) }
        if let v = try a.yesNo("web-only") { p["webOnly"] = .bool(v) }
        if let v = a.value("surgery-date") { p["surgeryDate"] = .string(v) }
        consent(a, into: &p)
        guard p.count > 0 else { throw UsageError("nothing to update") }
        let r = try client.patch(path, .object(p))
        return Reply(json: r) { io in
            let f = { (k: String) in Show.text(r, k) }
            io.out("Updated \(id): risk \(f("riskClass")) (score \(f("riskScore"))), Kat B pending: \(f("katBPending")), level \(f("level")), monitoring until \(f("monitoringEnds"))")
        }
    }

    static let reissue = StaffCommand(name: "reissue", usage: ["reissue ID [--add-device] [--qr] [--json]"], about: """
        Issues a new one-time activation code (for a lost or reinstalled app). Every earlier
        patient token and code of this patient stops working. --add-device: a further code for a
        second device (a patient who uses both the app and the web check-in); the tokens the
        patient has keep working (audited as activation.add_device). With app.publicURL set the
        activation link is printed too (--qr: as a QR code as well). Refused for a patient whose access has ended
        (tokens.patientDaysAfterMonitoring days after monitoring): no code is printed.
        """, operands: ["ID"], spec: .init(flags: ["add-device", "qr"])) { a, client in
        let id = a.positionals[0]
        let addDevice = a.flag("add-device")
        let body: JSONObject = addDevice ? JSONObject([("addDevice", .bool(true))]) : JSONObject()
        let r = try client.post("/v1/patients/\(DaemonClient.segment(id))/activation", .object(body))
        return Reply(json: r) { io in
            io.out("New activation code for \(id): \(Show.text(r, "activationCode"))  (valid until \(Show.text(r, "activationExpiresAt")))")
            if case .string(let url)? = Show.field(r, "activationURL") { io.out("Activation link: \(url)") }
            io.out(addDevice ? "The tokens this patient already has keep working." : "Every earlier token of this patient has stopped working.")
            if a.flag("qr") { printQR(r, io) }
        }
    }

    static let patients = StaffCommand(name: "patients", usage: ["patients [--site CODE] [--json]"], about: """
        Every patient of your sites (--site: of that one) with POD, risk class, current level and status.
        """, spec: .init(options: ["site"])) { a, client in
        let r = try client.get("/v1/patients" + SiteQuery.text([("site", a.value("site"))]))
        return Reply(json: r) { io in
            guard case .array(let items) = r else { return }
            let rows = items.map { p -> [String] in
                let f = { (k: String) in Show.text(p, k) }
                let status = Show.field(p, "withdrawn") == .bool(true) ? "withdrawn"
                    : Show.field(p, "activated") == .bool(true) ? (Show.field(p, "monitoringActive") == .bool(true) ? "monitoring" : "ended")
                    : "not activated"
                let kb = Show.field(p, "katBPending") == .bool(true) ? " (Kat B pending)" : ""
                return [f("studyId"), f("pod"), "\(f("riskClass")) \(f("riskScore"))\(kb)", f("level").uppercased(), f("levelDate"),
                        f("reasons"), f("openAlerts"), status]
            }
            io.out(Show.table(["STUDY ID", "POD", "RISK", "LEVEL", "ON", "REASONS", "OPEN ALERTS", "STATUS"], rows))
        }
    }

    static let show = StaffCommand(name: "show", usage: ["show ID [--json]"], about: """
        A patient's profile, risk and timeline: each day's data, lab values and traffic light.
        """, operands: ["ID"], spec: .init()) { a, client in
        let r = try client.get("/v1/patients/\(DaemonClient.segment(a.positionals[0]))")
        return Reply(json: r) { io in
            let f = { (k: String) in Show.text(r, k) }
            io.out("\(f("studyId")): surgery \(f("surgeryDate")), POD \(f("pod")), risk \(f("riskClass")) \(f("riskScore")) (A \(f("katA")) B \(f("katB")) C \(f("katC")))\(Show.field(r, "katBPending") == .bool(true) ? ", Kat B pending" : "")")
            io.out("monitoring \(f("monitoringStarts"))–\(f("monitoringEnds")), activated \(f("activatedAt")), withdrawn \(f("withdrawn"))")
            guard case .array(let days)? = Show.field(r, "timeline") else { return }
            let rows = days.map { d -> [String] in
                let data = Show.field(d, "data")
                let e = Show.field(d, "evaluation")
                var labs = ""
                if case .array(let l)? = data.flatMap({ Show.field($0, "labSodium") }) {
                    labs = l.map { "\(Show.text($0, "value"))#\(Show.text($0, "id"))" }.joined(separator: " ")
                }
                return [Show.text(d, "date"), Show.text(d, "pod"), Show.text(data, "weightMorningKg"), Show.text(data, "fluidIntakeMl"),
                        labs.isEmpty ? "-" : labs, Show.text(e, "level").uppercased(), reasonCodes(e.flatMap { Show.field($0, "reasons") })]
            }
            io.out(Show.table(["DATE", "POD", "WEIGHT", "FLUID", "NA (#ID)", "LEVEL", "REASONS"], rows))
        }
    }

    static func reasonCodes(_ v: JSONValue?) -> String {
        guard case .array(let items)? = v, !items.isEmpty else { return "-" }
        return items.map { Show.string(Show.field($0, "code")) }.joined(separator: ",")
    }

    /// `--qr`: the activation link as a terminal QR code (UTF-8 half blocks, light modules drawn
    /// for the usual light-on-dark terminal) for the patient's phone camera. Without
    /// `app.publicURL` the server answers no link: said on standard error (the code is printed).
    static func printQR(_ r: JSONValue, _ io: CLIOutput) {
        guard case .string(let url)? = Show.field(r, "activationURL") else {
            io.error("--qr: the server answered no activation link (set app.publicURL in its configuration); use the code above")
            return
        }
        do { io.out(try QRCode(text: url).terminalText()) } catch { io.error("--qr: the activation link cannot be drawn: \(error)") }
    }
}
