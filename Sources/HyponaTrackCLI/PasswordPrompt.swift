import Foundation

/// Reads a new password: on a terminal twice without echo (termios), otherwise the first line
/// of stdin (for scripts: `printf '%s\n' "$PW" | hyponatrack staff passwd alice`).
enum PasswordPrompt {
    struct Refusal: Error { let message: String }

    static func read(for name: String) throws(Refusal) -> String {
        guard isatty(STDIN_FILENO) == 1 else {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw Refusal(message: "no password on stdin (the first line is the password)")
            }
            return line
        }
        let first = try silently("New console password for \(name): ")
        let second = try silently("Repeat it: ")
        guard first == second else { throw Refusal(message: "the two passwords differ; nothing was changed") }
        guard !first.isEmpty else { throw Refusal(message: "an empty password; nothing was changed") }
        return first
    }

    /// Prompts on stderr and reads a line with echo off, restoring the terminal afterwards.
    private static func silently(_ prompt: String) throws(Refusal) -> String {
        FileHandle.standardError.write(Data(TerminalText.escaped(prompt).utf8))   // it names the member as typed
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { throw Refusal(message: "cannot read the terminal settings") }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        let line = readLine(strippingNewline: true)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
        FileHandle.standardError.write(Data("\n".utf8))
        guard let line else { throw Refusal(message: "no password entered") }
        return line
    }
}
