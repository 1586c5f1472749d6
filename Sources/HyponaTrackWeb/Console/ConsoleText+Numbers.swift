import Charts

extension ConsoleText {
    /// The page language's decimal separator ("," in German).
    var decimalSeparator: String { language == .de ? "," : "." }

    /// A clinical or statistical number as a page shows it ("–" for none): `decimals` places in
    /// the page language's notation, trailing zeros dropped when `trimZeros`.
    func number(_ v: Double?, decimals: Int = 1, trimZeros: Bool = false) -> String {
        v.map { ChartNumber.format($0, decimals: decimals, trimZeros: trimZeros, separator: decimalSeparator) } ?? "–"
    }
}
