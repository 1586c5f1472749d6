import HyponaTrackDomain
/// The admission gates in `/metrics` (docs/operations.md §9.2): how much bounded work is in now
/// and how much was refused as busy, by `work` (`long_read`, `sign_in`).
enum AdmissionMetrics {
    static func families(longReads: AdmissionGate, signIns: AdmissionGate) -> [MetricFamily] {
        let gates = [("long_read", longReads), ("sign_in", signIns)]
        var inUse = MetricFamily("hyponatrack_admission_in_use", .gauge,
                                 "Long reads or password checks running or waiting for a turn now, by work.")
        var refused = MetricFamily("hyponatrack_admission_refused_total", .counter,
                                   "Long reads or password checks refused at once (503 busy) because their places were taken, by work.")
        for (work, gate) in gates {
            inUse.add(Double(gate.inUse), labels: [("work", work)])
            refused.add(Double(gate.refused), labels: [("work", work)])
        }
        return [inUse, refused]
    }
}
