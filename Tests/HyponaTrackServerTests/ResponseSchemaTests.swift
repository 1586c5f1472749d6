import Foundation
import HTJSON
import HTTPServer
import Testing
@testable import HyponaTrackDomain
@testable import HyponaTrackTestSupport
@testable import HyponaTrackWeb
@testable import HyponaTrackServer

/// Every answer agrees with what `/openapi.json` says it is: a study walked through the API in
/// process (enrolment, days, labs, alerts, staff, imports, statistics, backups, errors), each body
/// checked against its operation's documented schema for that status. A member an encoder emits
/// and its schema does not declare, or a required one it leaves out, or a value of the wrong type,
/// fails here with its JSON path.
@Suite struct ResponseSchemaTests {
    final class Walk {
        let h: InProcessApplication
        let check: SchemaCheck
        let paths: JSONObject
        var problems: [String] = []
        var checked = 0

        init(configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
            h = try InProcessApplication(clock: SimulationClock(Berlin.at("2026-11-20", "10:00")), configure: configure)
            let document = h.send(.get, "/openapi.json").json
            check = SchemaCheck(document: document)
            guard case .object(let d) = document, case .object(let p)? = d["paths"] else { throw TestError("no paths") }
            paths = p
        }

        /// The schema documented for `method template` answering `status` (nil: none).
        func documented(_ method: HTTPMethod, _ template: String, _ status: Int) -> JSONValue? {
            guard case .object(let ops)? = paths[template], case .object(let op)? = ops[method.rawValue.lowercased()],
                  case .object(let responses)? = op["responses"], case .object(let response)? = responses[String(status)],
                  case .object(let content)? = response["content"], case .object(let json)? = content["application/json"] else {
                return nil
            }
            return json["schema"]
        }

        /// Checks an encoder's output for a value no walk reaches (a REDCap report, a dead letter)
        /// against what `method template` documents for `status`.
        func expect(_ value: JSONValue, answers method: HTTPMethod, _ template: String, _ status: Int = 200) {
            guard let schema = documented(method, template, status) else {
                problems.append("\(method.rawValue) \(template) → \(status): no JSON schema documented")
                return
            }
            problems += check.problems(value, schema).map { "\(method.rawValue) \(template) → \(status) (typed value): \($0)" }
            checked += 1
        }

        /// Sends the request and checks its answer against the schema documented for `template`.
        @discardableResult
        func send(_ method: HTTPMethod, _ template: String, _ target: String? = nil, body: JSONValue? = nil,
                  token: String? = nil) -> (status: Int, json: JSONValue) {
            let r = h.send(method, target ?? template, body: body, token: token)
            let operation = "\(method.rawValue) \(template) → \(r.status)"
            guard case .object(let ops)? = paths[template], case .object(let op)? = ops[method.rawValue.lowercased()],
                  case .object(let responses)? = op["responses"], case .object(let response)? = responses[String(r.status)] else {
                problems.append("\(operation): status not documented (\(r.json))")
                return r
            }
            if r.status == 204 { return r }
            guard case .object(let content)? = response["content"], case .object(let json)? = content["application/json"],
                  let schema = json["schema"] else {
                problems.append("\(operation): no JSON schema documented")
                return r
            }
            problems += check.problems(r.json, schema).map { "\(operation): \($0)" }
            checked += 1
            return r
        }
    }

    static func string(_ json: JSONValue, _ key: String) -> String? {
        guard case .object(let o) = json, case .string(let s)? = o[key] else { return nil }
        return s
    }

    static func number(_ json: JSONValue, _ key: String) -> Int? {
        guard case .object(let o) = json, case .number(let n)? = o[key] else { return nil }
        return Int(n)
    }

