import Foundation
import Testing
import HTJSON
import HyponaTrackCore
import HyponaTrackKit
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// The data dictionary in `instruments/` against the rule files in `config/` (one source for the
/// choice lists) and against what REDCap and the statistics packages need of it: export names of
/// at most 32 characters, the identifier flags, no section header on the record ID.
@Suite struct REDCapDictionaryTests {
    /// The CSV's rows by position (REDCap reads the 18 columns by position).
    struct Row {
        let cells: [String]
        var name: String { cells[0] }
        var form: String { cells[1] }
        var sectionHeader: String { cells[2] }
        var type: String { cells[3] }
        var choices: [String] {
            cells[5].split(separator: "|").compactMap { $0.split(separator: ",", maxSplits: 1).first?.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
        }
        var validation: String { cells[7] }
        var identifier: String { cells[10] }
    }

    static let config = DataDictionary.file.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("config")

    let rows: [Row]
    init() throws {
        let text = try String(contentsOf: DataDictionary.file, encoding: .utf8)
        rows = DataDictionary.parseCSV(text).dropFirst().filter { !$0.allSatisfy(\.isEmpty) }.map(Row.init)
    }

    func row(_ name: String) throws -> Row { try #require(rows.first { $0.name == name }, "\(name) is not in the dictionary") }

    /// The keys of an object (or the strings of an array) at `path` in a rule file, read as JSON.
    static func codes(_ file: String, _ path: [String]) throws -> [String] {
        var value = try JSONParser.parse(Array(try Data(contentsOf: config.appendingPathComponent(file))))
        for key in path {
            guard case .object(let o) = value, let next = o[key] else { throw TestError("\(file): no \(path.joined(separator: "."))") }
            value = next
        }
        switch value {
        case .object(let o): return o.keys
        case .array(let items): return items.compactMap { if case .string(let s) = $0 { s } else { nil } }
        default: throw TestError("\(file): \(path.joined(separator: ".")) holds no codes")
        }
    }

    /// Each rule-file code list and the dictionary field whose choices it is.
    static let sources: [(field: String, type: String, file: String, path: [String])] = [
        ("histology", "dropdown", "risk-model.json", ["katA", "histology"]),
        ("risk_med", "checkbox", "risk-model.json", ["katA", "riskMedications", "points"]),
        ("postop_nausea", "radio", "risk-model.json", ["katC", "postopNausea"]),
        ("emergency_symptoms", "checkbox", "thresholds.json", ["emergencySymptoms"]),
    ]

    @Test func everyRuleFileCodeIsAChoiceOfItsFieldAndViceVersa() throws {
        for source in Self.sources {
            let codes = try Self.codes(source.file, source.path)
            let field = try row(source.field)
            #expect(field.type == source.type, "\(source.field) is a \(field.type)")
            #expect(!codes.isEmpty && Set(codes).count == codes.count)
            for code in codes where !field.choices.contains(code) {
                Issue.record("\(source.file) \(source.path.joined(separator: ".")) has \(code), which \(source.field) does not offer")
            }
            for choice in field.choices where !codes.contains(choice) {
                Issue.record("\(source.field) offers \(choice), which \(source.file) \(source.path.joined(separator: ".")) does not list")
            }
            #expect(field.choices == codes, "\(source.field) lists the choices in the rule file's order")
        }
    }

    @Test func theFieldsTheMapperWritesTakeTheirChoicesFromTheRuleSet() throws {
        // A study that adds a medication and an emergency symptom to its rule files gets them as
        // REDCap choices without a server change (the dictionary must follow: the test above).
        var rules = MapperFixture.shipped
        rules.riskModel.medicationCodes.append("lithium")
        rules.riskModel.medicationPoints["lithium"] = 1
        rules.thresholds.emergencySymptoms.append("fainting")
        let fields = REDCapFields(rules: rules)
        let baseline = REDCapFields.columns(fields.baseline, form: REDCapFields.baselineForm)
        let daily = REDCapFields.columns(fields.daily, form: REDCapFields.dailyForm)
        #expect(baseline.contains("risk_med___lithium") && daily.contains("emergency_symptoms___fainting"))
        let mapper = REDCapMapper(studyZone: ZoneRules(identifier: "Europe/Berlin")!, baselineEvent: nil, dailyEvent: nil)
        let patient = MapperFixture.record(MapperFixture.profile("NEW-MED", meds: ["lithium"]))
        let row = mapper.baseline(patient, risk: RiskEngine(rules: rules.riskModel).assess(patient.profile), rules: rules)
        #expect(row["risk_med___lithium"] == "1" && row["risk_med___thiazide"] == "0")
        let day = DailyEntry(date: LocalDate("2026-03-09")!, emergencySymptoms: ["fainting"])
        let daily1 = try #require(mapper.daily(patient, day: day, alert: nil, rules: rules))
        #expect(daily1["emergency_symptoms___fainting"] == "1" && daily1["emergency_symptoms___seizure"] == "0")
    }

    @Test func theNoDataAlertKindIsLabelledWithTheShippedSilentDaysAndSyncCheckNamesAStaleLabel() throws {
        // The dictionary's label of no_data_2d names reminders.json's missingData.noData.days;
        // a project whose label no longer does (the days were changed) is told so by sync check.
        let alertKind = try row("alert_kind")
        let days = MapperFixture.shipped.reminders.noDataDays
        #expect(alertKind.cells[5].contains("no_data_2d, \(Vocabulary(language: .en).noData(days: days, capitalised: true))"),
                "\(alertKind.cells[5])")
        let remote = JSONObject([("select_choices_or_calculations", .string(alertKind.cells[5]))])
        #expect(SyncCheck.noDataLabel(remote: remote, days: days) == nil)
        let stale = try #require(SyncCheck.noDataLabel(remote: remote, days: days + 1))
        #expect(stale.contains("does not name the \(days + 1) silent days") && stale.contains("\"No data for \(days + 1) days\""), "\(stale)")
        let words = JSONObject([("select_choices_or_calculations", "evaluation, Evaluation | no_data_2d, No data for two days")])
        #expect(SyncCheck.noDataLabel(remote: words, days: 2) != nil, "a number in words is not checked to be the days")
    }

