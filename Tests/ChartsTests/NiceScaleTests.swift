import Testing
@testable import Charts

@Suite struct NiceScaleTests {
    @Test func aBarChartOfOnlyZerosGetsTheScaleZeroToOneNotASliverAroundZero() {
        let chart = BarChart(id: "lead", title: "t", summary: "s", xTitle: "x", yTitle: "y", categories: ["1", "2"],
                             series: [BarSeries(name: "n", bars: [Bar(value: 0, label: "0"), Bar(value: 0, label: "0")])])
        let s = chart.yScale()
        #expect(s.lower == 0 && s.upper == 1 && s.decimals <= 1, "\(s)")
        let some = BarChart(id: "lead", title: "t", summary: "s", xTitle: "x", yTitle: "y", categories: ["1"],
                            series: [BarSeries(name: "n", bars: [Bar(value: 3, label: "3")])])
        #expect(some.yScale().lower == 0 && some.yScale().upper >= 3)
    }

    @Test func sodiumRangeGetsStepsOfFive() {
        let s = NiceScale(covering: [128, 142, 129, 134])
        #expect(s.lower == 125)
        #expect(s.upper == 145)
        #expect(s.step == 5)
        #expect(s.ticks == [125, 130, 135, 140, 145])
        #expect(s.decimals == 0)
    }

    @Test func urineSGTicksHaveThreeDecimalsAndNoBinaryNoise() {
        let s = NiceScale(covering: [1.010, 1.025, 1.018])
        #expect(s.step == 0.005)
        #expect(s.decimals == 3)
        #expect(s.ticks == [1.010, 1.015, 1.020, 1.025])
        #expect(s.ticks.map { ChartNumber.format($0, decimals: s.decimals) } == ["1.010", "1.015", "1.020", "1.025"])
    }

    @Test func boundsAlwaysCoverEveryValue() {
        let sets: [[Double]] = [[0.3, 0.7], [-2.5, 4.0], [0, 52], [1800, 3050], [-0.01, 0.02], [99.999, 100.001]]
        for values in sets {
            let s = NiceScale(covering: values)
            #expect(s.lower <= values.min()! && s.upper >= values.max()!, "\(values) → \(s.lower)…\(s.upper)")
            #expect(s.ticks.count >= 2 && s.ticks.count <= 12)
            #expect(zip(s.ticks, s.ticks.dropFirst()).allSatisfy { abs(($1 - $0) - s.step) < s.step * 1e-6 })
        }
    }

    @Test func aValueOnATickDoesNotAddAStep() {
        // 0.1 + 0.2 is 0.30000000000000004; it must not push the top to 0.35.
        let s = NiceScale(covering: [0, 0.1 + 0.2], targetTickCount: 4)
        #expect(s.upper == 0.3)
    }

    @Test func aSingleValueGetsTheMinimumSpanAroundIt() {
        let s = NiceScale(covering: [70], minimumSpan: 4)
        #expect(s.lower <= 68 && s.upper >= 72)
        #expect(s.upper - s.lower < 10)
    }

    @Test func aSingleValueWithoutMinimumSpanStillHasTwoTicks() {
        #expect(NiceScale(covering: [0]).ticks.count >= 2)
        let s = NiceScale(covering: [1.015])
        #expect(s.lower < 1.015 && s.upper > 1.015)
    }

    @Test func noValuesGiveZeroToOne() {
        let s = NiceScale(covering: [.nan, .infinity])
        #expect(s.lower == 0)
        #expect(s.upper == 1)
    }

    @Test func numbersAreFormattedWithoutFoundation() {
        #expect(ChartNumber.format(1.35, decimals: 1) == "1.4")
        #expect(ChartNumber.format(-0.04, decimals: 1) == "0.0")
        #expect(ChartNumber.format(-1.25, decimals: 1) == "-1.3")
        #expect(ChartNumber.format(4.0, decimals: 2, trimZeros: true) == "4")
        #expect(ChartNumber.format(1.0172, decimals: 5, trimZeros: true) == "1.0172")
        #expect(ChartNumber.format(0.005, decimals: 3) == "0.005")
        #expect(ChartNumber.format(134.6, decimals: 1, separator: ",") == "134,6")
        #expect(ChartNumber.format(.nan, decimals: 1) == "–")
    }

    @Test func trimmingZerosStopsAtTheMinimumDecimals() {
        #expect(ChartNumber.format(1.01, decimals: 3, trimZeros: true, minimumDecimals: 3) == "1.010")
        #expect(ChartNumber.format(1.02, decimals: 4, trimZeros: true, minimumDecimals: 3) == "1.020")
        #expect(ChartNumber.format(1.0172, decimals: 4, trimZeros: true, minimumDecimals: 3) == "1.0172")
        #expect(ChartNumber.format(1.0, decimals: 3, trimZeros: true, minimumDecimals: 3, separator: ",") == "1,000")
        #expect(ChartNumber.format(1.01, decimals: 3, trimZeros: true) == "1.01")
    }
}
