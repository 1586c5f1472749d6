import Foundation
import Testing
import HTJSON
import HTTPClient
import HyponaTrackCore
import HyponaTrackKit
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer


/// The study's data dictionary (`instruments/hyponatrack_data_dictionary.csv`) as REDCap reads it:
/// 18 columns by position; checkbox fields import as `field___code`; `<form>_complete` exists for
/// every form although it is not in the CSV.
struct DataDictionary {
    struct Field {
        var name: String
        var form: String
        var type: String
        var choices: [String]
        var validation: String
        var min: String
        var max: String
    }

    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("instruments/hyponatrack_data_dictionary.csv")

    var fields: [Field] = []
    var byName: [String: Field] = [:]

    init() throws {
        let text = try String(contentsOf: Self.file, encoding: .utf8)
        let rows = Self.parseCSV(text)
        guard let header = rows.first, header.count == 18 else { throw TestError("the dictionary header has not 18 columns") }
        for (i, row) in rows.dropFirst().enumerated() where !row.allSatisfy({ $0.isEmpty }) {
            guard row.count == 18 else { throw TestError("dictionary line \(i + 2) has \(row.count) columns") }
            let choices = row[5].split(separator: "|").compactMap {
                $0.split(separator: ",", maxSplits: 1).first?.trimmingCharacters(in: .whitespaces)
            }.filter { !$0.isEmpty }
            let f = Field(name: row[0], form: row[1], type: row[3], choices: choices, validation: row[7], min: row[8], max: row[9])
            fields.append(f)
            byName[f.name] = f
        }
    }

    /// RFC 4180: quoted fields may hold commas, doubled quotes and line breaks.
    static func parseCSV(_ text: String) -> [[String]] {
        var rows: [[String]] = [], row: [String] = [], field = ""
        var quoted = false
        var chars = Array(text.unicodeScalars)[...]
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" {
                    if chars.first == "\"" { field.unicodeScalars.append("\""); chars.removeFirst() } else { quoted = false }
                } else { field.unicodeScalars.append(c) }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                row.append(field); field = ""
            } else if c == "\n" || c == "\r" {
                if c == "\r", chars.first == "\n" { chars.removeFirst() }
                row.append(field); field = ""
                rows.append(row); row = []
            } else {
                field.unicodeScalars.append(c)
            }
        }
        if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
        return rows
    }

    /// Every flat column of a form in dictionary order (checkboxes expanded), plus `<form>_complete`.
    func columns(form: String) -> [String] {
        fields.filter { $0.form == form }.flatMap { f -> [String] in
            f.type == "checkbox" ? f.choices.map { "\(f.name)___\($0)" } : [f.name]
        } + ["\(form)_complete"]
    }

    /// The dictionary field a flat column belongs to (`risk_med___opioid` → `risk_med`).
    func field(forColumn column: String) -> (Field, checkboxCode: String?)? {
        if let f = byName[column] { return f.type == "checkbox" ? nil : (f, nil) }
        guard let range = column.range(of: "___") else { return nil }
        guard let f = byName[String(column[..<range.lowerBound])], f.type == "checkbox" else { return nil }
        return (f, String(column[range.upperBound...]))
    }

    /// REDCap's verdict on a non-blank value of `column` in a row of `form`: nil when it imports.
    func problem(column: String, value: String, form: String) -> String? {
        if column == "\(form)_complete" { return ["0", "1", "2"].contains(value) ? nil : "form status \(value)" }
        guard let (f, code) = field(forColumn: column) else { return "not a field of the dictionary" }
        if f.form != form { return "on form \(f.form), emitted in a \(form) row" }
        if let code {
            if !f.choices.contains(code) { return "checkbox code \(code) is not a choice of \(f.name)" }
            return value == "0" || value == "1" ? nil : "checkbox value \(value) is not 0/1"
        }
        if value.isEmpty { return nil }
        switch f.type {
        case "yesno", "truefalse": return value == "0" || value == "1" ? nil : "yes/no value \(value)"
        case "radio", "dropdown": return f.choices.contains(value) ? nil : "\(value) is not a choice (\(f.choices.joined(separator: ", ")))"
        case "notes": return nil
        case "text":
            guard Self.matches(value, validation: f.validation) else { return "\(value) fails \(f.validation)" }
            return Self.inRange(value, f) ? nil : "\(value) outside \(f.min)…\(f.max)"
        default: return "field type \(f.type) cannot be imported by the server"
        }
    }

    static func matches(_ v: String, validation: String) -> Bool {
        func full(_ pattern: String) -> Bool { v.range(of: "^" + pattern + "$", options: .regularExpression) != nil }
        switch validation {
        case "": return true
        case "date_ymd": return full("[0-9]{4}-[0-9]{2}-[0-9]{2}") && LocalDate(v) != nil
        case "datetime_ymd":
            guard full("[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}"), LocalDate(String(v.prefix(10))) != nil,
                  let h = Int(v.dropFirst(11).prefix(2)), let m = Int(v.suffix(2)) else { return false }
            return h < 24 && m < 60
        case "datetime_seconds_ymd":
            guard full("[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}"), LocalDate(String(v.prefix(10))) != nil,
                  let h = Int(v.dropFirst(11).prefix(2)), let m = Int(v.dropFirst(14).prefix(2)), let sec = Int(v.suffix(2))
            else { return false }
            return h < 24 && m < 60 && sec < 60
        case "integer": return full("-?[0-9]+")
        case "number": return full("-?[0-9]*\\.?[0-9]+")
        default:
            if validation.hasPrefix("number_"), validation.hasSuffix("dp"), let n = Int(validation.dropFirst(7).dropLast(2)) {
                return full("-?[0-9]+\\.[0-9]{\(n)}")
            }
            return false
        }
    }

    static func inRange(_ v: String, _ f: Field) -> Bool {
        if f.validation.hasPrefix("date") { return (f.min.isEmpty || v >= f.min) && (f.max.isEmpty || v <= f.max) }
        guard let x = Double(v) else { return true }
        if let lo = Double(f.min), x < lo { return false }
        if let hi = Double(f.max), x > hi { return false }
        return true
    }
}

