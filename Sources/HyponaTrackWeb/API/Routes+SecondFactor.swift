import HTJSON
import HTTPServer
import HyponaTrackDomain

extension Routes {
    /// A member's TOTP second factor (`hyponatrack staff mfa`; docs/product.md, third round, T):
    /// set up (the member, or an admin for a member without an active factor), confirmed with a
    /// first code, reset by an admin. Each audited.
    static func secondFactor(_ factors: SecondFactorService) -> [Route] {
        let with = Responses.adding(to: Responses.staff(notFound: "no active staff member of that name, or no factor set up"))
        return [
            Route(.post, "/v1/staff/{name}/mfa", access: .staff(.adminOrSelf), touches: .system,
                  summary: "Set up a second factor (not active until confirmed): the otpauth:// URI and 10 recovery codes, shown once",
                  responses: with([201: ("set up; confirm it with a first code", SecondFactorJSON.enrolment.reference),
                                   409: ("the member has an active factor: an admin resets it first", S.error)])) { ctx in
                let enrolment = try factors.setUp(name: try StaffBodies.name(ctx), actor: ctx.actor)
                return .json(.created, SecondFactorJSON.enrolment.encode(enrolment))   // no-store, as every answer
            },
            Route(.post, "/v1/staff/{name}/mfa/confirmation", access: .staff(.adminOrSelf), touches: .system,
                  summary: "Activate the member's pending second factor with a first 6-digit code",
                  request: S.body([SecondFactorBodies.code.required.member]),
                  responses: with([200: ("active", SecondFactorJSON.state.reference),
                                   409: ("the factor is active already", S.error)])) { ctx in
                let name = try StaffBodies.name(ctx)
                let code = try decodeBody(ctx.body) { r throws(FieldError) in try r.required(SecondFactorBodies.code.required) }
                try factors.confirm(name: name, code: code, actor: ctx.actor)
                return .json(.ok, SecondFactorJSON.state.encode((name: name, active: true)))
            },
            Route(.post, "/v1/staff/{name}/mfa/reset", access: .staff(.admin), touches: .system,
                  summary: "Remove a member's second factor (admin); their console sessions end",
                  responses: with([200: ("removed", SecondFactorJSON.state.reference)])) { ctx in
                let name = try StaffBodies.name(ctx)
                try factors.reset(name: name, actor: ctx.actor)
                return .json(.ok, SecondFactorJSON.state.encode((name: name, active: false)))
            },
        ]
    }
}

enum SecondFactorBodies {
    /// A 6-digit TOTP code (never logged).
    static let code = BodyField.secret("code", length: 6...6)
}

enum SecondFactorJSON {
    static let enrolment = ResponseShape<SecondFactorEnrolment>("SecondFactorEnrolment", [
        .member("name", .string) { $0.name },
        .member("otpauthURI", .string) { $0.otpauthURI },
        .member("recoveryCodes", .array(.string)) { $0.recoveryCodes },
    ])

    static let state = ResponseShape<(name: String, active: Bool)>(nil, [
        .member("name", .string) { $0.name },
        .member("active", .bool) { $0.active },
    ])
}
