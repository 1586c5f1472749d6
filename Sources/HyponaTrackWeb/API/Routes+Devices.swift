import HTJSON
import HTTPServer
import HyponaTrackCore
import HyponaTrackDomain

extension Routes {
    /// The patient's push devices (docs/product.md, W, "Push reminders").
    static func devices(_ devices: PushDeviceService) -> [Route] {
        let with = Responses.adding(to: [401: ("token missing, revoked or withdrawn", S.error), 403: ("not a patient token", S.error)])
        return [
            Route(.put, "/v1/me/devices/{deviceId}", access: .patient, touches: .ownRecord,
                  summary: "Register or replace a device for push reminders (at most 5)",
                  request: S.body(DeviceBodies.device),
                  responses: with([201: ("registered", DeviceJSON.device.reference), 200: ("replaced", DeviceJSON.device.reference),
                                   400: ("invalid deviceId, token or subscription", S.error),
                                   409: ("limit_reached: 5 devices already (field deviceId); conflict: the platform is not "
                                         + "configured (field platform)", S.error)])) { ctx in
                let command = try DeviceBodies.command(ctx.body, patientId: try ctx.patientId(), deviceId: ctx.parameter("deviceId"))
                let registered = try devices.register(command)
                return .json(registered.created ? .created : .ok, DeviceJSON.device.encode(registered.device))
            },
            Route(.get, "/v1/me/devices", access: .patient, touches: .ownRecord, summary: "The patient's push devices",
                  responses: with([200: ("devices", S.array(DeviceJSON.device.reference))])) { ctx in
                .json(.ok, .array(try devices.devices(patientId: try ctx.patientId()).map(DeviceJSON.device.encode)))
            },
            Route(.delete, "/v1/me/devices/{deviceId}", access: .patient, touches: .ownRecord, summary: "Remove a push device",
                  responses: with([204: ("removed", nil), 400: ("invalid deviceId", S.error),
                                   404: ("no device of that deviceId", S.error)])) { ctx in
                try devices.remove(patientId: try ctx.patientId(), deviceId: try DeviceBodies.deviceId(ctx.parameter("deviceId")))
                return .raw(HTTPResponse(status: .noContent, headers: ["Cache-Control": "no-store"]))
            },
            Route(.get, "/v1/patients/{studyId}/reminders", access: .staff(.read), touches: .patient,
                  summary: "The patient's push devices and the reminders pushed on the last days (days=14, 1 to 90) with each delivery",
                  responses: Responses.adding(to: Responses.staff(notFound: "no such patient"))([
                      200: ("devices and reminders", DeviceJSON.reminders.reference)])) { ctx in
                var days = 14
                if let text = ctx.query("days") {
                    guard let n = Int(text), (1...90).contains(n) else { throw APIError.invalid("days", "days is a whole number from 1 to 90") }
                    days = n
                }
                return .json(.ok, DeviceJSON.reminders.encode(try devices.reminders(studyId: ctx.parameter("studyId"), days: days)))
            },
        ]
    }
}

/// A device registration's body, declared once for the decoder (the API's and the web
/// check-in's `POST /app/devices`) and the spec.
enum DeviceBodies {
    static let platform = BodyField.oneOf("platform", PushPlatform.allCases.map(\.rawValue))
    static let token = BodyField.pattern("token", "^[!-~]{8,4096}$", length: 8...4096,
                                         expected: "the push service's device token", RegisterDevice.isToken)
    static let language = BodyField.oneOf("language", Language.allCases.map(\.rawValue))
    static let endpoint = BodyField.pattern("endpoint", "^https://", length: 12...2000, expected: "an https:// URL") {
        $0.lowercased().hasPrefix("https://")
    }
    static var key: JSONRead<String> { .string(length: 1...200) }
    static let subscription = S.object([
        ("endpoint", endpoint.schema),
        ("keys", S.object([("p256dh", S.string(min: 1, max: 200)), ("auth", S.string(min: 1, max: 200))],
                          required: ["p256dh", "auth"])),
        ("expirationTime", S.nullable(S.anyNumber)),
    ], required: ["endpoint", "keys"])
    static let device = [platform.required.member, token.member,
                         BodyMember(name: "subscription", schema: S.nullable(subscription), isRequired: false), language.member]

