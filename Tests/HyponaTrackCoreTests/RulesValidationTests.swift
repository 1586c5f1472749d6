import Foundation
import Testing
import HTJSON
@testable import HyponaTrackCore
import HyponaTrackKit

/// Loading the rule files validates them and names the offending file and key.
@Suite struct RulesValidationTests {
    func files() throws -> [String: [UInt8]] {
        var out: [String: [UInt8]] = [:]
        for name in RuleSet.fileNames { out[name] = Array(try Data(contentsOf: Repo.config.appendingPathComponent(name))) }
        return out
    }

    func parse(_ files: [String: [UInt8]]) throws(RulesError) -> RuleSet {
        try RuleSet.parse(riskModel: files["risk-model.json"]!, thresholds: files["thresholds.json"]!,
                          reminders: files["reminders.json"]!, instructions: files["instructions.json"]!, version: "test")
    }

    /// Replaces the first occurrence of `old` in a file.
    func edited(_ file: String, _ old: String, _ new: String) throws -> [String: [UInt8]] {
        var f = try files()
        let text = String(decoding: f[file]!, as: UTF8.self)
        #expect(text.contains(old), "fixture text not found: \(old)")
        f[file] = Array(text.replacingOccurrences(of: old, with: new).utf8)
        return f
    }

    func expectRulesError(file: String, key: String?, _ f: [String: [UInt8]]) {
        do {
            _ = try parse(f)
            Issue.record("expected \(file) \(key ?? "") to be refused")
        } catch {
            #expect(error.file == file)
            #expect(error.key == key)
        }
    }

    @Test func theShippedRulesLoad() throws {
        let rules = try RulesLoader.load(directory: Repo.config)
        #expect(rules.version.count == 16)
        #expect(rules.thresholds.groups.count == 6)
    }

    @Test func aMisspelledKeyIsNamed() throws {
        expectRulesError(file: "thresholds.json", key: "scaled.weight_gain_pct.yelow",
                         try edited("thresholds.json", "\"yellow\": 1.5", "\"yelow\": 1.5"))
    }

    @Test func aWrongTypeIsNamed() throws {
        expectRulesError(file: "risk-model.json", key: "katA.stalkDeviation",
                         try edited("risk-model.json", "\"stalkDeviation\": 2", "\"stalkDeviation\": \"2\""))
    }

    @Test func aRedThresholdCloserThanYellowIsRefused() throws {
        expectRulesError(file: "thresholds.json", key: "scaled.symptom_score.red",
                         try edited("thresholds.json", "\"yellow\": 10, \"red\": 20", "\"yellow\": 10, \"red\": 5"))
    }

    /// Values a rule file could carry that would mis-score patients: each refused, naming its key.
    @Test(arguments: [
        // 0: 72.8 kg on a 70 kg baseline (+4 %, computed as 3.99…) would score yellow, not red.
        ("\"comparisonTolerance\": 1e-9", "\"comparisonTolerance\": 0", "comparisonTolerance"),
        // 0.001: SG 1.017 would reach a support threshold of 1.0172.
        ("\"comparisonTolerance\": 1e-9", "\"comparisonTolerance\": 0.001", "comparisonTolerance"),
        // Below the reference: a weight 0.7 % under baseline would be a "gain".
        ("\"yellow\": 1.5, \"red\": 4.0", "\"yellow\": -1.5, \"red\": 4.0", "scaled.weight_gain_pct.yellow"),
        ("\"reference\": 1.010, \"support\": 1.020", "\"reference\": 1.010, \"support\": 1.000", "scaled.urine_sg_support.support"),
        // 0: every symptom entry, a symptom-free one too, would be red.
        ("\"confusion\": {\"atLeast\": 1}", "\"confusion\": {\"atLeast\": 0}", "triggers.confusion.atLeast"),
        // The engine holds two previous days: 3 used to load and act as 2.
        ("\"previousDays\": 2", "\"previousDays\": 3", "triggers.sodium_fall_acute.previousDays"),
    ])
    func aThresholdThatWouldMisScoreIsRefused(old: String, new: String, key: String) throws {
        expectRulesError(file: "thresholds.json", key: key, try edited("thresholds.json", old, new))
    }

