import Charts
import HyponaTrackCore

/// Numbers as the console and the report write them: at most `decimals` decimals without
/// trailing zeros, except where a measurement has a fixed precision. Urine specific gravity is
/// read and written to three decimals (1.010, never 1.01), so an SG — the day's value, and the
/// value and threshold of `urine_sg_support` — keeps all three.
public enum MeasureFormat {
    public static let urineSGDecimals = 3
    /// Percentages (weight change, reaction-time slowing) are read to one decimal, as kg are.
    public static let percentDecimals = 1

    public static func number(_ value: Double, decimals: Int, minimumDecimals: Int = 0, separator: String) -> String {
        ChartNumber.format(value, decimals: decimals, trimZeros: true, minimumDecimals: minimumDecimals, separator: separator)
    }

    public static func urineSG(_ value: Double, separator: String) -> String {
        number(value, decimals: urineSGDecimals, minimumDecimals: urineSGDecimals, separator: separator)
    }
}
