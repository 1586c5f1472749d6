import Crypto
import HTJSON
import HyponaTrackCore
import SQLite

/// A patient's push devices (docs/product.md, W, "Push reminders"): register or replace one
/// under the app's `deviceId`, list them, remove one. At most `maximumDevices`; a platform the
/// server has no push configuration for is refused; a Web Push endpoint must pass
/// `WebPushEndpointPolicy`. One token or endpoint belongs to one device: registered by another
/// patient (a loan phone handed on), it moves to them. Durable and audited before it is
/// answered; the audit rows never hold a token or a subscription.
public final class PushDeviceService: Sendable {
    public static let maximumDevices = 5
    let context: StudyContext
    let endpoints: WebPushEndpointPolicy?

    init(context: StudyContext, resolver: any HostResolver = SystemHostResolver()) {
        self.context = context
        endpoints = context.configuration.push.webPush.map { WebPushEndpointPolicy(allowedHosts: $0.allowedHosts, resolver: resolver) }
    }

    public func register(_ command: RegisterDevice) throws -> DeviceRegistered {
        guard context.configuration.push.configuredPlatforms.contains(command.platform) else {
            throw DomainError.conflict("this server has no \(command.platform.rawValue) push configuration, so it cannot remind "
                                       + "this device", field: "platform")
        }
        // Checked before the write: resolving the endpoint's host may take a while.
        try check(command.address)
        let ms = epochMilliseconds(context.clock.now())
        return try context.write { db in
            let patient = try ownPatient(db, command.patientId)
            var movedFrom: String?
            if let holder = try PushDeviceRepository.load(db, platform: command.platform, address: command.address.key),
               holder.patientId != command.patientId || holder.record.deviceId != command.deviceId {
                try PushDeviceRepository.delete(db, id: holder.id)
                if holder.patientId != command.patientId {
                    let other = try PatientRepository.load(db, id: holder.patientId)
                    movedFrom = other?.studyId
                    try AuditLog.append(db, at: ms, actor: "system", action: .deviceRemove, subject: other?.studyId,
                                        details: PushAudit.Removed(deviceId: holder.record.deviceId, platform: holder.record.platform.rawValue,
                                                                   reason: "registered by another patient"))
                }
            }
            let existing = try PushDeviceRepository.load(db, patientId: command.patientId, deviceId: command.deviceId)
            if let existing {
                try PushDeviceRepository.replace(db, id: existing.id, command, at: ms)
            } else {
                guard try PushDeviceRepository.count(db, patientId: command.patientId) < Self.maximumDevices else {
                    throw DomainError.devicesFull(limit: Self.maximumDevices)
                }
                try PushDeviceRepository.insert(db, command, at: ms)
            }
            try AuditLog.append(db, at: ms, actor: "patient:\(patient.studyId)", action: .deviceRegister, subject: patient.studyId,
                                details: PushAudit.Registered(deviceId: command.deviceId, platform: command.platform.rawValue,
                                                              language: command.language?.rawValue, replaced: existing != nil,
                                                              tookOverFromAnotherPatient: movedFrom != nil))
            guard let stored = try PushDeviceRepository.load(db, patientId: command.patientId, deviceId: command.deviceId) else {
                throw StoreCorruption("device \(command.deviceId) was not stored")
            }
            return DeviceRegistered(device: stored.record, created: existing == nil)
        }
    }

    /// The patient's devices in the order they were registered.
    public func devices(patientId: Int64) throws -> [PushDeviceRecord] {
        try context.read { db in try PushDeviceRepository.list(db, patientId: patientId).map(\.record) }
    }

    /// Staff's view (`GET /v1/patients/{studyId}/reminders`): the patient's devices, and the
    /// reminders pushed on the last `days` local days (today included) with each delivery.
    public func reminders(studyId: String, days: Int) throws -> PatientReminders {
        try context.read { db in
            let patient = try context.patient(db, studyId: studyId)
            let today = context.today(patient.profile, now: context.clock.now())
            return PatientReminders(devices: try PushDeviceRepository.list(db, patientId: patient.id).map(\.record),
                                    reminders: try PushDeliveryRepository.reminders(db, patientId: patient.id,
                                                                                    from: today.adding(days: 1 - days)))
        }
    }

    public func remove(patientId: Int64, deviceId: String) throws {
        let ms = epochMilliseconds(context.clock.now())
        try context.write { db in
            let patient = try ownPatient(db, patientId)
            guard let device = try PushDeviceRepository.load(db, patientId: patientId, deviceId: deviceId) else {
                throw DomainError.notFound("no device \(deviceId.prefix(64)) is registered")
            }
            try PushDeviceRepository.delete(db, id: device.id)
            try AuditLog.append(db, at: ms, actor: "patient:\(patient.studyId)", action: .deviceRemove, subject: patient.studyId,
                                details: PushAudit.Removed(deviceId: deviceId, platform: device.record.platform.rawValue,
                                                           reason: "removed by the patient"))
        }
    }

    private func ownPatient(_ db: Connection, _ id: Int64) throws -> PatientRecord {
        guard let patient = try PatientRepository.load(db, id: id), !patient.isWithdrawn else { throw DomainError.unauthenticated }
        return patient
    }

    /// A subscription's keys must let every later message be encrypted, and its endpoint pass the policy.
    private func check(_ address: PushAddress) throws {
        guard case .webPush(let endpoint, let p256dh, let auth) = address else { return }
        do {
            _ = try WebPushSubscription(endpoint: endpoint, p256dh: p256dh, auth: auth)
        } catch {
            switch error {
            case .invalidPublicKey(let reason): throw DomainError.invalid("subscription.keys.p256dh", reason)
            case .invalidAuthSecret: throw DomainError.invalid("subscription.keys.auth", "auth must be base64url of 16 bytes")
            case .invalidEndpoint(let reason): throw DomainError.invalid("subscription.endpoint", reason)
            default: throw DomainError.invalid("subscription", "\(error)")
            }
        }
        if let problem = endpoints?.problem(endpoint) { throw DomainError.invalid("subscription.endpoint", problem) }
    }
}

/// A patient's push channel as staff see it.
public struct PatientReminders: Sendable {
    public var devices: [PushDeviceRecord]
    public var reminders: [PushedReminder]
}

/// The push devices' audit payloads, in one place (never a token, endpoint or key).
enum PushAudit {
    struct Registered: Encodable, Sendable {
        let deviceId: String
        let platform: String
        let language: String?
        let replaced: Bool
        let tookOverFromAnotherPatient: Bool
    }

    struct Removed: Encodable, Sendable {
        let deviceId: String
        let platform: String
        let reason: String
    }
}
