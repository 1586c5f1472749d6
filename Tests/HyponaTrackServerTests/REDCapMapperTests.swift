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

@Suite struct REDCapMapperTests {
    let f: MapperFixture
    init() throws { f = try MapperFixture() }

    // MARK: the dictionary and the fields the mapper declares

    @Test func everyDeclaredFieldExistsInTheDictionaryWithACompatibleType() throws {
        let d = f.dictionary
        for (form, fields) in f.fields.forms {
            for (name, validation) in fields {
                guard let field = d.byName[name] else { Issue.record("\(name) is not in the dictionary"); continue }
                #expect(field.form == form, "\(name) is on \(field.form)")
                let ok: Bool
                switch validation {
                case .text: ok = field.type == "text" && field.validation.isEmpty
                case .notes: ok = field.type == "notes"
                case .date: ok = field.type == "text" && field.validation == "date_ymd"
                case .datetime: ok = field.type == "text" && field.validation == "datetime_ymd"
                case .datetimeSeconds: ok = field.type == "text" && field.validation == "datetime_seconds_ymd"
                case .integer: ok = field.type == "text" && field.validation == "integer"
                case .number(let n): ok = field.type == "text" && field.validation == (n == 0 ? "number" : "number_\(n)dp")
                case .yesno: ok = field.type == "yesno"
                case .choice(let codes): ok = ["radio", "dropdown"].contains(field.type) && Set(codes) == Set(field.choices)
                case .checkbox(let codes): ok = field.type == "checkbox" && Set(codes) == Set(field.choices)
                }
                #expect(ok, "\(name): mapper \(validation) vs dictionary \(field.type)/\(field.validation) \(field.choices)")
            }
            // …and the dictionary has no field of these forms that the mapper does not write.
            let declared = Set(fields.map(\.0))
            for field in d.fields where field.form == form {
                #expect(declared.contains(field.name), "\(field.name) (\(form)) is in the dictionary but the mapper never writes it")
            }
        }
        #expect(d.fields.first?.name == "record_id")
        #expect(d.fields.map(\.form).reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } } == f.fields.forms.map(\.form),
                "each instrument's fields together, in the order REDCapFields lists the instruments")
        // REDCap refuses a dictionary that names a field twice, even on different instruments.
        let names = d.fields.map(\.name)
        #expect(Set(names).count == names.count, "duplicated: \(Dictionary(grouping: names, by: { $0 }).filter { $1.count > 1 }.keys.sorted())")
    }

    @Test func syncCheckFindsNoProblemAgainstTheShippedDictionary() {
        // What `sync check` compares, fed with the dictionary as REDCap's metadata export has it.
        for (form, fields) in f.fields.forms {
            for (name, validation) in fields {
                let field = f.dictionary.byName[name]
                let remote = field.map { fd -> JSONObject in
                    JSONObject([("field_name", .string(fd.name)), ("form_name", .string(fd.form)), ("field_type", .string(fd.type)),
                                ("select_choices_or_calculations", .string(fd.choices.map { "\($0), \($0.uppercased())" }.joined(separator: " | "))),
                                ("text_validation_type_or_show_slider_number", .string(fd.validation))])
                }
                #expect(SyncCheck.compare(name: name, form: form, validation: validation, remote: remote) == [], "\(name)")
            }
        }
        let histology = JSONObject([("field_name", "histology"), ("form_name", "patient_baseline"), ("field_type", "dropdown"),
                                    ("select_choices_or_calculations", "cushing, Cushing | other, Other")])
        #expect(SyncCheck.compare(name: "histology", form: "patient_baseline", validation: f.fields.baseline[7].1,
                                  remote: histology).first?.contains("choices lack") == true)
        #expect(SyncCheck.compare(name: "bmi", form: "patient_baseline", validation: .number(decimals: 1), remote: nil)
                == ["missing in the REDCap project"])
    }

    // MARK: every emitted value passes its field's validation

    @Test func everyBaselineValueImportsIntoTheDictionary() {
        for (p, label) in MapperFixture.profiles {
            let row = f.baseline(p)
            checkRow(row, form: REDCapFields.baselineForm, label: label)
            #expect(row["redcap_repeat_instrument"] == "" && row["redcap_repeat_instance"] == "", "\(label)")
            #expect(row["patient_baseline_complete"] == "2")
        }
    }

    @Test func everyDailyValueImportsIntoTheDictionary() throws {
        var checked = 0
        for (p, plabel) in MapperFixture.profiles {
            for (day, dlabel) in MapperFixture.days {
                for evaluated in [true, false] {
                    let row = try #require(f.daily(p, day, evaluated: evaluated))
                    checkRow(row, form: REDCapFields.dailyForm, label: "\(plabel) / \(dlabel)")
                    #expect(row["redcap_repeat_instrument"] == "daily_monitoring")
                    #expect(row["redcap_repeat_instance"] == "7")
                    #expect(row["dm_pod"] == "7" && row["dm_date"] == "2026-03-09")
                    #expect(row["daily_monitoring_complete"] == "1")
                    checked += 1
                }
            }
        }
        #expect(checked == MapperFixture.profiles.count * MapperFixture.days.count * 2)
    }

    /// The row has exactly the instrument's columns (blank where empty), record ID first, and
    /// every non-blank value passes REDCap's validation of its field.
    func checkRow(_ row: REDCapMapper.Row, form: String, label: String, events: Bool = false) {
        #expect(row.first?.0 == "record_id", "\(label): record_id is not first")
        let special = ["record_id", "redcap_repeat_instrument", "redcap_repeat_instance"] + (events ? ["redcap_event_name"] : [])
        let keys = row.map(\.0)
        #expect(Set(keys).count == keys.count, "\(label): a column appears twice")
        let expected = Set(f.dictionary.columns(form: form).filter { $0 != "record_id" } + special)
        #expect(Set(keys) == expected, """
            \(label): missing \(expected.subtracting(keys).sorted()), unexpected \(Set(keys).subtracting(expected).sorted())
            """)
        // Dictionary order after the special columns.
        #expect(keys.filter { !special.contains($0) } == f.dictionary.columns(form: form).filter { $0 != "record_id" }, "\(label): order")
        for (column, value) in row where !special.contains(column) {
            if let problem = f.dictionary.problem(column: column, value: value, form: form) {
                Issue.record("\(label): \(column) = \"\(value)\": \(problem)")
            }
        }
    }

    // MARK: what the rows carry

    @Test func baselineValuesAreFormattedForTheirFields() {
        let p = MapperFixture.record(MapperFixture.profile("UKE-0042", histology: "cushing", meds: ["thiazide", "opioid"],
                                                           katB: KatB(podSodium: 131.26, operationMinutes: 95, csfLeak: true),
                                                           katC: KatC(postopNausea: "antiemetic"), bmi: 24.96, weight: 80.449,
                                                           fluidLimit: 1499.5, baselineRT: 612.5), withdrawn: true)
        let row = f.baseline(p)
        #expect(row["record_id"] == "UKE-0042")
        #expect(row["surgery_date"] == "2026-03-02")
        #expect(row["bmi"] == "25.0")
        #expect(row["baseline_weight_kg"] == "80.4")
        #expect(row["fluid_limit_ml"] == "1500")         // half away from zero
        #expect(row["baseline_rt_ms"] == "613")
        #expect(row["histology"] == "cushing")
        #expect(row["risk_med___thiazide"] == "1" && row["risk_med___opioid"] == "1")
        #expect(row["risk_med___carbamazepine"] == "0")
        #expect(row["pod_sodium"] == "131.3")
        #expect(row["preop_sodium"] == "")
        #expect(row["operation_minutes"] == "95" && row["csf_leak"] == "1" && row["kat_b_pending"] == "0")
        #expect(row["postop_nausea"] == "antiemetic" && row["diabetes_insipidus"] == "0")
        // Datetimes: local study time (08:00Z is 09:00 in Berlin in March), no zone suffix.
        #expect(row["enrolled_at"] == "2026-03-09 09:00")
        #expect(row["activated_at"] == "2026-03-09 10:00")
        #expect(row["withdrawn"] == "1" && row["withdrawal_date"] == "2026-03-14")
        #expect(row["withdrawal_reason"] == "Wishes to stop; \"no reason\", given, äöü")
        let risk = f.rules.engine.risk.assess(p.profile)
        #expect(row["kat_a_points"] == String(risk.katA) && row["kat_b_points"] == String(risk.katB))
        #expect(row["risk_score"] == String(risk.riskScore) && row["risk_class"] == risk.riskClass.rawValue)
        #expect(row["baseline_rules_version"] == f.rules.rules.version)

        let pending = f.baseline(MapperFixture.record(MapperFixture.profile("P", histology: nil, katB: nil), activated: false))
        #expect(pending["kat_b_pending"] == "1" && pending["pod_sodium"] == "" && pending["csf_leak"] == "")
        #expect(pending["histology"] == "" && pending["postop_nausea"] == "" && pending["activated_at"] == "")
        #expect(pending["withdrawn"] == "0" && pending["withdrawal_date"] == "" && pending["withdrawal_reason"] == "")
        #expect(row["web_only"] == "0")
    }

    @Test func aWebOnlyPatientIsMarkedSoInTheBaseline() {
        var profile = MapperFixture.profile("WEB-1")
        profile.webOnly = true
        #expect(f.baseline(MapperFixture.record(profile))["web_only"] == "1")
    }

    @Test func dailyRowCarriesTheLatestSymptomsTheSlowestSessionTheLowestLab() throws {
        let p = MapperFixture.record(MapperFixture.profile("UKE-0042", baselineRT: 600))
        let (day, _) = MapperFixture.days[1]
        let row = try #require(f.daily(p, day))
        #expect(row["weight_morning_kg"] == "80.4" && row["weight_evening_kg"] == "81.0")
        #expect(row["fluid_intake_ml"] == "1450" && row["urine_sg"] == "1.015" && row["vomiting_episodes"] == "2")
        #expect(row["emergency_symptoms___seizure"] == "1" && row["emergency_symptoms___drowsiness"] == "1")
        #expect(row["emergency_symptoms___collapse"] == "0")
        // Latest morning entry is m2 (09:10) although m1 comes later in the list.
        #expect(row["sym_m_time"] == "2026-03-09 09:10")
        #expect(row["sym_m_nausea"] == "2" && row["sym_m_vas"] == "4")
        #expect(row["sym_m_score"] == "34")                     // 3·2 + 3·2 + 2·2 + 4·2 + 2·2 + (10 − 4)
        // Evening: e1 was written at 14:00 −05:00 = 19:00Z = 20:00 in Berlin, later than e0 (18:00 +01:00).
        #expect(row["sym_e_time"] == "2026-03-09 20:00")
        #expect(row["sym_e_nausea"] == "0" && row["sym_e_vas"] == "10" && row["sym_e_score"] == "0")
        // The session with the largest slowing (r2, 720.5 ms → 721) plus the session count.
        #expect(row["rt_sessions"] == "3")
        #expect(row["rt_time"] == "2026-03-09 12:30")
        #expect(row["rt_median_ms"] == "721" && row["rt_mean_ms"] == "731" && row["rt_errors"] == "3")
        #expect(row["rt_slowing_pct"] == "20.1")                      // (720.5 − 600) / 600 = 20.08 %
        #expect(row["tap_time"] == "2026-03-09 20:00" && row["tap_taps"] == "61" && row["tap_duration_s"] == "10.0")
        #expect(row["desmo_doses"] == "2" && row["desmo_total_mcg"] == "0.3")
        #expect(row["lab_sodium_min"] == "129.5" && row["lab_sodium_count"] == "3")
        #expect(row["steps"] == "4200" && row["hrv_sdnn_ms"] == "42.6")
        #expect(row["sleep_minutes"] == "420" && row["resting_hr"] == "66")
        #expect(row["morning_check_complete"] == "1" && row["evening_check_complete"] == "1")
        let e = f.rules.engine.evaluate(profile: p.profile, days: [day], date: day.date)
        #expect(row["alert_level"] == e.level?.rawValue && e.level == .red)
        #expect(row["alert_reasons"] == e.reasonCodes.joined(separator: ","))
        #expect(row["alert_reasons"]?.contains("emergency_symptom") == true)
        #expect(row["risk_factor"] == String(format: "%.2f", e.factor))
        #expect(row["daily_rules_version"] == f.rules.rules.version)
        #expect(row["evaluated_at"] == "2026-03-09 09:00")
    }

    @Test func anEmptyDayIsAFullRowOfBlanks() throws {
        let p = MapperFixture.record(MapperFixture.profile("E"))
        let row = try #require(f.daily(p, DailyEntry(date: LocalDate("2026-03-03")!), evaluated: false))
        #expect(row["redcap_repeat_instance"] == "1" && row["dm_pod"] == "1" && row["dm_date"] == "2026-03-03")
        let valued = row.filter { !$0.1.isEmpty }.map(\.0)
        #expect(Set(valued) == ["record_id", "redcap_repeat_instrument", "redcap_repeat_instance", "dm_date", "dm_pod",
                                "morning_check_complete", "evening_check_complete", "daily_monitoring_complete",
                                "emergency_symptoms___seizure", "emergency_symptoms___collapse", "emergency_symptoms___drowsiness"])
        #expect(row["morning_check_complete"] == "0" && row["emergency_symptoms___seizure"] == "0")
        #expect(row["rt_slowing_pct"] == "" && row["alert_level"] == "" && row["lab_sodium_count"] == "")
    }

    @Test func aDayThatIsNotEvaluatedLeavesTheLevelBlankButNamesItsRulesVersion() throws {
        // Only values no rule reads: no level to send, and `overwrite` clears one sent before.
        let p = MapperFixture.record(MapperFixture.profile("S"))
        let row = try #require(f.daily(p, DailyEntry(date: LocalDate("2026-03-03")!, weightEveningKg: 80, steps: 4000)))
        #expect(row["alert_level"] == "" && row["alert_reasons"] == "")
        #expect(row["daily_rules_version"] == f.rules.rules.version && row["evaluated_at"] == "2026-03-09 09:00")
        #expect(row["weight_evening_kg"] == "80.0" && row["steps"] == "4000")
    }

    @Test func podZeroAndEarlierGiveNoDailyRow() {
        let p = MapperFixture.record(MapperFixture.profile("Z"))
        #expect(f.daily(p, DailyEntry(date: MapperFixture.surgery, weightMorningKg: 80)) == nil)
        #expect(f.daily(p, DailyEntry(date: MapperFixture.surgery.adding(days: -1), weightMorningKg: 80)) == nil)
        #expect(f.daily(p, DailyEntry(date: MapperFixture.surgery.adding(days: 1)))?["redcap_repeat_instance"] == "1")
        #expect(f.daily(p, DailyEntry(date: MapperFixture.surgery.adding(days: 60)))?["redcap_repeat_instance"] == "60")
    }

    @Test func noBaselineMeansABlankSlowing() throws {
        let p = MapperFixture.record(MapperFixture.profile("N", baselineRT: nil))
        let row = try #require(f.daily(p, MapperFixture.days[1].0))
        #expect(row["rt_median_ms"] == "721" && row["rt_slowing_pct"] == "")
    }

    @Test func datetimesAreLocalStudyTimeWhateverTheDevicesOffset() throws {
        let m = f.mapper
        // The same instant written with +01:00 and with −05:00 renders the same Berlin wall time.
        #expect(m.datetime(Timestamp("2026-03-09T08:05:00+01:00")!) == "2026-03-09 08:05")
        #expect(m.datetime(Timestamp("2026-03-09T02:05:00-05:00")!) == "2026-03-09 08:05")
        #expect(m.datetime(Timestamp("2026-03-09T03:05:00-05:00")!) == "2026-03-09 09:05")
        // Across midnight, and in summer time (CEST, +02:00).
        #expect(m.datetime(Timestamp("2026-03-08T23:30:00-05:00")!) == "2026-03-09 05:30")
        #expect(m.datetime(Timestamp("2026-07-01T12:00:00-05:00")!) == "2026-07-01 19:00")
        #expect(m.datetime(Timestamp("2026-07-01T12:00:59.999Z")!) == "2026-07-01 14:00")
        // The DST change night: 01:30Z on 29 March is 03:30 CEST.
        #expect(m.datetime(Timestamp("2026-03-29T01:30:00Z")!) == "2026-03-29 03:30")
        #expect(m.datetime(milliseconds: MapperFixture.enrolledAt) == "2026-03-09 09:00")
        // Another study zone.
        let ny = REDCapMapper(studyZone: ZoneRules(identifier: "America/New_York")!, baselineEvent: nil, dailyEvent: nil)
        #expect(ny.datetime(Timestamp("2026-03-09T08:05:00+01:00")!) == "2026-03-09 03:05")
    }

    @Test func decimalsHaveExactlyTheirPlaces() {
        let m = f.mapper
        #expect(m.decimal(22, 1) == "22.0")
        #expect(m.decimal(1.0, 3) == "1.000")
        #expect(m.decimal(0.9, 2) == "0.90")
        #expect(m.decimal(nil, 1) == "")
        #expect(m.integer(1499.5) == "1500" && m.integer(-2.5) == "-3" && m.integer(nil) == "")
        #expect(m.yesno(true) == "1" && m.yesno(false) == "0" && m.yesno(nil) == "")
    }

    @Test func longitudinalRowsNameTheirEvent() throws {
        let lf = try MapperFixture(baselineEvent: "baseline_arm_1", dailyEvent: "daily_arm_1")
        let p = MapperFixture.record(MapperFixture.profile("L"))
        let b = lf.baseline(p)
        let d = try #require(lf.daily(p, MapperFixture.days[1].0))
        #expect(b.prefix(4).map(\.0) == ["record_id", "redcap_event_name", "redcap_repeat_instrument", "redcap_repeat_instance"])
        #expect(b["redcap_event_name"] == "baseline_arm_1" && d["redcap_event_name"] == "daily_arm_1")
        #expect(d["redcap_repeat_instrument"] == "daily_monitoring" && d["redcap_repeat_instance"] == "7")
        checkRow(b, form: REDCapFields.baselineForm, label: "longitudinal baseline", events: true)
        checkRow(d, form: REDCapFields.dailyForm, label: "longitudinal daily", events: true)
        // Never `new`, never auto-numbering.
        #expect(!d.contains { $0.1 == "new" })
    }

    @Test func theOutboxPayloadIsTheRowAsAJSONObjectOfStrings() throws {
        let p = MapperFixture.record(MapperFixture.profile("J"))
        let row = try #require(f.daily(p, MapperFixture.days[1].0))
        let payload = JSONSerializer.string(.object(JSONObject(row.map { ($0.0, JSONValue.string($0.1)) })))
        guard case .object(let o) = try JSONParser.parse(Array(payload.utf8)) else { Issue.record("not an object"); return }
        #expect(o.members.map(\.0) == row.map(\.0))
        #expect(o.members.allSatisfy { if case .string = $0.1 { true } else { false } })
    }

    // MARK: REDCap's answers (docs/redcap.md, "Errors")

    static func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    /// A validation 400 as `classify` reads it: REDCap's text kept apart from our account.
    static func rejection(_ text: String) -> REDCapFailure {
        REDCapFailure(status: 400, summary: "REDCap rejected the request (400)", quoted: text)
    }

    @Test func answersAreClassifiedAsRedcapMdSays() {
        func classify(_ status: Int, _ body: String) -> REDCapOutcome { REDCapOutcome.classify(status: status, body: Self.bytes(body)) }
        func isTransient(_ o: REDCapOutcome) -> Bool { if case .transient = o { true } else { false } }
        func isHalt(_ o: REDCapOutcome, _ fragment: String = "") -> Bool {
            if case .halt(let f) = o { return fragment.isEmpty || f.message.contains(fragment) } else { return false }
        }
        // 200 {"count": N} → imported.
        #expect(classify(200, "{\"count\": 3}") == .imported(count: 3))
        #expect(classify(200, "{\"count\":0}") == .imported(count: 0))
        // 200 with an error page, or anything else without a count → transient.
        #expect(isTransient(classify(200, "<!DOCTYPE html><html><body><b>CRITICAL ERROR: REDCap server is offline!</b></body></html>")))
        #expect(isTransient(classify(200, "")))
        #expect(isTransient(classify(200, "[\"1001\"]")))
        // 400 validation (CSV rows) → rejected with REDCap's message.
        let rows = "\"UKE-1\",\"histology\",\"other\",\"The value is not a valid category for histology\"\n"
            + "\"UKE-1\",\"bmi\",\"22\",\"The value you provided could not be validated because it does not follow the expected format.\""
        #expect(classify(400, JSONSerializer.string(["error": .string(rows)])) == .rejected(Self.rejection(rows)))
        #expect(classify(400, "{\"error\": \"The following fields were not found in the project as real data fields: foo\"}")
                == .rejected(Self.rejection("The following fields were not found in the project as real data fields: foo")))
        // 400 maintenance → transient.
        #expect(isTransient(classify(400, "REDCap is currently offline for maintenance. Please try again later.")))
        #expect(isTransient(classify(400, "{\"error\": \"This project is currently OFFLINE and cannot be accessed.\"}")))
        // 400 project deleted / completed → halt.
        #expect(isHalt(classify(400, "{\"error\": \"The project (PID 42) has been deleted and its API can no longer be used.\"}"), "deleted"))
        #expect(isHalt(classify(400, "{\"error\": \"This project (PID 42) has been marked as Completed and is now read-only.\"}")))
        // 403 token / rights → halt.
        #expect(isHalt(classify(403, "{\"error\": \"You do not have permissions to use the API\"}"), "403"))
        #expect(isHalt(classify(403, "{\"error\": \"You do not have API Import/Update privileges\"}"), "Import/Update"))
        #expect(isHalt(classify(403, "{\"error\": \"You do not have API Export privileges\"}"), "Export"))
        #expect(isHalt(classify(401, "")))
        // 429 → a permanent ban: halt, never retried on a timer.
        #expect(isHalt(classify(429, "Your IP address (10.0.0.7) has been banned due to suspected abuse."), "banned"))
        // 5xx → transient.
        for status in [500, 502, 503, 504] { #expect(isTransient(classify(status, "<html>Fatal error</html>")), "\(status)") }
        // 501 (wrong method) is a bug in the sync: halt for a person to look.
        #expect(isHalt(classify(501, "The requested method GET is not implemented on this server.")))
        #expect(isHalt(classify(404, "<h1>Not Found</h1>")))
        // 413 (REDCap's or a proxy's body limit): retrying the same batch would fail forever; a
        // rejection splits it.
        if case .rejected(let f) = classify(413, "<html>413 Request Entity Too Large</html>") { #expect(f.message.contains("413")) } else {
            Issue.record("413 is not a rejection")
        }
    }

    @Test func aValidationRejectionIsNotMistakenForMaintenanceOrADeletedProject() {
        // The rows name records and values: a study ID or value that happens to contain "offline",
        // "deleted" or "completed" is still a validation 400 (dead-letter), not a halt or an outage.
        for row in ["\"COMPLETED-7\",\"histology\",\"other\",\"The value is not a valid category for histology\"",
                    "\"deleted-2\",\"sex\",\"x\",\"The value is not a valid category for sex\"",
                    "\"Offline-3\",\"bmi\",\"22\",\"The value you provided could not be validated because it does not follow the expected format. Please try again.\""] {
            let o = REDCapOutcome.classify(status: 400, body: Self.bytes(JSONSerializer.string(["error": .string(row)])))
            #expect(o == .rejected(Self.rejection(row)), "\(row) → \(o)")
        }
    }

    @Test func transportFailuresAreTransientButAFailedCertificateVerificationHalts() {
        func error(_ kind: HTTPClientError.Kind, _ code: Int) -> HTTPClientError {
            HTTPClientError(kind: kind, curlCode: code, detail: "detail", method: "POST", redactedURL: "https://redcap.example.org/api/")
        }
        func isTransient(_ o: REDCapOutcome) -> Bool { if case .transient = o { true } else { false } }
        func isHalt(_ o: REDCapOutcome) -> Bool { if case .halt = o { true } else { false } }
        #expect(isTransient(REDCapOutcome.classify(error(.timedOut, 28))))
        #expect(isTransient(REDCapOutcome.classify(error(.couldNotResolve, 6))))
        #expect(isTransient(REDCapOutcome.classify(error(.couldNotConnect, 7))))
        #expect(isTransient(REDCapOutcome.classify(error(.receiveFailed, 56))))    // reset
        #expect(isTransient(REDCapOutcome.classify(error(.receiveFailed, 52))))    // empty reply
        #expect(isTransient(REDCapOutcome.classify(error(.sendFailed, 55))))
        // A TLS connect failure (handshake reset or timed out: CURLE_SSL_CONNECT_ERROR) is transient …
        #expect(isTransient(REDCapOutcome.classify(error(.tlsFailure, 35))))
        // … a certificate that fails verification is not: a person must look.
        #expect(isHalt(REDCapOutcome.classify(error(.tlsFailure, 60))))
        #expect(isHalt(REDCapOutcome.classify(error(.tlsFailure, 77))))
        #expect(isHalt(REDCapOutcome.classify(error(.invalidURL, 3))))
    }

    // MARK: the request pacer

    final class FakeClock: @unchecked Sendable {
        var t = 1_000.0
        var sleeps = 0
    }

    @Test func thePacerCountsARequestUntilItWasAnswered() {
        let clock = FakeClock()
        let pacer = RequestPacer(perMinute: 2, now: { clock.t }, sleep: { clock.t += $0; clock.sleeps += 1 })
        let first = pacer.acquire()
        clock.t += 0.005                                  // the first request took 5 ms to be answered
        pacer.finished(first)
        pacer.finished(pacer.acquire())
        // The third may only go 60 s after the first was answered, not 60 s after it was stamped.
        let third = pacer.acquire()
        #expect(third >= first + 60.005 - 1e-9, "third at \(third - first) s")
        #expect(pacer.recent == 1)                        // both earlier ones were answered at +5 ms
    }

    @Test func waitingForASlotStopsWhenAskedTo() {
        let clock = FakeClock()
        let pacer = RequestPacer(perMinute: 1, now: { clock.t }, sleep: { clock.t += $0; clock.sleeps += 1 })
        #expect(pacer.waitForSlot(unless: { false }))     // a free window: at once
        #expect(clock.sleeps == 0)
        pacer.finished(pacer.acquire())
        var polls = 0
        #expect(!pacer.waitForSlot(unless: { polls += 1; return polls > 3 }))   // a stop cuts the wait short
        #expect(clock.sleeps == 3 && clock.t < 1_001, "slept \(clock.sleeps) times in steps of at most 0.2 s")
        #expect(pacer.waitForSlot(unless: { false }))     // …and without a stop it waits the window out
        #expect(clock.t >= 1_060)
    }
}

/// The daily row must not depend on the order items arrived in (found by the chaos soak: two
/// reaction tests with the same median, the later-sent one timed earlier).
@Suite struct REDCapMapperOrderTests {
    @Test func equalMediansPickTheSameSessionWhateverTheArrivalOrder() throws {
        let mapper = REDCapMapper(studyZone: ZoneRules(identifier: "Europe/Berlin")!, baselineEvent: nil, dailyEvent: nil)
        let date = LocalDate("2026-03-09")!
        let a = ReactionTest(id: "a", time: Timestamp("2026-03-09T10:01:00+01:00")!, medianMs: 640, meanMs: 650, errors: 1)
        let b = ReactionTest(id: "b", time: Timestamp("2026-03-09T10:00:00+01:00")!, medianMs: 640, meanMs: 650, errors: 0)
        let profile = PatientProfile(studyId: "ORD-1", surgeryDate: LocalDate("2026-03-02")!, timeZone: "Europe/Berlin", age: 50,
                                     sex: .male, bmi: 27, baselineWeightKg: 80, baselineReactionTimeMs: 600)
        let patient = PatientRecord(id: 1, profile: profile, enrolledAt: 0, enrolledBy: "t", activatedAt: nil, withdrawnAt: nil,
                                    withdrawalDate: nil, withdrawalReason: nil)
        func row(_ tests: [ReactionTest]) -> [String: String] {
            Dictionary(uniqueKeysWithValues: mapper.daily(patient, day: DailyEntry(date: date, reactionTests: tests), alert: nil,
                                                          rules: MapperFixture.shipped)!)
        }
        #expect(row([a, b]) == row([b, a]))
        #expect(row([a, b])["rt_errors"] == "1")   // the later of the two equal sessions
    }
}
