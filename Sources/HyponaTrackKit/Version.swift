/// The product version, shared by the daemon and the CLI.
public enum HyponaTrackVersion {
    public static let string = "0.1.0"
}