/// Builds profiles, days and their rows with the shipped rules.
struct MapperFixture {
    let rules: ActiveRules.Snapshot
    let mapper: REDCapMapper
    let dictionary: DataDictionary
    /// The fields the mapper writes under the shipped rules.
    var fields: REDCapFields { REDCapFields(rules: rules.rules) }

    init(baselineEvent: String? = nil, dailyEvent: String? = nil) throws {
        let config = DataDictionary.file.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("config")
        rules = try ActiveRules(files: ServerConfiguration(baseDirectory: config, dataDirectory: config).ruleFiles).snapshot
        mapper = REDCapMapper(studyZone: ZoneRules(identifier: "Europe/Berlin")!, baselineEvent: baselineEvent, dailyEvent: dailyEvent)
        dictionary = try DataDictionary()
    }

    /// The shipped rule set (the source of the choice codes).
    static let shipped: RuleSet = {
        let config = DataDictionary.file.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("config")
        return try! RulesLoader.load(directory: config)
    }()

    static let surgery = LocalDate("2026-03-02")!
    /// 2026-03-09T08:00:00Z.
    static let enrolledAt: Int64 = 1_773_043_200_000

    static func record(_ profile: PatientProfile, activated: Bool = true, withdrawn: Bool = false) -> PatientRecord {
        PatientRecord(id: 1, profile: profile, enrolledAt: enrolledAt, enrolledBy: "staff:nurse",
                      activatedAt: activated ? enrolledAt + 3_600_000 : nil,
                      withdrawnAt: withdrawn ? enrolledAt + 86_400_000 * 5 : nil,
                      withdrawalDate: withdrawn ? LocalDate("2026-03-14") : nil,
                      withdrawalReason: withdrawn ? "Wishes to stop; \"no reason\", given, äöü" : nil)
    }

    static func profile(_ id: String, histology: String? = "macroadenoma", meds: [String] = [], katB: KatB? = nil,
                        katC: KatC = KatC(), age: Int = 55, sex: PatientProfile.Sex = .female, bmi: Double = 24.0,
                        weight: Double = 72.5, fluidLimit: Double? = 1500, baselineRT: Double? = 600,
                        flags: Bool = false) -> PatientProfile {
        PatientProfile(studyId: id, surgeryDate: surgery, timeZone: "Europe/Berlin", age: age, sex: sex, bmi: bmi,
                       baselineWeightKg: weight, histology: histology, stalkDeviation: flags, riskMedications: meds,
                       katB: katB, katC: katC, fluidLimitMl: fluidLimit, diabetesInsipidusActive: flags,
                       baselineReactionTimeMs: baselineRT, simplifiedMode: flags, desmopressinPrescribed: flags,
                       loanDevice: flags, baselineIsPreOp: flags)
    }

