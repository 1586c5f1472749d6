@testable import Charts

/// A weight-change chart over POD 1–14 with a yellow threshold of 1.5 % (1.35 % on POD 5–9) and a
/// red one of 4 %; tests change what they need.
enum ChartFixtures {
    static func chart(points: [ChartPoint] = [ChartPoint(x: 1, y: 0.2), ChartPoint(x: 2, y: 0.9), ChartPoint(x: 4, y: 1.6)],
                      change: (inout Chart) -> Void = { _ in }) -> Chart {
        var chart = Chart(
            id: "weight", title: "Weight change", summary: "Morning weight against baseline.",
            xAxis: ChartXAxis(title: "Post-operative day", firstDay: 1, lastDay: 14,
                              dayLabels: (1...14).map(String.init), dayNames: (1...14).map { "POD \($0)" }),
            yAxis: ChartYAxis(title: "Weight change", unit: "%", include: [0], minimumSpan: 2, valueDecimals: 1),
            series: [ChartSeries(name: "Weight change", points: points)],
            thresholds: [
                ChartThreshold(kind: .yellow, direction: .atOrAbove, tag: "yellow", label: "yellow ≥ 1.5 %",
                               segments: [ThresholdSegment(fromX: 0.5, toX: 4.5, y: 1.5), ThresholdSegment(fromX: 4.5, toX: 9.5, y: 1.35),
                                          ThresholdSegment(fromX: 9.5, toX: 14.5, y: 1.5)]),
                ChartThreshold(kind: .red, direction: .atOrAbove, tag: "red", label: "red ≥ 4 %",
                               segments: [ThresholdSegment(fromX: 0.5, toX: 14.5, y: 4)]),
            ],
            markers: [ChartMarker(label: "critical window", fromX: 4.5, toX: 9.5)])
        change(&chart)
        return chart
    }
}
