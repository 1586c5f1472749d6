import HTJSON

/// The four rule files, validated, with the version that identifies them. Every evaluation
/// records `version`, so a result can always be traced to the rules that produced it.
public struct RuleSet: Sendable, Equatable {
    /// The file names, in the order their bytes enter the version hash.
    public static let fileNames = ["risk-model.json", "thresholds.json", "reminders.json", "instructions.json"]

    public var riskModel: RiskModelRules
    public var thresholds: ThresholdRules
    public var reminders: ReminderRules
    public var instructions: InstructionTexts
    /// A hash of the four files' bytes (computed by the loader, which owns the hashing).
    public var version: String

    public init(riskModel: RiskModelRules, thresholds: ThresholdRules, reminders: ReminderRules,
                instructions: InstructionTexts, version: String) {
        self.riskModel = riskModel
        self.thresholds = thresholds
        self.reminders = reminders
        self.instructions = instructions
        self.version = version
    }

    /// Parses and cross-checks the four files' contents (already read from disk).
    public static func parse(riskModel: [UInt8], thresholds: [UInt8], reminders: [UInt8], instructions: [UInt8],
                             version: String) throws(RulesError) -> RuleSet {
        func document(_ bytes: [UInt8], _ file: String) throws(RulesError) -> JSONValue {
            do { return try JSONParser.parse(bytes) } catch { throw RulesError(file: file, key: nil, message: error.description) }
        }
        func parse<T>(_ file: String, _ bytes: [UInt8], _ body: (JSONValue) throws(FieldError) -> T) throws(RulesError) -> T {
            let json = try document(bytes, file)
            do { return try body(json) } catch { throw RulesError(file: file, error) }
        }
        let risk = try parse("risk-model.json", riskModel, RiskModelRules.parse)
        let thresholdRules = try parse("thresholds.json", thresholds, ThresholdRules.parse)
        let reminderRules = try parse("reminders.json", reminders, ReminderRules.parse)
        let texts = try parse("instructions.json", instructions, InstructionTexts.parse)
        for h in reminderRules.extendForHistologies where risk.histologyPoints[h] == nil {
            throw RulesError(file: "reminders.json", key: "monitoring.extendForHistologies",
                             message: "\"\(h)\" is not a histology of risk-model.json")
        }
        // The check-in form lists thresholds.json's emergency symptoms with these labels: a code
        // without one would show as a bare code, a label without a code would never be asked.
        if let labels = texts.webApp?.emergencySymptoms {
            let codes = Set(thresholdRules.emergencySymptoms)
            if let code = thresholdRules.emergencySymptoms.first(where: { labels[$0] == nil }) {
                throw RulesError(file: "instructions.json", key: "webApp.emergencySymptoms",
                                 message: "has no label for \"\(code)\" of thresholds.json's emergencySymptoms")
            }
            if let code = labels.keys.sorted().first(where: { !codes.contains($0) }) {
                throw RulesError(file: "instructions.json", key: "webApp.emergencySymptoms.\(code)",
                                 message: "is not one of thresholds.json's emergencySymptoms")
            }
        }
        return RuleSet(riskModel: risk, thresholds: thresholdRules, reminders: reminderRules, instructions: texts,
                       version: version)
    }
}
