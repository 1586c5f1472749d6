import Foundation
import Testing
import HTJSON

/// `GET /v1/alerts` over real HTTP: `limit` and `before` page through all alerts; bad values are
/// refused naming the parameter; the CLI's `--before`.
@Suite struct AlertListPagingTests {
    static func ids(_ r: TestDaemon.Response) -> [Int] {
        guard case .array(let items) = r.json else { return [] }
        var ids: [Int] = []
        for case .object(let item) in items {
            if case .number(let n)? = item["id"] { ids.append(Int(n)) }
        }
        return ids
    }

    @Test func allAlertsArePagedByLimitAndBeforeAndBadValuesAreRefused() throws {
        let d = try TestDaemon()
        for id in ["PG-1", "PG-2", "PG-3"] {
            let token = try Study.enrollAndActivate(d, id, surgeryDaysAgo: 6)
            try ExportScenario.expect(d.request(.put, "/v1/me/days/\(Study.date(-1))", token: token,
                                                body: ["emergencySymptoms": ["drowsiness"]]), 200, level: "red")
        }
        let all = Self.ids(try d.request(.get, "/v1/alerts", token: d.adminToken))
        #expect(all.count == 3 && all == all.sorted(by: >), "newest first: \(all)")
        let page = try d.request(.get, "/v1/alerts?limit=2", token: d.adminToken)
        #expect(Self.ids(page) == Array(all.prefix(2)))
        #expect(page.headers["Link"] == "</v1/alerts?limit=2&before=\(all[1])>; rel=\"next\"", "the next page is named")
        #expect(try d.request(.get, "/v1/alerts?limit=3", token: d.adminToken).headers["Link"] == nil, "no next page after the last")
        #expect(Self.ids(try d.request(.get, "/v1/alerts?limit=2&before=\(all[1])", token: d.adminToken)) == [all[2]])
        #expect(Self.ids(try d.request(.get, "/v1/alerts?open=true&before=\(all[0])", token: d.adminToken)) == Array(all.dropFirst()))
        for (query, field) in [("limit=0", "limit"), ("limit=5001", "limit"), ("limit=x", "limit"), ("before=-3", "before"), ("before=a", "before")] {
            let r = try d.request(.get, "/v1/alerts?\(query)", token: d.adminToken)
            #expect(r.status == 400 && r.errorField == field, "\(query): \(r.status) \(r.text)")
        }
        let cli = try CLIRunner.run(["alerts", "--before", String(all[0])], server: d.baseURL, token: d.adminToken)
        #expect(cli.status == 0 && !cli.stdout.contains("PG-3") && cli.stdout.contains("PG-2") && cli.stdout.contains("PG-1"),
                "\(cli.stdout)")
        #expect(!cli.stdout.contains("Older alerts"), "nothing older beyond this page")
        _ = try Study.staff(d, "-ward", role: "nurse")
        try ConsoleClient.setPassword(d, "-ward", ConsoleTests.password)
        let console = ConsoleClient(d)
        try console.signIn("-ward", ConsoleTests.password)
        let older = try console.get("/console/alerts?all=1&before=\(all[0])")
        #expect(older.status == 200 && !older.text.contains("PG-3") && older.text.contains("PG-1"), "the console's older page")
        let junk = try console.get("/console/alerts?all=1&before=abc")
        #expect(junk.status == 400 && junk.text.contains("not an alert number"), "a malformed page link is refused, not the first page")
        let bad = try CLIRunner.run(["alerts", "--before", "x"], server: d.baseURL, token: d.adminToken)
        #expect(bad.status == 64 && bad.stderr.contains("--before"), "\(bad.status) \(bad.stderr)")
    }
}
