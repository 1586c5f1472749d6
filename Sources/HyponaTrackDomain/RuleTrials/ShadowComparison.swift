import HyponaTrackCore
import SQLite

/// Live beside shadow rules from the shadow's start (docs/product.md, third round, O): the days
/// whose latest shadow evaluation was made under the shadow in force, against their latest live
/// evaluation; episodes on or after the shadow's first day.
enum ShadowComparison {
    static func compare(_ db: Connection, patients: [PatientRecord], query: OutcomeReportQuery, liveVersion: String,
                        shadowVersion: String, lookback: Int, today: (PatientRecord) -> LocalDate) throws -> RuleComparison? {
        let shadow = try ShadowRepository.latest(db, version: shadowVersion)
        guard let since = shadow.since else {
            return RuleComparisonBuilder(lookback: lookback).build(liveVersion: liveVersion, otherVersion: shadowVersion)
        }
        let live = try EvaluationRepository.latestLevels(db, patients: Int64.min...Int64.max, liveVersion: liveVersion, withReasons: false)
            .mapValues { Dictionary($0.map { ($0.date, $0.day) }, uniquingKeysWith: { _, last in last }) }
        let outcomes = try OutcomeRepository.byPatient(db)
        var builder = RuleComparisonBuilder(lookback: lookback)
        for p in patients {
            let shadowDays = shadow.days[p.id] ?? [:]
            guard !shadowDays.isEmpty else { continue }
            let start = shadowDays.keys.min()!
            var days: [RuleComparisonBuilder.Day] = []
            for (date, s) in shadowDays.sorted(by: { $0.key < $1.key }) where query.contains(date) {
                guard let l = live[p.id]?[date], l.underLiveRules else { builder.daysUnderOtherRules += 1; continue }
                days.append(.init(date: date, pod: l.pod, live: l.level, other: s.level, otherReasons: s.reasons))
            }
            let episodes = (outcomes[p.id] ?? []).filter(\.isEpisode).map(\.date)
            builder.add(studyId: p.studyId, days: days, episodes: episodes.filter { $0 >= start && query.contains($0) },
                        allEpisodes: episodes, today: today(p))
        }
        return builder.build(liveVersion: liveVersion, otherVersion: shadowVersion, since: since)
    }
}
