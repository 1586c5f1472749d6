import HyponaTrackCore

/// What one push says (docs/product.md, W, "Content", and settled W "Formats"): the title
/// "HyponaTrack", a body from `instructions.json` in the device's language, and the data
/// `{kind, date, slot}` — never health data, a level, a reason or a measurement.
struct PushMessage: Sendable, Equatable {
    static let title = "HyponaTrack"

    var body: String
    var kind: String
    /// The patient's local date (`YYYY-MM-DD`).
    var date: String
    var slot: String
    /// The same for every attempt of one reminder to any of the patient's devices.
    var collapseId: String
    /// When the reminder's slot ends (epoch seconds): the push services drop it then.
    var expiresAt: Int64

    init(_ reminder: PushReminder, collapseId: String, language: Language?, texts: InstructionTexts) {
        kind = reminder.kind
        date = reminder.date.description
        slot = reminder.slot.rawValue
        self.collapseId = collapseId
        expiresAt = reminder.expiresAt / 1000
        body = texts.pushText(Self.textKey(kind: reminder.kind, slot: reminder.slot), language: (language ?? .en).rawValue)
            ?? "Time for your HyponaTrack check."
    }

    /// `push.morning`/`push.evening` for the check reminders, else the kind's own text.
    static func textKey(kind: String, slot: ReminderRules.Deadline) -> String {
        switch kind {
        case Reminder.Kind.check.rawValue: return slot == .morning ? "morning" : "evening"
        case Reminder.Kind.catchUp.rawValue: return "catchUp"
        default: return kind
        }
    }

    /// Seconds the push service may hold it at `now` (at least 1: 0 means "now or never").
    func ttl(now: Int64) -> Int64 { max(1, expiresAt - now) }
}

/// What a push service answered (docs/product.md, W, "Delivery").
enum PushSendResult: Sendable, Equatable {
    /// 2xx: the service took it.
    case sent
    /// The token or subscription no longer exists (APNs 410/BadDeviceToken/Unregistered, FCM
    /// UNREGISTERED/404, Web Push 404/410): the device is disabled.
    case gone(String)
    /// 5xx, 429, a timeout or a network failure: try again, after `afterSeconds` when the
    /// service said (`Retry-After`).
    case retry(String, afterSeconds: Double?)
    /// A 4xx the contract does not list, after the transport refreshed its token once: no retry.
    case failed(String)
}

/// One push to one device.
struct PushItem: Sendable {
    var message: PushMessage
    var address: PushAddress
}

/// One push service.
protocol PushTransport: Sendable {
    func send(_ message: PushMessage, to address: PushAddress, now: Int64) -> PushSendResult
    /// Sends the items `next` gives (each with the caller's number for it) until it gives nil,
    /// and calls `done` with the number and outcome as each one finishes, on the calling thread;
    /// returns after the last. A transport that multiplexes keeps many in flight and asks `next`
    /// again as streams free up (a nil while some are in flight means "nothing now", not "the
    /// end"); the default sends one after another.
    func stream(next: () -> (Int, PushItem)?, now: Int64, done: (Int, PushSendResult) -> Void)
    /// Whether `stream` has many pushes in flight at once (then their outcomes are written a
    /// few at a time; otherwise each as it arrives).
    var multiplexes: Bool { get }
}

extension PushTransport {
    var multiplexes: Bool { false }

    func stream(next: () -> (Int, PushItem)?, now: Int64, done: (Int, PushSendResult) -> Void) {
        while let (i, item) = next() { done(i, send(item.message, to: item.address, now: now)) }
    }
}
