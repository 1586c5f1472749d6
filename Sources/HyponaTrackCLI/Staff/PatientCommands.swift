import HTJSON

/// enroll, update, reissue, patients, show.
enum PatientCommands {
    static let enroll = StaffCommand(name: "enroll", help: """
        Usage: hyponatrack enroll --study-id ID --surgery-date YYYY-MM-DD --age N --sex female|male
                                  --bmi X --baseline-weight KG [--time-zone IANA] [--histology CODE]
                                  [--stalk-deviation] [--risk-med CODE]... [--fluid-limit ML]
                                  [--baseline-rt MS] [--desmopressin-prescribed] [--simplified]
                                  [--loan-device] [--baseline-pre-op] [--json]

        Enrolls a patient (pseudonymous study ID only) and prints the risk class and score,
        whether Kat B is still pending, and the one-time activation code with its expiry.
        Histology: craniopharyngioma, cushing, rathke_cleft_cyst, macroadenoma, microadenoma, other.
        Needs a nurse or admin token (--token or HYPONATRACK_TOKEN; server from --server or
        HYPONATRACK_SERVER, default http://127.0.0.1:8750).
        """, spec: .init(flags: ["stalk-deviation", "desmopressin-prescribed", "simplified", "loan-device", "baseline-pre-op"],
                         options: ["study-id", "surgery-date", "age", "sex", "bmi", "baseline-weight", "time-zone", "histology",
                                   "fluid-limit", "baseline-rt"], repeatable: ["risk-med"])) { a, client, io in
        guard a.positionals.isEmpty else { throw UsageError("unexpected argument \(a.positionals[0])") }
        var p = JSONObject()
        for (flag, key) in [("study-id", "studyId"), ("surgery-date", "surgeryDate"), ("sex", "sex")] {
            guard let v = a.value(flag) else { throw UsageError("--\(flag) is required") }
            p[key] = .string(v)
        }
        guard let age = try a.integer("age") else { throw UsageError("--age is required") }
        guard let bmi = try a.number("bmi") else { throw UsageError("--bmi is required") }
        guard let weight = try a.number("baseline-weight") else { throw UsageError("--baseline-weight is required") }
        p["age"] = .int(age)
        p["bmi"] = .number(bmi)
        p["baselineWeightKg"] = .number(weight)
        p["timeZone"] = .string(a.value("time-zone") ?? "Europe/Berlin")
        if let h = a.value("histology") { p["histology"] = .string(h) }
        p["stalkDeviation"] = .bool(a.flag("stalk-deviation"))
        p["riskMedications"] = .array(a.all("risk-med").map { JSONValue.string($0) })
        if let v = try a.number("fluid-limit") { p["fluidLimitMl"] = .number(v) }
        if let v = try a.number("baseline-rt") { p["baselineReactionTimeMs"] = .number(v) }
        p["desmopressinPrescribed"] = .bool(a.flag("desmopressin-prescribed"))
        p["simplifiedMode"] = .bool(a.flag("simplified"))
        p["loanDevice"] = .bool(a.flag("loan-device"))
        p["baselineIsPreOp"] = .bool(a.flag("baseline-pre-op"))
        let r = try client.post("/v1/patients", .object(p))
        if a.flag("json") { io.out(JSONSerializer.string(r, pretty: true)); return ExitCode.success }
        let f = { (k: String) in Show.string(Show.field(r, k)) }
        io.out("Enrolled \(f("studyId")): risk \(f("riskClass")) (score \(f("riskScore")); Kat A \(f("katA")), Kat B \(f("katB")), Kat C \(f("katC")))")
        if Show.field(r, "katBPending") == .bool(true) {
            io.out("Kat B pending: add POD sodium, operation minutes and CSF leak with `hyponatrack update \(f("studyId")) …`")
        }
        io.out("Activation code: \(f("activationCode"))  (single use, valid until \(f("activationExpiresAt")))")
        io.out("Monitoring until \(f("monitoringEnds"))")
        return ExitCode.success
    }