    @Test func everyAnswerOfAStudyWalkConformsToItsDocumentedSchema() throws {
        let w = try Walk()
        let profile: JSONValue = ["studyId": "RS-1", "surgeryDate": "2026-11-15", "timeZone": "Europe/Berlin", "age": 50, "sex": "male",
                                  "bmi": 27.0, "baselineWeightKg": 80.0, "fluidLimitMl": 1500.0, "baselineReactionTimeMs": 600.0]
        let enrolled = w.send(.post, "/v1/patients", body: profile)
        #expect(enrolled.status == 201)
        w.send(.post, "/v1/patients", body: profile)   // 409, already enrolled
        let code = try #require(Self.string(enrolled.json, "activationCode"))
        w.send(.post, "/v1/activate", body: ["studyId": "RS-1", "code": "WRONG-CODE"], token: "-")
        let token = try #require(Self.string(w.send(.post, "/v1/activate", body: ["studyId": "RS-1", "code": .string(code)],
                                                    token: "-").json, "token"))
        let other = w.send(.post, "/v1/patients", body: ["studyId": "RS-2", "surgeryDate": "2026-11-19", "age": 60, "sex": "female",
                                                         "bmi": 22.0, "baselineWeightKg": 60.0])
        #expect(other.status == 201)

        // The patient's day: an unevaluated one, a yellow or red one, then the lists and today.
        w.send(.get, "/v1/me/today", token: token)
        w.send(.put, "/v1/me/days/{date}", "/v1/me/days/2026-11-19", body: ["steps": 1000], token: token)
        let day = w.send(.put, "/v1/me/days/{date}", "/v1/me/days/2026-11-20", body: [
            "weightMorningKg": 83.5, "fluidIntakeMl": 2400, "urineSG": 1.001,
            "symptoms": [["id": "s1", "time": "2026-11-20T08:00:00+01:00", "slot": "morning", "nausea": 2, "headache": 2,
                          "fatigue": 2, "confusion": 1, "muscleCramps": 1, "vas": 6]],
        ], token: token)
        #expect(day.status == 200)
        w.send(.put, "/v1/me/days/{date}", "/v1/me/days/2026-11-20", body: ["weightMorningKg": 900], token: token)
        w.send(.get, "/v1/me/days", token: token)
        w.send(.get, "/v1/me/days", "/v1/me/days?from=2026-11-20", token: token)
        w.send(.get, "/v1/me/today", token: token)
        w.send(.get, "/v1/me/today", token: "not-a-token")

        // Staff: patients, corrections, labs.
        w.send(.get, "/v1/patients")
        w.send(.get, "/v1/patients/{studyId}", "/v1/patients/RS-1")
        w.send(.get, "/v1/patients/{studyId}", "/v1/patients/NOBODY")
        w.send(.patch, "/v1/patients/{studyId}", "/v1/patients/RS-1", body: ["fluidLimitMl": 1800.0])
        w.send(.post, "/v1/patients/{studyId}/activation", "/v1/patients/RS-2/activation")
        w.send(.patch, "/v1/patients/{studyId}/days/{date}", "/v1/patients/RS-1/days/2026-11-20", body: ["urineSG": 1.003])
        let lab = w.send(.post, "/v1/patients/{studyId}/labs", "/v1/patients/RS-1/labs",
                         body: ["sodium": 124, "time": "2026-11-20T09:00:00+01:00"])
        #expect(lab.status == 201)
        let labId = try #require(Self.number(lab.json, "labId"))
        w.send(.post, "/v1/patients/{studyId}/labs", "/v1/patients/RS-1/labs", body: ["sodium": 140])
        w.send(.post, "/v1/patients/{studyId}/labs/{labId}/deletion", "/v1/patients/RS-1/labs/\(labId)/deletion",
               body: ["reason": "entered for the wrong patient"])
        w.send(.post, "/v1/patients/{studyId}/days/{date}/{list}/{itemId}/deletion",
               "/v1/patients/RS-1/days/2026-11-20/symptoms/s1/deletion", body: ["reason": "entered twice"])
        w.send(.get, "/v1/patients/{studyId}", "/v1/patients/RS-1")
        w.send(.get, "/v1/me/days", token: token)

        // Alerts: the lab's red one.
        let alerts = w.send(.get, "/v1/alerts")
        w.send(.get, "/v1/alerts", "/v1/alerts?open=true")
        guard case .array(let list) = alerts.json, let first = list.first, let alertId = Self.number(first, "id") else {
            Issue.record("no alert was opened: \(alerts.json)")
            return
        }
        w.send(.post, "/v1/alerts/{alertId}/acknowledgement", "/v1/alerts/\(alertId)/acknowledgement", body: ["note": "called"])
        w.send(.post, "/v1/alerts/{alertId}/acknowledgement", "/v1/alerts/\(alertId)/acknowledgement", body: [:])
        w.send(.post, "/v1/alerts/{alertId}/resolution", "/v1/alerts/\(alertId)/resolution", body: ["note": "seen", "sodium": 131])
        w.send(.post, "/v1/alerts/{alertId}/resolution", "/v1/alerts/999/resolution", body: ["note": "seen"])
        w.send(.get, "/v1/alerts")
        w.send(.get, "/v1/hooks/status")

        // Imports and proposals.
        let observation: JSONValue = [
            "resourceType": "Observation", "id": "na-1", "status": "final",
            "code": ["coding": [["system": "http://loinc.org", "code": "2951-2"]]],
            "subject": ["identifier": ["system": "urn:hyponatrack:study-id", "value": "RS-1"]],
            "effectiveDateTime": "2026-11-20T07:00:00+01:00", "valueQuantity": ["value": 133, "unit": "mmol/L"],
        ]
        w.send(.post, "/v1/imports/fhir", body: ["resourceType": "Bundle", "type": "batch", "entry": [["resource": observation]]])
        let proposals = w.send(.get, "/v1/proposals")
        if case .object(let page) = proposals.json, case .array(let items)? = page["proposals"], let p = items.first,
           let id = Self.number(p, "id") {
            w.send(.post, "/v1/proposals/{proposalId}/confirm", "/v1/proposals/\(id)/confirm", body: ["note": "checked"])
            w.send(.post, "/v1/proposals/{proposalId}/reject", "/v1/proposals/\(id)/reject", body: ["note": "late"])
        } else {
            Issue.record("no proposal: \(proposals.json)")
        }

        // The contact log: one about the resolved alert, one about none.
        w.send(.post, "/v1/patients/{studyId}/contacts", "/v1/patients/RS-1/contacts",
               body: ["outcome": "reached", "note": "drinks less now", "alertId": .number(Double(alertId))])
        w.send(.post, "/v1/patients/{studyId}/contacts", "/v1/patients/RS-1/contacts", body: ["outcome": "no_answer"])
        w.send(.post, "/v1/patients/{studyId}/contacts", "/v1/patients/RS-1/contacts", body: ["outcome": "carrier pigeon"])
        w.send(.get, "/v1/patients/{studyId}/contacts", "/v1/patients/RS-1/contacts")

        // Withdrawal, staff, the audit trail, backups, statistics, health.
        w.send(.post, "/v1/patients/{studyId}/withdrawal", "/v1/patients/RS-2/withdrawal", body: ["reason": "moved away"])
        w.send(.get, "/v1/patients")
        w.send(.get, "/v1/patients/{studyId}", "/v1/patients/RS-2")
        let added = w.send(.post, "/v1/staff", body: ["name": "nurse.rs", "role": "nurse"])
        w.send(.post, "/v1/staff", body: ["name": "nurse.rs", "role": "nurse"])
        w.send(.get, "/v1/staff")
        w.send(.get, "/v1/staff", token: Self.string(added.json, "token"))
        w.send(.post, "/v1/staff/{name}/rotation", "/v1/staff/nurse.rs/rotation")
        w.send(.post, "/v1/staff/{name}/revocation", "/v1/staff/nurse.rs/revocation")
        w.send(.put, "/v1/staff/{name}/password", "/v1/staff/nurse.rs/password", body: ["password": "short"])
        let checkpoint = try #require(Self.string(w.send(.post, "/v1/audit/checkpoints").json, "checkpoint"))
        w.send(.get, "/v1/audit/verify")
        w.send(.get, "/v1/audit/verify", "/v1/audit/verify?checkpoint=\(checkpoint)")
        w.send(.get, "/v1/audit")
        w.send(.post, "/v1/backup")
        w.send(.get, "/v1/statistics")
        w.send(.get, "/v1/statistics", "/v1/statistics?studyId=RS-1")
        w.send(.get, "/v1/sync/status")
        w.send(.get, "/healthz")

        #expect(w.problems.isEmpty, "\(w.problems.joined(separator: "\n"))")
        #expect(w.checked > 50)
    }

    /// The sync's routes with a `redcap` block (REDCap itself out of reach, so check and reconcile
    /// answer 502) and the hook status with a hook configured.
    @Test func theSyncAndHookAnswersConformToTheirDocumentedSchemas() throws {
        let secrets = FileManager.default.temporaryDirectory.appendingPathComponent("ht-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: secrets, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: secrets) }
        let tokenFile = secrets.appendingPathComponent("redcap-token").path
        guard FileManager.default.createFile(atPath: tokenFile, contents: Data(String(repeating: "A", count: 32).utf8),
                                             attributes: [.posixPermissions: 0o600]) else { throw TestError("no token file") }
        let w = try Walk {
            $0.redcap = .init(url: "https://127.0.0.1:1/api/", tokenFile: tokenFile)
            $0.hooks = [HookConfiguration(name: "ward", kind: .command(path: "/bin/true", args: [], timeoutSeconds: 5),
                                          events: [.syncHalted])]
        }
        _ = try w.h.enrollAndActivate("RS-3", surgeryDate: "2026-11-18")
        w.send(.get, "/v1/sync/status")
        w.send(.post, "/v1/sync/export-all")
        w.send(.post, "/v1/sync/retry", body: ["dead": true])
        w.send(.post, "/v1/sync/retry", body: ["dead": "yes"])
        w.send(.post, "/v1/sync/resume")
        w.send(.get, "/v1/sync/check")
        w.send(.get, "/v1/sync/reconcile")
        w.send(.get, "/v1/hooks/status")
        w.send(.get, "/healthz")
        #expect(w.problems.isEmpty, "\(w.problems.joined(separator: "\n"))")
        #expect(w.checked == 9)
    }

    /// What the walks cannot reach without a REDCap project or a failing hook: the reports with
    /// their lists filled and their nullable members both ways, from the same encoders.
    @Test func filledReportsConformToTheirDocumentedSchemas() throws {
        let w = try Walk()
        let check = SyncCheckReport(redcapVersion: "14.5.0", projectId: .number(17), projectTitle: .string("HyponaTrack"),
                                    fieldsChecked: 120, problems: [.init(field: "urine_sg", form: "daily", problem: "missing")],
                                    repeatingCheck: .init(perInstrument: false, note: "repeatingFormsEvents needs design rights"))
        w.expect(SyncJSON.check.encode(check), answers: .get, "/v1/sync/check")
        w.expect(SyncJSON.check.encode(SyncCheckReport(redcapVersion: "14.5.0", projectId: nil, projectTitle: nil, fieldsChecked: 0,
                                                       problems: [], repeatingCheck: .init(perInstrument: true, note: nil))),
                 answers: .get, "/v1/sync/check")
        let reconcile = ReconcileReport(localRows: 3, remoteRows: 2, missingInREDCap: 1, differingFields: 1, onlyInREDCap: 0, differences: [
            .init(record: "RS-1", instrument: "daily", instance: 2, field: "*", local: "row", remote: "", queued: true)])
        w.expect(SyncJSON.reconcile.encode(reconcile), answers: .get, "/v1/sync/reconcile")
        var outbox = SyncOutboxStatus(pending: 2, dead: 1, oldestPendingAt: 1_000, halted: true, haltReason: "403 from REDCap",
                                      haltedAt: 2_000, lastSuccessAt: 500, lastFailureAt: 2_000, lastFailure: "403",
                                      consecutiveFailures: 3, sentRows: 10, unhealthyReported: true,
                                      deadLetters: [(record: "RS-1", instrument: "daily", instance: 1, error: nil)])
        let status = SyncStatus(url: "https://redcap.example.org/api/", outbox: outbox, requestsLastMinute: 4,
                                maxRequestsPerMinute: 120, asOf: 61_000)
        w.expect(SyncJSON.status.encode(status), answers: .get, "/v1/sync/status")
        outbox.deadLetters = [(record: "RS-1", instrument: "daily", instance: 1, error: "invalid value")]
        w.expect(SyncJSON.status.encode(SyncStatus(url: status.url, outbox: outbox, requestsLastMinute: 0, maxRequestsPerMinute: 1,
                                                   asOf: 61_000)), answers: .post, "/v1/sync/resume")
        var summary = HookOutboxSummary(pending: 1, delivered: 5, dead: 1, oldestPendingAt: 1_000, disabledAt: 2_000,
                                        disabledReason: "401 from the webhook", lastError: "401")
        summary.deadLetters = [HookDeadLetter(eventId: "e-1", type: "alert.opened", error: "401", attempts: 8),
                               HookDeadLetter(eventId: "e-2", type: "sync.halted", error: nil, attempts: 1)]
        let hook = HookConfiguration(name: "pager", kind: .webhook(url: "https://hooks.example.org/", secretFile: "/s", caFile: nil),
                                     events: [.syncHalted, .reminderDue])
        w.expect(.array([HookJSON.status.encode(HookStatus(hook: hook, summary: summary))]), answers: .get, "/v1/hooks/status")
        var report = ImportReport()
        report.proposed = [4, 5]
        report.withdrawn = [2]
        report.refused = [.init(entry: "entry[3]", reason: .unit, detail: "mg/dL is not mmol/L")]
        report.unlistedRefusals = 7
        w.expect(ImportJSON.report.encode(report), answers: .post, "/v1/imports/fhir")
        w.expect(ImportJSON.report.encode(report), answers: .post, "/v1/patients/{studyId}/imports/apple-health")
        #expect(w.problems.isEmpty, "\(w.problems.joined(separator: "\n"))")
        #expect(w.checked == 8)
    }

    @Test func theCheckerRefusesAnUndeclaredMemberAndAMissingRequiredOne() throws {
        let w = try Walk()
        let result = w.send(.put, "/v1/me/days/{date}", "/v1/me/days/2026-11-20", body: [:], token: "-")
        #expect(result.status == 401)
        let schema = S.ref("DayResult")
        let sample: JSONValue = ["date": "2026-11-20", "pod": 5, "level": nil, "reasons": [], "instructions": nil,
                                 "morningCheckComplete": false, "eveningCheckComplete": false, "rulesVersion": "1"]
        #expect(w.check.problems(sample, schema).isEmpty, "\(w.check.problems(sample, schema))")
        guard case .object(var extra) = sample else { return }
        extra["extra"] = 1
        #expect(w.check.problems(.object(extra), schema) == ["$.extra: not declared"])
        extra["extra"] = nil
        extra["pod"] = nil
        #expect(w.check.problems(.object(extra), schema) == ["$.pod: required but absent"])
    }
}
