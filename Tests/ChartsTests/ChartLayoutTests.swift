import Testing
@testable import Charts

@Suite struct ChartLayoutTests {
    let options = ChartLayoutOptions()

    @Test func thresholdsAreInsideTheScaleEvenWhenTheDataIsFarBelow() {
        let chart = ChartFixtures.chart(points: [ChartPoint(x: 1, y: 0.1), ChartPoint(x: 2, y: 0.2)])
        let g = ChartLayout.layout(chart, options: options)
        #expect(g.yScale.contains(4))
        #expect(g.yScale.contains(1.35))
        for t in g.thresholds {
            for p in t.paths.joined() { #expect(p.y >= g.plot.y - 1e-9 && p.y <= g.plot.maxY + 1e-9) }
        }
    }

    @Test func aMissingDaySplitsTheLine() {
        // Days 1, 2 then 4: two polylines would be [1, 2] and a lone 4, so only one line is drawn.
        let g = ChartLayout.layout(ChartFixtures.chart(), options: options)
        #expect(g.series[0].lines.count == 1)
        #expect(g.series[0].lines[0].count == 2)
        #expect(g.series[0].points.count == 3)
    }

    @Test func consecutiveDaysAreOneLine() {
        let points = (1...5).map { ChartPoint(x: Double($0), y: Double($0) / 10) }
        let g = ChartLayout.layout(ChartFixtures.chart(points: points), options: options)
        #expect(g.series[0].lines.count == 1)
        #expect(g.series[0].lines[0].count == 5)
    }

    @Test func aSinglePointIsDrawnAsAPointWithoutALine() {
        let g = ChartLayout.layout(ChartFixtures.chart(points: [ChartPoint(x: 7, y: 2.5)]), options: options)
        #expect(g.series[0].lines.isEmpty)
        #expect(g.series[0].points.count == 1)
        let p = g.series[0].points[0].position
        #expect(p.x > g.plot.x && p.x < g.plot.maxX && p.y > g.plot.y && p.y < g.plot.maxY)
        #expect(g.noDataPosition == nil)
    }

    @Test func allMissingDataStillDrawsAxesThresholdsAndTheNoDataText() {
        let g = ChartLayout.layout(ChartFixtures.chart(points: []), options: options)
        #expect(g.noDataPosition != nil)
        #expect(g.series[0].points.isEmpty)
        #expect(g.thresholds.count == 2)
        #expect(g.yTicks.count >= 2)
        #expect(g.xTicks.first?.label == "1")
    }

    @Test func aChartWithNothingToCoverShowsItsEmptyRangeWithItsDecimals() {
        var chart = ChartFixtures.chart(points: [])
        chart.thresholds = []
        chart.yAxis = ChartYAxis(title: "SG", unit: "", minimumSpan: 0.01, valueDecimals: 3, emptyRange: [1.0, 1.03], minimumDecimals: 3)
        let g = ChartLayout.layout(chart, options: options)
        #expect(g.yScale.lower == 1.0 && g.yScale.upper == 1.03, "\(g.yScale)")
        #expect(g.yTicks.map(\.label) == ["1.000", "1.010", "1.020", "1.030"], "\(g.yTicks.map(\.label))")
        #expect(g.noDataPosition != nil)
        // With a point the empty range plays no part.
        chart.series[0].points = [ChartPoint(x: 3, y: 1.012)]
        #expect(ChartLayout.layout(chart, options: options).yScale.upper < 1.03)
    }

    @Test func nonFiniteValuesAreDropped() {
        let chart = ChartFixtures.chart(points: [ChartPoint(x: 1, y: .nan), ChartPoint(x: 2, y: 1), ChartPoint(x: .infinity, y: 1)])
        #expect(chart.series[0].points.count == 1)
    }

    @Test func theCriticalWindowStepIsAVerticalJoinInOnePath() {
        let g = ChartLayout.layout(ChartFixtures.chart(), options: options)
        let yellow = g.thresholds[0]
        #expect(yellow.paths.count == 1)
        #expect(yellow.paths[0].count == 6)
        // The step down to 1.35 on POD 5–9 lies lower on the canvas than 1.5 would (y grows downwards).
        #expect(yellow.paths[0][2].y > yellow.paths[0][1].y)
        #expect(yellow.paths[0][1].x == yellow.paths[0][2].x)
        #expect(yellow.bands[0].count == 8)
    }

    @Test func pointsMapLinearlyIntoThePlot() {
        let chart = ChartFixtures.chart(points: [ChartPoint(x: 1, y: 0), ChartPoint(x: 14, y: 4)])
        let g = ChartLayout.layout(chart, options: options)
        let slot = g.plot.width / 14
        let first = g.series[0].points[0].position, last = g.series[0].points[1].position
        #expect(abs(first.x - (g.plot.x + slot / 2)) < 1e-9)
        #expect(abs(last.x - (g.plot.maxX - slot / 2)) < 1e-9)
        #expect(abs(first.y - (g.plot.maxY - g.yScale.fraction(of: 0) * g.plot.height)) < 1e-9)
        #expect(abs(last.y - (g.plot.maxY - g.yScale.fraction(of: 4) * g.plot.height)) < 1e-9)
    }

    @Test func tagsNeverOverlap() {
        let chart = ChartFixtures.chart { c in
            c.thresholds[1].segments = [ThresholdSegment(fromX: 0.5, toX: 14.5, y: 1.55)]
        }
        let g = ChartLayout.layout(chart, options: options)
        #expect(abs(g.thresholds[0].tagPosition.y - g.thresholds[1].tagPosition.y) >= options.fontSize)
    }

    @Test func aLongWindowLabelsEveryOtherDayWhenNarrow() {
        let chart = ChartFixtures.chart { c in
            c.xAxis = ChartXAxis(title: "Date", firstDay: 1, lastDay: 21, dayLabels: (1...21).map { "03-\($0 < 10 ? "0" : "")\($0)" })
        }
        let narrow = ChartLayout.layout(chart, options: ChartLayoutOptions(width: 360))
        #expect(narrow.xTicks.count < 21)
        #expect(narrow.xTicks.first?.label == "03-01")
        let wide = ChartLayout.layout(chart, options: ChartLayoutOptions(width: 1400))
        #expect(wide.xTicks.count == 21)
    }

    @Test func pointTitlesNameTheDayTheValueAndTheLevel() {
        let chart = ChartFixtures.chart(points: [ChartPoint(x: 6, y: 1.42, flag: .yellow, note: "07:40")])
        let g = ChartLayout.layout(chart, options: options)
        #expect(g.series[0].points[0].title == "POD 6 07:40: 1.4 % (yellow)")
    }

    @Test func theLegendListsThresholdsAndMarkersAndTheHeightHoldsThem() {
        let g = ChartLayout.layout(ChartFixtures.chart(), options: options)
        #expect(g.legend.map(\.label) == ["yellow ≥ 1.5 %", "red ≥ 4 %", "critical window"])
        #expect(g.height >= g.legend.last!.position.y)
        #expect(g.markers.count == 1)
    }

    /// A German reaction-time legend ran past a 640-wide chart's right edge (seen in chromium):
    /// a label wider than the room right of its sample breaks at spaces onto rows of its own,
    /// and what follows and the height move down with it.
    @Test func aLegendLabelWiderThanTheChartBreaksAtSpacesAndPushesTheRestDown() {
        let long = "Rot ≥ 25,0 % (POD 1–4, 10–21); ≥ 22,5 % (POD 5–9) in zwei Sitzungen höchstens 60 min auseinander"
        let g = ChartLayout.layout(ChartFixtures.chart { $0.thresholds[1].label = long }, options: options)
        let red = g.legend[1], marker = g.legend[2]
        #expect(red.label == long)
        #expect(red.lines.count == 2)
        #expect(red.lines.map(\.text).joined(separator: " ") == long)
        let room = options.width - red.lines[0].position.x
        for line in red.lines {
            #expect(Double(line.text.count) * options.fontSize * ChartLayout.characterWidth <= room, "\(line.text)")
        }
        #expect(red.lines[0].position.y == red.position.y)
        #expect(red.lines[1].position.y == red.position.y + options.legendRowHeight)
        #expect(marker.position.y == red.position.y + 2 * options.legendRowHeight)
        #expect(g.height >= marker.lines.last!.position.y)
        let short = ChartLayout.layout(ChartFixtures.chart(), options: options)
        #expect(short.legend.allSatisfy { $0.lines.count == 1 && $0.lines[0].text == $0.label })
        #expect(g.height == short.height + options.legendRowHeight)
    }

    @Test func aWordLongerThanALineStaysWholeOnItsOwnLine() {
        let lines = ChartLayout.wrap("a \(String(repeating: "x", count: 40)) b", width: 60, fontSize: 10)
        #expect(lines == ["a", String(repeating: "x", count: 40), "b"])
    }

    /// Spaces make no lines of their own: not trailing, not doubled, not a label of spaces only;
    /// a font size of zero does not trap.
    @Test func spacesAloneMakeNoLinesAndAZeroFontSizeIsOneLine() {
        #expect(ChartLayout.wrap("abc ", width: 18, fontSize: 10) == ["abc"])
        #expect(ChartLayout.wrap("abc  def", width: 18, fontSize: 10) == ["abc", "def"])
        #expect(ChartLayout.wrap("   ", width: 18, fontSize: 10) == [""])
        #expect(ChartLayout.wrap("", width: 18, fontSize: 10) == [""])
        #expect(ChartLayout.wrap("a b c", width: 100, fontSize: 0) == ["a b c"])
    }

    @Test func theTableHasARowPerDayWithTheThresholdOfThatDay() {
        let table = ChartFixtures.chart().table()
        #expect(table.columns == ["Post-operative day", "Weight change (%)", "yellow (≥ %)", "red (≥ %)"])
        #expect(table.rows.count == 14)
        #expect(table.rows[0] == ["POD 1", "0.2", "1.5", "4"])
        #expect(table.rows[2] == ["POD 3", ChartTable.emptyCell, "1.5", "4"])
        #expect(table.rows[5] == ["POD 6", ChartTable.emptyCell, "1.35", "4"])
    }
}
