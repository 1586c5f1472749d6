import Foundation
import Testing
import HyponaTrackKit
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// `/metrics` in the Prometheus text format 0.0.4: one HELP and TYPE per family, label values
/// in labels (never in names), the process start time and the build.
@Suite struct MetricsRenderingTests {
    /// The family names of the `# TYPE` lines, in order.
    static func types(_ text: String) -> [String] {
        text.split(separator: "\n").filter { $0.hasPrefix("# TYPE ") }.map { String($0.split(separator: " ")[2]) }
    }

    @Test func syncFailuresAreOneFamilyLabelledByKind() {
        let sync = SyncMetrics()
        sync.failure("halt")
        sync.failure("transient")
        sync.failure("transient")
        sync.sent(rows: 3)
        let text = Metrics().render(sync.families)
        #expect(text.contains("# TYPE hyponatrack_sync_failures_total counter\n"))
        #expect(text.contains("hyponatrack_sync_failures_total{kind=\"transient\"} 2\n"))
        #expect(text.contains("hyponatrack_sync_failures_total{kind=\"rejected\"} 0\n"))
        #expect(text.contains("hyponatrack_sync_failures_total{kind=\"halt\"} 1\n"))
        #expect(text.contains("hyponatrack_sync_requests_total 4\n"))
        #expect(text.contains("hyponatrack_sync_sent_rows_total 3\n"))
        for kind in SyncMetrics.failureKinds { #expect(!text.contains("_\(kind)_total")) }
    }

    @Test func everyFamilyHasOneHelpAndTypeBeforeItsSamplesAndTheTextEndsInANewline() {
        let metrics = Metrics()
        metrics.requestCompleted(method: "GET", route: "/healthz", status: 200, seconds: 0.003)
        metrics.requestCompleted(method: "PUT", route: "/v1/me/days/{date}", status: 200, seconds: 0.02)
        metrics.evaluationRecorded(level: .red)
        metrics.rulesReloaded(ok: false)
        let text = metrics.render([.gauge("hyponatrack_database_pending_writes", "Write jobs queued.", 0)] + SyncMetrics().families)
        #expect(text.hasSuffix("\n"))
        let types = Self.types(text)
        #expect(Set(types).count == types.count, "a TYPE line twice: \(types)")
        #expect(types.filter { $0.hasPrefix("hyponatrack_sync_failures") } == ["hyponatrack_sync_failures_total"])
        var current: String?
        var seen: Set<String> = []
        for line in text.split(separator: "\n").map(String.init) {
            if line.hasPrefix("# HELP ") { continue }
            if line.hasPrefix("# TYPE ") {
                current = String(line.split(separator: " ")[2])
                seen.insert(current!)
                continue
            }
            let name = String(line.prefix { $0 != "{" && $0 != " " })
            let family = current ?? "(none)"
            #expect(name == family || ["_bucket", "_sum", "_count"].contains { name == family + $0 },
                    "\(name) outside its family \(family)")
        }
        #expect(seen.contains("hyponatrack_http_request_duration_seconds"))
        #expect(text.contains("hyponatrack_evaluations_total{level=\"red\"} 1\n"))
        #expect(text.contains("hyponatrack_rules_reloads_total{outcome=\"refused\"} 1\n"))
    }

    @Test func theStartTimeAndTheBuildAreExported() throws {
        let before = Date().timeIntervalSince1970
        let text = Metrics().render()
        #expect(text.contains("# TYPE process_start_time_seconds gauge\n"))
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("process_start_time_seconds ") })
        let started = try #require(Double(line.split(separator: " ")[1]))
        #expect(abs(started - before) < 5)
        #expect(text.contains("# TYPE hyponatrack_build_info gauge\n"))
        #expect(text.contains("hyponatrack_build_info{version=\"\(HyponaTrackVersion.string)\"} 1\n"))
    }

    @Test func labelValuesAndHelpAreEscapedAndValuesFormatted() {
        var family = MetricFamily("x_total", .counter, "A \\ help\nline.")
        family.add(1, labels: [("route", "a\"b\\c\nd")])
        family.add(.infinity, labels: [("le", "+Inf")])
        family.add(0.25)
        #expect(family.text == """
            # HELP x_total A \\\\ help\\nline.
            # TYPE x_total counter
            x_total{route="a\\"b\\\\c\\nd"} 1
            x_total{le="+Inf"} +Inf
            x_total 0.25

            """)
    }
}
