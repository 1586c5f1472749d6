/// The nine daily tasks (docs/clinical-rules.md §6), named as in the API.
public enum CareTask: String, Sendable, CaseIterable, Comparable {
    case weightMorning = "weight_morning"
    case symptomsMorning = "symptoms_morning"
    case urineSG = "urine_sg"
    case fluidLog = "fluid_log"
    case reactionTest = "reaction_test"
    case tappingTest = "tapping_test"
    case weightEvening = "weight_evening"
    case symptomsEvening = "symptoms_evening"
    case desmopressin

    private var order: Int { CareTask.allCases.firstIndex(of: self)! }
    public static func < (a: CareTask, b: CareTask) -> Bool { a.order < b.order }

    /// Hidden tasks are not scheduled, not reminded and do not count for adherence. The web
    /// check-in cannot run the reaction and tapping tests, so a web-only patient never sees them;
    /// desmopressin doses stay, since the web form records them (an overdose causes hyponatremia).
    public func isHidden(for profile: PatientProfile) -> Bool {
        switch self {
        case .reactionTest, .tappingTest: return profile.simplifiedMode || profile.webOnly
        case .desmopressin: return !profile.desmopressinPrescribed
        default: return false
        }
    }

    /// Whether the day's data completes the task.
    public func isDone(on day: DailyEntry?) -> Bool {
        guard let day else { return false }
        switch self {
        case .weightMorning: return day.weightMorningKg != nil
        case .symptomsMorning: return day.symptoms.contains { $0.slot == .morning }
        case .urineSG: return day.urineSG != nil
        case .fluidLog: return day.fluidIntakeMl != nil
        case .reactionTest: return !day.reactionTests.isEmpty
        case .tappingTest: return !day.tappingTests.isEmpty
        case .weightEvening: return day.weightEveningKg != nil
        case .symptomsEvening: return day.symptoms.contains { $0.slot == .evening }
        case .desmopressin: return !day.desmopressinDoses.isEmpty
        }
    }
}

/// A task's state on one day.
public struct TaskStatus: Sendable, Equatable {
    public enum State: String, Sendable { case open, done, hidden }

    public var task: CareTask
    public var due: ReminderRules.Deadline
    public var state: State
}

/// The day's care plan: every task with its deadline and state (docs/clinical-rules.md §6).
public enum CarePlan {
    public static func tasks(for profile: PatientProfile, on day: DailyEntry?, rules: ReminderRules) -> [TaskStatus] {
        CareTask.allCases.map { task in
            let state: TaskStatus.State = task.isHidden(for: profile) ? .hidden : task.isDone(on: day) ? .done : .open
            return TaskStatus(task: task, due: rules.taskDeadlines[task] ?? .evening, state: state)
        }
    }

    /// Adherence over the configured number of previous local days (today excluded) that lie in
    /// the monitoring window and on or after the activation day: done / scheduled tasks.
    /// No such day (or nothing scheduled) → 1.0.
    public static func adherence(profile: PatientProfile, days: [DailyEntry], today: LocalDate,
                                 activationDate: LocalDate?, window: MonitoringWindow, rules: ReminderRules) -> Double {
        var done = 0, scheduled = 0
        for back in 1...rules.adherenceDays {
            let date = today.adding(days: -back)
            guard window.contains(date), let activation = activationDate, date >= activation else { continue }
            let count = taskCount(for: profile, on: days.first { $0.date == date })
            scheduled += count.scheduled
            done += count.done
        }
        return scheduled == 0 ? 1.0 : Double(done) / Double(scheduled)
    }

    /// The day's scheduled tasks (hidden ones do not count) and how many of them its data completes.
    public static func taskCount(for profile: PatientProfile, on day: DailyEntry?) -> (scheduled: Int, done: Int) {
        var scheduled = 0, done = 0
        for task in CareTask.allCases where !task.isHidden(for: profile) {
            scheduled += 1
            if task.isDone(on: day) { done += 1 }
        }
        return (scheduled, done)
    }
}
