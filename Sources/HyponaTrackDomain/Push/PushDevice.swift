import Crypto
import HyponaTrackCore

/// The push services a device is reached through.
public enum PushPlatform: String, Sendable, CaseIterable, Hashable {
    case apns, fcm, webpush
}

/// Where a device is reached: the app's token (APNs, FCM) or a browser's subscription.
public enum PushAddress: Sendable, Equatable {
    case token(String)
    case webPush(endpoint: String, p256dh: String, auth: String)

    /// The column under which one address is registered once (`push_devices.address`): a
    /// token, or a subscription's endpoint (the push service's unique resource URL).
    var key: String {
        switch self {
        case .token(let token): return token
        case .webPush(let endpoint, _, _): return endpoint
        }
    }
}

/// Whether a device still receives pushes: `gone` once its push service said the token or
/// subscription no longer exists (it is never sent to again until registered anew).
public enum PushDeviceState: String, Sendable, CaseIterable {
    case active, gone
}

/// `PUT /v1/me/devices/{deviceId}` (and the web check-in's `POST /app/devices`).
public struct RegisterDevice: Sendable {
    public var patientId: Int64
    public var deviceId: String
    public var platform: PushPlatform
    public var address: PushAddress
    /// The language of the device's texts; nil: English.
    public var language: Language?

    public init(patientId: Int64, deviceId: String, platform: PushPlatform, address: PushAddress, language: Language?) {
        self.patientId = patientId
        self.deviceId = deviceId
        self.platform = platform
        self.address = address
        self.language = language
    }

    /// `[A-Za-z0-9_-]{8,64}`: the app's own name for the device.
    public static func isDeviceId(_ text: String) -> Bool {
        (8...64).contains(text.utf8.count) && text.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x2D
        }
    }

    /// An APNs or FCM token as the services issue them: printable ASCII without spaces (APNs:
    /// 64 hex digits; FCM: about 160 characters of base64url and `:`).
    public static func isToken(_ text: String) -> Bool {
        (8...4096).contains(text.utf8.count) && text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }
}

/// A registered device as the patient and staff see it (never its token or keys).
public struct PushDeviceRecord: Sendable, Equatable {
    public var deviceId: String
    public var platform: PushPlatform
    public var language: Language?
    public var state: PushDeviceState
    /// ms since the epoch: the first registration under this `deviceId`.
    public var registeredAt: Int64
    /// ms since the epoch: the last delivery its push service accepted.
    public var lastSuccessAt: Int64?
}

/// A registration's outcome: `created` (201) or replaced (200).
public struct DeviceRegistered: Sendable {
    public var device: PushDeviceRecord
    public var created: Bool
}
