import Foundation
import HTJSON

/// A labelled synthetic cohort for the outcome report, the backtest and the shadow rules
/// (docs/product.md, third round, O): patients operated on `surgeryDaysAgo` days ago (today is
/// POD 12, outside the critical window, so no missing-data alert can fire while a test runs),
/// each day built to be green, yellow or red by construction, lab values and recorded outcomes.
/// The expected figures are worked out here from the labels alone (`Expected`), never by the
/// code under test.
struct OutcomeCohort {
    /// A day by its label: `g` green (a morning weight at baseline), `y` yellow (nausea 3 and VAS
    /// 9: symptom score 10), `r` red (drowsiness), `.` nothing sent. Index 0 is POD 1.
    struct Patient {
        let studyId: String
        let high: Bool
        let days: String
        /// Staff-recorded outcomes: (POD, kind).
        var staffOutcomes: [(pod: Int, kind: String)] = []
        /// Lab sodium values: (POD, value, deleted afterwards).
        var labs: [(pod: Int, sodium: Double, deleted: Bool)] = []
        /// Contacts logged (the first names the patient's alert).
        var contacts = 0
        /// The site the patient is enrolled at (`a` or `b`).
        var site = "a"

        func level(pod: Int) -> Character? {
            let i = pod - 1
            guard i >= 0, i < days.count else { return nil }
            let c = Array(days)[i]
            return c == "." ? nil : c
        }
    }

    static let surgeryDaysAgo = 12
    static let today = 12
    static let lookback = 7
    static let below = 135.0

    static let patients: [Patient] = [
        Patient(studyId: "OC-01", high: false, days: "ggyyrgg....", staffOutcomes: [(6, "hyponatremia")], contacts: 2, site: "a"),
        Patient(studyId: "OC-02", high: false, days: "ggggggggggg", labs: [(10, 134.5, false), (11, 134.2, false)], site: "b"),
        Patient(studyId: "OC-03", high: true, days: "gggyggg....", staffOutcomes: [(9, "hyponatremia")], site: "a"),
        Patient(studyId: "OC-04", high: true, days: "gggggrr....", site: "b"),
        Patient(studyId: "OC-05", high: false, days: "yy.........", staffOutcomes: [(11, "hyponatremia")], site: "b"),
        Patient(studyId: "OC-06", high: false, days: ".....r.....", staffOutcomes: [(8, "hyponatremia"), (8, "ed_visit")], site: "a"),
        Patient(studyId: "OC-08", high: false, days: "ggg.......g", labs: [(10, 134.5, true)], site: "b"),
    ]

    /// The cohort's sites, beside `main` (which holds none of its patients).
    static let sites = ["a", "b"]

    /// The date of a POD (today is POD 12).
    static func date(pod: Int) -> String { Study.date(pod - surgeryDaysAgo) }

    static func profile(_ p: Patient) -> JSONValue {
        Study.profile(p.studyId, surgeryDaysAgo: surgeryDaysAgo, p.high ? [("histology", "craniopharyngioma")] : [])
    }

    /// The day body the patient sends for a label.
    static func body(_ label: Character, date: String, id: String) -> JSONObject {
        var o = JSONObject([("weightMorningKg", 80.0)])
        switch label {
        case "y": o["symptoms"] = [Study.symptom(id, date, nausea: 3, vas: 9)]
        case "r": o["emergencySymptoms"] = ["drowsiness"]
        default: break
        }
        return o
    }

    static func labTime(pod: Int) -> String { Study.time(date(pod: pod), "09:30") }

