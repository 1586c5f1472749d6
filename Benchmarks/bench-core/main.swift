// Clinical-engine benchmark (release build: `swift run -c release bench-core`).
//
// Measures, on one thread:
//  1. EscalationEngine.evaluate on already-decoded model values (JSON decoding and date parsing
//     outside the loop) over a mix of realistic cases: the public vignettes plus generated
//     three-day histories with weights, fluids, symptoms, reaction tests and lab values;
//  2. the offline evaluator end to end on the public vignettes (parse JSON, decode, validate,
//     evaluate, serialize), as the sanity line the engine figure is compared with.
// Each figure is repeated and reported as min/median/max; nothing here is a test.
import Foundation
import HTJSON
import HyponaTrackCore
import HyponaTrackKit

let arguments = CommandLine.arguments
let repetitions = arguments.firstIndex(of: "--repetitions").flatMap { Int(arguments[$0 + 1]) } ?? 7
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let rules = try RulesLoader.load(directory: root.appendingPathComponent("config"))
let vignetteBytes = Array(try Data(contentsOf: root.appendingPathComponent("Tests/Fixtures/public-vignettes.json")))
let vignettes = try EvaluationCase.decodeAll(try JSONParser.parse(vignetteBytes), rules: rules)

/// Generated histories: a deterministic pseudo-random mix, mostly unremarkable days with some
/// near or over a threshold (the printed level mix says how many).
func generatedCases(count: Int) -> [EvaluationCase] {
    var state: UInt64 = 0x9E3779B97F4A7C15
    func next() -> Double {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Double(state >> 11) / Double(1 << 53)
    }
    var out: [EvaluationCase] = []
    for i in 0..<count {
        var base = vignettes[i % vignettes.count]
        let evaluate = base.profile.surgeryDate.adding(days: 2 + i % 12)
        base.evaluateDate = evaluate
        base.days = (0..<3).map { back in
            let date = evaluate.adding(days: -back)
            let t = { (clock: String) in Timestamp("\(date)T\(clock):00+01:00")! }
            var day = DailyEntry(date: date)
            day.weightMorningKg = base.profile.baselineWeightKg * (1 + (next() - 0.45) * 0.03)
            day.fluidIntakeMl = 700 + next() * 800
            day.urineSG = 1.003 + next() * 0.025
            day.vomitingEpisodes = next() < 0.05 ? 1 : 0
            day.symptoms = [SymptomEntry(id: "m", time: t("08:00"), slot: .morning, nausea: Int(next() * 1.6),
                                         headache: Int(next() * 1.8), fatigue: Int(next() * 2.5), confusion: next() < 0.01 ? 1 : 0,
                                         muscleCramps: Int(next() * 1.5), vas: 5 + Int(next() * 6))]
            day.reactionTests = [ReactionTest(id: "r1", time: t("09:00"), medianMs: 540 + next() * 110, meanMs: 600, errors: 0),
                                 ReactionTest(id: "r2", time: t("09:40"), medianMs: 540 + next() * 110, meanMs: 600, errors: 0)]
            if next() < 0.3 { day.labSodium = [LabSodium(time: t("10:00"), value: 133 + (next() * 10).rounded())] }
            return day
        }
        out.append(base)
    }
    return out
}

let cases = vignettes + generatedCases(count: 240)
let engine = EscalationEngine(rules: rules)

func stats(_ xs: [Double]) -> (min: Double, median: Double, max: Double) {
    let s = xs.sorted()
    return (s.first!, s[s.count / 2], s.last!)
}

func measure(seconds target: Double, _ body: () -> Int) -> Double {
    // Returns operations per second over at least `target` seconds.
    let clock = ContinuousClock()
    var ops = 0
    let start = clock.now
    var elapsed = 0.0
    repeat {
        ops += body()
        let d = clock.now - start
        elapsed = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    } while elapsed < target
    return Double(ops) / elapsed
}

var sink = 0
var engineRates: [Double] = []
var endToEndRates: [Double] = []
for _ in 0..<repetitions {
    engineRates.append(measure(seconds: 1.0) {
        for c in cases {
            let e = engine.evaluate(profile: c.profile, days: c.days, date: c.evaluateDate)
            sink &+= e.reasons.count &+ (e.level == .red ? 1 : 0)
        }
        return cases.count
    })
    endToEndRates.append(measure(seconds: 1.0) {
        let decoded = try! EvaluationCase.decodeAll(try! JSONParser.parse(vignetteBytes), rules: rules)
        let outcome = OfflineEvaluator(rules: rules).evaluate(decoded)
        sink &+= JSONSerializer.string(OfflineEvaluator.resultsJSON(outcome)).utf8.count
        return decoded.count
    })
}

var levels: [Level?: Int] = [:]
for c in cases { levels[engine.evaluate(profile: c.profile, days: c.days, date: c.evaluateDate).level, default: 0] += 1 }
let e = stats(engineRates), x = stats(endToEndRates)
func f(_ v: Double) -> String { String(format: "%.0f", v) }
print("case mix: \(cases.count) cases (\(vignettes.count) public vignettes + \(cases.count - vignettes.count) generated 3-day histories); "
      + "levels green \(levels[.green] ?? 0), yellow \(levels[.yellow] ?? 0), red \(levels[.red] ?? 0), not evaluated \(levels[nil] ?? 0)")
print("EscalationEngine.evaluate, decoded values, 1 thread: min \(f(e.min)) / median \(f(e.median)) / max \(f(e.max)) evaluations/s over \(repetitions) runs")
print("evaluate end to end (parse+decode+evaluate+serialize) on the public vignettes: min \(f(x.min)) / median \(f(x.median)) / max \(f(x.max)) cases/s")
print(String(format: "ratio engine/end-to-end (medians): %.1f×", e.median / x.median))
if sink == 42 { print("") }  // keeps the work observable
