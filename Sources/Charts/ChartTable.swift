/// The chart's text alternative as plain rows: one per day with the values and the thresholds in
/// force that day. A page renders it as an HTML table, the report as its day table; both escape
/// the cells themselves.
public struct ChartTable: Sendable, Equatable {
    /// The chart's title.
    public var caption: String
    /// Day, then one column per series, then one per threshold ("yellow (≥ %)").
    public var columns: [String]
    /// Cells in column order; a day without a value shows `emptyCell`.
    public var rows: [[String]]

    public static let emptyCell = "–"
}

extension Chart {
    /// One row per day from the first to the last day of the axis.
    public func table() -> ChartTable {
        let unit = yAxis.unit.isEmpty ? "" : " " + yAxis.unit
        var columns = [xAxis.title]
        columns += series.map { $0.name + (yAxis.unit.isEmpty ? "" : " (\(yAxis.unit))") }
        columns += thresholds.map { "\($0.tag) (\($0.direction.symbol)\(unit))" }
        let rows = (xAxis.firstDay...xAxis.lastDay).map { day -> [String] in
            var cells = [xAxis.name(ofDay: day)]
            for s in series {
                let values = s.points.filter { xAxis.day(at: $0.x) == day }.map { p -> String in
                    var cell = format(p.y)
                    if let note = p.note { cell += " (\(note))" }
                    if let flag = p.flag, flag != .reference { cell += " " + word(for: flag) }
                    return cell
                }
                cells.append(values.isEmpty ? ChartTable.emptyCell : values.joined(separator: ", "))
            }
            for t in thresholds {
                cells.append(t.value(at: Double(day)).map { format($0, decimals: yAxis.valueDecimals + 2, trimZeros: true) }
                             ?? ChartTable.emptyCell)
            }
            return cells
        }
        return ChartTable(caption: title, columns: columns, rows: rows)
    }
}