    /// A varied set: every histology and none, all medications and none, Kat B pending / partial /
    /// complete, every Kat C code, the extremes of every profile range, withdrawn, not activated.
    static var profiles: [(PatientRecord, String)] {
        var out: [(PatientRecord, String)] = []
        for (i, h) in (shipped.riskModel.histologyCodes.map(Optional.some) + [nil]).enumerated() {
            out.append((record(profile("H-\(i)", histology: h)), "histology \(h ?? "none")"))
        }
        out.append((record(profile("MEDS-ALL", meds: shipped.riskModel.medicationCodes)), "all medications"))
        out.append((record(profile("MEDS-SOME", meds: ["thiazide", "opioid", "thiazide"])), "some medications, one twice"))
        out.append((record(profile("KATB-PARTIAL", katB: KatB(preopSodium: 141.3))), "Kat B partial (still pending)"))
        out.append((record(profile("KATB-OP", katB: KatB(operationMinutes: 95))), "Kat B partial (operation time)"))
        out.append((record(profile("KATB-FULL", katB: KatB(podSodium: 131.25, preopSodium: 140, operationMinutes: 1440, csfLeak: true))),
                    "Kat B complete"))
        out.append((record(profile("KATB-NOLEAK", katB: KatB(podSodium: 100, preopSodium: 180, operationMinutes: 1, csfLeak: false))),
                    "Kat B extremes"))
        for (i, n) in ["none", "antiemetic", "vomiting"].enumerated() {
            out.append((record(profile("KATC-\(i)", katC: KatC(postopNausea: n, diabetesInsipidus: i == 1, desmopressin: i == 2,
                                                               newCortisolDeficiency: true))), "Kat C \(n)"))
        }
        out.append((record(profile("LOW", age: 18, sex: .male, bmi: 12.0, weight: 25.0, fluidLimit: 500, baselineRT: 100)),
                    "lower extremes"))
        out.append((record(profile("HIGH", age: 110, bmi: 70.0, weight: 350.0, fluidLimit: 5000, baselineRT: 5000, flags: true)),
                    "upper extremes, every flag"))
        out.append((record(profile("NOLIMIT", fluidLimit: nil, baselineRT: nil)), "no fluid limit, no baseline RT"))
        out.append((record(profile("FRACTIONS", bmi: 24.96, weight: 80.449, fluidLimit: 1499.5, baselineRT: 612.5)), "fractions to round"))
        out.append((record(profile("WITHDRAWN", katB: KatB(podSodium: 134)), withdrawn: true), "withdrawn"))
        out.append((record(profile("NEW", katB: nil), activated: false), "not activated yet"))
        return out
    }

    static func t(_ s: String) -> Timestamp { Timestamp(s)! }

    static func symptom(_ id: String, _ time: String, _ slot: SymptomEntry.Slot, _ v: Int, vas: Int) -> SymptomEntry {
        SymptomEntry(id: id, time: t(time), slot: slot, nausea: v, headache: v, fatigue: v, confusion: v, muscleCramps: v, vas: vas)
    }

