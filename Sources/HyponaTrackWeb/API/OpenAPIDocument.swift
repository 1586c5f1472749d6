import HTJSON
import HyponaTrackCore
import HyponaTrackKit
import HyponaTrackDomain

/// Builds `/openapi.json` from the route list itself (so routes and spec cannot disagree) and the
/// shared component schemas.
public enum OpenAPIDocument {
    public static func build(routes: [Route]) -> JSONValue {
        var paths = JSONObject()
        for route in routes {
            var operations: JSONObject
            if case .object(let existing)? = paths[route.template] { operations = existing } else { operations = JSONObject() }
            var op = JSONObject()
            op["operationId"] = .string(operationId(route))
            op["summary"] = .string(route.summary)
            switch route.access {
            case .anonymous, .signIn, .staffSignOut, .patientSignOut: op["security"] = .array([])
            case .patient: op["security"] = [["patientToken": []]]
            case .staff(let c): op["security"] = [["staffToken": []]]; op["x-required-capability"] = .string(c.rawValue)
            }
            let params = route.parameterNames.map { name -> JSONValue in
                ["name": .string(name), "in": "path", "required": true, "schema": pathSchema(name)]
            } + route.query.map(\.openAPI) + queryParameters(route)
            if !params.isEmpty { op["parameters"] = .array(params) }
            if let request = route.requestSchema {
                // Router.parseBody reads an absent body (no bytes, no Content-Type) as {}: a
                // body is required only when {} is refused, i.e. when its schema requires members.
                op["requestBody"] = ["required": .bool(requiresMembers(request)),
                                     "content": ["application/json": ["schema": request]]]
            }
            if let types = route.uploadTypes {
                var content = JSONObject()
                for t in types { content[t] = ["schema": ["type": "string", "format": "binary"]] }
                op["requestBody"] = ["required": true, "content": .object(content)]
            }
            var responses = JSONObject()
            var all = route.responses
            if let types = route.uploadTypes {
                all[413] = ("body larger than imports.maxUploadBytes", S.error)
                all[415] = ("not one of \(types.joined(separator: ", "))", S.error)
            }
            if route.limit != nil, all[429] == nil {
                all[429] = ("too many refused attempts from this address (rate_limited); see retry-after", S.error)
            }
            if route.requestSchema != nil {
                all[413] = ("body larger than \(route.maxBodyBytes.map { "\($0 >> 10) KiB" } ?? "64 KiB")", S.error)
                all[415] = ("not application/json", S.error)
            }
            for status in all.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
                let (description, schema) = all[status]!
                var r = JSONObject([("description", .string(description))])
                if let schema {
                    r["content"] = ["application/json": ["schema": schema]]
                } else if route.template == "/metrics" {
                    r["content"] = ["text/plain": ["schema": S.anyString]]
                } else if route.template.hasSuffix(".csv") {
                    r["content"] = ["text/csv": ["schema": S.anyString]]
                } else if route.template.hasSuffix(".pdf") {
                    r["content"] = ["application/pdf": ["schema": ["type": "string", "format": "binary"]]]
                }
                responses[status.description] = .object(r)
            }
            op["responses"] = .object(responses)
            operations[route.method.rawValue.lowercased()] = .object(op)
            paths[route.template] = .object(operations)
        }
        return ["openapi": "3.1.0",
                "info": ["title": "HyponaTrack Server API", "version": .string(HyponaTrackVersion.string),
                         "description": "Home monitoring after pituitary surgery. Not a validated medical device; the clinical rules are defaults derived from published evidence, not a validated clinical rule."],
                "paths": .object(paths),
                "components": ["securitySchemes": ["patientToken": ["type": "http", "scheme": "bearer"],
                                                   "staffToken": ["type": "http", "scheme": "bearer"]],
                               "schemas": components]]
    }

    /// Whether an object schema (or the component it refers to) lists required members.
    static func requiresMembers(_ schema: JSONValue) -> Bool {
        guard case .object(var o) = schema else { return true }
        if case .string(let ref)? = o["$ref"], let name = ref.split(separator: "/").last,
           case .object(let all) = components, case .object(let target)? = all[String(name)] {
            o = target
        }
        guard case .array(let required)? = o["required"] else { return false }
        return !required.isEmpty
    }

    static func operationId(_ route: Route) -> String {
        let words = route.template.split(separator: "/").map { part -> String in
            let p = part.hasPrefix("{") ? "by_" + part.dropFirst().dropLast() : String(part)
            return p.replacingOccurrences(of: ".", with: "_")
        }
        return route.method.rawValue.lowercased() + "_" + words.joined(separator: "_")
    }

    static func pathSchema(_ name: String) -> JSONValue {
        switch name {
        case "studyId": return S.studyId
        case "date": return S.date
        case "labId": return S.string("^[1-9][0-9]{0,17}$")
        case "list": return S.oneOf(["symptoms", "reactionTests", "tappingTests", "desmopressinDoses"])
        case "itemId": return S.string("^[!-.0-~]{1,64}$")
        case "name": return S.string("^[A-Za-z0-9_.@-]{1,64}$")
        case "alertId": return S.string("^[1-9][0-9]{0,17}$")
        case "proposalId": return S.string("^[1-9][0-9]{0,17}$")
        default: return S.anyString
        }
    }

    static func queryParameters(_ route: Route) -> [JSONValue] {
        switch (route.method.rawValue, route.template) {
        case ("GET", "/v1/me/days"):
            return [["name": "from", "in": "query", "required": false, "schema": S.date],
                    ["name": "to", "in": "query", "required": false, "schema": S.date]]
        case ("GET", "/v1/alerts"):
            return [["name": "open", "in": "query", "required": false, "schema": S.oneOf(["true", "false"])]]
        case ("GET", "/v1/statistics"):
            return [["name": "studyId", "in": "query", "required": false, "schema": S.studyId,
                     "description": "only this patient's (absent: every patient's)"]]
        case ("GET", "/v1/patients/{studyId}/report.pdf"):
            return [["name": "lang", "in": "query", "required": false, "schema": S.oneOf(["en", "de"]),
                     "description": "the report's language (absent: en)"]]
        case ("GET", "/v1/proposals"):
            return [["name": "status", "in": "query", "required": false, "schema": S.oneOf(ProposalStatus.allCases.map(\.rawValue))],
                    ["name": "studyId", "in": "query", "required": false, "schema": S.studyId,
                     "description": "only this patient's (absent: every patient's)"],
                    ["name": "limit", "in": "query", "required": false,
                     "schema": S.integer(ProposalsQuery.limits.lowerBound, ProposalsQuery.limits.upperBound),
                     "description": .string("at most this many, newest first (absent: \(ProposalsQuery.defaultLimit))")],
                    ["name": "before", "in": "query", "required": false, "schema": S.string("^[1-9][0-9]{0,17}$"),
                     "description": "only proposals older than this one (the Link rel=next header names the next page)"]]
        case ("GET", "/v1/audit"): return AuditParameters.spec
        case ("GET", "/v1/audit/verify"): return AuditParameters.verifySpec
        default: return []
        }
    }

    static let item: (String, JSONValue) = ("id", S.itemId)
    static let time: (String, JSONValue) = ("time", S.dateTime)
    static let symptom = S.object([item, time, ("slot", S.oneOf(["morning", "evening"])), ("nausea", S.integer(0, 3)),
                                   ("headache", S.integer(0, 3)), ("fatigue", S.integer(0, 3)), ("confusion", S.integer(0, 3)),
                                   ("muscleCramps", S.integer(0, 3)), ("vas", S.integer(0, 10))],
                                  required: ["id", "time", "slot", "nausea", "headache", "fatigue", "confusion", "muscleCramps", "vas"])
    static let reactionTest = S.object([item, time, ("medianMs", S.number(100, 5000)), ("meanMs", S.number(100, 5000)),
                                        ("errors", S.integer(0, 1000))], required: ["id", "time", "medianMs", "meanMs", "errors"])
    static let tappingTest = S.object([item, time, ("taps", S.integer(0, 1000)), ("durationSeconds", S.number(1, 120))],
                                      required: ["id", "time", "taps", "durationSeconds"])
    static let dose = S.object([item, time, ("doseMcg", S.number(0, 1000))], required: ["id", "time", "doseMcg"])
    static var dayPatch: JSONValue { S.object(dayPatchProperties) }

    /// A staff correction: the day's members and the reason its audit row keeps.
    static var dayCorrection: JSONValue { S.object(dayPatchProperties + [(DayCorrectionBody.reason.name, DayCorrectionBody.reason.member.schema)]) }

    static var dayPatchProperties: [(String, JSONValue)] {
        [("weightMorningKg", S.nullable(S.number(25, 350))), ("weightEveningKg", S.nullable(S.number(25, 350))),
                  ("fluidIntakeMl", S.nullable(S.number(0, 10000))), ("urineSG", S.nullable(S.number(1.0, 1.04))),
                  ("vomitingEpisodes", S.nullable(S.integer(0, 50))),
                  ("emergencySymptoms", S.nullable(S.array(S.ruleCode("^[a-z0-9_]{1,32}$", "thresholds.json", "emergencySymptoms"),
                                                            max: 10))),
                  ("symptoms", S.nullable(S.array(symptom, max: 200))), ("reactionTests", S.nullable(S.array(reactionTest, max: 200))),
                  ("tappingTests", S.nullable(S.array(tappingTest, max: 200))),
                  ("desmopressinDoses", S.nullable(S.array(dose, max: 200))),
                  ("steps", S.nullable(S.integer(0, 100000))), ("hrvSdnnMs", S.nullable(S.number(1, 300))),
                  ("sleepMinutes", S.nullable(S.integer(0, 1440))), ("restingHeartRate", S.nullable(S.integer(20, 250)))]
    }

    static func profileProperties(required: Bool) -> [(String, JSONValue)] {
        let katB = S.nullable(S.object([("podSodium", S.nullable(S.number(100, 180))), ("preopSodium", S.nullable(S.number(100, 180))),
                                        ("operationMinutes", S.nullable(S.integer(1, 1440))), ("csfLeak", S.nullable(S.bool))]))
        let katC = S.object([("postopNausea", S.nullable(S.ruleCode(S.codePattern, "risk-model.json", "katC.postopNausea"))),
                             ("diabetesInsipidus", S.nullable(S.bool)), ("desmopressin", S.nullable(S.bool)),
                             ("newCortisolDeficiency", S.nullable(S.bool))])
        var props: [(String, JSONValue)] = []
        if required { props.append(("studyId", S.studyId)) }
        props += [("surgeryDate", S.date), ("timeZone", S.string(min: 1, max: 64)), ("age", S.integer(18, 110)),
                  ("sex", S.oneOf(["female", "male"])), ("bmi", S.number(12, 70)), ("baselineWeightKg", S.number(25, 350)),
                  ("histology", S.nullable(S.ruleCode(S.codePattern, "risk-model.json", "katA.histology"))),
                  ("stalkDeviation", S.nullable(S.bool)),
                  ("riskMedications", S.nullable(S.array(S.ruleCode(S.codePattern, "risk-model.json", "katA.riskMedications.points"),
                                                         max: 20))),
                  ("katB", katB), ("katC", S.nullable(katC)), ("fluidLimitMl", S.nullable(S.number(500, 5000))),
                  ("diabetesInsipidusActive", S.nullable(S.bool)), ("baselineReactionTimeMs", S.nullable(S.number(100, 5000))),
                  ("simplifiedMode", S.nullable(S.bool)), ("webOnly", S.nullable(S.bool)), ("desmopressinPrescribed", S.nullable(S.bool)),
                  ("loanDevice", S.nullable(S.bool)), ("baselineIsPreOp", S.nullable(S.bool)),
                  ("consentVersion", S.nullable(S.string("^[A-Za-z0-9._-]{1,32}$"))), ("consentDate", S.nullable(S.date))]
        return props
    }

    /// The request bodies declared here, and every named response shape (`ResponseShape`): a
    /// response's schema is its encoder's declaration, so the two cannot disagree.
    static let components: JSONValue = {
        var schemas = JSONObject([("DayPatch", dayPatch), ("DayCorrection", dayCorrection),
                                  ("Profile", S.object(profileProperties(required: true) + [("site", S.nullable(S.string(SiteBodies.codePattern)))],
                                                       required: ["studyId", "surgeryDate", "age", "sex", "bmi", "baselineWeightKg"])),
                                  ("ProfilePatch", S.object(profileProperties(required: false)))])
        let shapes = DayJSON.components + PatientJSON.components
            + [ActivationJSON.activated.component, AlertJSON.alert.component, AlertJSON.alertDay.component, ImportJSON.proposal.component,
               ImportJSON.report.component, StatisticsJSON.statistics.component, HealthJSON.health.component, APIError.shape.component,
               SiteJSON.site.component,
               OutcomeJSON.outcome.component, OutcomeReportJSON.report.component, RuleTrialJSON.comparison.component,
               RuleTrialJSON.backtest.component, RuleTrialJSON.shadow.component]
        for (name, schema) in shapes {
            precondition(schemas[name] == nil, "two components named \(name)")
            schemas[name] = schema
        }
        return .object(schemas)
    }()
}
