import Foundation
import Testing

/// `GET /metrics` of the real daemon: valid text format 0.0.4, one name per family with label
/// values in labels, the process start time and the build.
@Suite struct MetricsExpositionTests {
    @Test func theExpositionIsValidAndCarriesTheStartTimeAndTheBuild() throws {
        let before = Date().timeIntervalSince1970
        let d = try TestDaemon()
        _ = try Study.enrollAndActivate(d, "MET-1")
        _ = try d.request(.get, "/v1/no-such-route")
        let r = try d.request(.get, "/metrics")
        #expect(r.status == 200)
        #expect(r.headers["Content-Type"]?.hasPrefix("text/plain; version=0.0.4") == true)
        let parsed = PrometheusText.parse(r.text)
        #expect(parsed.problems.isEmpty, "\(parsed.problems)\n\(r.text)")
        let started = try #require(parsed.samples["process_start_time_seconds"])
        #expect(started >= before - 1 && started <= Date().timeIntervalSince1970, "\(started)")
        #expect(parsed.types["process_start_time_seconds"] == "gauge")
        #expect(parsed.types["hyponatrack_build_info"] == "gauge")
        #expect(parsed.samples.keys.contains { $0.hasPrefix("hyponatrack_build_info{version=\"") && parsed.samples[$0] == 1 })
        #expect(parsed.samples["hyponatrack_http_requests_total{method=\"POST\",route=\"/v1/patients\",status=\"201\"}"] == 1,
                "\(r.text)")
        #expect(parsed.types["hyponatrack_database_pending_writes"] == "gauge")
        #expect(!parsed.types.keys.contains { $0.hasPrefix("hyponatrack_sync_") }, "no sync, no sync figures")
    }

    @Test func withREDCapTheSyncFiguresAreValidAndFailuresAreOneFamily() throws {
        let rig = try SyncRig()
        _ = try Study.enrollAndActivate(rig.daemon, "MET-SYNC-1")
        try rig.waitUntilDrained()
        let text = try rig.daemon.request(.get, "/metrics").text
        let parsed = PrometheusText.parse(text)
        #expect(parsed.problems.isEmpty, "\(parsed.problems)\n\(text)")
        #expect(parsed.types["hyponatrack_sync_failures_total"] == "counter")
        for kind in ["transient", "rejected", "halt"] {
            #expect(parsed.samples["hyponatrack_sync_failures_total{kind=\"\(kind)\"}"] == 0, "\(text)")
        }
        #expect(!parsed.types.keys.contains { $0.hasPrefix("hyponatrack_sync_failures_") && $0 != "hyponatrack_sync_failures_total" })
        #expect((parsed.samples["hyponatrack_sync_sent_rows_total"] ?? 0) >= 1)
        #expect(parsed.types["hyponatrack_sync_halted"] == "gauge")
    }
}