    /// Days of every list kind, several items per slot, labs, the extremes of every range, an empty day.
    static var days: [(DailyEntry, String)] {
        let d = LocalDate("2026-03-09")!      // POD 7
        var out: [(DailyEntry, String)] = []
        out.append((DailyEntry(date: d), "empty day"))
        out.append((DailyEntry(
            date: d, weightMorningKg: 80.4, weightEveningKg: 80.96, fluidIntakeMl: 1450.4, urineSG: 1.015, vomitingEpisodes: 2,
            emergencySymptoms: ["drowsiness", "seizure"],
            symptoms: [symptom("m2", "2026-03-09T09:10:00+01:00", .morning, 2, vas: 4),
                       symptom("m1", "2026-03-09T07:00:00+01:00", .morning, 1, vas: 8),
                       symptom("e1", "2026-03-09T14:00:00-05:00", .evening, 0, vas: 10),
                       symptom("e0", "2026-03-09T18:00:00+01:00", .evening, 3, vas: 0)],
            reactionTests: [ReactionTest(id: "r1", time: t("2026-03-09T08:00:00+01:00"), medianMs: 640, meanMs: 655.5, errors: 1),
                            ReactionTest(id: "r2", time: t("2026-03-09T12:30:00+01:00"), medianMs: 720.5, meanMs: 731, errors: 3),
                            ReactionTest(id: "r3", time: t("2026-03-09T19:00:00+01:00"), medianMs: 590, meanMs: 600, errors: 0)],
            tappingTests: [TappingTest(id: "t2", time: t("2026-03-09T20:00:00+01:00"), taps: 61, durationSeconds: 10),
                           TappingTest(id: "t1", time: t("2026-03-09T08:00:00+01:00"), taps: 55, durationSeconds: 10.25)],
            desmopressinDoses: [DesmopressinDose(id: "d1", time: t("2026-03-09T08:00:00+01:00"), doseMcg: 0.1),
                                DesmopressinDose(id: "d2", time: t("2026-03-09T20:00:00+01:00"), doseMcg: 0.2)],
            labSodium: [LabSodium(id: "1", time: t("2026-03-09T07:30:00+01:00"), value: 136),
                        LabSodium(id: "2", time: t("2026-03-09T11:00:00+01:00"), value: 129.5),
                        LabSodium(id: "3", time: t("2026-03-09T16:00:00+01:00"), value: 131.04)],
            steps: 4200, hrvSdnnMs: 42.56, sleepMinutes: 420, restingHeartRate: 66), "every kind, several items"))
        out.append((DailyEntry(
            date: d, weightMorningKg: 25, weightEveningKg: 25, fluidIntakeMl: 0, urineSG: 1.0, vomitingEpisodes: 0,
            symptoms: [symptom("m", "2026-03-09T08:00:00+01:00", .morning, 0, vas: 10),
                       symptom("e", "2026-03-09T20:00:00+01:00", .evening, 0, vas: 10)],
            reactionTests: [ReactionTest(id: "r", time: t("2026-03-09T08:00:00+01:00"), medianMs: 100, meanMs: 100, errors: 0)],
            tappingTests: [TappingTest(id: "t", time: t("2026-03-09T08:00:00+01:00"), taps: 0, durationSeconds: 1)],
            desmopressinDoses: [DesmopressinDose(id: "d", time: t("2026-03-09T08:00:00+01:00"), doseMcg: 0)],
            labSodium: [LabSodium(time: t("2026-03-09T08:00:00+01:00"), value: 100)],
            steps: 0, hrvSdnnMs: 1, sleepMinutes: 0, restingHeartRate: 20), "lower extremes"))
        out.append((DailyEntry(
            date: d, weightMorningKg: 350, weightEveningKg: 350, fluidIntakeMl: 10_000, urineSG: 1.04, vomitingEpisodes: 50,
            emergencySymptoms: Set(shipped.thresholds.emergencySymptoms),
            symptoms: [symptom("m", "2026-03-09T08:00:00+01:00", .morning, 3, vas: 0),
                       symptom("e", "2026-03-10T00:30:00+01:00", .evening, 3, vas: 0)],
            reactionTests: [ReactionTest(id: "r", time: t("2026-03-08T23:59:00+01:00"), medianMs: 5000, meanMs: 5000, errors: 1000)],
            tappingTests: [TappingTest(id: "t", time: t("2026-03-09T08:00:00+01:00"), taps: 1000, durationSeconds: 120)],
            desmopressinDoses: (0..<4).map { DesmopressinDose(id: "d\($0)", time: t("2026-03-09T08:00:00+01:00"), doseMcg: 1000) },
            labSodium: [LabSodium(time: t("2026-03-09T08:00:00+01:00"), value: 180)],
            steps: 100_000, hrvSdnnMs: 300, sleepMinutes: 1440, restingHeartRate: 250), "upper extremes"))
        out.append((DailyEntry(date: d, weightMorningKg: 79.95, symptoms: [symptom("m", "2026-03-09T08:00:00+01:00", .morning, 1, vas: 7)],
                               reactionTests: [ReactionTest(id: "r", time: t("2026-03-09T08:00:00+01:00"), medianMs: 599.97, meanMs: 600.5, errors: 0)]),
                    "morning only, values to round"))
        return out
    }

    func baseline(_ p: PatientRecord) -> REDCapMapper.Row {
        mapper.baseline(p, risk: rules.engine.risk.assess(p.profile), rules: rules.rules)
    }

    func daily(_ p: PatientRecord, _ day: DailyEntry, evaluated: Bool = true) -> REDCapMapper.Row? {
        let alert = evaluated ? DailyAlert(rules.engine.evaluate(profile: p.profile, days: [day], date: day.date), at: Self.enrolledAt)
            : nil
        return mapper.daily(p, day: day, alert: alert, rules: rules.rules)
    }
}

extension Array where Element == (String, String) {
    subscript(column: String) -> String? { first { $0.0 == column }?.1 }
}