    /// Instruction texts that would not reach the patient as meant, each refused in
    /// instructions.json naming its key: a misspelt override never matches (a seizure would get
    /// the generic red text), and without one a seizure gets no call-now instruction; an emergency
    /// text with a number of its own tells a patient abroad of the site's number to dial the wrong
    /// one, a misspelt placeholder is shown as written; an emergency symptom without a web label
    /// shows as a bare code, a label for no symptom is never asked. (edited file, old, new, refused key)
    @Test(arguments: [
        ("instructions.json", "\"emergency_symptom\": {", "\"emergency_symtpom\": {", "reasonOverrides.emergency_symtpom"),
        ("instructions.json", "\"emergency_symptom\": {", "\"confusion\": {", "reasonOverrides.emergency_symptom"),
        ("instructions.json", "services ({emergencyNumber}) now", "services (112) now", "reasonOverrides.emergency_symptom.en"),
        ("instructions.json", "Notruf ({emergencyNumber})", "Notruf ({emergencynumber})", "reasonOverrides.emergency_symptom.de"),
        ("instructions.json", "Please go to the emergency", "Call {emergencyNumber or go to the emergency", "levels.red.en"),
        ("instructions.json", "sofort {emergencyNumber} an", "sofort {112} an", "webApp.callNow.de"),
        ("instructions.json", "heute an, bis {until} Uhr", "heute an, bis {bis} Uhr", "webApp.clinicCall.today.de"),
        ("instructions.json", "Please call the clinic today.", "Please call the clinic on {clinicPhone}.", "webApp.clinicCall.callClinic.en"),
        ("instructions.json", "\"Übelkeit\"", "\"Übelkeit {emergencyNumber}\"", "webApp.symptoms.nausea.de"),
        ("thresholds.json", "\"drowsiness\"", "\"drowsiness\", \"chest_pain\"", "webApp.emergencySymptoms"),
        ("instructions.json", "\"seizure\": {", "\"fainting\": {\"en\": \"Fainting\", \"de\": \"Ohnmacht\"}, \"seizure\": {",
         "webApp.emergencySymptoms.fainting"),
    ])
    func anInstructionThatWouldMisleadIsRefused(file: String, old: String, new: String, key: String) throws {
        expectRulesError(file: "instructions.json", key: key, try edited(file, old, new))
    }

    @Test func aCodeInNoGroupIsRefused() throws {
        expectRulesError(file: "thresholds.json", key: "groups",
                         try edited("thresholds.json", "\"possible_di\": [\"possible_di\"]", "\"possible_di\": []"))
    }

    @Test func aReminderInsideQuietHoursIsRefused() throws {
        expectRulesError(file: "reminders.json", key: "checkTimes.evening",
                         try edited("reminders.json", "\"evening\": \"20:00\"", "\"evening\": \"22:30\""))
    }

    @Test func aMissingLanguageIsRefused() throws {
        expectRulesError(file: "instructions.json", key: "levels.red.de",
                         try edited("instructions.json", "\"de\": \"Bitte gehen Sie", "\"fr\": \"Bitte gehen Sie"))
    }

    @Test func instructionsMustSayNotAMedicalDevice() throws {
        expectRulesError(file: "instructions.json", key: "disclaimer.en",
                         try edited("instructions.json", "not a validated medical device", "a study tool"))
    }

    @Test func malformedJSONNamesTheFile() throws {
        expectRulesError(file: "reminders.json", key: nil, try edited("reminders.json", "{", "{,"))
    }

    @Test func anyByteChangeInAnyFileChangesTheVersion() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in RuleSet.fileNames {
            try FileManager.default.copyItem(at: Repo.config.appendingPathComponent(name), to: dir.appendingPathComponent(name))
        }
        let before = try RulesLoader.load(directory: dir).version
        #expect(before == Fixtures.rules.version)
        let url = dir.appendingPathComponent("instructions.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        try text.replacingOccurrences(of: "continue your daily checks", with: "continue your daily checks!")
            .write(to: url, atomically: true, encoding: .utf8)
        #expect(try RulesLoader.load(directory: dir).version != before)
    }

    @Test func aMissingFileIsNamed() {
        #expect(throws: RulesError.self) {
            try RulesLoader.load(directory: URL(fileURLWithPath: "/nonexistent"))
        }
    }
}
