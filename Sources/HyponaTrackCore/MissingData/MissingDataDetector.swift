/// Silence is a signal (docs/clinical-rules.md §8): a confused patient stops entering data.
/// Pure decisions for the scheduler, which calls them at the moments they name (the evening
/// deadline; the end of the local day) — also late, after downtime, for the moments it missed.
public struct MissingDataDetector: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case missingCheckin = "missing_checkin"
        case noData2d = "no_data_2d"
    }

    public struct Finding: Sendable, Equatable {
        public var kind: Kind
        public var level: Level
        public var date: LocalDate
        public var pod: Int
    }

    public let reminders: ReminderRules
    public let criticalWindow: ClosedRange<Int>

    public init(rules: RuleSet) {
        reminders = rules.reminders
        criticalWindow = rules.thresholds.criticalWindow
    }

    /// When `missing_checkin` for `date` is decided: the evening deadline, local time.
    public func missingCheckinDue(on date: LocalDate, zone: ZoneRules) -> Timestamp {
        zone.instant(on: date, at: reminders.deadlines[.evening]!)
    }

    /// When `no_data_2d` for `date` is decided: 24:00 local, i.e. the next day's midnight.
    public func noDataDue(on date: LocalDate, zone: ZoneRules) -> Timestamp {
        zone.instant(on: date.adding(days: 1), at: LocalTime(hour: 0, minute: 0)!)
    }

    /// `missing_checkin`: on a monitoring day (inside the critical window by default), at the
    /// evening deadline, neither the morning nor the evening check is complete. Nothing fires
    /// before activation (the deadline must come after it) or outside monitoring.
    ///
    /// - Parameter day: the day if the patient submitted it themself, nil otherwise: checks that
    ///   only staff completed (a correction, a confirmed import) are no check-in of the patient.
    public func missingCheckin(profile: PatientProfile, day: DailyEntry?, date: LocalDate, window: MonitoringWindow,
                               activatedAt: Timestamp?, zone: ZoneRules) -> Finding? {
        guard let activatedAt, window.contains(date) else { return nil }
        let pod = profile.pod(at: date)
        if reminders.missingCheckinCriticalWindowOnly && !criticalWindow.contains(pod) { return nil }
        guard missingCheckinDue(on: date, zone: zone) > activatedAt else { return nil }
        if let day, day.morningCheckComplete || day.eveningCheckComplete { return nil }
        return Finding(kind: .missingCheckin, level: reminders.missingCheckinLevel, date: date, pod: pod)
    }

    /// `no_data_2d`: at the end of `date`, it and the days before it (two by default) held no
    /// patient-submitted data at all (staff lab values do not count), all of them on or after
    /// the activation day and inside the monitoring window.
    ///
    /// - Parameter days: the days the patient submitted themself (a day only staff wrote is left out).
    public func noData(profile: PatientProfile, days: [DailyEntry], date: LocalDate, window: MonitoringWindow,
                       activatedAt: Timestamp?) -> Finding? {
        guard let activatedAt else { return nil }
        let activationDay = activatedAt.localDate
        for back in 0..<reminders.noDataDays {
            let d = date.adding(days: -back)
            guard window.contains(d), d >= activationDay else { return nil }
            if let day = days.first(where: { $0.date == d }), day.hasPatientData { return nil }
        }
        return Finding(kind: .noData2d, level: reminders.noDataLevel, date: date, pod: profile.pod(at: date))
    }
}
