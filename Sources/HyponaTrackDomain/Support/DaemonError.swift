/// A start-up failure with a message for the operator.
public struct DaemonError: Error, CustomStringConvertible {
    public let description: String
    /// True when what cannot be used is the configuration — a file it names, a rule, a secret —
    /// rather than the machine: the daemon then exits 78 (EX_CONFIG), as `--check-config` does,
    /// and systemd does not restart it (`RestartPreventExitStatus=78`): a restart cannot fix it.
    public let isConfiguration: Bool

    public init(_ description: String) {
        self.description = description
        isConfiguration = false
    }

    private init(description: String, isConfiguration: Bool) {
        self.description = description
        self.isConfiguration = isConfiguration
    }

    /// A configuration problem (exit 78), naming the file and the key where it can.
    public static func configuration(_ description: String) -> DaemonError {
        DaemonError(description: description, isConfiguration: true)
    }

    /// `error` as a configuration problem, its message kept.
    static func configuration(_ error: any Error) -> DaemonError {
        if let known = error as? DaemonError { return .configuration(known.description) }
        return .configuration("\(error)")
    }
}
