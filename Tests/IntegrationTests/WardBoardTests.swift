import Foundation
import Testing
import HTJSON

/// The current level, the ward board's rows and their order, as a nurse reads them over the
/// real daemon: the board, the patient page, `GET /v1/patients` and the CLI.
@Suite struct WardBoardTests {
    static let password = "correct horse battery"

    /// A daemon with nurse `nurse1` signed in to the console.
    static func signedIn() throws -> (TestDaemon, String, ConsoleClient) {
        let d = try TestDaemon()
        let nurse = try Study.staff(d, "nurse1", role: "nurse")
        try ConsoleClient.setPassword(d, "nurse1", password)
        let c = ConsoleClient(d)
        try c.signIn("nurse1", password)
        return (d, nurse, c)
    }

    /// The `level` the API lists for a patient.
    static func listedLevel(_ d: TestDaemon, _ studyId: String) throws -> JSONValue? {
        let r = try d.request(.get, "/v1/patients", token: d.adminToken)
        guard case .array(let items) = r.json else { throw TestFailure("no list: \(r.text)") }
        for case .object(let o) in items where o["studyId"] == .string(studyId) { return o["level"] }
        return nil
    }

    @Test func anOpenRedAlertKeepsThePatientRedEverywhereAfterALaterGreenDay() throws {
        let (d, nurse, c) = try Self.signedIn()
        let token = try Study.enrollAndActivate(d, "LVL-1", surgeryDaysAgo: 12)
        try ExportScenario.expect(d.request(.post, "/v1/patients/LVL-1/labs", token: nurse,
                                            body: ["sodium": 128, "time": .string(Study.time(Study.date(-2), "10:00"))]), 201)
        let day = Study.date(-1)
        try ExportScenario.expect(d.request(.put, "/v1/me/days/\(day)", token: token,
                                            body: ["weightMorningKg": 80.0, "symptoms": [Study.symptom("g1", day)]]), 200, level: "green")
        #expect(try Self.listedLevel(d, "LVL-1") == "red", "GET /v1/patients")
        let detail = try d.request(.get, "/v1/patients/LVL-1", token: d.adminToken)
        #expect(detail["level"] == "red" && detail["levelDate"] == .string(Study.date(-2)) && detail["openAlerts"] == 1, "\(detail.text.prefix(400))")
        let page = try c.get("/console/patients/LVL-1")
        #expect(page.text.contains("<dt>Level</dt><dd><span class=\"level level-red\">"), "the patient page's badge")
        let board = try c.get("/console/")
        #expect(board.text.contains("data-study-id=\"LVL-1\" data-level=\"red\""), "the board")
        let cli = try CLIRunner.run(["patients"], server: d.baseURL, token: d.adminToken)
        let line = cli.stdout.split(separator: "\n").first { $0.hasPrefix("LVL-1") } ?? ""
        #expect(cli.status == 0 && line.contains("RED") && !line.contains("GREEN"), "\(cli.stdout)")
    }

    @Test func theBoardListsRedYellowGreenThenNoDataEachByPODDescendingThenStudyID() throws {
        let (d, _, c) = try Self.signedIn()
        func patient(_ id: String, surgeryDaysAgo: Int, _ day: JSONValue?, level: String) throws {
            let token = try Study.enrollAndActivate(d, id, surgeryDaysAgo: surgeryDaysAgo)
            guard let day else { return }
            try ExportScenario.expect(d.request(.put, "/v1/me/days/\(Study.date(-1))", token: token, body: day), 200, level: level)
        }
        let green: JSONValue = ["weightMorningKg": 80.0, "symptoms": [Study.symptom("g", Study.date(-1))]]
        try patient("ORD-A", surgeryDaysAgo: 14, nil, level: "")                      // no data, the highest POD, first by ID
        try patient("ORD-B", surgeryDaysAgo: 12, green, level: "green")
        try patient("ORD-C", surgeryDaysAgo: 13, green, level: "green")
        try patient("ORD-D", surgeryDaysAgo: 12, ["weightMorningKg": 82.0, "fluidIntakeMl": 2000], level: "yellow")
        try patient("ORD-E", surgeryDaysAgo: 12, ["emergencySymptoms": ["drowsiness"]], level: "red")
        let board = try c.get("/console/")
        #expect(ConsoleTests.order(board.text, ["ORD-A", "ORD-B", "ORD-C", "ORD-D", "ORD-E"]) == ["ORD-E", "ORD-D", "ORD-C", "ORD-B", "ORD-A"])
        #expect(board.text.contains("data-study-id=\"ORD-A\" data-level=\"none\"") && board.text.contains(">NO DATA</span>"),
                "no data as the word")
    }

    @Test func aNeverActivatedPatientWhoseMonitoringEndedIsNotOnTheBoard() throws {
        let (d, _, c) = try Self.signedIn()
        try ExportScenario.expect(d.request(.post, "/v1/patients", token: d.adminToken, body: Study.profile("END-1", surgeryDaysAgo: 20)), 201)
        try ExportScenario.expect(d.request(.post, "/v1/patients", token: d.adminToken, body: Study.profile("NEW-1", surgeryDaysAgo: 2)), 201)
        let board = try c.get("/console/")
        #expect(!board.text.contains("data-study-id=\"END-1\""), "monitoring POD 1–14 ended six days ago")
        #expect(board.text.contains("data-study-id=\"NEW-1\""), "a patient still to activate stays")
        let all = try c.get("/console/?all=1")
        #expect(all.text.contains("data-study-id=\"END-1\""), "listed with all")
    }
}
