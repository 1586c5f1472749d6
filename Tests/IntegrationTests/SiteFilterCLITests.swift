import Foundation
import Testing
import HTJSON

/// `--site CODE` on the CLI's lists, statistics and exports (docs/product.md, third round, S:
/// "every staff read … through the API, the CLI and the console alike"; settled S: `?site=CODE`
/// filters lists), and the alert list's next page keeping the filter. Real daemon, real CLI.
@Suite struct SiteFilterCLITests {
    static func ids(_ text: String) -> Set<String> { Set(["SF-A1", "SF-A2", "SF-B1"].filter { text.contains($0) }) }

    @Test func aSiteFilterOnTheCLIsListsStatisticsAndExportsKeepsOnlyThatSitesPatients() throws {
        let d = try TestDaemon()
        for code in ["a", "b"] {
            let r = try d.request(.post, "/v1/sites", token: d.adminToken, body: ["code": .string(code), "name": .string("Site \(code)")])
            guard r.status == 201 else { throw TestFailure("site add \(code): \(r.text)") }
        }
        let nurse = try Study.staff(d, "sam", role: "nurse", allSites: true)
        for (id, site) in [("SF-A1", "a"), ("SF-A2", "a"), ("SF-B1", "b")] {
            let token = try Study.enrollAndActivate(d, id, [("site", .string(site))])
            let r = try d.request(.put, "/v1/me/days/\(Study.date(-1))", token: token, body: ["emergencySymptoms": ["drowsiness"]])
            guard r.status == 200, r["level"] == "red" else { throw TestFailure("day: \(r.text)") }
        }
        func cli(_ args: [String]) throws -> CLIRunner.Result {
            let r = try CLIRunner.run(args, server: d.baseURL, token: nurse)
            guard r.status == 0 else { throw TestFailure("\(args): \(r.status) \(r.stderr)") }
            return r
        }
        #expect(Self.ids(try cli(["patients", "--site", "a", "--json"]).stdout) == ["SF-A1", "SF-A2"])
        #expect(Self.ids(try cli(["patients", "--json"]).stdout) == ["SF-A1", "SF-A2", "SF-B1"])
        #expect(Self.ids(try cli(["alerts", "--site", "b"]).stdout) == ["SF-B1"])
        let stats = try JSONParser.parse(Array(try cli(["stats", "--site", "a", "--json"]).stdout.utf8))
        guard case .object(let o) = stats, case .array(let cohorts)? = o["cohorts"], case .object(let all)? = cohorts.first,
              case .object(let patients)? = all["patients"] else { throw TestFailure("stats: \(stats)") }
        #expect(all["cohort"] == "all" && patients["enrolled"] == 2, "\(all)")
        for kind in ["days", "alerts"] {
            let csv = try cli(["export", kind, "--site", "b"]).stdout
            #expect(Self.ids(csv) == ["SF-B1"] && csv.hasPrefix("record_id,site,"), "\(kind): \(csv.prefix(200))")
        }
        let unknown = try CLIRunner.run(["stats", "--site", "zz"], server: d.baseURL, token: nurse)
        #expect(unknown.status != 0 && unknown.stderr.contains("site"), "\(unknown.stderr)")

        // The alert list's next page keeps the site filter.
        let first = try d.request(.get, "/v1/alerts?limit=1&site=a", token: nurse)
        guard let link = first.headers["Link"], let open = link.firstIndex(of: "<"), let close = link.firstIndex(of: ">") else {
            throw TestFailure("no next page: \(first.headers)")
        }
        let next = String(link[link.index(after: open)..<close])
        #expect(next.hasSuffix("&site=a"), "\(link)")
        let second = try d.request(.get, next, token: nurse)
        #expect(Self.ids(first.text + second.text) == ["SF-A1", "SF-A2"], "\(second.text)")
    }
}
