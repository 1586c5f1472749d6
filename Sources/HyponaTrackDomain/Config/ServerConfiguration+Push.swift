/// `push.*` (docs/product.md, W, "Push reminders"): which push services the daemon may use. A
/// platform without its block is not configured: devices of that platform are refused (409
/// `conflict` naming `platform`). Key files are owner-only or systemd credentials and are
/// read at start (`PushKeys`); their contents never reach a log.
extension ServerConfiguration {
    public struct Push: Sendable {
        /// Apple Push Notification service: a token-based (`.p8`) provider key.
        public struct APNs: Sendable {
            public var keyFile: String
            /// The key's ID (the provider token's `kid`).
            public var keyId: String
            /// The developer team (the provider token's `iss`).
            public var teamId: String
            /// The app's bundle ID (`apns-topic`).
            public var topic: String
            /// The base URL; the daemon adds `/3/device/{token}`.
            public var url: String = "https://api.push.apple.com"

            public init(keyFile: String, keyId: String, teamId: String, topic: String) {
                self.keyFile = keyFile
                self.keyId = keyId
                self.teamId = teamId
                self.topic = topic
            }
        }

        /// Firebase Cloud Messaging HTTP v1: a service account's JSON key file.
        public struct FCM: Sendable {
            public var serviceAccountFile: String
            /// The base URL; the daemon adds `/v1/projects/{project_id}/messages:send`.
            public var url: String = "https://fcm.googleapis.com"

            public init(serviceAccountFile: String) { self.serviceAccountFile = serviceAccountFile }
        }

        /// Web Push (RFC 8030) with VAPID (RFC 8292).
        public struct WebPush: Sendable {
            /// A PEM EC P-256 private key (PKCS#8 or SEC1).
            public var vapidKeyFile: String
            /// The VAPID `sub`: a `mailto:` or `https:` contact for the push services.
            public var subject: String
            /// Which endpoint hosts a subscription may name (`WebPushEndpointPolicy`).
            public var allowedHosts: [String] = WebPushEndpointPolicy.defaultAllowedHosts

            public init(vapidKeyFile: String, subject: String) {
                self.vapidKeyFile = vapidKeyFile
                self.subject = subject
            }
        }

        public var apns: APNs?
        public var fcm: FCM?
        public var webPush: WebPush?
        /// A private CA for every push transport (tests' emulators); nil: the system's.
        public var caFile: String?

        public init() {}

        /// The platforms a device may be registered for.
        public var configuredPlatforms: Set<PushPlatform> {
            var platforms: Set<PushPlatform> = []
            if apns != nil { platforms.insert(.apns) }
            if fcm != nil { platforms.insert(.fcm) }
            if webPush != nil { platforms.insert(.webpush) }
            return platforms
        }

        /// Why `url` cannot be a push service's base URL, or nil.
        public static func urlProblem(_ url: String) -> String? {
            guard url.lowercased().hasPrefix("https://") else { return "must be an https:// URL (tokens travel in the request)" }
            return url.hasSuffix("/") ? "must not end with / (the daemon adds the path)" : nil
        }
    }
}