    /// Builds the cohort on the daemon (its sites first; `nurse` must reach both); checks each
    /// day's answered level against its label.
    static func build(_ d: TestDaemon, nurse: String) throws {
        for code in sites {
            let r = try d.request(.post, "/v1/sites", token: d.adminToken, body: ["code": .string(code), "name": .string("Site \(code)")])
            guard r.status == 201 else { throw TestFailure("site add \(code): \(r.text)") }
        }
        for p in patients {
            var extra: [(String, JSONValue)] = [("site", .string(p.site))]
            if p.high { extra.append(("histology", "craniopharyngioma")) }
            let token = try Study.enrollAndActivate(d, p.studyId, surgeryDaysAgo: surgeryDaysAgo, extra)
            for (i, label) in p.days.enumerated() where label != "." {
                let day = date(pod: i + 1)
                let r = try d.request(.put, "/v1/me/days/\(day)", token: token, body: .object(body(label, date: day, id: "s\(i)")))
                let expected = label == "g" ? "green" : label == "y" ? "yellow" : "red"
                guard r.status == 200, r["level"] == .string(expected) else {
                    throw TestFailure("\(p.studyId) POD \(i + 1): expected \(expected), got \(r.status) \(r.text)")
                }
            }
            for lab in p.labs {
                let r = try d.request(.post, "/v1/patients/\(p.studyId)/labs", token: nurse,
                                      body: ["sodium": .double(lab.sodium), "time": .string(labTime(pod: lab.pod))])
                guard r.status == 201, case .number(let id)? = r["labId"] else { throw TestFailure("lab: \(r.text)") }
                if lab.deleted {
                    let del = try d.request(.post, "/v1/patients/\(p.studyId)/labs/\(Int(id))/deletion", token: nurse,
                                            body: ["reason": "sample from another patient"])
                    guard del.status == 200 else { throw TestFailure("lab deletion: \(del.text)") }
                }
            }
            for o in p.staffOutcomes {
                let r = try d.request(.post, "/v1/patients/\(p.studyId)/outcomes", token: nurse,
                                      body: ["kind": .string(o.kind), "date": .string(date(pod: o.pod))])
                guard r.status == 201 else { throw TestFailure("outcome: \(r.text)") }
            }
            if p.contacts > 0 {
                let alerts = try d.request(.get, "/v1/alerts", token: nurse)
                guard case .array(let list) = alerts.json,
                      case .object(let a)? = list.first(where: { if case .object(let o) = $0 { o["studyId"] == .string(p.studyId) } else { false } }),
                      case .number(let aid)? = a["id"] else {
                    throw TestFailure("no alert for \(p.studyId): \(alerts.text)")
                }
                for n in 0..<p.contacts {
                    let body: JSONValue = n == 0 ? ["outcome": "no_answer", "alertId": .int(Int(aid))] : ["outcome": "reached"]
                    let r = try d.request(.post, "/v1/patients/\(p.studyId)/contacts", token: nurse, body: body)
                    guard r.status == 201 else { throw TestFailure("contact: \(r.text)") }
                }
            }
        }
    }
}

extension OutcomeCohort {
    /// The figures the report must give, from the labels alone.
    struct Expected {
        var patients = 0, patientDays = 0, episodes = 0
        var warned = 0, warnedRed = 0
        var leads: [Int] = [], redLeads: [Int] = []
        var yellowAlerts = 0, redAlerts = 0
        var matured = 0, followed = 0
        var contacts = 0
        var alertPODs: [Int: Int] = [:]

        static func median(_ v: [Int]) -> Double? {
            guard !v.isEmpty else { return nil }
            let s = v.sorted()
            return s.count % 2 == 1 ? Double(s[s.count / 2]) : Double(s[s.count / 2 - 1] + s[s.count / 2]) / 2
        }
    }

    /// The episodes of a patient by POD: staff hyponatremia outcomes, and lab values below 135 on
    /// POD ≥ 1 not deleted and not within 3 days of an earlier one.
    static func episodes(_ p: Patient) -> [Int] {
        var pods = p.staffOutcomes.filter { $0.kind == "hyponatremia" }.map(\.pod)
        for lab in p.labs where lab.sodium < below && !lab.deleted && lab.pod >= 1 {
            if !pods.contains(where: { abs($0 - lab.pod) <= 3 }) { pods.append(lab.pod) }
        }
        return pods.sorted()
    }

    /// `high`: nil for every patient, else only that risk class; `site`: nil for every site.
    static func expected(high: Bool?, site: String? = nil) -> Expected {
        var e = Expected()
        for p in patients where (high == nil || p.high == high!) && (site == nil || p.site == site!) {
            e.patients += 1
            e.patientDays += today            // monitoring from POD 1 through today (POD 12)
            e.contacts += p.contacts
            let warningDays = (1...today).filter { p.level(pod: $0) == "y" || p.level(pod: $0) == "r" }
            let episodes = episodes(p)
            for ep in episodes {
                e.episodes += 1
                if let first = warningDays.first(where: { $0 >= ep - lookback && $0 <= ep - 1 }) {
                    e.warned += 1
                    e.leads.append(ep - first)
                }
                if let first = (1...today).first(where: { $0 >= ep - lookback && $0 <= ep - 1 && p.level(pod: $0) == "r" }) {
                    e.warnedRed += 1
                    e.redLeads.append(ep - first)
                }
            }
            // No alert is resolved: every yellow-or-red day joins the patient's one alert, whose
            // first day is the first such day and whose level is the highest.
            guard let first = warningDays.first else { continue }
            if warningDays.contains(where: { p.level(pod: $0) == "r" }) { e.redAlerts += 1 } else { e.yellowAlerts += 1 }
            e.alertPODs[first, default: 0] += 1
            if today - first >= lookback {
                e.matured += 1
                if episodes.contains(where: { $0 - first >= 1 && $0 - first <= lookback }) { e.followed += 1 }
            }
        }
        return e
    }

    /// The 95 % Wilson interval of `x` of `n`, written out independently of the server.
    static func wilson(_ x: Int, _ n: Int) -> (Double, Double) {
        let z = 1.959964, p = Double(x) / Double(n), nn = Double(n)
        let denominator = 1 + z * z / nn
        let centre = p + z * z / (2 * nn)
        let spread = z * sqrt(p * (1 - p) / nn + z * z / (4 * nn * nn))
        return (max(0, (centre - spread) / denominator), min(1, (centre + spread) / denominator))
    }
}
