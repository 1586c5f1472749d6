extension QRCode {
    /// Which colour a terminal paints its characters in, relative to its background.
    public enum TerminalBackground: Sendable {
        /// Light text on a dark background, the usual terminal default: the characters paint
        /// the light modules and the quiet zone, spaces leave the dark modules to the background.
        case dark
        /// Dark text on a light background: the characters paint the dark modules.
        case light
    }

    /// The symbol as lines of UTF-8 half blocks for a terminal (`hyponatrack enroll --qr`):
    /// each character cell holds two module rows, the upper half `▀` and the lower half `▄`,
    /// `█` both and a space neither, so the code is about as tall as it is wide. The quiet zone
    /// is drawn too (`quietZone` modules on every side, light), so the code reads whatever
    /// surrounds it.
    ///
    /// Which modules the characters paint depends on `background`: on the default `.dark` a
    /// character paints light modules (as `qrencode -t UTF8` does), so a light-on-dark terminal
    /// shows dark modules on a light square; on a terminal with dark text on a light
    /// background use `.light`, or the code shows inverted (which many phone scanners still
    /// read, but not all). A module row beyond the last (the symbol plus quiet zones has an odd
    /// number of rows) is left to the background.
    public func terminalText(quietZone: Int = 4, background: TerminalBackground = .dark) -> String {
        precondition(quietZone >= 0, "a quiet zone cannot be negative")
        let side = size + 2 * quietZone
        func painted(_ row: Int, _ column: Int) -> Bool {
            guard row < side else { return false }
            let dark = isDark(row: row - quietZone, column: column - quietZone)
            return background == .dark ? !dark : dark
        }
        var lines: [String] = []
        for row in stride(from: 0, to: side, by: 2) {
            var line = ""
            for column in 0..<side {
                switch (painted(row, column), painted(row + 1, column)) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
