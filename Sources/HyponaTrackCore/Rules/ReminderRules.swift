import HTJSON

/// Monitoring window, tasks, reminder times and missing-data rules (docs/clinical-rules.md §6–§8), from
/// `config/reminders.json`.
public struct ReminderRules: Sendable, Equatable {
    public enum Deadline: String, Sendable, CaseIterable { case morning, evening }

    // Monitoring window
    public var monitoringPODs: ClosedRange<Int>
    public var extendedToPOD: Int
    public var extendForHistologies: [String]
    /// A yellow or red on a POD at or after this extends monitoring.
    public var extendWhenAlertFromPOD: Int

    // Tasks
    public var taskDeadlines: [CareTask: Deadline]

    // Intensity (§7)
    public var adherenceDays: Int
    public var lowAdherenceBelow: Double
    public var minimalAdherenceAtLeast: Double

    // Times
    public var checkTimes: [Deadline: LocalTime]
    public var deadlines: [Deadline: LocalTime]
    public var taskTimes: [CareTask: LocalTime]
    public var catchUp: LocalTime
    public var quietFrom: LocalTime
    public var quietTo: LocalTime
    public var dailyCap: Int
    /// A push nudge after this many hours without a submission during monitoring (one per silent
    /// stretch, held until quiet hours end, not counted toward `dailyCap`).
    public var silenceNudgeHours: Double = 26

    // Missing data (§8)
    public var missingCheckinLevel: Level
    public var missingCheckinCriticalWindowOnly: Bool
    public var noDataDays: Int
    public var noDataLevel: Level

    /// Whether a time of day lies inside quiet hours (which may wrap midnight).
    public func isQuiet(_ t: LocalTime) -> Bool {
        if quietFrom == quietTo { return false }
        if quietFrom < quietTo { return t >= quietFrom && t < quietTo }
        return t >= quietFrom || t < quietTo
    }

    static func parse(_ json: JSONValue) throws(FieldError) -> ReminderRules {
        let root = try ObjectReader(json)
        _ = root.raw("description")
        func section(_ key: String) throws(FieldError) -> ObjectReader {
            try ObjectReader(try root.required(key, .any), path: key)
        }
        let time = JSONRead.string(expected: "a time HH:MM") { LocalTime($0) != nil }.map { s, _ in LocalTime(s)! }
        let pod = JSONRead.integer(0...60)

        let monitoring = try section("monitoring")
        let from = try monitoring.required("fromPod", pod)
        let to = try monitoring.required("toPod", pod)
        guard from <= to else { throw FieldError.invalid("monitoring.toPod", "must not be before fromPod") }
        let extended = try monitoring.required("extendedToPod", pod)
        guard extended >= to else { throw FieldError.invalid("monitoring.extendedToPod", "must not be before toPod") }
        let extendHistologies = try monitoring.optionalArray("extendForHistologies") { v, p throws(FieldError) in
            try JSONRead.string(length: 1...64).convert(v, p)
        } ?? []
        let extendFrom = try monitoring.required("extendWhenAlertFromPod", pod)
        try monitoring.finish()

        let tasks = try section("taskDeadlines")
        var taskDeadlines: [CareTask: Deadline] = [:]
        for task in CareTask.allCases {
            let name = try tasks.required(task.rawValue, .oneOf(Deadline.allCases.map(\.rawValue)))
            taskDeadlines[task] = Deadline(rawValue: name)
        }
        try tasks.finish()

        let intensity = try section("intensity")
        let days = try intensity.required("adherenceDays", .integer(1...14))
        let low = try intensity.required("lowAdherenceBelow", .number(0...1))
        let minimal = try intensity.required("minimalAdherenceAtLeast", .number(0...1))
        guard low <= minimal else { throw FieldError.invalid("intensity.minimalAdherenceAtLeast", "must not be below lowAdherenceBelow") }
        try intensity.finish()

        func pair(_ key: String) throws(FieldError) -> [Deadline: LocalTime] {
            let r = try section(key)
            var out: [Deadline: LocalTime] = [:]
            for d in Deadline.allCases { out[d] = try r.required(d.rawValue, time) }
            try r.finish()
            return out
        }
        let checkTimes = try pair("checkTimes")
        let deadlines = try pair("deadlines")
        let taskTimesReader = try section("taskTimes")
        var taskTimes: [CareTask: LocalTime] = [:]
        for key in taskTimesReader.object.keys {
            guard let task = CareTask(rawValue: key) else {
                throw FieldError(.unknownField, field: taskTimesReader.fieldPath(key), "not a task name")
            }
            taskTimes[task] = try taskTimesReader.required(key, time)
        }
        let catchUp = try root.required("catchUp", time)
        let quiet = try section("quietHours")
        let quietFrom = try quiet.required("from", time)
        let quietTo = try quiet.required("to", time)
        try quiet.finish()
        let cap = try root.required("dailyCap", .integer(2...100))
        let nudgeHours = try root.optional("silenceNudgeHours", .number(1...336)) ?? 26

        let missing = try section("missingData")
        let checkin = try ObjectReader(try missing.required("missingCheckin", .any), path: "missingData.missingCheckin")
        let level = JSONRead.oneOf(["yellow", "red"]).map { s, _ in Level(rawValue: s)! }
        let checkinLevel = try checkin.required("level", level)
        let checkinWindowOnly = try checkin.required("criticalWindowOnly", .bool)
        try checkin.finish()
        let noData = try ObjectReader(try missing.required("noData", .any), path: "missingData.noData")
        let noDataDays = try noData.required("days", .integer(1...14))
        let noDataLevel = try noData.required("level", level)
        try noData.finish()
        try missing.finish()
        try root.finish()

        var rules = ReminderRules(
            monitoringPODs: from...to, extendedToPOD: extended, extendForHistologies: extendHistologies,
            extendWhenAlertFromPOD: extendFrom, taskDeadlines: taskDeadlines, adherenceDays: days,
            lowAdherenceBelow: low, minimalAdherenceAtLeast: minimal, checkTimes: checkTimes, deadlines: deadlines,
            taskTimes: taskTimes, catchUp: catchUp, quietFrom: quietFrom, quietTo: quietTo, dailyCap: cap,
            missingCheckinLevel: checkinLevel, missingCheckinCriticalWindowOnly: checkinWindowOnly,
            noDataDays: noDataDays, noDataLevel: noDataLevel)
        rules.silenceNudgeHours = nudgeHours
        // A configured reminder time inside quiet hours is a configuration error (§7).
        for d in Deadline.allCases {
            if rules.isQuiet(checkTimes[d]!) { throw FieldError.invalid("checkTimes.\(d.rawValue)", "lies inside quiet hours") }
            if rules.isQuiet(deadlines[d]!) { throw FieldError.invalid("deadlines.\(d.rawValue)", "lies inside quiet hours") }
        }
        for (task, t) in taskTimes where rules.isQuiet(t) {
            throw FieldError.invalid("taskTimes.\(task.rawValue)", "lies inside quiet hours")
        }
        if rules.isQuiet(catchUp) { throw FieldError.invalid("catchUp", "lies inside quiet hours") }
        guard deadlines[.morning]! < deadlines[.evening]! else {
            throw FieldError.invalid("deadlines.evening", "must be after the morning deadline")
        }
        return rules
    }
}
