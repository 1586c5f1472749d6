import Foundation
import HTJSON
import HyponaTrackCore
import HyponaTrackKit

/// Helpers for the care-plan, monitoring-window and reminder tests (docs/clinical-rules.md §6–§7).
enum PlannerFixtures {
    static let berlin = ZoneRules(identifier: "Europe/Berlin")!

    /// A planner over the shipped rules, changed as a test needs.
    static func planner(_ change: (inout RuleSet) -> Void = { _ in }) -> AdaptiveReminderPlanner {
        var rules = Fixtures.rules
        change(&rules)
        return AdaptiveReminderPlanner(rules: rules)
    }

    /// A day on which exactly `tasks` are done (each by the data that completes it, §6).
    static func entry(_ date: String, done tasks: Set<CareTask>) -> DailyEntry {
        Fixtures.day(date) { d in
            for task in tasks {
                switch task {
                case .weightMorning: d.weightMorningKg = 70
                case .symptomsMorning: d.symptoms.append(Fixtures.symptoms(date, slot: .morning, at: "08:05", id: "sm"))
                case .urineSG: d.urineSG = 1.015
                case .fluidLog: d.fluidIntakeMl = 1200
                case .reactionTest: d.reactionTests.append(Fixtures.reaction(date, "10:00", medianMs: 600, id: "rt"))
                case .tappingTest:
                    d.tappingTests.append(TappingTest(id: "tt", time: Fixtures.time("\(date)T10:15:00+01:00"),
                                                      taps: 60, durationSeconds: 10))
                case .weightEvening: d.weightEveningKg = 70.2
                case .symptomsEvening: d.symptoms.append(Fixtures.symptoms(date, slot: .evening, at: "20:05", id: "se"))
                case .desmopressin:
                    d.desmopressinDoses.append(DesmopressinDose(id: "dd", time: Fixtures.time("\(date)T09:00:00+01:00"),
                                                                doseMcg: 60))
                }
            }
        }
    }

    /// A day on which every task is done.
    static func fullDay(_ date: String) -> DailyEntry { entry(date, done: Set(CareTask.allCases)) }

    /// The day's task states under the shipped rules.
    static func tasks(_ profile: PatientProfile = Fixtures.profile(), done: Set<CareTask> = []) -> [TaskStatus] {
        CarePlan.tasks(for: profile, on: entry("2026-03-04", done: done), rules: Fixtures.rules.reminders)
    }

    static let morningCheck: Set<CareTask> = [.weightMorning, .symptomsMorning]

    /// Parses the shipped rule files with `reminders.json` edited; nil when they are accepted.
    static func remindersError(_ edit: (inout JSONObject) -> Void) throws -> RulesError? {
        func read(_ name: String) throws -> [UInt8] {
            Array(try Data(contentsOf: Repo.config.appendingPathComponent(name)))
        }
        guard case .object(var reminders) = try JSONParser.parse(try read("reminders.json")) else {
            throw RulesError(file: "reminders.json", key: nil, message: "not an object")
        }
        edit(&reminders)
        do {
            _ = try RuleSet.parse(riskModel: try read("risk-model.json"), thresholds: try read("thresholds.json"),
                                  reminders: JSONSerializer.bytes(.object(reminders)),
                                  instructions: try read("instructions.json"), version: "test")
            return nil
        } catch let error as RulesError {
            return error
        }
    }
}

extension JSONObject {
    /// Sets a member of a nested object (`set("checkTimes", "morning", to: "06:30")`).
    mutating func set(_ section: String, _ key: String, to value: JSONValue) {
        guard case .object(var inner) = self[section] else { return }
        inner[key] = value
        self[section] = .object(inner)
    }
}

extension ReminderPlan {
    /// The reminders of one kind, as `(local time, task names)` in time order.
    func of(_ kind: Reminder.Kind) -> [(time: String, tasks: [String])] {
        reminders.filter { $0.kind == kind }.map { ($0.localTime.description, $0.tasks.map(\.rawValue)) }
    }

    /// `kind@HH:MM` for every reminder, in time order.
    var summary: [String] { reminders.map { "\($0.kind.rawValue)@\($0.localTime)" } }
}
