/// The colours, dashes and marker sizes both renderers use, so the console's SVG and the PDF
/// report look alike: colours with at least 4.5:1 contrast on white for lines and text (WCAG AA),
/// dashes and point shapes so colour is never the only carrier.
public enum ChartPalette {
    public static let text = "#1f2937"
    public static let grid = "#d1d5db"
    public static let axis = "#4b5563"
    public static let series = ["#1d4ed8", "#6d28d9", "#0f766e"]
    public static let marker = "#eef2ff"

    public static func series(_ index: Int) -> String { series[index % series.count] }

    public static func stroke(_ kind: ThresholdKind) -> String {
        switch kind {
        case .reference: return "#4b5563"
        case .yellow: return "#a16207"
        case .red: return "#b91c1c"
        }
    }

    /// The shaded alarming side of a threshold (drawn at `bandOpacity`).
    public static func band(_ kind: ThresholdKind) -> String { kind == .red ? "#fee2e2" : "#fef9c3" }
    public static let bandOpacity = 0.5

    /// Dash pattern of a threshold line: on, off, … in canvas units.
    public static func dash(_ kind: ThresholdKind) -> [Double] {
        switch kind {
        case .reference: return [2, 3]
        case .yellow: return [6, 3]
        case .red: return [10, 3, 2, 3]
        }
    }

    public static let seriesLineWidth = 2.0
    public static let thresholdLineWidth = 1.5
    /// A plain point: a circle of this radius; a yellow one a diamond of this half-diagonal; a red one a square this wide.
    public static let pointRadius = 3.5
    public static let yellowPointHalfDiagonal = 6.0
    public static let redPointSide = 10.0
    /// Length of a legend row's line sample.
    public static let legendSampleWidth = 22.0
}
