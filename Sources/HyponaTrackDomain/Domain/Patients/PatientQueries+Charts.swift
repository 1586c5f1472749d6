import Charts
import HyponaTrackCore

extension PatientQueries {
    /// The six trend charts of one patient (the console's patient page and the PDF report), from
    /// the stored days and latest evaluations, with the rules in force, in `language`.
    public func trendCharts(studyId: String, axis: TrendChartBuilder.DayAxis = .pod, language: Language = .en) throws -> [Chart] {
        let snapshot = context.rules.snapshot
        return try context.read { db in
            let patient = try context.patient(db, studyId: studyId)
            let stored = try context.storedData(db, patient, snapshot.rules)
            return TrendChartBuilder(engine: snapshot.engine)
                .charts(profile: patient.profile, days: stored.days, evaluations: stored.evaluations, window: stored.window,
                        axis: axis, language: language)
        }
    }
}
