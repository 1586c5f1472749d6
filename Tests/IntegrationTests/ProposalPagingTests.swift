import Foundation
import HTJSON
import Testing

/// `GET /v1/proposals` over real HTTP pages like the alert list: newest first, `limit` and
/// `before`, a `Link: <…>; rel="next"` header (RFC 8288) with the filters kept, and `total`
/// counting every match; the console shows the newest page, the total and a link to the older
/// ones; the CLI says how to list them.
@Suite struct ProposalPagingTests {
    /// The ids of a page, in the order listed.
    static func ids(_ r: TestDaemon.Response) -> [Int] {
        guard case .array(let items)? = r["proposals"] else { return [] }
        return items.compactMap { if case .object(let o) = $0, case .number(let n)? = o["id"] { Int(n) } else { nil } }
    }

    /// `count` distinct sodium Observations of `studyId` for yesterday: `count` pending proposals.
    static func propose(_ d: TestDaemon, _ nurse: String, _ studyId: String, count: Int, prefix: String) throws -> [Int] {
        let doc = ImportFlowTests.bundle((0..<count).map { ImportFlowTests.sodium("\(prefix)\($0)", studyId, date: Study.date(-1)) })
        let r = try ImportFlowTests.fhir(d, nurse, doc)
        #expect(r.status == 200, "\(r.text.prefix(300))")
        return ImportFlowTests.ids(r["proposed"]).map { Int($0) }
    }

    @Test func proposalsArePagedNewestFirstByLimitAndBeforeWithALinkToTheNextPageAndTheTotal() throws {
        let d = try TestDaemon()
        defer { d.stop() }
        _ = try Study.enrollAndActivate(d, "PP-1")
        _ = try Study.enrollAndActivate(d, "PP-2")
        let nurse = try Study.staff(d, "nurse.pp", role: "nurse")
        let mine = try Self.propose(d, nurse, "PP-1", count: 5, prefix: "a")
        let other = try Self.propose(d, nurse, "PP-2", count: 2, prefix: "b")
        let newest = mine.sorted(by: >)

        let all = try d.request(.get, "/v1/proposals", token: nurse)
        #expect(all.status == 200 && all["total"] == 7, "\(all.text.prefix(300))")
        #expect(Self.ids(all) == (mine + other).sorted(by: >), "newest first")
        #expect(all.headers["Link"] == nil, "one page holds them all")

        let first = try d.request(.get, "/v1/proposals?status=pending&studyId=PP-1&limit=2", token: nurse)
        #expect(Self.ids(first) == Array(newest.prefix(2)) && first["total"] == 5, "\(first.text.prefix(300))")
        let link = "/v1/proposals?status=pending&studyId=PP-1&limit=2&before=\(newest[1])"
        #expect(first.headers["Link"] == "<\(link)>; rel=\"next\"", "the next page is named, filters kept")
        let second = try d.request(.get, link, token: nurse)
        #expect(Self.ids(second) == Array(newest[2...3]) && second["total"] == 5)
        #expect(second.headers["Link"] == "</v1/proposals?status=pending&studyId=PP-1&limit=2&before=\(newest[3])>; rel=\"next\"")
        let last = try d.request(.get, "/v1/proposals?status=pending&studyId=PP-1&limit=2&before=\(newest[3])", token: nurse)
        #expect(Self.ids(last) == [newest[4]] && last["total"] == 5)
        #expect(last.headers["Link"] == nil, "no next page after the last")
        #expect(try d.request(.get, "/v1/proposals?studyId=PP-1&limit=5", token: nurse).headers["Link"] == nil)
        #expect(try d.request(.get, "/v1/proposals?status=confirmed", token: nurse)["total"] == 0)

        for (query, field) in [("limit=0", "limit"), ("limit=5001", "limit"), ("limit=x", "limit"), ("before=-3", "before"),
                               ("before=a", "before"), ("status=open", "status")] {
            let r = try d.request(.get, "/v1/proposals?\(query)", token: nurse)
            #expect(r.status == 400 && r.errorCode == "invalid_value" && r.errorField == field, "\(query): \(r.status) \(r.text)")
        }
    }

    @Test func theConsoleAndTheCLIShowTheNewestPageTheTotalAndTheWayToTheOlderOnes() throws {
        let d = try TestDaemon()
        defer { d.stop() }
        _ = try Study.enrollAndActivate(d, "PP-CON")
        let nurse = try Study.staff(d, "nurse.ppc", role: "nurse")
        // One more than a page (the console's and the CLI's 500).
        let ids = try Self.propose(d, nurse, "PP-CON", count: 501, prefix: "c")
        #expect(ids.count == 501)
        let oldest = try #require(ids.min()), secondOldest = try #require(ids.filter { $0 != oldest }.min())

        _ = try Study.staff(d, "console.ppc", role: "nurse")
        try ConsoleClient.setPassword(d, "console.ppc", ConsoleTests.password)
        let console = ConsoleClient(d)
        try console.signIn("console.ppc", ConsoleTests.password)
        let page = try console.get("/console/proposals")
        #expect(page.status == 200 && page.text.contains("501 proposals are waiting, newest first. This page shows 500 of them."),
                "\(page.text.prefix(2000))")
        #expect(page.text.contains("id=\"proposal-\(try #require(ids.max()))\"") && !page.text.contains("id=\"proposal-\(oldest)\""))
        #expect(page.text.contains("<a href=\"/console/proposals?before=\(secondOldest)\">Older proposals</a>"))
        let older = try console.get("/console/proposals?before=\(secondOldest)")
        #expect(older.status == 200 && older.text.contains("id=\"proposal-\(oldest)\"") && !older.text.contains("Older proposals"))
        #expect(older.text.contains("This page shows 1 of them."))
        let german = try console.get("/console/proposals", headers: ConsoleFieldMessagesTests.german)
        #expect(german.text.contains("501 Vorschläge sind offen, die neuesten zuerst. Diese Seite zeigt 500 davon.")
                && german.text.contains("Ältere Vorschläge"))
        let junk = try console.get("/console/proposals?before=abc")
        #expect(junk.status == 400 && junk.text.contains("not a proposal number"), "a malformed page link is refused, not the first page")

        let cli = try CLIRunner.run(["proposals", "PP-CON"], server: d.baseURL, token: nurse)
        #expect(cli.status == 0 && cli.stdout.contains("501 in all. Older proposals: hyponatrack proposals PP-CON --before \(secondOldest)"),
                "\(cli.stdout.suffix(300)) \(cli.stderr)")
        let rest = try CLIRunner.run(["proposals", "PP-CON", "--before", String(secondOldest), "--json"], server: d.baseURL, token: nurse)
        guard case .array(let items) = try JSONParser.parse(rest.stdout) else { Issue.record("\(rest.stdout)"); return }
        #expect(items.count == 1, "the --json listing stays an array of proposals")
        let bad = try CLIRunner.run(["proposals", "--before", "x"], server: d.baseURL, token: nurse)
        #expect(bad.status == 64 && bad.stderr.contains("--before"), "\(bad.status) \(bad.stderr)")
    }
}
