/// Plans a patient's reminders for one local day (docs/clinical-rules.md §7): the intensity from
/// adherence and the critical window, then the day's concrete reminders in local wall-clock time
/// resolved to instants with the patient's time-zone rules.
public struct AdaptiveReminderPlanner: Sendable {
    public let rules: ReminderRules
    public let criticalWindow: ClosedRange<Int>

    public init(rules: RuleSet) {
        self.rules = rules.reminders
        self.criticalWindow = rules.thresholds.criticalWindow
    }

    /// §7's table.
    public func intensity(adherence a: Double, pod: Int, morningCheckComplete: Bool) -> ReminderIntensity {
        let critical = criticalWindow.contains(pod)
        if a < rules.lowAdherenceBelow { return critical ? .maximal : .elevated }
        if critical { return .elevated }
        if a >= rules.minimalAdherenceAtLeast && morningCheckComplete { return .minimal }
        return .normal
    }

    /// The plan for `date`. `tasks` are the day's task states now; a reminder lists only tasks
    /// still open and is left out when none is.
    public func plan(date: LocalDate, pod: Int, adherence: Double, tasks: [TaskStatus], zone: ZoneRules) -> ReminderPlan {
        let open = tasks.filter { $0.state == .open }
        let morningComplete = !tasks.contains { ($0.task == .weightMorning || $0.task == .symptomsMorning) && $0.state == .open }
        let level = intensity(adherence: adherence, pod: pod, morningCheckComplete: morningComplete)

        func openTasks(due deadline: ReminderRules.Deadline) -> [CareTask] {
            open.filter { $0.due == deadline }.map(\.task)
        }
        var planned: [(time: LocalTime, kind: Reminder.Kind, tasks: [CareTask])] = []
        // minimal: the two check reminders (morning: the morning-deadline tasks; evening: the rest).
        planned.append((rules.checkTimes[.morning]!, .check, openTasks(due: .morning)))
        planned.append((rules.checkTimes[.evening]!, .check, openTasks(due: .evening)))
        if level >= .normal {
            // A `missed` reminder at each deadline listing that deadline's open tasks.
            for deadline in ReminderRules.Deadline.allCases {
                planned.append((rules.deadlines[deadline]!, .missed, openTasks(due: deadline)))
            }
        }
        if level >= .elevated {
            // A `task` reminder per scheduled task that has its own time.
            for status in open {
                if let t = rules.taskTimes[status.task] { planned.append((t, .task, [status.task])) }
            }
        }
        if level >= .maximal {
            planned.append((rules.catchUp, .catchUp, open.map(\.task)))
        }
        var reminders = planned.filter { !$0.tasks.isEmpty }.map { p in
            Reminder(at: zone.instant(on: date, at: p.time), localTime: p.time, kind: p.kind, tasks: p.tasks.sorted())
        }
        // Quiet hours are read on the clock the reminder lands on. A configured time is never
        // quiet (the rule files refuse it), but a spring-forward gap moves it on by the gap
        // (02:30 → 03:30), which can be inside quiet hours: then it is not sent that day, whatever
        // its kind. A time in a fall-back overlap keeps its first occurrence, the configured time.
        reminders.removeAll { rules.isQuiet($0.at.localTime) }
        reminders = capped(reminders)
        reminders.sort { $0.at.epochSeconds != $1.at.epochSeconds ? $0.at < $1.at : $0.kind.rawValue < $1.kind.rawValue }
        return ReminderPlan(date: date, intensity: level, reminders: reminders)
    }

    /// Applies the daily cap: drop `catch_up` first, then `task` reminders latest first, then
    /// `missed` latest first; `check` reminders are never dropped.
    private func capped(_ planned: [Reminder]) -> [Reminder] {
        var result = planned
        for kind in [Reminder.Kind.catchUp, .task, .missed] {
            while result.count > rules.dailyCap {
                guard let latest = result.indices.filter({ result[$0].kind == kind })
                    .max(by: { result[$0].localTime < result[$1].localTime })
                else { break }
                result.remove(at: latest)
            }
        }
        return result
    }
}
