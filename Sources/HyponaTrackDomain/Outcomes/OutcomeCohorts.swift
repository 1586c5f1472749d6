import HyponaTrackCore

/// What the outcome report needs of one patient in scope, read by `OutcomeReportService`. The
/// groups a patient falls in are its keys: the current risk class and the current site.
struct PatientOutcomeFacts: Sendable {
    var studyId: String
    /// The site's code.
    var site: String
    var riskClass: RiskClass
    var surgeryDate: LocalDate
    /// Today in the patient's time zone.
    var today: LocalDate
    /// The POD of each monitored day that has begun, within the dates asked.
    var monitoredPODs: [Int]
    /// The latest evaluation's level by date (any date: a lookback may reach before `from`).
    var levels: [LocalDate: Level]
    /// Recorded hyponatremia outcomes within the dates asked, by date.
    var episodes: [OutcomeRecord]
    /// Every recorded hyponatremia outcome's date (an alert in range may be followed by one after `to`).
    var allEpisodeDates: [LocalDate]
    /// Alerts not merged whose first day lies within the dates asked.
    var alerts: [AlertTiming]
    /// Contacts logged on a day within the dates asked.
    var contacts: Int

    var cohort: Cohort { Cohort(riskClass) }
}

/// The figures of each cohort from its patients' facts.
enum OutcomeCohorts {
    static func figures(_ patients: [PatientOutcomeFacts], lookback: Int) -> [OutcomeFigures] {
        Cohort.allCases.map { c in figures(c, c == .all ? patients : patients.filter { $0.cohort == c }, lookback: lookback) }
    }

    /// Each site's cohorts, in the order of `sites`.
    static func bySite(_ patients: [PatientOutcomeFacts], sites: [Site], lookback: Int) -> [SiteOutcomes] {
        let grouped = Dictionary(grouping: patients, by: \.site)
        return sites.map { s in SiteOutcomes(site: s.code, name: s.name, cohorts: figures(grouped[s.code] ?? [], lookback: lookback)) }
    }

    static func episodes(_ patients: [PatientOutcomeFacts], lookback: Int) -> [EpisodeWarning] {
        patients.flatMap { p in
            p.episodes.map { e in
                EpisodeWarning(studyId: p.studyId, site: p.site, riskClass: p.riskClass, date: e.date, pod: e.pod, source: e.source,
                               firstYellowOrRed: OutcomeMath.lead(before: e.date, lookback: lookback, levels: p.levels,
                                                                  warns: OutcomeMath.yellowOrRed).map { e.date.adding(days: -$0) },
                               firstRed: OutcomeMath.lead(before: e.date, lookback: lookback, levels: p.levels,
                                                          warns: OutcomeMath.red).map { e.date.adding(days: -$0) })
            }
        }
    }

    static func figures(_ cohort: Cohort, _ patients: [PatientOutcomeFacts], lookback: Int) -> OutcomeFigures {
        let warnings = episodes(patients, lookback: lookback)
        let days = patients.reduce(0) { $0 + $1.monitoredPODs.count }
        func warned(_ lead: (EpisodeWarning) -> Int?) -> Warnings {
            let leads = warnings.compactMap(lead)
            return Warnings(sensitivity: Proportion(leads.count, of: warnings.count),
                            medianLeadDays: OrderStatistics.median(leads.map(Double.init)),
                            leadHistogram: OutcomeMath.histogram(leads, lookback: lookback))
        }
        let alerts = patients.flatMap(\.alerts)
        func count(_ include: (AlertTiming) -> Bool) -> Int { alerts.filter(include).count }
        let opened = alerts.count
        let yellow = count { $0.level == .yellow }, red = count { $0.level == .red }
        let evaluation = count { $0.kind == .evaluation }, missing = count { $0.kind == .missingCheckin }
        let noData = count { $0.kind == .noData2d }
        let burden = AlertBurden(opened: opened, yellow: yellow, red: red, evaluation: evaluation, missingCheckin: missing,
                                 noData2d: noData,
                                 per100: AlertRates(yellow: OutcomeMath.per100(yellow, days), red: OutcomeMath.per100(red, days),
                                                    evaluation: OutcomeMath.per100(evaluation, days),
                                                    missingCheckin: OutcomeMath.per100(missing, days),
                                                    noData2d: OutcomeMath.per100(noData, days)))
        var matured = 0, followed = 0
        for p in patients {
            for a in p.alerts {
                guard let first = a.firstDay, OutcomeMath.matured(first, today: p.today, lookback: lookback) else { continue }
                matured += 1
                if OutcomeMath.followed(first, episodes: p.allEpisodeDates, lookback: lookback) { followed += 1 }
            }
        }
        let contacts = patients.reduce(0) { $0 + $1.contacts }
        let ack = alerts.compactMap { a in a.firstAcknowledgedAt.map { CohortFigures.minutes(from: a.openedAt, to: $0) } }
        return OutcomeFigures(cohort: cohort, patients: patients.count, patientDays: days, episodes: warnings.count,
                              yellowOrRed: warned(\.yellowOrRedLeadDays), red: warned(\.redLeadDays), alerts: burden,
                              alertsByPOD: byPOD(patients), positivePredictiveValue: Proportion(followed, of: matured),
                              contacts: contacts, contactsPer100PatientDays: OutcomeMath.per100(contacts, days),
                              ackMinutes: OrderStatistics.summary(ack))
    }

    /// Alerts per 100 patient-days on each POD that has a monitored day.
    static func byPOD(_ patients: [PatientOutcomeFacts]) -> [PODRate] {
        var days: [Int: Int] = [:], alerts: [Int: Int] = [:]
        for p in patients {
            for pod in p.monitoredPODs { days[pod, default: 0] += 1 }
            for a in p.alerts {
                guard let first = a.firstDay else { continue }
                alerts[first.daysSinceEpoch - p.surgeryDate.daysSinceEpoch, default: 0] += 1
            }
        }
        return days.keys.sorted().map { pod in
            PODRate(pod: pod, patientDays: days[pod]!, alerts: alerts[pod] ?? 0, per100: OutcomeMath.per100(alerts[pod] ?? 0, days[pod]!))
        }
    }
}