    /// `[A-Za-z0-9_-]{8,64}`, else 400 naming `deviceId`.
    static func deviceId(_ text: String) throws -> String {
        guard RegisterDevice.isDeviceId(text) else {
            throw APIError.invalid("deviceId", "a deviceId is 8 to 64 letters, digits, _ or -")
        }
        return text
    }

    static func command(_ body: JSONValue, patientId: Int64, deviceId text: String) throws -> RegisterDevice {
        let deviceId = try deviceId(text)
        do throws(FieldError) {
            return try decodeBody(body) { r throws(FieldError) in
                let platform = PushPlatform(rawValue: try r.required(platform.required)) ?? .apns
                let language = try r.optional(language).flatMap(Language.init)
                let address: PushAddress
                if platform == .webpush {
                    if r.has("token") { try r.refuse("token", "a webpush device has a subscription, not a token") }
                    address = try webPush(r)
                } else {
                    if r.has("subscription") { try r.refuse("subscription", "an \(platform.rawValue) device has a token, not a subscription") }
                    address = .token(try r.required(token.required))
                }
                return RegisterDevice(patientId: patientId, deviceId: deviceId, platform: platform, address: address, language: language)
            }
        } catch { throw APIError.from(error) }
    }

    /// The Push API's `PushSubscription.toJSON()`: `endpoint`, `keys.p256dh`, `keys.auth`
    /// (and `expirationTime`, which the server does not use).
    private static func webPush(_ r: ObjectReader) throws(FieldError) -> PushAddress {
        let s = try ObjectReader(try r.required("subscription", .any), path: "subscription")
        let endpoint = try s.required(endpoint.required)
        _ = s.raw("expirationTime")
        let k = try ObjectReader(try s.required("keys", .any), path: "subscription.keys")
        let p256dh = try k.required("p256dh", key), auth = try k.required("auth", key)
        try k.finish()
        try s.finish()
        return .webPush(endpoint: endpoint, p256dh: p256dh, auth: auth)
    }
}

/// The API form of a device, declared once for the encoder and `/openapi.json`.
enum DeviceJSON {
    static let device = ResponseShape<PushDeviceRecord>("Device", [
        .member("deviceId", .string) { $0.deviceId },
        .member("platform", .oneOf(PushPlatform.allCases)) { $0.platform },
        .member("language", .nullable(.oneOf(Language.allCases))) { $0.language },
        .member("state", .oneOf(PushDeviceState.allCases)) { $0.state },
        .member("registeredAt", .instant) { $0.registeredAt },
        .member("lastSuccessAt", .nullable(.instant)) { $0.lastSuccessAt },
    ])

    /// Staff's view: `{"devices": [{deviceId, platform, state, registeredAt, lastSuccessAt}], "reminders": [{date, slot,
    /// kind, dueAt, deliveries: [{deviceId, state, attempts, lastAttemptAt}]}]}` (settled W).
    static let staffDevice = ResponseShape<PushDeviceRecord>(nil, [
        .member("deviceId", .string) { $0.deviceId },
        .member("platform", .oneOf(PushPlatform.allCases)) { $0.platform },
        .member("state", .oneOf(PushDeviceState.allCases)) { $0.state },
        .member("registeredAt", .instant) { $0.registeredAt },
        .member("lastSuccessAt", .nullable(.instant)) { $0.lastSuccessAt },
    ])
    static let delivery = ResponseShape<PushDeliveryRecord>(nil, [
        .member("deviceId", .string) { $0.deviceId },
        .member("state", .oneOf(PushDeliveryState.allCases)) { $0.state },
        .member("attempts", .integer) { $0.attempts },
        .member("lastAttemptAt", .nullable(.instant)) { $0.lastAttemptAt },
    ])
    static let reminder = ResponseShape<PushedReminder>(nil, [
        .member("date", .date) { $0.date },
        .member("slot", .string) { $0.slot },
        .member("kind", .string) { $0.kind },
        .member("dueAt", .instant) { $0.dueAt },
        .member("deliveries", .array(.object(delivery))) { $0.deliveries },
    ])
    static let reminders = ResponseShape<PatientReminders>("PatientReminders", [
        .member("devices", .array(.object(staffDevice))) { $0.devices },
        .member("reminders", .array(.object(reminder))) { $0.reminders },
    ])
}
