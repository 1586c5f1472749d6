import Foundation
import Testing
import HTJSON

/// REDCap Data Access Groups (docs/product.md, third round, S): every row of a patient whose
/// site has a DAG carries `redcap_data_access_group`, a transfer moves the record, `sync check`
/// names a site whose DAG the project lacks, and a DAG REDCap does not know is refused as REDCap
/// refuses it (the whole request, naming the record and the field). The real daemon syncs over
/// TLS to `scripts/redcap-emulator --dags …`.
@Suite struct REDCapDAGTests {
    static func patchSite(_ rig: SyncRig, _ code: String, _ body: JSONValue) throws -> TestDaemon.Response {
        try rig.daemon.request(.patch, "/v1/sites/\(code)", token: rig.admin, body: body)
    }

    @Test func everyRowCarriesTheSitesDAGAndATransferMovesTheRecord() throws {
        let rig = try SyncRig(emulator: try REDCapEmulator(extraArguments: ["--dags", "muc,zrh"]))
        #expect(try Self.patchSite(rig, "main", ["redcapDag": "muc"]).status == 200)
        // All or none: a new site without a DAG is refused once one has a DAG, naming the field.
        let bare = try rig.post("/v1/sites", ["code": "bern", "name": "Bern"])
        #expect(bare.status == 400 && bare.errorField == "redcapDag", "\(bare.text)")
        #expect(try rig.post("/v1/sites", ["code": "zrh", "name": "Zürich", "redcapDag": "zrh"]).status == 201)
        let taken = try rig.post("/v1/sites", ["code": "zrh2", "name": "Zürich 2", "redcapDag": "zrh"])
        #expect(taken.status == 409 && taken.errorField == "redcapDag", "\(taken.text)")
        let cleared = try Self.patchSite(rig, "zrh", ["redcapDag": .null])
        #expect(cleared.status == 400 && cleared.errorField == "redcapDag", "REDCap cannot un-assign a record: \(cleared.text)")

        let token = try Study.enrollAndActivate(rig.daemon, "DAG-1", [("site", "main")])
        try REDCapSyncTests.putDay(rig, token, Study.date(-1), ["vomitingEpisodes": 3, "weightMorningKg": 70])
        try rig.waitUntilDrained()
        var record = try #require(try rig.emulator.records()["DAG-1"])
        #expect(record.dag == "muc")
        #expect(!record.instances.isEmpty && !record.alertLog.isEmpty, "a day and an alert were sent")
        // Every row carried the group: the reconcile compares each row's DAG with the record's.
        let inSync = try rig.reconcile()
        #expect(inSync["inSync"] == true, "\(JSONSerializer.string(.object(inSync)))")

        let moved = try rig.post("/v1/patients/DAG-1/transfer", ["site": "zrh"])
        #expect(moved.status == 200, "\(moved.text)")
        try rig.waitUntilDrained()
        record = try #require(try rig.emulator.records()["DAG-1"])
        #expect(record.dag == "zrh", "the transfer re-assigned the record")
        #expect(try rig.reconcile()["inSync"] == true)
    }

    @Test func syncCheckNamesASiteWhoseDAGTheProjectLacksAndREDCapRefusesItsRows() throws {
        let rig = try SyncRig(emulator: try REDCapEmulator(extraArguments: ["--dags", "muc"]))
        #expect(try Self.patchSite(rig, "main", ["redcapDag": "muc"]).status == 200)
        let ok = try rig.daemon.request(.get, "/v1/sync/check", token: rig.admin)
        #expect(ok.status == 200 && ok["ok"] == true, "\(ok.text)")
        #expect(try rig.post("/v1/sites", ["code": "ber", "name": "Berlin", "redcapDag": "ber_dag"]).status == 201)
        let check = try rig.daemon.request(.get, "/v1/sync/check", token: rig.admin)
        #expect(check["ok"] == false && check.text.contains("ber_dag") && check.text.contains("redcap_data_access_group"), "\(check.text)")
        #expect(!check.text.contains("the site main"), "main's DAG is there: \(check.text)")
        let cli = try rig.cli(["check"])
        #expect(cli.status == 1 && cli.stdout.contains("ber_dag"), "\(cli.stdout)\(cli.stderr)")

        // A row naming the missing group is refused by REDCap (400 naming the field): a dead letter, nothing stored.
        _ = try Study.enrollAndActivate(rig.daemon, "DAG-B", [("site", "ber")])
        try rig.waitUntil("the refused row is a dead letter") { try rig.status()["deadLetters"] != 0 }
        let status = try rig.status()
        #expect(JSONSerializer.string(status["dead"] ?? .null).contains("redcap_data_access_group"), "\(status)")
        #expect(try rig.emulator.records()["DAG-B"] == nil)
    }
}
