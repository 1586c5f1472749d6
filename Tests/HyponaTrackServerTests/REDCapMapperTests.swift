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
