import HyponaTrackCore

/// Order statistics, plain functions over numbers.
enum OrderStatistics {
    /// The middle value; for an even count the mean of the middle pair. nil for no values.
    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    /// The nearest-rank percentile: the value of rank ⌈p/100 · n⌉ (1-based, at least 1) of the
    /// sorted values — always one of the values, never interpolated. nil for no values.
    static func nearestRank(_ percent: Int, _ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let rank = max(1, (percent * values.count + 99) / 100)   // ⌈p·n/100⌉ in integers
        return values.sorted()[min(rank, values.count) - 1]
    }

    static func summary(_ minutes: [Double]) -> MinutesSummary {
        MinutesSummary(median: median(minutes), p90: nearestRank(90, minutes), n: minutes.count)
    }
}

/// Where a patient stands in the study.
enum PatientStanding: Sendable, Equatable {
    case active, finished, withdrawn
}

/// What the statistics need of one patient, worked out from the stored data by `facts`.
struct PatientFacts: Sendable, Equatable {
    var cohort: Cohort
    var standing: PatientStanding
    /// One entry per monitored day that has begun (window start … min(window end, today)): the
    /// level of its latest evaluation, nil when it has none.
    var dayLevels: [Level?]
    var tasksDue: Int
    var tasksDone: Int
    var alerts: [AlertTiming]

    /// - Parameters:
    ///   - levels: the latest evaluation's level by date (absent: no evaluation, or not evaluated).
    ///   - activation: the local date the patient activated the app (nil: not yet); adherence
    ///     counts only days on or after it, as docs/clinical-rules.md §6 does.
    static func facts(profile: PatientProfile, riskClass: RiskClass, withdrawn: Bool, window: MonitoringWindow, today: LocalDate,
                      activation: LocalDate?, days: [DailyEntry], levels: [LocalDate: Level], alerts: [AlertTiming]) -> PatientFacts {
        let standing: PatientStanding = withdrawn ? .withdrawn : today > window.last ? .finished : .active
        var dayLevels: [Level?] = []
        var due = 0, done = 0
        let byDate = Dictionary(days.map { ($0.date, $0) }) { first, _ in first }
        var date = window.first
        while date <= window.last && date <= today {
            dayLevels.append(levels[date])
            // Today is not over: its tasks are not yet missed.
            if date < today, let activation, date >= activation {
                let count = CarePlan.taskCount(for: profile, on: byDate[date])
                due += count.scheduled
                done += count.done
            }
            date = date.adding(days: 1)
        }
        return PatientFacts(cohort: Cohort(riskClass), standing: standing, dayLevels: dayLevels, tasksDue: due, tasksDone: done,
                            alerts: alerts)
    }
}

/// The figures of one cohort from its patients' facts.
enum CohortFigures {
    static func statistics(_ cohort: Cohort, _ patients: [PatientFacts]) -> CohortStatistics {
        var counts = PatientCounts()
        var levels = DayLevelCounts()
        var due = 0, done = 0
        for p in patients {
            counts.enrolled += 1
            switch p.standing {
            case .active: counts.active += 1
            case .finished: counts.finished += 1
            case .withdrawn: counts.withdrawn += 1
            }
            for level in p.dayLevels {
                switch level {
                case .green?, .info?: levels.green += 1   // an evaluation is never info; counted as green if it were
                case .yellow?: levels.yellow += 1
                case .red?: levels.red += 1
                case nil: levels.none += 1
                }
            }
            due += p.tasksDue
            done += p.tasksDone
        }
        let days = patients.reduce(0) { $0 + $1.dayLevels.count }
        let alerts = patients.flatMap(\.alerts)
        func rate(_ include: (AlertTiming) -> Bool) -> Double? {
            days == 0 ? nil : Double(alerts.filter(include).count) * 100 / Double(days)
        }
        let rates = AlertRates(yellow: rate { $0.level == .yellow }, red: rate { $0.level == .red },
                               evaluation: rate { $0.kind == .evaluation }, missingCheckin: rate { $0.kind == .missingCheckin },
                               noData2d: rate { $0.kind == .noData2d })
        let ack = alerts.compactMap { a in a.firstAcknowledgedAt.map { minutes(from: a.openedAt, to: $0) } }
        let resolve = alerts.compactMap { a in a.resolvedAt.map { minutes(from: a.openedAt, to: $0) } }
        return CohortStatistics(cohort: cohort, patients: counts, patientDays: days,
                                adherence: due == 0 ? nil : Double(done) / Double(due), tasksDue: due, tasksDone: done,
                                daysByLevel: levels, alertsPer100PatientDays: rates, ackMinutes: OrderStatistics.summary(ack),
                                resolveMinutes: OrderStatistics.summary(resolve),
                                missingDataAlerts: alerts.filter { $0.kind != .evaluation }.count)
    }

    /// `all` over every patient, then each risk class over its own.
    static func cohorts(_ patients: [PatientFacts]) -> [CohortStatistics] {
        Cohort.allCases.map { c in statistics(c, c == .all ? patients : patients.filter { $0.cohort == c }) }
    }

    static func minutes(from start: Int64, to end: Int64) -> Double { Double(end - start) / 60_000 }
}