    static let update = StaffCommand(name: "update", help: """
        Usage: hyponatrack update ID [--pod-sodium N] [--preop-sodium N] [--operation-minutes N]
                  [--csf-leak yes|no] [--postop-nausea none|antiemetic|vomiting]
                  [--diabetes-insipidus yes|no] [--desmopressin yes|no] [--cortisol-deficiency yes|no]
                  [--histology CODE] [--stalk-deviation yes|no] [--risk-med CODE]... [--clear-risk-meds]
                  [--age N] [--sex S] [--bmi X] [--baseline-weight KG] [--time-zone IANA]
                  [--di-active yes|no] [--fluid-limit ML|none] [--baseline-rt MS]
                  [--desmopressin-prescribed yes|no] [--simplified yes|no] [--surgery-date D]
                  [--withdraw --reason T] [--json]

        Changes profile fields; every stored day of the monitoring window is re-evaluated. The
        surgery date can change only while the patient has no day data. --withdraw ends monitoring
        and stops the patient's token.
        """, spec: .init(flags: ["clear-risk-meds", "withdraw"],
                         options: ["pod-sodium", "preop-sodium", "operation-minutes", "csf-leak", "postop-nausea",
                                   "diabetes-insipidus", "desmopressin", "cortisol-deficiency", "histology", "stalk-deviation",
                                   "age", "sex", "bmi", "baseline-weight", "time-zone", "di-active", "fluid-limit", "baseline-rt",
                                   "desmopressin-prescribed", "simplified", "surgery-date", "reason"],
                         repeatable: ["risk-med"])) { a, client, io in
        let id = try a.single("study ID")
        let path = "/v1/patients/\(DaemonClient.segment(id))"
        if a.flag("withdraw") {
            guard let reason = a.value("reason") else { throw UsageError("--withdraw needs --reason") }
            let r = try client.post(path + "/withdrawal", ["reason": .string(reason)])
            io.out(a.flag("json") ? JSONSerializer.string(r, pretty: true) : "Withdrew \(id); monitoring ended and the app's token stopped working.")
            return ExitCode.success
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
        if let v = a.value("surgery-date") { p["surgeryDate"] = .string(v) }
        guard p.count > 0 else { throw UsageError("nothing to update") }
        let r = try client.patch(path, .object(p))
        if a.flag("json") { io.out(JSONSerializer.string(r, pretty: true)); return ExitCode.success }
        let f = { (k: String) in Show.string(Show.field(r, k)) }
        io.out("Updated \(id): risk \(f("riskClass")) (score \(f("riskScore"))), Kat B pending: \(f("katBPending")), level \(f("level")), monitoring until \(f("monitoringEnds"))")
        return ExitCode.success
    }

    static let reissue = StaffCommand(name: "reissue", help: """
        Usage: hyponatrack reissue ID

        Issues a new one-time activation code (for a lost or reinstalled app). Every earlier
        patient token and code of this patient stops working.
        """, spec: .init()) { a, client, io in
        let id = try a.single("study ID")
        let r = try client.post("/v1/patients/\(DaemonClient.segment(id))/activation")
        if a.flag("json") { io.out(JSONSerializer.string(r, pretty: true)); return ExitCode.success }
        io.out("New activation code for \(id): \(Show.string(Show.field(r, "activationCode")))  (valid until \(Show.string(Show.field(r, "activationExpiresAt"))))")
        io.out("Every earlier token of this patient has stopped working.")
        return ExitCode.success
    }

    static let patients = StaffCommand(name: "patients", help: """
        Usage: hyponatrack patients [--json]

        Every patient with POD, risk class, current level and status.
        """, spec: .init()) { a, client, io in
        guard a.positionals.isEmpty else { throw UsageError("unexpected argument \(a.positionals[0])") }
        let r = try client.get("/v1/patients")
        if a.flag("json") { io.out(JSONSerializer.string(r, pretty: true)); return ExitCode.success }
        guard case .array(let items) = r else { return ExitCode.success }
        let rows = items.map { p -> [String] in
            let f = { (k: String) in Show.string(Show.field(p, k)) }
            let status = Show.field(p, "withdrawn") == .bool(true) ? "withdrawn"
                : Show.field(p, "activated") == .bool(true) ? (Show.field(p, "monitoringActive") == .bool(true) ? "monitoring" : "ended")
                : "not activated"
            let kb = Show.field(p, "katBPending") == .bool(true) ? " (Kat B pending)" : ""
            return [f("studyId"), f("pod"), "\(f("riskClass")) \(f("riskScore"))\(kb)", f("level").uppercased(), f("levelDate"),
                    f("reasons"), f("openAlerts"), status]
        }
        io.out(Show.table(["STUDY ID", "POD", "RISK", "LEVEL", "ON", "REASONS", "OPEN ALERTS", "STATUS"], rows))
        return ExitCode.success
    }

    static let show = StaffCommand(name: "show", help: """
        Usage: hyponatrack show ID [--json]

        A patient's profile, risk and timeline: each day's data, lab values and traffic light.
        """, spec: .init()) { a, client, io in
        let id = try a.single("study ID")
        let r = try client.get("/v1/patients/\(DaemonClient.segment(id))")
        if a.flag("json") { io.out(JSONSerializer.string(r, pretty: true)); return ExitCode.success }
        let f = { (k: String) in Show.string(Show.field(r, k)) }
        io.out("\(f("studyId")): surgery \(f("surgeryDate")), POD \(f("pod")), risk \(f("riskClass")) \(f("riskScore")) (A \(f("katA")) B \(f("katB")) C \(f("katC")))\(Show.field(r, "katBPending") == .bool(true) ? ", Kat B pending" : "")")
        io.out("monitoring \(f("monitoringStarts"))–\(f("monitoringEnds")), activated \(f("activatedAt")), withdrawn \(f("withdrawn"))")
        if case .array(let days)? = Show.field(r, "timeline") {
            let rows = days.map { d -> [String] in
                let data = Show.field(d, "data") ?? .null
                let e = Show.field(d, "evaluation") ?? .null
                var labs = ""
                if case .array(let l)? = Show.field(data, "labSodium") {
                    labs = l.map { "\(Show.string(Show.field($0, "value")))#\(Show.string(Show.field($0, "id")))" }.joined(separator: " ")
                }
                return [Show.string(Show.field(d, "date")), Show.string(Show.field(d, "pod")),
                        Show.string(Show.field(data, "weightMorningKg")), Show.string(Show.field(data, "fluidIntakeMl")),
                        labs.isEmpty ? "-" : labs, Show.string(Show.field(e, "level")).uppercased(),
                        reasonCodes(Show.field(e, "reasons"))]
            }
            io.out(Show.table(["DATE", "POD", "WEIGHT", "FLUID", "NA (#ID)", "LEVEL", "REASONS"], rows))
        }
        return ExitCode.success
    }

    static func reasonCodes(_ v: JSONValue?) -> String {
        guard case .array(let items)? = v, !items.isEmpty else { return "-" }
        return items.map { Show.string(Show.field($0, "code")) }.joined(separator: ",")
    }
}