    @Test func everyExportColumnNameHasAtMost32Characters() throws {
        // Stata and SAS cut variable names at 32 characters; REDCap's export names of a checkbox
        // are `field___code`.
        var checkboxColumns = 0
        for row in rows {
            let names = row.type == "checkbox" ? row.choices.map { REDCapFields.checkboxColumn(row.name, $0) } : [row.name]
            for name in names { #expect(name.count <= 32, "\(name) has \(name.count) characters") }
            if row.type == "checkbox" { checkboxColumns += names.count }
        }
        #expect(checkboxColumns > 0)
        for form in Set(rows.map(\.form)) { #expect("\(form)_complete".count <= 32) }
        let f = try MapperFixture()
        for (form, fields) in f.fields.forms {
            for column in REDCapFields.columns(fields, form: form) { #expect(column.count <= 32, "the mapper writes \(column)") }
        }
    }

    @Test func datesAgeAndFreeTextAreMarkedAsIdentifiers() throws {
        for name in ["surgery_date", "age", "withdrawal_reason", "withdrawal_date", "consent_date", "dm_date",
                     "alert_date", "alert_opened_at", "alert_ack_at", "alert_resolved_at"] {
            #expect(try row(name).identifier == "y", "\(name) must be marked Identifier? y")
        }
        // Every calendar date and datetime of the patient (any of them with dm_pod gives the
        // surgery date), every free-text field; nothing else.
        let dated = ["date_ymd", "datetime_ymd", "datetime_seconds_ymd"]
        let expected = Set(rows.filter { dated.contains($0.validation) || $0.type == "notes" }.map(\.name)
                           + ["age"])
        #expect(Set(rows.filter { $0.identifier == "y" }.map(\.name)) == expected)
        #expect(rows.allSatisfy { $0.identifier == "" || $0.identifier == "y" })
    }

    @Test func theRecordIdComesFirstWithoutASectionHeader() throws {
        #expect(rows.first?.name == "record_id")
        #expect(rows.first?.sectionHeader == "")
        #expect(try row("surgery_date").sectionHeader == "Study participant")
    }

    @Test func consentIsABaselineTextAndDateField() throws {
        let version = try row("consent_version"), date = try row("consent_date")
        #expect((version.form, version.type, version.validation, version.identifier) == ("patient_baseline", "text", "", ""))
        #expect((date.form, date.type, date.validation, date.identifier) == ("patient_baseline", "text", "date_ymd", "y"))
    }
}
